#pragma once
// LoadAwareScheduling's debug service (Koordinator loadaware/service.go,
// GET /apis/v1/plugins/LoadAwareScheduling/node/<node>): what the plugin
// holds of one node, as Koordinator's NodeAssignInfoData —
//   pods              [{timestamp, pod}]: the pods on the node, each with the
//                     time its estimate counts from and the whole Pod
//   prodUsage, nodeDelta, prodDelta, nodeEstimated
//                     the sums Filter and Score read (node_usage.hpp), as
//                     resource lists on the plugin's resources
//   nodeDeltaPods, prodDeltaPods, nodeEstimatedPods
//                     the pods ("ns/name", sorted) each sum counted
// every field left out when empty; `{}` for a node the plugin holds nothing
// of (no NodeMetric seen).

#include <string>

#include "plugins/framework/node_info.hpp"
#include "plugins/load_aware/load_aware_args.hpp"
#include "plugins/load_aware/pod_load_estimate.hpp"

namespace troupe::plugins::load_aware {

std::string node_assign_info_json(const NodeInfo& node, const LoadEstimator& estimator,
                                  const LoadAwareSchedulingArgs& args);

}  // namespace troupe::plugins::load_aware
