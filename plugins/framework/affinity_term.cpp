#include "plugins/framework/affinity_term.hpp"

#include <algorithm>
#include <tuple>

namespace troupe::plugins::affinity {

namespace {

template <class Terms, class Get>
void resolve_list(const Terms& terms, const Pod& owner, const NamespaceLabels* namespaces, Get get,
                  std::vector<ResolvedTerm>& out) {
  for (const auto& t : terms) {
    auto [term, weight] = get(t);
    out.push_back(resolve_term(term, owner, weight, namespaces));
  }
}

/// A namespaceSelector that is neither absent (nil) nor `{}`.
bool has_requirements(const std::optional<LabelSelector>& selector) {
  return selector && !selector->matches_nothing() && !selector->empty();
}

/// Calls `each` with every term of the pod, required and preferred, of both sides.
template <class F>
void for_each_term(const Pod& pod, F each) {
  const auto& affinity = pod.spec.affinity;
  if (!affinity) return;
  for (const auto* side : {&affinity->pod_affinity, &affinity->pod_anti_affinity}) {
    if (!*side) continue;
    for (const auto& t : (*side)->required) each(t);
    for (const auto& t : (*side)->preferred) each(t.term);
  }
}

}  // namespace

const Labels& labels_of_namespace(const NamespaceLabels* namespaces, const std::string& ns) {
  static const Labels kNone;
  if (namespaces == nullptr) return kNone;
  auto it = namespaces->find(ns);
  return it == namespaces->end() ? kNone : it->second;
}

bool ResolvedTerm::matches(const Pod& pod, const Labels& namespace_labels) const {
  const bool in_namespaces = all_namespaces || namespaces.count(pod.meta.namespace_name) > 0 ||
                             (namespace_selector && namespace_selector->matches(namespace_labels));
  return in_namespaces && selector.matches(pod.meta.labels);
}

bool ResolvedTerm::matches(const Pod& pod) const {
  static const Labels kNone;
  return matches(pod, kNone);
}

ResolvedTerm resolve_term(const PodAffinityTerm& term, const Pod& owner, int32_t weight,
                          const NamespaceLabels* namespaces) {
  ResolvedTerm out;
  out.topology_key = term.topology_key;
  out.weight = weight;
  out.selector =
      with_label_values(term.label_selector, owner.meta.labels, term.match_label_keys, term.mismatch_label_keys);
  out.namespaces.insert(term.namespaces.begin(), term.namespaces.end());
  // A null namespaceSelector is an absent one; `{}` selects every namespace.
  const bool has_ns_selector = term.namespace_selector && !term.namespace_selector->matches_nothing();
  if (has_ns_selector && term.namespace_selector->empty()) {
    out.all_namespaces = true;
  } else if (has_ns_selector && namespaces != nullptr) {
    for (const auto& [name, labels] : *namespaces)
      if (term.namespace_selector->matches(labels)) out.namespaces.insert(name);
  } else if (has_ns_selector) {
    out.namespace_selector = term.namespace_selector;
  } else if (term.namespaces.empty()) {
    out.namespaces.insert(owner.meta.namespace_name);
  }
  return out;
}

PodTerms resolve_terms(const Pod& pod, const NamespaceLabels* namespaces) {
  PodTerms out;
  const auto& affinity = pod.spec.affinity;
  if (!affinity) return out;
  auto required = [](const PodAffinityTerm& t) { return std::pair<const PodAffinityTerm&, int32_t>(t, 0); };
  auto preferred = [](const WeightedPodAffinityTerm& t) {
    return std::pair<const PodAffinityTerm&, int32_t>(t.term, t.weight);
  };
  for (auto [side, req, pref] : {std::tuple{&affinity->pod_affinity, &out.required_affinity, &out.preferred_affinity},
                                 std::tuple{&affinity->pod_anti_affinity, &out.required_anti_affinity,
                                            &out.preferred_anti_affinity}}) {
    if (!*side) continue;
    resolve_list((*side)->required, pod, namespaces, required, *req);
    resolve_list((*side)->preferred, pod, namespaces, preferred, *pref);
  }
  return out;
}

bool selects_namespaces_by_labels(const Pod& pod) {
  bool found = false;
  for_each_term(pod, [&](const PodAffinityTerm& t) { found = found || has_requirements(t.namespace_selector); });
  return found;
}

bool matches_all(const std::vector<ResolvedTerm>& terms, const Pod& pod) {
  if (terms.empty()) return false;
  return std::all_of(terms.begin(), terms.end(), [&](const ResolvedTerm& t) { return t.matches(pod); });
}

}  // namespace troupe::plugins::affinity
