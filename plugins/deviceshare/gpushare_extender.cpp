#include "plugins/deviceshare/gpushare_extender.hpp"

#include <cerrno>
#include <cstdlib>

#include "model/resource_names.hpp"

namespace troupe::plugins::deviceshare {

namespace rn = resource_names;

namespace {

// strconv.Atoi: an optional sign and decimal digits, nothing else.
std::optional<int64_t> atoi(std::string_view text) {
  if (text.empty()) return std::nullopt;
  size_t i = text[0] == '-' || text[0] == '+' ? 1 : 0;
  if (i == text.size()) return std::nullopt;
  for (size_t k = i; k < text.size(); ++k)
    if (text[k] < '0' || text[k] > '9') return std::nullopt;
  errno = 0;
  const long long v = std::strtoll(std::string(text).c_str(), nullptr, 10);
  if (errno != 0) return std::nullopt;
  return static_cast<int64_t>(v);
}

std::string pod_key(const Pod& pod) {
  return pod.meta.uid.empty() ? pod.meta.namespace_name + "/" + pod.meta.name : pod.meta.uid;
}

}  // namespace

int64_t gpushare_pod_request(const PodSpec& spec) {
  int64_t total = 0;
  for (const auto& c : spec.containers) {
    auto it = c.resources.limits.find(rn::kAliyunGpuMem);
    if (it != c.resources.limits.end()) total += it->second.value();
  }
  return total;
}

void GpuShareNode::set_node(const Node& node) {
  name_ = node.meta.name;
  total_memory_ = node.status.capacity.get(rn::kAliyunGpuMem).value();
  gpu_count_ = node.status.capacity.get(rn::kAliyunGpuCount).value();
}

void GpuShareNode::set_unhealthy(std::set<int> indices) { unhealthy_ = std::move(indices); }

std::set<int> GpuShareNode::parse_unhealthy(std::string_view gpus) {
  std::set<int> out;
  while (!gpus.empty()) {
    const size_t comma = gpus.find(',');
    const std::string_view item = gpus.substr(0, comma);
    if (auto v = atoi(item); v && *v >= 0 && *v <= 1'000'000) out.insert(static_cast<int>(*v));
    if (comma == std::string_view::npos) break;
    gpus.remove_prefix(comma + 1);
  }
  return out;
}

void GpuShareNode::on_pod_added(const Pod& pod) {
  auto index_it = pod.meta.annotations.find(std::string(kGpuShareIndex));
  if (index_it == pod.meta.annotations.end()) return;
  auto index = atoi(index_it->second);
  if (!index || *index < 0 || *index > 1'000'000) return;
  Accounted a;
  a.index = static_cast<int>(*index);
  auto mem_it = pod.meta.annotations.find(std::string(kGpuSharePodMemory));
  if (mem_it != pod.meta.annotations.end()) {
    auto mem = atoi(mem_it->second);
    a.memory = mem && *mem > 0 ? *mem : 0;  // unparsable or negative counts as 0, as upstream
  }
  a.completed = pod_finished(pod);
  pods_[pod_key(pod)] = a;
}

void GpuShareNode::on_pod_removed(const Pod& pod) { pods_.erase(pod_key(pod)); }

std::optional<int> GpuShareNode::accounted_device(const Pod& pod) const {
  auto it = pods_.find(pod_key(pod));
  if (it == pods_.end() || it->second.completed) return std::nullopt;
  return it->second.index;
}

std::vector<GpuShareDevice> GpuShareNode::devices(std::string_view without) const {
  std::vector<GpuShareDevice> out;
  if (gpu_count_ <= 0) return out;
  const int64_t per_device = total_memory_ / gpu_count_;
  for (int64_t i = 0; i < gpu_count_ && i < 1024; ++i) {
    GpuShareDevice d;
    d.index = static_cast<int>(i);
    d.total = per_device;
    d.healthy = unhealthy_.count(d.index) == 0;
    out.push_back(d);
  }
  for (const auto& [key, a] : pods_)
    if (!a.completed && a.index >= 0 && static_cast<size_t>(a.index) < out.size() && (without.empty() || key != without))
      out[a.index].used += a.memory;
  return out;
}

Status GpuShareNode::filter(int64_t request) const {
  if (!is_gpushare_node()) return Error{"The node " + name_ + " is not for GPU share, need skip"};
  for (const auto& d : devices())
    if (d.healthy && d.free() >= request) return {};
  return Error{"Insufficient GPU Memory in one device"};
}

std::optional<int> GpuShareNode::choose_device(int64_t request, std::string_view without) const {
  if (request <= 0) return std::nullopt;
  std::optional<int> best;
  int64_t best_free = 0;
  for (const auto& d : devices(without)) {
    if (!d.healthy || d.free() < request) continue;
    if (!best || d.free() < best_free) {
      best = d.index;
      best_free = d.free();
    }
  }
  return best;
}

Result<std::map<std::string, std::string>> GpuShareNode::bind(const Pod& pod, int64_t now_unix_nanos) const {
  const int64_t request = gpushare_pod_request(pod.spec);
  auto device = choose_device(request, pod_key(pod));
  if (!device)
    return Error{"The node " + name_ + " can't place the pod " + pod.meta.name + " in ns " + pod.meta.namespace_name};
  std::map<std::string, std::string> annotations;
  annotations[std::string(kGpuShareIndex)] = std::to_string(*device);
  annotations[std::string(kGpuShareDeviceMemory)] = std::to_string(total_memory_ / gpu_count_);
  annotations[std::string(kGpuSharePodMemory)] = std::to_string(request);
  annotations[std::string(kGpuShareAssigned)] = "false";
  annotations[std::string(kGpuShareAssumeTime)] = std::to_string(now_unix_nanos);
  return annotations;
}

}  // namespace troupe::plugins::deviceshare
