#pragma once
// The reserve pods of the reservations a pod may use leave ClusterPods while
// its PreFilter and PreScore count the cluster's pods, and come back right
// after (Koordinator takes them out of its NodeInfo snapshot before
// PreFilter: plugins/reservation/cluster_reservations.hpp). Both run on the
// cycle actor, one after the other, before anything else can change
// ClusterPods, so the cycle's one instance is changed in place for that time.

#include <vector>

#include "model/pod.hpp"
#include "plugins/framework/cluster_pods.hpp"
#include "plugins/framework/own_selectors.hpp"
#include "plugins/reservation/cluster_reservations.hpp"

namespace troupe::actors {

class ReservePodsAside {
 public:
  /// Sets aside the reserve pods `pod` may use among those that may change
  /// what it counts (`selectors`: the pod's own, OwnSelectors::may_count);
  /// none when `selectors` is null (its placement reads no other pod).
  ReservePodsAside(plugins::ClusterPods& cluster, const plugins::reservation::ClusterReservations& held,
                   const Pod& pod, const plugins::OwnSelectors* selectors);
  /// Puts them back.
  ~ReservePodsAside();
  ReservePodsAside(const ReservePodsAside&) = delete;
  ReservePodsAside& operator=(const ReservePodsAside&) = delete;

  size_t size() const { return aside_.size(); }

 private:
  plugins::ClusterPods& cluster_;
  std::vector<const plugins::reservation::ClusterReservation*> aside_;
};

}  // namespace troupe::actors
