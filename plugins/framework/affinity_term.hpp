#pragma once
// A pod (anti-)affinity term resolved against the pod that carries it
// (upstream's framework.AffinityTerm): which namespaces it looks in, which
// pods' labels it matches, and the node label that makes a domain.
//
// Namespaces: the term's `namespaces`, plus every namespace when its
// namespaceSelector is `{}`, plus the namespaces whose labels its
// namespaceSelector matches; with neither, the owner's own namespace. The
// pod being scheduled has its selector resolved against the cluster's
// namespaces (NamespaceLabels, upstream's mergeAffinityTermNamespacesIfNotEmpty);
// a placed pod's term keeps its selector and matches a pod by the labels of
// that pod's namespace (upstream's AffinityTerm.Matches with nsLabels).
//
// matchLabelKeys / mismatchLabelKeys add `key In/NotIn (owner's value)` to
// the selector, as kube-apiserver does when it admits the pod (adding them
// again to a selector that already has them changes nothing).

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/label_selector.hpp"
#include "model/pod.hpp"
#include "model/result.hpp"
#include "model/scheduling_types.hpp"

namespace troupe::plugins::affinity {

/// The labels of the cluster's namespaces, by name: what a namespaceSelector
/// selects by. The cycle shares an immutable snapshot with each attempt.
using NamespaceLabels = std::unordered_map<std::string, Labels>;
/// The labels of namespace `ns` (none when `namespaces` is null or does not know it).
const Labels& labels_of_namespace(const NamespaceLabels* namespaces, const std::string& ns);

struct ResolvedTerm {
  std::string topology_key;
  LabelSelector selector = LabelSelector::nothing();
  std::set<std::string> namespaces;
  bool all_namespaces = false;
  /// A placed pod's namespaceSelector with requirements: a pod matches when
  /// the labels of its namespace do (the pod being scheduled has none here:
  /// its selector is resolved into `namespaces`).
  std::optional<LabelSelector> namespace_selector;
  int32_t weight = 0;  // preferred terms; 0 for required ones

  /// The term selects `pod` (its namespace, then its labels);
  /// `namespace_labels`: the labels of the pod's namespace.
  bool matches(const Pod& pod, const Labels& namespace_labels) const;
  /// The same for a term without namespace_selector (the pod being scheduled's own).
  bool matches(const Pod& pod) const;
};

/// `owner`: the pod whose spec holds the term. `namespaces`: the cluster's
/// namespaces, to resolve the owner's namespaceSelector against (the pod
/// being scheduled); nullptr keeps the selector in the term (a placed pod).
ResolvedTerm resolve_term(const PodAffinityTerm& term, const Pod& owner, int32_t weight,
                          const NamespaceLabels* namespaces);

/// The pod's four term lists, resolved.
struct PodTerms {
  std::vector<ResolvedTerm> required_affinity;
  std::vector<ResolvedTerm> required_anti_affinity;
  std::vector<ResolvedTerm> preferred_affinity;
  std::vector<ResolvedTerm> preferred_anti_affinity;
};
PodTerms resolve_terms(const Pod& pod, const NamespaceLabels* namespaces);

/// Some term of the pod has a namespaceSelector with requirements: resolving
/// it needs the namespaces' labels.
bool selects_namespaces_by_labels(const Pod& pod);

/// Every term matches `pod` (false for no terms: upstream's podMatchesAllAffinityTerms).
bool matches_all(const std::vector<ResolvedTerm>& terms, const Pod& pod);

}  // namespace troupe::plugins::affinity
