#include "plugins/node_numa_resource/reservation_restore.hpp"

#include "plugins/reservation/reservation_restore.hpp"

namespace troupe::plugins::numa {

namespace {

/// The key the blocking allocation is held under in a restricted trial: never
/// a pod identity (a uid, or namespace/name of DNS labels: no '#').
constexpr const char* kBlockerKey = "#reservation-restore/other-cpus";

const NodeCpus* cpus_of(const NodeInfo& node) { return node.extension<NodeCpus>(NodeExtensionSlot::kCpus); }

/// No reservation on the node: the common case, decided before any lookup.
bool holds_no_reservation(const NodeInfo& node) {
  const auto* held = node.extension<reservation::NodeReservations>(NodeExtensionSlot::kReservations);
  return held == nullptr || held->empty();
}

bool holds_cpus(const NodeCpus& cpus, const std::string& uid) {
  const PodAllocation* a = cpus.allocation(uid);
  return a != nullptr && !a->empty();
}

/// The trial node: the reservations' CPUs given back. The pod's own hold (its
/// annotation, read when it was assumed) goes first: it is no other's use, and
/// left in place it would escape an only-reserved trial's blocker. The trial
/// keeps its reservations (other hint providers read them); the plugin's core
/// runs on it, not its hooks.
NodeInfo trial(const NodeInfo& node, const PodInfo& pod, const std::vector<std::string>& uids, bool only_reserved) {
  NodeInfo copy(node);
  auto* cpus = copy.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus);
  cpus->remove_allocation(pod_identity(pod));
  restore_cpus(*cpus, uids, only_reserved);
  return copy;
}

}  // namespace

void restore_cpus(NodeCpus& cpus, const std::vector<std::string>& reservation_uids, bool only_reserved) {
  CpuSet reserved;
  for (const auto& uid : reservation_uids) {
    const PodAllocation* a = cpus.allocation(uid);
    if (a == nullptr) continue;
    reserved |= a->cpus;
    cpus.remove_allocation(uid);
  }
  if (!only_reserved) return;
  PodAllocation blocker;
  blocker.name = kBlockerKey;
  blocker.cpus = cpus.available_cpus() - reserved;
  if (!blocker.cpus.empty()) cpus.add_allocation(kBlockerKey, std::move(blocker));
}

std::optional<NodeInfo> reserved_filter_trial(const PodInfo& pod, const NodeInfo& node) {
  const NodeCpus* cpus = cpus_of(node);
  if (cpus == nullptr || holds_no_reservation(node)) return std::nullopt;
  std::vector<std::string> uids;
  bool restricted = false;
  for (const auto* e : reservation::usable_reservations(pod, node)) {
    if (!holds_cpus(*cpus, e->uid())) continue;
    uids.push_back(e->uid());
    restricted = restricted || reservation::restricted(*e);
  }
  if (uids.empty()) return std::nullopt;
  // Filter asks whether some allocation exists; the preference only matters at Reserve.
  return trial(node, pod, uids, restricted);
}

std::optional<NodeInfo> reserved_reserve_trial(const PodInfo& pod, const NodeInfo& node, bool only_reserved) {
  const NodeCpus* cpus = cpus_of(node);
  if (cpus == nullptr || holds_no_reservation(node)) return std::nullopt;
  const auto* entry = reservation::allocated_reservation(pod, node);
  if (entry == nullptr || !holds_cpus(*cpus, entry->uid())) return std::nullopt;
  return trial(node, pod, {entry->uid()}, only_reserved);
}

void hold_on_node(const NodeNUMAResource& plugin, const CycleState& state, const PodInfo& pod, NodeInfo& node) {
  const NumaState* s = plugin.read_state(state);
  auto* cpus = node.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus);
  if (s == nullptr || !s->allocation || cpus == nullptr) return;
  cpus->remove_allocation(pod_identity(pod));
  cpus->add_allocation(pod_identity(pod), *s->allocation);
}

std::optional<PluginStatus> filter_reserved_cpus(const NodeNUMAResource& plugin, const CycleState& state,
                                                 const PodInfo& pod, const NodeInfo& node) {
  auto restored = reserved_filter_trial(pod, node);
  if (!restored) return std::nullopt;
  return plugin.filter_node(state, pod, *restored);
}

std::optional<PluginStatus> reserve_on_reserved_trials(const NodeNUMAResource& plugin, CycleState& state,
                                                       const PodInfo& pod, NodeInfo& node, const NarrowTrial& narrow) {
  // The reserved CPUs first; Aligned (or no policy) falls back to the whole restored node.
  auto preferred = reserved_reserve_trial(pod, node, true);
  if (!preferred) return std::nullopt;
  NodeInfo trial_node = narrow(std::move(*preferred));
  PluginStatus status = plugin.reserve_node(state, pod, trial_node);
  if (!status.ok() && !reservation::allocated_reservation_restricted(pod, node)) {
    trial_node = narrow(*reserved_reserve_trial(pod, node, false));
    status = plugin.reserve_node(state, pod, trial_node);
  }
  // The allocation was made on the trial node: hold it on the node itself.
  if (status.ok()) hold_on_node(plugin, state, pod, node);
  return status;
}

std::optional<PluginStatus> reserve_reserved_cpus(const NodeNUMAResource& plugin, CycleState& state,
                                                  const PodInfo& pod, NodeInfo& node) {
  return reserve_on_reserved_trials(plugin, state, pod, node, [](NodeInfo trial_node) { return trial_node; });
}

}  // namespace troupe::plugins::numa
