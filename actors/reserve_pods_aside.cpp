#include "actors/reserve_pods_aside.hpp"

namespace troupe::actors {

ReservePodsAside::ReservePodsAside(plugins::ClusterPods& cluster,
                                   const plugins::reservation::ClusterReservations& held, const Pod& pod,
                                   const plugins::OwnSelectors* selectors)
    : cluster_(cluster) {
  if (selectors == nullptr || held.empty()) return;
  aside_ = held.usable_by(pod, cluster, selectors);
  for (const auto* reservation : aside_) cluster_.remove_pod(reservation->entry.uid());
}

ReservePodsAside::~ReservePodsAside() {
  for (const auto* reservation : aside_) cluster_.add_pod(reservation->reserve_pod, reservation->node);
}

}  // namespace troupe::actors
