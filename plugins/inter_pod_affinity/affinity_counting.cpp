#include "plugins/inter_pod_affinity/affinity_counting.hpp"

#include <vector>

namespace troupe::plugins::affinity {

namespace {

using NodeEntry = ClusterPods::NodeEntry;
using Candidates = std::vector<const PodsByLabel<NodeEntry>::Pods*>;

/// +1 for (term's key, the node's value of it) when the node has the key.
void count_on(TopologyCounts& counts, const ResolvedTerm& term, const Labels& node_labels) {
  if (const std::string* value = label_of(node_labels, term.topology_key)) ++counts[term.topology_key][*value];
}

/// upstream's processTerm: `weight` for the term's domain on the placed pod's
/// node, if `target` matches (`target_namespace`: the labels of its namespace).
void add_term(TopologyScores& scores, const ResolvedTerm& term, int64_t weight, const Pod& target,
              const Labels& target_namespace, const Labels& node_labels) {
  if (!term.matches(target, target_namespace)) return;
  if (const std::string* value = label_of(node_labels, term.topology_key))
    scores[term.topology_key][*value] += weight;
}

void add_terms(TopologyScores& scores, const std::vector<ResolvedTerm>& terms, int sign, const Pod& target,
               const Labels& target_namespace, const Labels& node_labels) {
  for (const auto& term : terms)
    add_term(scores, term, sign * int64_t{term.weight}, target, target_namespace, node_labels);
}

bool has_preferred_terms(const PodTerms& terms) {
  return !terms.preferred_affinity.empty() || !terms.preferred_anti_affinity.empty();
}

const Labels kOwnTermsNeedNone;  // the pod's own terms have their namespaces resolved

/// The pods one of the pod's own terms may select, from the label index:
/// per listed namespace, the lists PodsByLabel::candidates gives. nullopt for
/// a term that looks in every namespace or requires no label value.
std::optional<Candidates> candidates_of(const ResolvedTerm& term, const ClusterPods& cluster) {
  if (term.all_namespaces || term.namespace_selector) return std::nullopt;
  Candidates out;
  for (const auto& ns : term.namespaces) {
    auto lists = cluster.pods_by_label().candidates(term.selector, ns);
    if (!lists) return std::nullopt;
    out.insert(out.end(), lists->begin(), lists->end());
  }
  return out;
}

/// candidates_of for each term; nullopt when one of them has none.
std::optional<std::vector<Candidates>> candidates_of_all(const std::vector<ResolvedTerm>& terms,
                                                         const ClusterPods& cluster) {
  std::vector<Candidates> out;
  for (const auto& term : terms) {
    auto found = candidates_of(term, cluster);
    if (!found) return std::nullopt;
    out.push_back(std::move(*found));
  }
  return out;
}

/// Whether nominated pods' placeholders count: in Filter they do, in Score
/// not (upstream's PreScore reads the snapshot, which holds no nominations).
enum class Nominated { count, leave_out };

/// Calls visit(pod, node labels) for each candidate placed on a known node.
template <class Visit>
void for_each_candidate(const Candidates& candidates, const ClusterPods& cluster, Nominated nominated, Visit visit) {
  for (const auto* pods : candidates)
    for (const auto& [info, entry] : *pods)
      if (entry->node && !(nominated == Nominated::leave_out && cluster.is_nominated(*info)))
        visit(*info->pod, entry->node->meta.labels);
}

}  // namespace

const std::string* label_of(const Labels& labels, const std::string& key) {
  auto it = labels.find(key);
  return it == labels.end() ? nullptr : &it->second;
}

const PodTerms& terms_of_placed(const PodInfo& pod) {
  static const PodTerms kNone;
  return pod.placed_terms ? *pod.placed_terms : kNone;
}

AffinityFilterCounts count_for_filter(const Pod& pod, PodTerms terms, const ClusterPods& cluster,
                                      const Labels& namespace_labels) {
  if (auto indexed = count_for_filter_by_index(pod, terms, cluster, namespace_labels)) return std::move(*indexed);
  return count_for_filter_by_walk(pod, std::move(terms), cluster, namespace_labels);
}

AffinityFilterCounts count_for_filter_by_walk(const Pod& pod, PodTerms terms, const ClusterPods& cluster,
                                              const Labels& namespace_labels) {
  AffinityFilterCounts out;
  out.terms = std::move(terms);
  out.namespace_labels = namespace_labels;
  const auto& own = out.terms;
  const bool own_required = !own.required_affinity.empty() || !own.required_anti_affinity.empty();
  if (!own_required && cluster.pods_with_affinity_terms() == 0) return out;
  for (const auto& [name, entry] : cluster.nodes()) {
    if (!entry.node) continue;
    const Labels& labels = entry.node->meta.labels;
    for (const auto& placed : entry.pods_with_terms)
      for (const auto& term : terms_of_placed(*placed).required_anti_affinity)
        if (term.matches(pod, namespace_labels)) count_on(out.existing_anti_affinity, term, labels);
    if (!own_required) continue;
    for (const auto& placed : entry.pods) {
      const Pod& other = *placed->pod;
      if (matches_all(own.required_affinity, other))
        for (const auto& term : own.required_affinity) count_on(out.affinity, term, labels);
      for (const auto& term : own.required_anti_affinity)
        if (term.matches(other)) count_on(out.anti_affinity, term, labels);
    }
  }
  return out;
}

std::optional<AffinityFilterCounts> count_for_filter_by_index(const Pod& pod, const PodTerms& terms,
                                                              const ClusterPods& cluster,
                                                              const Labels& namespace_labels) {
  // A pod must match every required affinity term: one term's candidates hold them all.
  std::optional<Candidates> affinity_candidates;
  for (const auto& term : terms.required_affinity)
    if ((affinity_candidates = candidates_of(term, cluster))) break;
  if (!terms.required_affinity.empty() && !affinity_candidates) return std::nullopt;
  auto anti_candidates = candidates_of_all(terms.required_anti_affinity, cluster);
  if (!anti_candidates) return std::nullopt;

  AffinityFilterCounts out;
  out.terms = terms;
  out.namespace_labels = namespace_labels;
  cluster.terms_by_label().visit(pod.meta.labels, [&](const PlacedTerm<NodeEntry>& placed) {
    if (placed.kind != TermKind::required_anti_affinity || !placed.place->node) return;
    if (placed.term->matches(pod, namespace_labels))
      count_on(out.existing_anti_affinity, *placed.term, placed.place->node->meta.labels);
  });
  if (affinity_candidates) {
    for_each_candidate(*affinity_candidates, cluster, Nominated::count, [&](const Pod& other, const Labels& labels) {
      if (!matches_all(terms.required_affinity, other)) return;
      for (const auto& term : terms.required_affinity) count_on(out.affinity, term, labels);
    });
  }
  for (size_t i = 0; i < terms.required_anti_affinity.size(); ++i) {
    const auto& term = terms.required_anti_affinity[i];
    for_each_candidate((*anti_candidates)[i], cluster, Nominated::count, [&](const Pod& other, const Labels& labels) {
      if (term.matches(other)) count_on(out.anti_affinity, term, labels);
    });
  }
  return out;
}

TopologyScores score_topologies(const Pod& pod, const PodTerms& terms, const ClusterPods& cluster,
                                const InterPodAffinityArgs& args, const Labels& namespace_labels) {
  if (auto indexed = score_topologies_by_index(pod, terms, cluster, args, namespace_labels))
    return std::move(*indexed);
  return score_topologies_by_walk(pod, terms, cluster, args, namespace_labels);
}

TopologyScores score_topologies_by_walk(const Pod& pod, const PodTerms& terms, const ClusterPods& cluster,
                                        const InterPodAffinityArgs& args, const Labels& namespace_labels) {
  TopologyScores scores;
  const bool own_preferred = has_preferred_terms(terms);
  if (!own_preferred && (args.ignore_preferred_terms_of_existing_pods || cluster.pods_with_affinity_terms() == 0))
    return scores;
  for (const auto& [name, entry] : cluster.nodes()) {
    if (!entry.node) continue;
    const Labels& labels = entry.node->meta.labels;
    // Without preferred terms of its own, only placed pods' terms can score (upstream's PodsWithAffinity).
    for (const auto& placed : own_preferred ? entry.pods : entry.pods_with_terms) {
      if (cluster.is_nominated(*placed)) continue;
      const Pod& other = *placed->pod;
      add_terms(scores, terms.preferred_affinity, +1, other, kOwnTermsNeedNone, labels);
      add_terms(scores, terms.preferred_anti_affinity, -1, other, kOwnTermsNeedNone, labels);
      if (!placed->placed_terms) continue;
      const PodTerms& theirs = *placed->placed_terms;
      if (args.hard_pod_affinity_weight > 0)
        for (const auto& term : theirs.required_affinity)
          add_term(scores, term, args.hard_pod_affinity_weight, pod, namespace_labels, labels);
      // ignorePreferredTermsOfExistingPods only skips PreScore for a pod without preferred terms (upstream).
      add_terms(scores, theirs.preferred_affinity, +1, pod, namespace_labels, labels);
      add_terms(scores, theirs.preferred_anti_affinity, -1, pod, namespace_labels, labels);
    }
  }
  return scores;
}

std::optional<TopologyScores> score_topologies_by_index(const Pod& pod, const PodTerms& terms,
                                                        const ClusterPods& cluster, const InterPodAffinityArgs& args,
                                                        const Labels& namespace_labels) {
  auto affinity_candidates = candidates_of_all(terms.preferred_affinity, cluster);
  auto anti_candidates = candidates_of_all(terms.preferred_anti_affinity, cluster);
  if (!affinity_candidates || !anti_candidates) return std::nullopt;
  TopologyScores scores;
  const bool own_preferred = has_preferred_terms(terms);
  if (!own_preferred && (args.ignore_preferred_terms_of_existing_pods || cluster.pods_with_affinity_terms() == 0))
    return scores;
  auto add_own = [&](const std::vector<ResolvedTerm>& own, const std::vector<Candidates>& candidates, int sign) {
    for (size_t i = 0; i < own.size(); ++i)
      for_each_candidate(candidates[i], cluster, Nominated::leave_out, [&](const Pod& other, const Labels& labels) {
        add_term(scores, own[i], sign * int64_t{own[i].weight}, other, kOwnTermsNeedNone, labels);
      });
  };
  add_own(terms.preferred_affinity, *affinity_candidates, +1);
  add_own(terms.preferred_anti_affinity, *anti_candidates, -1);
  cluster.terms_by_label().visit(pod.meta.labels, [&](const PlacedTerm<NodeEntry>& placed) {
    if (!placed.place->node || cluster.is_nominated(*placed.pod)) return;
    const Labels& labels = placed.place->node->meta.labels;
    switch (placed.kind) {
      case TermKind::required_affinity:
        if (args.hard_pod_affinity_weight > 0)
          add_term(scores, *placed.term, args.hard_pod_affinity_weight, pod, namespace_labels, labels);
        break;
      case TermKind::preferred_affinity:
        add_term(scores, *placed.term, placed.term->weight, pod, namespace_labels, labels);
        break;
      case TermKind::preferred_anti_affinity:
        add_term(scores, *placed.term, -int64_t{placed.term->weight}, pod, namespace_labels, labels);
        break;
      case TermKind::required_anti_affinity:
        break;  // filters only
    }
  });
  return scores;
}

}  // namespace troupe::plugins::affinity
