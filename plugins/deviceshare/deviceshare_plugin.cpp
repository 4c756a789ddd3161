#include "plugins/deviceshare/deviceshare_plugin.hpp"

#include <chrono>

#include "plugins/common/args.hpp"
#include "plugins/deviceshare/allocation_result.hpp"
#include "plugins/deviceshare/designated_allocation.hpp"
#include "plugins/deviceshare/fragmentation_scoring.hpp"
#include "plugins/deviceshare/go_json.hpp"
#include "plugins/deviceshare/gpu_quick_verdict.hpp"
#include "plugins/deviceshare/joint_allocator.hpp"
#include "plugins/deviceshare/reservation_restore.hpp"
#include "plugins/deviceshare/task_learner.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/normalize_score.hpp"

namespace troupe::plugins::deviceshare {

namespace {

int64_t system_now_nanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const std::string& label_of(const Labels& labels, const std::string& key) {
  static const std::string kEmpty;
  auto it = labels.find(key);
  return it == labels.end() ? kEmpty : it->second;
}

const NodeDevices* devices_of(const NodeInfo& node) {
  return node.extension<NodeDevices>(NodeExtensionSlot::kDevices);
}

// The Huawei NPU device plugin's annotation: "<minor>-<template>" for a vNPU,
// else the minors.
std::string huawei_npu_core(const std::vector<DeviceAllocation>& gpus) {
  if (!gpus.empty() && gpus.front().extension && !gpus.front().extension->gpu_shared_resource_template.empty())
    return std::to_string(gpus.front().minor) + "-" + gpus.front().extension->gpu_shared_resource_template;
  std::string out;
  for (const auto& a : gpus) {
    if (!out.empty()) out += ',';
    out += std::to_string(a.minor);
  }
  return out;
}

}  // namespace

DeviceShare::DeviceShare(DeviceShareArgs args, Clock clock, NumaAffinitySource numa_affinity)
    : args_(std::move(args)),
      scorer_(args_.strategy, args_.resources),
      clock_(std::move(clock)),
      numa_affinity_(std::move(numa_affinity)) {
  templates_.matched_resources = args_.template_matched_resources;
  for (const auto& m : args_.gpu_share_unsupported_models) unsupported_models_[m.vendor].insert(m.model);
  if (!clock_) clock_ = system_now_nanos;
  if (args_.strategy == ScoringStrategy::fragmentation && args_.fragmentation.learned()) {
    auto prior = TaskDistribution::make(prior_task_classes());
    // The prior's classes and the args' weight are valid by construction (the args validated it).
    if (prior && prior->set_card_waste_weight(args_.fragmentation.card_waste_weight))
      prior_ = std::make_shared<const TaskDistribution>(std::move(*prior));
  }
}

Result<std::shared_ptr<const Plugin>> DeviceShare::make(const YAML::Node& args) {
  return build_plugin<DeviceShareArgs, DeviceShare>(args, DeviceShareArgs::from_yaml);
}

Result<std::shared_ptr<const Plugin>> DeviceShare::make_with_numa_affinity(const YAML::Node& args,
                                                                           NumaAffinitySource numa_affinity) {
  // make() validates the args and reports their errors; reuse what it decoded.
  auto built = make(args);
  if (!built) return built;
  const auto* plain = dynamic_cast<const DeviceShare*>(built->get());
  return std::shared_ptr<const Plugin>(std::make_shared<const DeviceShare>(plain->args_, Clock{}, std::move(numa_affinity)));
}

const DeviceShareState* DeviceShare::read_state(const CycleState& state) const {
  return state.read<DeviceShareState>(state_slot());
}

ScoringTasks DeviceShare::fragmentation_tasks(const CycleState& state) const {
  if (args_.strategy != ScoringStrategy::fragmentation) return {};
  if (args_.fragmentation.tasks) return {args_.fragmentation.tasks.get(), 0};
  if (const auto* learned = state.input<LearnedTasks>()) return {&learned->tasks, learned->id};
  return {prior_.get(), 0};
}

AllocateOptions DeviceShare::options_for(const Node* node) const {
  AllocateOptions options;
  if (node != nullptr) options.node_labels = &node->meta.labels;
  return options;
}

bool DeviceShare::share_unsupported(const Node& node) const {
  if (unsupported_models_.empty()) return false;  // the usual configuration: no label lookups
  auto vendor = unsupported_models_.find(label_of(node.meta.labels, label_keys().gpu_vendor));
  return vendor != unsupported_models_.end() && vendor->second.count(label_of(node.meta.labels, label_keys().gpu_model)) != 0;
}

PluginStatus DeviceShare::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  auto request = std::make_shared<DeviceShareRequest>();
  PluginStatus status = prepare_device_share_request(*pod.pod, templates_, *request);
  if (!status.ok()) return status;
  DeviceShareState s;
  if (!request->skip()) {
    auto designated = designated_devices_of(pod.meta());
    if (!designated) return PluginStatus::unresolvable(designated.message());
    s.designated = std::move(*designated);
  }
  s.request = std::move(request);
  state.write<DeviceShareState>(state_slot(), std::move(s));
  return {};
}

