#include "actors/node_partition.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>

#include "plugins/deviceshare/go_json.hpp"
#include "plugins/deviceshare/device_summary.hpp"
#include "plugins/deviceshare/gpushare_inspect.hpp"
#include "plugins/deviceshare/node_devices.hpp"
#include "plugins/gpushare/gpushare_node_state.hpp"
#include "plugins/load_aware/load_aware_plugin.hpp"
#include "plugins/load_aware/node_assign_info.hpp"
#include "plugins/node_extensions.hpp"
#include "plugins/node_numa_resource/node_cpus.hpp"
#include "plugins/node_numa_resource/node_cpus_summary.hpp"
#include "plugins/reservation/reservation_summary.hpp"

namespace troupe::actors {

int64_t feasible_share(int64_t wanted, int64_t total_nodes, int64_t partition_nodes) {
  if (total_nodes <= 0 || wanted >= total_nodes) return std::numeric_limits<int64_t>::max();
  return (wanted * partition_nodes + total_nodes - 1) / total_nodes;
}

plugins::NodeInfo& NodePartition::node_info(const std::string& name) {
  auto it = nodes_.find(name);
  if (it != nodes_.end()) return it->second;
  auto entry = nodes_.try_emplace(name).first;
  order_.push_back(OrderedNode{&entry->first, &entry->second});
  plugins::NodeInfo& info = entry->second;
  order_changed();
  plugins::attach_node_extensions(info);
  return info;
}

void NodePartition::order_changed() { cache_.clear(); }

namespace {

/// A pod accounted on `node` now asks for other amounts (in-place resize,
/// model/pod_requests.hpp): it is accounted again from the new version.
bool resized(const plugins::NodeInfo& node, const std::string& id, const plugins::PodInfo& now) {
  const plugins::PodInfo* held = node.find_pod(id);
  return held != nullptr && (held->requests != now.requests || held->non_zero_requests != now.non_zero_requests);
}

const plugins::deviceshare::NodeDevices* devices_of(const plugins::NodeInfo& info) {
  return info.extension<plugins::deviceshare::NodeDevices>(plugins::NodeExtensionSlot::kDevices);
}
const plugins::numa::NodeCpus* cpus_of(const plugins::NodeInfo& info) {
  return info.extension<plugins::numa::NodeCpus>(plugins::NodeExtensionSlot::kCpus);
}
}  // namespace

void NodePartition::erase_if_unused(const std::string& name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end() || it->second.node() != nullptr || it->second.pod_count() > 0 ||
      it->second.extensions_hold_objects())
    return;
  // A node erased after the round that rejected it is no preemption candidate.
  const plugins::NodeInfo* gone = &it->second;
  last_rejections_.erase(std::remove_if(last_rejections_.begin(), last_rejections_.end(),
                                        [gone](const Rejection& r) { return r.node == gone; }),
                         last_rejections_.end());
  order_.erase(std::find_if(order_.begin(), order_.end(), [&](const OrderedNode& o) { return o.info == gone; }));
  nodes_.erase(it);
  order_changed();
}

void NodePartition::upsert_node(std::shared_ptr<const Node> node) {
  auto& info = node_info(node->meta.name);
  if (info.node() == nullptr) ++known_nodes_;
  info.set_node(std::move(node));
}

void NodePartition::delete_node(const std::string& name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end() || it->second.node() == nullptr) return;
  --known_nodes_;
  it->second.set_node(nullptr);
  erase_if_unused(name);
}

void NodePartition::account_pod(std::shared_ptr<const plugins::PodInfo> pod) {
  std::string id(plugins::pod_identity(*pod));
  const std::string& node_name = pod->spec().node_name;
  if (auto assumed = pod_node_.find(id); assumed != pod_node_.end()) {
    if (assumed->second.node == node_name) {
      assumed->second.observed_bound = true;
      if (!resized(node_info(node_name), id, *pod)) return;
    }
    // Bound elsewhere than assumed, or resized in place: the API server's word wins.
    forget_pod(id);
  }
  if (node_info(node_name).add_pod(pod)) pod_node_[id] = PodPlace{node_name, true};
}

void NodePartition::forget_pod(const std::string& uid) {
  auto it = pod_node_.find(uid);
  if (it == pod_node_.end()) return;
  auto node = nodes_.find(it->second.node);
  if (node != nodes_.end()) {
    node->second.remove_pod(uid);
    erase_if_unused(node->first);
  }
  pod_node_.erase(it);
}

void NodePartition::apply_object(NodeObject object) {
  const NodeObjectRef ref = ref_of(object);
  if (ref.node_name.empty()) return delete_object(ref);  // a Reservation not placed (any more)
  if (ref.kind == NodeObjectKind::reservation) {
    auto tracked = reservation_node_.find(ref.key);
    if (tracked != reservation_node_.end() && tracked->second != ref.node_name)
      delete_object(NodeObjectRef{ref.kind, tracked->second, ref.key});
    // The reservation's own pod (its reserve pod, keyed by its uid) is
    // re-accounted from the new version: its requests and annotations may change.
    forget_pod(ref.key);
  }
  auto pod = apply_node_object(node_info(ref.node_name), object);
  if (pod) {
    reservation_node_[ref.key] = ref.node_name;
    account_pod(std::move(pod));
  }
  erase_if_unused(ref.node_name);
}

