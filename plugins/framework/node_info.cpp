#include "plugins/framework/node_info.hpp"

#include <algorithm>

namespace troupe::plugins {

namespace {
const std::string kNoName;

ResourceVector non_zero_part(const PodInfo& pod) {
  ResourceVector v;
  v.milli_cpu = pod.non_zero_requests.milli_cpu;
  v.memory = pod.non_zero_requests.memory;
  return v;
}
}  // namespace

std::string_view pod_identity(const PodInfo& pod) {
  return pod.pod->meta.uid.empty() ? std::string_view(pod.key) : std::string_view(pod.pod->meta.uid);
}

NodeInfo::NodeInfo(const NodeInfo& other)
    : node_(other.node_),
      allocatable_(other.allocatable_),
      requested_(other.requested_),
      non_zero_requested_(other.non_zero_requested_),
      used_ports_(other.used_ports_),
      pods_(other.pods_),
      generation_(other.generation_),
      lowest_pod_priority_(other.lowest_pod_priority_) {
  for (size_t i = 0; i < kNodeExtensionSlots; ++i) {
    if (other.extensions_[i]) extensions_[i] = other.extensions_[i]->clone();
  }
}

NodeInfo& NodeInfo::operator=(const NodeInfo& other) {
  if (this != &other) *this = NodeInfo(other);
  return *this;
}

bool NodeInfo::extensions_hold_objects() const {
  return std::any_of(extensions_.begin(), extensions_.end(), [](const auto& e) { return e && e->holds_object(); });
}

bool NodeInfo::ask_extensions_about_identity() const {
  identity_dependent_ = std::any_of(extensions_.begin(), extensions_.end(),
                                    [](const auto& e) { return e && e->results_depend_on_pod_identity(); });
  identity_checked_at_ = generation_;
  return identity_dependent_;
}

void NodeInfo::set_extension(NodeExtensionSlot slot, std::unique_ptr<NodeExtension> extension) {
  if (extension) {
    extension->on_node_changed(node_.get());
    for (const auto& pod : pods_) extension->on_pod_added(*pod);
  }
  extensions_[static_cast<size_t>(slot)] = std::move(extension);
  ++generation_;
}

void NodeInfo::set_node(std::shared_ptr<const Node> node) {
  node_ = std::move(node);
  allocatable_ = node_ ? ResourceVector::from(node_->status.allocatable) : ResourceVector{};
  for (auto& extension : extensions_) {
    if (extension) extension->on_node_changed(node_.get());
  }
  ++generation_;
}

const std::string& NodeInfo::name() const { return node_ ? node_->meta.name : kNoName; }

const PodInfo* NodeInfo::find_pod(std::string_view uid) const {
  auto it = std::find_if(pods_.begin(), pods_.end(), [&](const auto& p) { return pod_identity(*p) == uid; });
  return it == pods_.end() ? nullptr : it->get();
}

bool NodeInfo::add_pod(std::shared_ptr<const PodInfo> pod) {
  if (has_pod(pod_identity(*pod))) return false;
  requested_.add(pod->requests);
  non_zero_requested_.add(non_zero_part(*pod));
  for (const auto& port : pod->host_ports) used_ports_.add(port);
  for (auto& extension : extensions_) {
    if (extension) extension->on_pod_added(*pod);
  }
  lowest_pod_priority_ = std::min(lowest_pod_priority_, pod->priority);
  pods_.push_back(std::move(pod));
  ++generation_;
  return true;
}

bool NodeInfo::remove_pod(std::string_view uid) {
  auto it = std::find_if(pods_.begin(), pods_.end(), [&](const auto& p) { return pod_identity(*p) == uid; });
  if (it == pods_.end()) return false;
  const PodInfo& pod = **it;
  requested_.subtract(pod.requests);
  non_zero_requested_.subtract(non_zero_part(pod));
  for (const auto& port : pod.host_ports) used_ports_.remove(port);
  for (auto& extension : extensions_) {
    if (extension) extension->on_pod_removed(pod);
  }
  const bool was_lowest = pod.priority == lowest_pod_priority_;
  pods_.erase(it);
  if (was_lowest) {
    lowest_pod_priority_ = INT32_MAX;
    for (const auto& p : pods_) lowest_pod_priority_ = std::min(lowest_pod_priority_, p->priority);
  }
  ++generation_;
  return true;
}

}  // namespace troupe::plugins
