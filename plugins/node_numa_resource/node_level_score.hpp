#pragma once
// NodeNUMAResource's node-level score (scoringStrategy without a NUMA
// policy): strategy_score over the node's requested (with the pod) and
// allocatable amounts. The strategy's resource names are resolved to their
// ResourceVector fields once, when the plugin is built, so Score reads
// integers per node instead of comparing names (ResourceVector::get).

#include <cstdint>
#include <string>
#include <vector>

#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/node_numa_resource/numa_args.hpp"

namespace troupe::plugins::numa {

class NodeLevelScorer {
 public:
  explicit NodeLevelScorer(const NumaScoringStrategy& strategy);

  /// Equals strategy_score(strategy, name -> {node requested + pod requests, node allocatable}).
  int64_t score(const PodInfo& pod, const NodeInfo& node) const { return score(pod, node.allocatable(), node.requested()); }
  /// The same over given amounts (`requested` without the pod).
  int64_t score(const PodInfo& pod, const ResourceVector& allocatable, const ResourceVector& requested) const;

 private:
  /// One weighed resource: a fixed ResourceVector field, else a scalar by name.
  struct Weighed {
    int64_t ResourceVector::*field = nullptr;
    std::string scalar_name;
    bool scalar = false;  // is_scalar_resource_name: scored only when the pod asks for it
    int64_t weight = 1;

    int64_t read(const ResourceVector& v) const { return field != nullptr ? v.*field : v.scalar(scalar_name); }
  };

  ScoringType type_;
  std::vector<Weighed> resources_;
};

}  // namespace troupe::plugins::numa