PluginStatus DeviceShare::filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  // A designation narrows what the reservations give back (designated_allocation.hpp).
  if (auto designated = designated_filter_view(*this, state, pod, node))
    return filter_devices(state, node.node(), &*designated);
  if (auto restored = filter_reserved_devices(*this, state, pod, node)) return *restored;  // reserved devices
  return filter_devices(state, node.node(), devices_of(node));
}

ScoreResult DeviceShare::score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const DeviceShareState* s = read_state(state);
  // Reservations' holds the pod may use are free to it, their owners count once.
  const bool asks_devices = s != nullptr && s->request && !s->request->skip();
  const std::optional<NodeDevices> view = asks_devices ? reserved_score_view(pod, node) : std::nullopt;
  const NodeDevices* devices = view ? &*view : devices_of(node);
  if (args_.strategy == ScoringStrategy::fragmentation) {
    return {fragmentation_raw_score(node, devices, pod, s != nullptr ? s->request.get() : nullptr,
                                    args_.fragmentation, fragmentation_tasks(state)),
            {}};
  }
  return {score_devices(state, node.node(), devices), {}};
}

PluginStatus DeviceShare::normalize_scores(const CycleState& state, const PodInfo&, std::vector<int64_t>& scores) const {
  if (args_.strategy == ScoringStrategy::fragmentation)
    normalize_fragmentation_scores(scores);
  else if (read_state(state) != nullptr)
    normalize(scores);
  return {};
}

PluginStatus DeviceShare::reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const {
  if (read_state(state) == nullptr) return {};
  // Koordinator's Reserve allocates within the topology manager's affinity
  // for the node, so the devices land on the NUMA nodes the CPUs got.
  std::optional<uint64_t> affinity = numa_affinity_ ? numa_affinity_(state) : std::nullopt;
  if (auto designated = reserve_designated_devices(*this, state, pod, node, affinity)) return *designated;
  // A pod that allocated a reservation holding devices takes them first (RestoreReservation).
  if (auto restored = reserve_reserved_devices(*this, state, pod, node, affinity)) return *restored;
  // Reservations' owners count once (as Filter saw the node): then the
  // allocation is made on that view and accounted on the node after.
  std::optional<NodeDevices> once = owners_counted_once_view(pod, node);
  NodeDevices* devices = once ? &*once : node.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices);
  auto accounted = [&](PluginStatus status) {
    if (status.ok() && once) account_on_node(*this, state, pod, node);
    return status;
  };
  if (args_.strategy == ScoringStrategy::fragmentation) {
    auto chosen = fragmentation_card_mask(node, devices, pod, read_state(state)->request.get(), args_.fragmentation,
                                          fragmentation_tasks(state), /*pod_assumed=*/true);
    if (chosen) {
      PluginStatus on_chosen = reserve_devices(state, pod, node.node(), devices, affinity, *chosen);
      if (on_chosen.ok()) return accounted(on_chosen);
      // The measure reads gpu-core alone: the card it chose may lack what else
      // the pod asks (gpu-memory, NUMA, topology). Filter found a fit, so let
      // the allocator choose rather than fail the pod.
    }
  }
  return accounted(reserve_devices(state, pod, node.node(), devices, affinity));
}

void DeviceShare::unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const {
  if (read_state(state) == nullptr) return;
  unreserve_devices(state, pod, node.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices));
}

PluginStatus DeviceShare::filter_devices(const CycleState& state, const Node* node, const NodeDevices* devices) const {
  const DeviceShareState* s = read_state(state);
  if (s == nullptr) return {};
  if (node == nullptr) return PluginStatus::internal_error("node not found");
  const DeviceShareRequest& request = *s->request;
  if (request.gpu && request.gpu->shared) {
    if (!request.isolation_provider.empty() &&
        request.isolation_provider != label_of(node->meta.labels, label_keys().gpu_isolation_provider))
      // Upstream returns Error here, which aborts the whole scheduling attempt
      // as soon as any node lacks the provider: a HAMi-core pod could then
      // never be placed in a mixed cluster. Rejecting the node is what the
      // check means.
      return PluginStatus::unresolvable(kErrIsolationProviderMissing);
    if (share_unsupported(*node)) {
      return PluginStatus::unresolvable("model " + go_quote(label_of(node->meta.labels, label_keys().gpu_model)) +
                                        " of vendor " + go_quote(label_of(node->meta.labels, label_keys().gpu_vendor)) +
                                        " does not support GPU Share");
    }
  }
  if (devices == nullptr || !devices->known()) return {};
  const AllocateOptions options = options_for(node);
  // The allocator's own verdict in the common case, without running it.
  if (auto quick = quick_gpu_verdict(*devices, request, options)) return std::move(*quick);
  AllocationPlan plan;
  return allocate_devices(*devices, request, options, plan);
}

