#pragma once
// ReservedCapacity: the Reservation plugin's side of NodeResourcesFit's
// resource check (the framework contract in reservation_plugin.hpp). A node
// counts each Available reservation as its reserve pod; for the pod being
// scheduled, the holds of the reservations it matches are free, and an
// unmatched reservation's hold shrinks to what its owners have not taken
// (they are counted as pods already). make_frameworks hands one instance to
// both plugins of a profile: the Reservation plugin attaches itself, and
// NodeResourcesFit asks it per node.

#include <cstdint>

#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/framework/resource_vector.hpp"

namespace troupe::plugins::reservation {

class ReservationPlugin;

class ReservedCapacity {
 public:
  /// The profile's Reservation plugin (it lives as long as the Framework using this).
  void attach(const ReservationPlugin* plugin) { plugin_ = plugin; }

  /// Writes into `used` / `pods` the node's requested() and pod_count() as
  /// `pod` must see them, and returns true; returns false, leaving both
  /// untouched, when the node holds no reservation (no work, no allocation)
  /// or the profile has no Reservation plugin.
  bool usage_for(const CycleState& state, const PodInfo& pod, const NodeInfo& node, ResourceVector& used,
                 int64_t& pods) const;

 private:
  const ReservationPlugin* plugin_ = nullptr;
};

}  // namespace troupe::plugins::reservation
