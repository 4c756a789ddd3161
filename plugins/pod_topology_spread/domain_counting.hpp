#pragma once
// How PodTopologySpread counts the pods its constraints select, per topology
// domain, over ClusterPods. Two ways that give the same counts:
//  - by walk: every node, its topology labels, its pods (upstream's way);
//  - by index: only the pods labelled as the selector requires
//    (ClusterPods::pods_by_label) and, for the list of domains, the values
//    the cycle keeps per topology key (ClusterPods::domains). It applies
//    when the domains need no per-node check: the pod has no node selector
//    or required node affinity, and (where the empty domains are listed) no
//    constraint honours taints; and when each selector requires some label
//    values (matchLabels or an In expression).
// count_domains takes the index when it applies and walks otherwise;
// test/plugins/domain_counting_test.cpp compares the two on random clusters.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "plugins/framework/cluster_pods.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"

namespace troupe::plugins::spread {

/// What becomes of the domains without matching pods: only those with some
/// are listed either way (a domain missing from the counts has none), which
/// spares an entry per host for a hostname constraint. Filter needs to know
/// how many there are in all (the fewest matching pods is 0 when some domain
/// has none); Score does not.
enum class EmptyDomains { count, drop };

struct CountingRequest {
  /// A node lacking any constraint's key counts for none; else it counts for
  /// the constraints whose keys it has.
  bool require_all_keys = true;
  EmptyDomains empty = EmptyDomains::count;
  /// Whether to count the domains of the nodes the pod's node selection
  /// admits (Score's normalizing weights).
  bool count_admitted = false;
  /// Whether nominated pods' placeholders count (ClusterPods::is_nominated):
  /// in Filter they do, in Score not (upstream's PreScore reads the snapshot,
  /// which holds no nominations).
  bool with_nominated = true;
};

struct DomainCounts {
  /// Per constraint: topology value → matching pods, for the domains with any.
  std::vector<std::unordered_map<std::string, int64_t>> matching;
  /// Per constraint, with EmptyDomains::count: how many domains there are,
  /// with or without matching pods.
  std::vector<size_t> domains;
  /// Per constraint, when counted: how many values the nodes the pod's node
  /// selection admits have.
  std::vector<size_t> admitted_domains;
};

/// Whether the node labels hold every constraint's topology key.
bool has_all_keys(const Labels& labels, const std::vector<SpreadConstraint>& constraints);

DomainCounts count_domains_by_walk(const Pod& pod, const std::vector<SpreadConstraint>& constraints,
                                   const ClusterPods& cluster, CountingRequest request);

/// nullopt where the index does not apply (see the header comment), or a
/// constraint's key is not kept in ClusterPods::domains.
std::optional<DomainCounts> count_domains_by_index(const Pod& pod, const std::vector<SpreadConstraint>& constraints,
                                                   const ClusterPods& cluster, CountingRequest request);

/// By index where it applies, else by walk.
DomainCounts count_domains(const Pod& pod, const std::vector<SpreadConstraint>& constraints,
                           const ClusterPods& cluster, CountingRequest request);

}  // namespace troupe::plugins::spread