void NodePartition::delete_object(const NodeObjectRef& ref) {
  std::string node_name = ref.node_name;
  if (ref.kind == NodeObjectKind::reservation) {
    if (auto tracked = reservation_node_.find(ref.key); tracked != reservation_node_.end()) {
      node_name = tracked->second;
      reservation_node_.erase(tracked);
    }
    forget_pod(ref.key);
  }
  auto it = nodes_.find(node_name);
  if (it == nodes_.end()) return;
  remove_node_object(it->second, ref);
  erase_if_unused(node_name);
}

std::string NodePartition::device_summaries(const std::string& name) const {
  std::string out;
  for (const auto& ordered : order_) {
    const std::string& node_name = *ordered.name;
    if (!name.empty() && node_name != name) continue;
    const auto* devices = devices_of(*ordered.info);
    if (devices == nullptr || !devices->known()) continue;
    if (!out.empty()) out += ',';
    out += plugins::deviceshare::go_json_string(node_name) + ":" + plugins::deviceshare::node_device_summary_json(*devices);
  }
  return out;
}

std::string NodePartition::gpushare_inspection(const std::string& name) const {
  std::string out;
  for (const auto& ordered : order_) {
    if (!name.empty() && *ordered.name != name) continue;
    const plugins::NodeInfo& info = *ordered.info;
    if (info.node() == nullptr) continue;  // objects of a node not seen yet
    const auto* state = info.extension<plugins::gpushare::GpuShareNodeState>(plugins::NodeExtensionSlot::kGpuShare);
    std::optional<plugins::deviceshare::GpuShareNode> unaccounted;  // a profile without AliyunGPUShare
    const auto& gpus = state ? state->gpus() : unaccounted.emplace(*info.node());
    if (name.empty() && !gpus.is_gpushare_node()) continue;
    std::vector<const Pod*> pods;
    for (const auto& pod : info.pods()) pods.push_back(pod->pod.get());
    if (!out.empty()) out += ',';
    out += plugins::deviceshare::gpushare_inspect_node_json(gpus, pods);
  }
  return out;
}

std::string NodePartition::cpu_summary(const std::string& node_name, bool available) const {
  auto it = nodes_.find(node_name);
  if (it == nodes_.end()) return "";
  const auto* cpus = cpus_of(it->second);
  if (cpus == nullptr) return "";
  return available ? plugins::numa::available_cpus_json(*cpus) : plugins::numa::node_cpus_summary_json(*cpus);
}

std::string NodePartition::reservation_summary(const std::string& node_name, bool koordinator_shape) const {
  auto it = nodes_.find(node_name);
  if (it == nodes_.end()) return "";
  if (koordinator_shape) return plugins::reservation::koordinator_node_reservations_json(it->second);
  return plugins::reservation::node_reservations_json(node_name, it->second);
}

std::string NodePartition::load_summary(const std::string& node_name, const plugins::Framework& framework) const {
  auto it = nodes_.find(node_name);
  const auto* plugin = plugins::load_aware::LoadAwareScheduling::of(framework);
  if (it == nodes_.end() || plugin == nullptr) return "";
  return plugins::load_aware::node_assign_info_json(it->second, plugin->estimator(), plugin->args());
}

FilterOutcome NodePartition::run_round(const plugins::Framework& framework, const plugins::CycleState& state,
                                       const plugins::PodInfo& pod, const RoundOptions& options) {
  FilterOutcome out;
  out.nodes = static_cast<int64_t>(known_nodes_);
  last_rejections_.clear();
  round_feasible_at_.clear();
  ClassEvaluations* cache =
      options.scheduling_class ? cache_.of(framework, options.scheduling_class, order_.size()) : nullptr;
  plugins::PluginStatus scratch;
  const size_t n = order_.size();
  out.feasible.reserve(static_cast<size_t>(std::min<int64_t>(options.limit, static_cast<int64_t>(n))));
  size_t tried = 0;
  for (; tried < n && static_cast<int64_t>(out.feasible.size()) < options.limit; ++tried) {
    const size_t at = (next_start_ + tried) % n;
    const std::string& name = *order_[at].name;
    const plugins::NodeInfo& info = *order_[at].info;  // no hash lookup per node
    if (info.node() == nullptr) continue;
    if (state.node_names && state.node_names->count(name) == 0) {  // excluded by a PreFilter
      out.failures.add_reason(plugins::Framework::excluded_by_pre_filter_reason(state), 1,
                              state.node_names_plugins.empty() ? std::string() : state.node_names_plugins.front());
      continue;
    }
    const plugins::PluginStatus& status = filter_node(framework, state, pod, at, cache, scratch);
    if (status.ok()) {
      round_feasible_at_.push_back(at);
      out.feasible.emplace_back().node_name = name;
    } else if (status.code == plugins::Code::error) {
      out.error = true;
      out.error_message = status.message();
      break;
    } else {
      out.failures.add(status);
      last_rejections_.push_back(Rejection{&info, status.code});
    }
  }
  if (n > 0) next_start_ = (next_start_ + tried) % n;
  if (out.error || !options.score) return out;
  const auto score_started = std::chrono::steady_clock::now();
  auto scored = score_feasible(framework, state, pod, round_feasible_at_, cache, out.feasible);
  out.score_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - score_started).count();
  if (!scored.ok()) {
    out.error = true;
    out.error_message = scored.message();
  }
  return out;
}

