#pragma once
// `troupe bench --reserved-nodes PERCENT`: Available Reservations on that
// share of the synthetic nodes, so the pods/s with reservations in the cluster
// can be compared with the same run without them (issue 6's benchmark).
//
// One Reservation per reserved node, pinned to it (template spec.nodeName),
// reusable (allocateOnce false), never expiring, owned by the pods labelled
// troupe.dev/bench-reserved=true. It holds an eighth of the node (8 CPUs,
// 32 GiB) and, on GPU nodes when the mix asks for GPUs, one card (koordinator.sh/gpu
// 100 for gpu-share, nvidia.com/gpu 1 otherwise). Every other pod of the mix
// is labelled an owner, so both owners (restored reservations, reservation
// scoring, reservation-allocated) and strangers (holds they must avoid) are
// measured.

#include <cstddef>
#include <vector>

#include "model/pod.hpp"
#include "model/reservation.hpp"
#include "sim/synthetic/pod_mix.hpp"
#include "sim/synthetic/synthetic_cluster.hpp"

namespace troupe::cmd {

inline constexpr const char* kBenchReservedLabel = "troupe.dev/bench-reserved";

/// Whether node `index` of `nodes` is reserved at `percent`: exactly
/// floor(nodes·percent/100) nodes, spread evenly.
bool reserved_node(size_t index, int percent);

/// The Pending Reservations for the reserved nodes of `cluster`.
std::vector<Reservation> bench_reservations(const std::vector<sim::synthetic::SyntheticNode>& cluster, int percent,
                                            sim::synthetic::PodMix mix);

/// Labels every other pod (the even positions) as an owner of the reservations.
void label_reservation_owners(std::vector<Pod>& pods);

}  // namespace troupe::cmd
