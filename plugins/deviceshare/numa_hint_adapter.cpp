#include "plugins/deviceshare/numa_hint_adapter.hpp"

#include "plugins/deviceshare/designated_allocation.hpp"
#include "plugins/deviceshare/joint_allocator.hpp"
#include "plugins/deviceshare/reservation_restore.hpp"
#include "plugins/framework/node_info.hpp"

namespace troupe::plugins::deviceshare {

namespace {

const NodeDevices* devices_of(const NodeInfo& node) {
  return node.extension<NodeDevices>(NodeExtensionSlot::kDevices);
}

/// The devices the pod may take, as DeviceShare's Filter sees them: its
/// designated view, else the node's with the devices of the reservations it may
/// use given back; nullopt: the node's own.
std::optional<NodeDevices> view_for(const DeviceShare& plugin, const CycleState& state, const PodInfo& pod,
                                    const NodeInfo& node) {
  if (auto designated = designated_filter_view(plugin, state, pod, node)) return designated;
  return reserved_filter_view(pod, node);
}

}  // namespace

topology::NumaHints to_topology_hints(const NumaHints& hints) {
  topology::NumaHints out;
  for (const auto& [type, list] : hints) {
    auto& converted = out[type];
    converted.reserve(list.size());
    for (const NumaHint& h : list) {
      topology::NumaHint t;
      t.numa_nodes = h.numa_nodes;
      t.preferred = h.preferred;
      t.score = h.score;
      converted.push_back(t);
    }
  }
  return out;
}

PluginStatus DeviceShareNumaHints::numa_hints(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                              topology::NumaHints& out) const {
  out.clear();
  if (plugin_ == nullptr) return {};
  NumaHints hints;
  // The hints are where the devices it may take sit (a designation, a reservation's).
  const auto view = view_for(*plugin_, state, pod, node);
  PluginStatus status = plugin_->numa_hints(state, node.node(), view ? &*view : devices_of(node), hints);
  if (!status.ok()) return status;
  out = to_topology_hints(hints);
  return {};
}

PluginStatus DeviceShareNumaHints::try_allocate(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                                const topology::NumaHint& affinity) const {
  if (plugin_ == nullptr) return {};
  const DeviceShareState* s = plugin_->read_state(state);
  const auto view = view_for(*plugin_, state, pod, node);
  const NodeDevices* devices = view ? &*view : devices_of(node);
  if (s == nullptr || devices == nullptr || !devices->known()) return {};
  AllocateOptions options;
  if (node.node() != nullptr) options.node_labels = &node.node()->meta.labels;
  if (affinity.numa_nodes != 0 && !plugin_->args().disable_numa_alignment) options.numa_nodes = affinity.numa_nodes;
  AllocationPlan plan;
  return allocate_devices(*devices, *s->request, options, plan);
}

}  // namespace troupe::plugins::deviceshare
