#include "plugins/framework/affinity_term.hpp"

#include <algorithm>
#include <tuple>

namespace troupe::plugins::affinity {

namespace {

template <class Terms, class Get>
Status resolve_list(const Terms& terms, const Pod& owner, bool strict, Get get, std::vector<ResolvedTerm>& out) {
  for (const auto& t : terms) {
    auto [term, weight] = get(t);
    auto resolved = resolve_term(term, owner, weight, strict);
    if (!resolved) return Error{resolved.message()};
    out.push_back(std::move(*resolved));
  }
  return {};
}

}  // namespace

bool ResolvedTerm::matches(const Pod& pod) const {
  if (!all_namespaces && namespaces.count(pod.meta.namespace_name) == 0) return false;
  return selector.matches(pod.meta.labels);
}

Result<ResolvedTerm> resolve_term(const PodAffinityTerm& term, const Pod& owner, int32_t weight, bool strict) {
  ResolvedTerm out;
  out.topology_key = term.topology_key;
  out.weight = weight;
  out.selector =
      with_label_values(term.label_selector, owner.meta.labels, term.match_label_keys, term.mismatch_label_keys);
  out.namespaces.insert(term.namespaces.begin(), term.namespaces.end());
  // A null namespaceSelector is an absent one.
  const bool has_ns_selector = term.namespace_selector && !term.namespace_selector->matches_nothing();
  if (has_ns_selector) {
    const auto& ns_selector = *term.namespace_selector;
    if (!ns_selector.empty() && strict)
      return Error{"a pod affinity term's namespaceSelector with requirements (" + ns_selector.to_string() +
                   ") is not supported by troupe: it does not watch namespaces; list them in `namespaces`"};
    out.all_namespaces = true;
  } else if (term.namespaces.empty()) {
    out.namespaces.insert(owner.meta.namespace_name);
  }
  return out;
}

Result<PodTerms> resolve_terms(const Pod& pod, bool strict) {
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
    if (auto s = resolve_list((*side)->required, pod, strict, required, *req); !s) return Error{s.message()};
    if (auto s = resolve_list((*side)->preferred, pod, strict, preferred, *pref); !s) return Error{s.message()};
  }
  return out;
}

bool matches_all(const std::vector<ResolvedTerm>& terms, const Pod& pod) {
  if (terms.empty()) return false;
  return std::all_of(terms.begin(), terms.end(), [&](const ResolvedTerm& t) { return t.matches(pod); });
}

}  // namespace troupe::plugins::affinity
