#include "plugins/node_numa_resource/designated_cpus.hpp"

#include "plugins/node_numa_resource/reservation_restore.hpp"
#include "plugins/scheduling_hint/scheduling_hint.hpp"

namespace troupe::plugins::numa {

namespace {

/// The key the blocking allocation is held under on a designated trial: never
/// a pod identity (a uid, or namespace/name of DNS labels: no '#').
constexpr const char* kBlockerKey = "#designated-allocation/other-cpus";

/// `base` narrowed to the designation. An allocation held under the pod's own
/// key is its annotation read on an assumed pod: not another's use, so it is
/// given back rather than narrowed away.
NodeInfo designated_trial(NodeInfo base, const PodInfo& pod, const CpuSet& designated) {
  if (auto* cpus = base.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus)) {
    cpus->remove_allocation(pod_identity(pod));
    narrow_to_designated(*cpus, designated);
  }
  return base;
}

const CpuSet* designation_of(const NodeNUMAResource& plugin, const CycleState& state) {
  const NumaState* s = plugin.read_state(state);
  return s != nullptr && !s->skip && s->designated_cpus ? s->designated_cpus.get() : nullptr;
}

}  // namespace

Result<std::shared_ptr<const CpuSet>> designated_cpus_of(const ObjectMeta& pod_meta) {
  if (!scheduling_hint::hint_extends(pod_meta, NodeNUMAResource::kName)) return std::shared_ptr<const CpuSet>{};
  if (pod_meta.annotations.count(kAnnotationResourceStatus) == 0) return std::shared_ptr<const CpuSet>{};
  auto status = decode_resource_status(pod_meta.annotations);
  if (!status) return Error{status.message()};
  if (status->cpuset.empty()) return std::shared_ptr<const CpuSet>{};
  return std::make_shared<const CpuSet>(status->cpuset);
}

void narrow_to_designated(NodeCpus& cpus, const CpuSet& designated) {
  PodAllocation blocker;
  blocker.name = kBlockerKey;
  blocker.cpus = cpus.available_cpus() - designated;
  if (!blocker.cpus.empty()) cpus.add_allocation(kBlockerKey, std::move(blocker));
}

std::optional<PluginStatus> filter_designated_cpus(const NodeNUMAResource& plugin, const CycleState& state,
                                                   const PodInfo& pod, const NodeInfo& node) {
  const CpuSet* designated = designation_of(plugin, state);
  if (designated == nullptr) return std::nullopt;
  auto restored = reserved_filter_trial(pod, node);
  const NodeInfo trial =
      designated_trial(restored ? std::move(*restored) : NodeInfo(node), pod, *designated);
  PluginStatus status = plugin.filter_node(state, pod, trial);
  if (!status.ok()) return status;
  // Filter checks a cpuset only for a required bind policy or a NUMA policy;
  // a designation is checked always (Koordinator's Filter confirms it still holds).
  return plugin.try_allocate(state, pod, trial, topology::NumaHint{});
}

std::optional<PluginStatus> reserve_designated_cpus(const NodeNUMAResource& plugin, CycleState& state,
                                                    const PodInfo& pod, NodeInfo& node) {
  if (designation_of(plugin, state) == nullptr) return std::nullopt;
  const auto designated = plugin.read_state(state)->designated_cpus;  // the state is rewritten by reserve_node
  auto narrow = [&](NodeInfo base) { return designated_trial(std::move(base), pod, *designated); };
  // As reserve_reserved_cpus, narrowed by the designation.
  if (auto reserved = reserve_on_reserved_trials(plugin, state, pod, node, narrow)) return reserved;
  NodeInfo trial = narrow(NodeInfo(node));
  PluginStatus status = plugin.reserve_node(state, pod, trial);
  if (status.ok()) hold_on_node(plugin, state, pod, node);
  return status;
}

}  // namespace troupe::plugins::numa
