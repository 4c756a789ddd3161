#pragma once
// The order LowNodeLoad evicts a hot node's pods in, and the order it
// visits hot nodes in (Koordinator utils/sorter pod.go and scorer.go).
// Pods: the first differing key wins, and pods go in this order:
//   Koordinator priority class (free < batch < mid < prod < none),
//   spec.priority, Kubernetes QoS (BestEffort < Burstable < Guaranteed),
//   Koordinator QoS (BE < LS < LSR < LSE = SYSTEM < none),
//   pod-deletion-cost, eviction-cost (lower first),
//   then the pod whose usage best covers the node's excess first (the
//   piecewise score below; pods without metrics last), then newer pods first.

#include <cstdint>
#include <memory>
#include <vector>

#include "model/pod.hpp"
#include "plugins/descheduler/node_load.hpp"

namespace troupe::plugins::descheduler {

/// A candidate victim with what the sort needs.
struct Victim {
  std::shared_ptr<const Pod> pod;
  std::optional<Amounts> usage;  // from the pod's metric; nullopt = none reported
};

/// How well a pod's usage covers an excess, per resource: ratio = used /
/// excess; below 1 the ratio itself, from 1 on 1 + 1/ratio, so the smallest
/// pod that covers the whole excess scores highest (at most 2).
double coverage_score(int64_t used, int64_t excess);

/// The weighted mean coverage over the over-used resources (weights of the
/// other resources are zero). `excess[i]` is usage - high threshold where
/// positive, 0 elsewhere.
double usage_score(const Amounts& pod_usage, const Amounts& excess, const std::vector<int64_t>& weights);

/// Sorts in eviction order (stable, so equal pods keep their input order).
void sort_victims(std::vector<Victim>& victims, const Amounts& excess, const std::vector<int64_t>& weights);

/// ResourceUsageScorer: the weighted mean of min(used, capacity) * 1000 /
/// capacity (integer arithmetic); hot nodes are visited highest first.
int64_t node_usage_score(const Amounts& usage, const Amounts& capacity, const std::vector<int64_t>& weights);

}  // namespace troupe::plugins::descheduler