const plugins::PluginStatus& NodePartition::filter_node(const plugins::Framework& framework,
                                                        const plugins::CycleState& state, const plugins::PodInfo& pod,
                                                        size_t at, ClassEvaluations* cache,
                                                        plugins::PluginStatus& scratch) {
  const plugins::NodeInfo& info = *order_[at].info;
  const bool cacheable = cache != nullptr && !info.results_depend_on_pod_identity();
  if (cacheable) {
    if (const plugins::PluginStatus* known = cache->verdict(at, info.generation())) return *known;
  }
  scratch = framework.run_filter(state, pod, info);
  if (cacheable) cache->remember_verdict(at, info.generation(), scratch);
  return scratch;
}

plugins::PluginStatus NodePartition::score_feasible(const plugins::Framework& framework,
                                                    const plugins::CycleState& state, const plugins::PodInfo& pod,
                                                    const std::vector<size_t>& at, ClassEvaluations* cache,
                                                    std::vector<plugins::NodeScore>& feasible) {
  for (size_t i = 0; i < feasible.size(); ++i) {
    const plugins::NodeInfo& info = *order_[at[i]].info;
    const bool cacheable = cache != nullptr && !info.results_depend_on_pod_identity();
    if (cacheable && cache->scores(at[i], info.generation(), feasible[i])) continue;
    auto status = framework.score_node(state, pod, info, feasible[i]);
    if (!status.ok()) return status;
    if (cacheable) cache->remember_scores(at[i], info.generation(), feasible[i]);
  }
  return {};
}

Evaluation NodePartition::evaluate(const plugins::Framework& framework, const plugins::CycleState& state,
                                   const plugins::PodInfo& pod, const std::vector<std::string>& names,
                                   bool score) const {
  Evaluation out;
  for (const auto& name : names) {
    const plugins::NodeInfo* info = find(name);
    if (info == nullptr || info->node() == nullptr) {
      out.failed.emplace_back(name, plugins::PluginStatus::unschedulable("node(s) not found"));
      continue;
    }
    auto status = framework.run_filter(state, pod, *info);
    if (status.code == plugins::Code::error) {
      out.error = status.message();
      return out;
    }
    if (!status.ok()) {
      out.failed.emplace_back(name, std::move(status));
      continue;
    }
    out.feasible.push_back(name);
    if (!score) continue;
    plugins::NodeScore s;
    auto scored = framework.score_node(state, pod, *info, s);
    if (!scored.ok()) {
      out.error = scored.message();
      return out;
    }
    s.node_name = name;
    out.scores.push_back(std::move(s));
  }
  return out;
}

plugins::PluginStatus NodePartition::reserve(const plugins::Framework& framework, plugins::CycleState& state,
                                             const std::shared_ptr<const plugins::PodInfo>& pod,
                                             const std::string& node_name) {
  auto it = nodes_.find(node_name);
  if (it == nodes_.end() || it->second.node() == nullptr)
    return plugins::PluginStatus::unschedulable("node \"" + node_name + "\" is gone");
  // The node may have changed since Filter (another event in between): check again.
  auto status = framework.run_filter(state, *pod, it->second);
  if (!status.ok()) return status;
  status = framework.run_reserve(state, pod, it->second);
  if (status.ok()) pod_node_[std::string(plugins::pod_identity(*pod))] = PodPlace{node_name, false};
  return status;
}

void NodePartition::unreserve(const plugins::Framework& framework, plugins::CycleState& state,
                              const plugins::PodInfo& pod, const std::string& node_name) {
  auto it = nodes_.find(node_name);
  std::string id(plugins::pod_identity(pod));
  if (it == nodes_.end() || !it->second.has_pod(id)) return;
  if (auto place = pod_node_.find(id); place != pod_node_.end() && place->second.observed_bound) return;
  framework.run_unreserve(state, pod, it->second);
  pod_node_.erase(id);
}

const plugins::NodeInfo* NodePartition::find(const std::string& name) const {
  auto it = nodes_.find(name);
  return it == nodes_.end() ? nullptr : &it->second;
}

}  // namespace troupe::actors