int64_t DeviceShare::score_devices(const CycleState& state, const Node* node, const NodeDevices* devices) const {
  const DeviceShareState* s = read_state(state);
  if (s == nullptr || devices == nullptr || !devices->known()) return 0;
  return score_node(*devices, *s->request, scorer_, options_for(node));
}

void DeviceShare::normalize(std::vector<int64_t>& scores) const { default_normalize_score(kMaxNodeScore, false, scores); }

PluginStatus DeviceShare::reserve_devices(CycleState& state, const PodInfo& pod, const Node* node,
                                          NodeDevices* devices, std::optional<uint64_t> numa_affinity,
                                          uint64_t gpu_slot_mask) const {
  const DeviceShareState* s = read_state(state);
  if (s == nullptr || devices == nullptr || !devices->known()) return {};
  const std::string node_name = node != nullptr ? node->meta.name : std::string();
  const std::string_view key = pod_identity(pod);
  // The pod is being placed now, so an allocation accounted under its key
  // came from a stale device-allocated annotation on the pending pod (NodeInfo
  // told the extension about the assumed pod): replace it, never add twice.
  devices->remove_pod(key);
  AllocateOptions options = options_for(node);
  options.scorer = &scorer_;
  options.reserve_phase = true;
  options.gpu_slot_mask = gpu_slot_mask;
  if (!args_.disable_numa_alignment) options.numa_nodes = numa_affinity;
  AllocationPlan plan;
  PluginStatus status = allocate_devices(*devices, *s->request, options, plan);
  if (!status.ok()) return status;
  auto allocations = to_device_allocations(plan, *devices, *s->request);
  if (!allocations)
    return PluginStatus::internal_error("fillGPUTotalMem failed: " + allocations.message() + ", node: " + node_name);
  devices->add_pod(key, pod_devices_from(*allocations), pod.key);
  DeviceShareState next = *s;
  next.allocated = std::make_shared<const DeviceAllocations>(std::move(*allocations));
  next.gpu_vendor = devices->gpu_vendor();
  state.write<DeviceShareState>(state_slot(), std::move(next));
  return {};
}

PluginStatus DeviceShare::numa_hints(const CycleState& state, const Node* node, const NodeDevices* devices,
                                     NumaHints& out) const {
  out.clear();
  const DeviceShareState* s = read_state(state);
  if (args_.disable_numa_alignment || s == nullptr || devices == nullptr || !devices->known()) return {};
  return generate_numa_hints(*devices, *s->request, options_for(node), out);
}

void DeviceShare::unreserve_devices(CycleState& state, const PodInfo& pod, NodeDevices* devices) const {
  const DeviceShareState* s = read_state(state);
  if (s == nullptr || !s->allocated) return;
  if (devices != nullptr) devices->remove_pod(pod_identity(pod));
  DeviceShareState next = *s;
  next.allocated.reset();
  state.write<DeviceShareState>(state_slot(), std::move(next));
}

PluginStatus DeviceShare::pre_bind(CycleState& state, const PodInfo& pod, const std::string& node_name,
                                   BindingChanges& changes) const {
  const DeviceShareState* s = read_state(state);
  if (s == nullptr || !s->allocated) return {};
  const DeviceAllocations& allocated = *s->allocated;
  changes.annotations[std::string(kAnnotationDeviceAllocated)] = encode_device_allocations(allocated);
  if (!args_.device_plugin_adaption) return {};

  changes.annotations[std::string(kAnnotationBindTimestamp)] = std::to_string(clock_());
  auto gpus = allocated.find(std::string(device_type_name(DeviceType::gpu)));
  if (gpus == allocated.end()) return {};
  changes.annotations[std::string(kAnnotationGpuMinors)] = gpu_minors(allocated);
  if (label_of(pod.meta().labels, label_keys().gpu_isolation_provider) == kGpuIsolationProviderHamiCore) {
    changes.pod_patches.push_back("{\"metadata\":{\"labels\":{" + go_json_string(kLabelHamiVgpuNode) + ":" +
                                  go_json_string(node_name) + "}}}");
  }
  if (s->gpu_vendor == kGpuVendorHuawei) {
    changes.annotations[std::string(kAnnotationPredicateTime)] = std::to_string(clock_());
    changes.annotations[std::string(kAnnotationHuaweiNpuCore)] = huawei_npu_core(gpus->second);
  }
  return {};
}

std::vector<ClusterEvent> DeviceShare::events_to_register() const {
  return {{EventResource::pod, kDelete, "PodDelete"},
          {EventResource::other, kAdd | kUpdate | kDelete, "devices.v1alpha1.scheduling.koordinator.sh"}};
}

}  // namespace troupe::plugins::deviceshare
