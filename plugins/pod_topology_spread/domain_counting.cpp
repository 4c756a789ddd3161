#include "plugins/pod_topology_spread/domain_counting.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <unordered_set>

#include "plugins/node_affinity/node_selector.hpp"

namespace troupe::plugins::spread {

namespace {

using Postings = std::vector<const PodsByLabel<ClusterPods::NodeEntry>::Pods*>;

/// Per constraint, the values of its key that the counts list, when they are
/// those the cycle keeps: every node the pod may go to is a known node, and
/// none is left out by a check of its own. Empty when no domain needs listing.
std::optional<std::vector<const NodeDomains::Values*>> kept_domains(const Pod& pod,
                                                                    const std::vector<SpreadConstraint>& constraints,
                                                                    const ClusterPods& cluster,
                                                                    CountingRequest request) {
  std::vector<const NodeDomains::Values*> out;
  if (request.empty == EmptyDomains::drop && !request.count_admitted) return out;
  if (!pod.spec.node_selector.empty() || required_node_affinity(pod.spec) != nullptr) return std::nullopt;
  for (const auto& c : constraints) {
    if (request.empty == EmptyDomains::count && c.node_taints_policy == NodeInclusionPolicy::honor) return std::nullopt;
    const auto* values = cluster.domains().values_of(c.topology_key);
    if (values == nullptr) return std::nullopt;
    // With every key required a node lacking another key lists no domain:
    // the key's values are the domains only if every node has every key.
    if (request.require_all_keys && constraints.size() > 1 &&
        cluster.domains().nodes_with(c.topology_key) != cluster.known_nodes())
      return std::nullopt;
    out.push_back(values);
  }
  return out;
}

}  // namespace

bool has_all_keys(const Labels& labels, const std::vector<SpreadConstraint>& constraints) {
  return std::all_of(constraints.begin(), constraints.end(),
                     [&](const SpreadConstraint& c) { return labels.count(c.topology_key) > 0; });
}

DomainCounts count_domains_by_walk(const Pod& pod, const std::vector<SpreadConstraint>& constraints,
                                   const ClusterPods& cluster, CountingRequest request) {
  DomainCounts out;
  out.matching.resize(constraints.size());
  // Views of the node labels, which outlive the counting.
  std::vector<std::unordered_set<std::string_view>> admitted(request.count_admitted ? constraints.size() : 0);
  for (const auto& [name, entry] : cluster.nodes()) {
    if (!entry.node) continue;
    const Labels& labels = entry.node->meta.labels;
    if (request.require_all_keys && !has_all_keys(labels, constraints)) continue;
    const bool is_admitted = request.count_admitted && required_node_selection_matches(pod.spec, *entry.node);
    for (size_t i = 0; i < constraints.size(); ++i) {
      const auto& c = constraints[i];
      auto value = labels.find(c.topology_key);
      if (value == labels.end()) {
        // Without every key required (the system defaults), upstream's
        // initPreScoreState reads a missing key as the value "": one more
        // domain in the normalizing weight, though no pod is counted there.
        if (is_admitted && !request.require_all_keys) admitted[i].insert(std::string_view());
        continue;
      }
      if (is_admitted) admitted[i].insert(value->second);
      if (!node_included(c, pod, *entry.node)) continue;
      const int64_t count = count_matching(entry.pods, c.selector, pod.meta.namespace_name,
                                           request.with_nominated ? nullptr : &cluster);
      if (count == 0 && request.empty == EmptyDomains::drop) continue;
      out.matching[i][value->second] += count;
    }
  }
  for (const auto& values : admitted) out.admitted_domains.push_back(values.size());
  if (request.empty == EmptyDomains::count)
    for (auto& matching : out.matching) {
      out.domains.push_back(matching.size());
      for (auto domain = matching.begin(); domain != matching.end();)
        domain = domain->second == 0 ? matching.erase(domain) : std::next(domain);
    }
  return out;
}

std::optional<DomainCounts> count_domains_by_index(const Pod& pod, const std::vector<SpreadConstraint>& constraints,
                                                   const ClusterPods& cluster, CountingRequest request) {
  const std::string& ns = pod.meta.namespace_name;
  auto domains = kept_domains(pod, constraints, cluster, request);
  if (!domains) return std::nullopt;
  std::vector<Postings> postings;
  for (const auto& c : constraints) {
    // An empty selector counts no pod here (counts_for), though it matches every one.
    auto found = c.selector.empty() ? Postings{} : cluster.pods_by_label().candidates(c.selector, ns);
    if (!found) return std::nullopt;
    postings.push_back(std::move(*found));
  }
  DomainCounts out;
  out.matching.resize(constraints.size());
  for (size_t i = 0; i < constraints.size(); ++i) {
    const auto& c = constraints[i];
    if (request.empty == EmptyDomains::count) out.domains.push_back((*domains)[i]->size());
    if (request.count_admitted) {
      // As in the walk: nodes without the key make the domain "" (no node
      // selection here, so every known node is admitted).
      const bool keyless = !request.require_all_keys && cluster.domains().nodes_with(c.topology_key) < cluster.known_nodes();
      const bool empty_value_known = (*domains)[i]->count(std::string()) > 0;
      out.admitted_domains.push_back((*domains)[i]->size() + (keyless && !empty_value_known ? 1 : 0));
    }
    for (const auto* pods : postings[i]) {
      for (const auto& [info, entry] : *pods) {
        if (!entry->node || !counts_for(info->meta(), c.selector, ns)) continue;
        if (!request.with_nominated && cluster.is_nominated(*info)) continue;
        const Labels& labels = entry->node->meta.labels;
        if (request.require_all_keys && !has_all_keys(labels, constraints)) continue;
        auto value = labels.find(c.topology_key);
        if (value == labels.end() || !node_included(c, pod, *entry->node)) continue;
        ++out.matching[i][value->second];
      }
    }
  }
  return out;
}

DomainCounts count_domains(const Pod& pod, const std::vector<SpreadConstraint>& constraints,
                           const ClusterPods& cluster, CountingRequest request) {
  if (auto indexed = count_domains_by_index(pod, constraints, cluster, request)) return std::move(*indexed);
  return count_domains_by_walk(pod, constraints, cluster, request);
}

}  // namespace troupe::plugins::spread
