#pragma once
// A pod (anti-)affinity term resolved against the pod that carries it
// (upstream's framework.AffinityTerm): which namespaces it looks in, which
// pods' labels it matches, and the node label that makes a domain.
//
// Namespaces: the term's `namespaces`, plus every namespace when its
// namespaceSelector is `{}`; with neither, the owner's own namespace. A
// namespaceSelector with requirements would need the namespaces' labels,
// which troupe does not watch: resolve_term reports it for the pod being
// scheduled, and for a placed pod's term it is read as "every namespace"
// (so a placed pod's anti-affinity keeps pods away rather than letting them in).
//
// matchLabelKeys / mismatchLabelKeys add `key In/NotIn (owner's value)` to
// the selector, as kube-apiserver does when it admits the pod (adding them
// again to a selector that already has them changes nothing).

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/label_selector.hpp"
#include "model/pod.hpp"
#include "model/result.hpp"
#include "model/scheduling_types.hpp"

namespace troupe::plugins::affinity {

struct ResolvedTerm {
  std::string topology_key;
  LabelSelector selector = LabelSelector::nothing();
  std::set<std::string> namespaces;
  bool all_namespaces = false;
  int32_t weight = 0;  // preferred terms; 0 for required ones

  /// The term selects `pod` (its namespace, then its labels).
  bool matches(const Pod& pod) const;
};

/// `owner`: the pod whose spec holds the term. An error only for a
/// namespaceSelector with requirements when `strict` (the pod being scheduled).
Result<ResolvedTerm> resolve_term(const PodAffinityTerm& term, const Pod& owner, int32_t weight, bool strict);

/// The pod's four term lists, resolved.
struct PodTerms {
  std::vector<ResolvedTerm> required_affinity;
  std::vector<ResolvedTerm> required_anti_affinity;
  std::vector<ResolvedTerm> preferred_affinity;
  std::vector<ResolvedTerm> preferred_anti_affinity;
};
Result<PodTerms> resolve_terms(const Pod& pod, bool strict);

/// Every term matches `pod` (false for no terms: upstream's podMatchesAllAffinityTerms).
bool matches_all(const std::vector<ResolvedTerm>& terms, const Pod& pod);

}  // namespace troupe::plugins::affinity
