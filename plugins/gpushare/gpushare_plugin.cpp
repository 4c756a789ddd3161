#include "plugins/gpushare/gpushare_plugin.hpp"

#include <chrono>

#include "plugins/common/args.hpp"
#include "plugins/gpushare/gpushare_node_state.hpp"

namespace troupe::plugins::gpushare {

namespace {

int64_t system_now_nanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const GpuShareNodeState* state_of(const NodeInfo& node) {
  return node.extension<GpuShareNodeState>(NodeExtensionSlot::kGpuShare);
}

}  // namespace

AliyunGpuShare::AliyunGpuShare(Clock clock) : clock_(clock ? std::move(clock) : Clock(system_now_nanos)) {}

Result<std::shared_ptr<const Plugin>> AliyunGpuShare::make(const YAML::Node& args) {
  return build_without_args<AliyunGpuShare>(args);
}

PluginStatus AliyunGpuShare::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  int64_t request = deviceshare::gpushare_pod_request(pod.spec());
  if (request <= 0) return PluginStatus(Code::skip);
  state.write<GpuShareState>(state_slot(), GpuShareState{request, {}});
  return {};
}

PluginStatus AliyunGpuShare::filter(const CycleState& state, const PodInfo&, const NodeInfo& node) const {
  const auto* s = state.read<GpuShareState>(state_slot());
  const auto* gpus = state_of(node);
  if (s == nullptr || gpus == nullptr) return {};
  Status fits = gpus->gpus().filter(s->request);
  if (!fits) return PluginStatus::unschedulable(fits.message());
  return {};
}

PluginStatus AliyunGpuShare::reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const {
  const auto* s = state.read<GpuShareState>(state_slot());
  if (s == nullptr) return {};
  auto* gpus = node.mutable_extension<GpuShareNodeState>(NodeExtensionSlot::kGpuShare);
  if (gpus == nullptr) return PluginStatus::internal_error("node " + node.name() + " has no GPU-share state");
  auto annotations = gpus->gpus().bind(*pod.pod, clock_());
  if (!annotations) return PluginStatus::unschedulable(annotations.message());
  Pod annotated = *pod.pod;
  for (const auto& [key, value] : *annotations) annotated.meta.annotations[key] = value;
  gpus->account(annotated);
  state.write<GpuShareState>(state_slot(), GpuShareState{s->request, std::move(*annotations)});
  return {};
}

void AliyunGpuShare::unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const {
  const auto* s = state.read<GpuShareState>(state_slot());
  if (s == nullptr || s->annotations.empty()) return;
  if (auto* gpus = node.mutable_extension<GpuShareNodeState>(NodeExtensionSlot::kGpuShare)) gpus->forget(*pod.pod);
  state.write<GpuShareState>(state_slot(), GpuShareState{s->request, {}});
}

PluginStatus AliyunGpuShare::pre_bind(CycleState& state, const PodInfo&, const std::string&,
                                      BindingChanges& changes) const {
  const auto* s = state.read<GpuShareState>(state_slot());
  if (s == nullptr) return {};
  for (const auto& [key, value] : s->annotations) changes.annotations[key] = value;
  return {};
}

std::vector<ClusterEvent> AliyunGpuShare::events_to_register() const {
  // A health ConfigMap that lists fewer GPUs (actors/gpu_health.hpp) is an
  // `other` event, as Devices and NRTs are.
  return {{EventResource::pod, kDelete, "PodDelete"},
          {EventResource::node, kAdd | kUpdateNodeAllocatable, "NodeChange"},
          {EventResource::other, kAdd | kUpdate | kDelete, "configmaps.v1 (unhealthy-gpu-<node>)"}};
}

}  // namespace troupe::plugins::gpushare
