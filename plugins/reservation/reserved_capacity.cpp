#include "plugins/reservation/reserved_capacity.hpp"

#include "plugins/reservation/node_reservations.hpp"
#include "plugins/reservation/reservation_plugin.hpp"

namespace troupe::plugins::reservation {

bool ReservedCapacity::usage_for(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                 ResourceVector& used, int64_t& pods) const {
  if (plugin_ == nullptr) return false;
  const auto* held = node.extension<NodeReservations>(NodeExtensionSlot::kReservations);
  if (held == nullptr || held->empty()) return false;
  const RestoredNode restored = plugin_->restored_node(state, pod, node);
  used = node.requested();
  used.subtract(restored.released);
  pods = static_cast<int64_t>(node.pod_count()) - restored.released_pods;
  return true;
}

}  // namespace troupe::plugins::reservation
