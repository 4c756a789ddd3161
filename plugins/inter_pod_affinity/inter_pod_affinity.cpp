#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"

#include <algorithm>
#include <climits>

#include "config/yaml_fields.hpp"
#include "plugins/framework/counted_pods_update.hpp"
#include "plugins/common/args.hpp"

namespace troupe::plugins::affinity {

namespace {

/// What PreFilter and PreScore leave for Filter and Score (one slot holds both).
struct AffinityState {
  std::shared_ptr<const AffinityFilterCounts> filter;
  std::shared_ptr<const TopologyScores> scores;
  bool dry_run_copy = false;  // `filter` was copied for preemption's dry run (counted_pods_update.hpp)
};

const std::string* label_of(const Labels& labels, const std::string& key) {
  auto it = labels.find(key);
  return it == labels.end() ? nullptr : &it->second;
}

/// +1 for (term's key, the node's value of it) when the node has the key.
void count_on(TopologyCounts& counts, const ResolvedTerm& term, const Labels& node_labels) {
  if (const std::string* value = label_of(node_labels, term.topology_key)) ++counts[term.topology_key][*value];
}

/// `delta` for (term's key, the node's value of it); a zero count is erased,
/// so that an empty map still means "no pod counted anywhere".
void add_on(TopologyCounts& counts, const ResolvedTerm& term, const Labels& node_labels, int64_t delta) {
  const std::string* value = label_of(node_labels, term.topology_key);
  if (value == nullptr) return;
  auto& by_value = counts[term.topology_key];
  if ((by_value[*value] += delta) == 0) by_value.erase(*value);
  if (by_value.empty()) counts.erase(term.topology_key);
}

int64_t count_in(const TopologyCounts& counts, const std::string& key, const std::string& value) {
  auto by_key = counts.find(key);
  if (by_key == counts.end()) return 0;
  auto it = by_key->second.find(value);
  return it == by_key->second.end() ? 0 : it->second;
}

bool any_in(const TopologyCounts& counts, const std::string& key, const Labels& node_labels) {
  const std::string* value = label_of(node_labels, key);
  return value != nullptr && count_in(counts, key, *value) > 0;
}

/// A placed pod's terms, resolved leniently when its PodInfo was made (pod_info.hpp).
const PodTerms& terms_of_placed(const PodInfo& pod) {
  static const PodTerms kNone;
  return pod.placed_terms ? *pod.placed_terms : kNone;
}

/// upstream's processTerm: `sign` × weight for the term's domain on the placed pod's node, if `target` matches
/// (`target_namespace`: the labels of its namespace).
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

/// The cluster's namespaces, when the pod's own terms need them: an error
/// when they were not shared with the cycle.
Result<const NamespaceLabels*> namespaces_for(const CycleState& state, const Pod& pod) {
  const auto* namespaces = state.input<NamespaceLabels>();
  if (namespaces == nullptr && selects_namespaces_by_labels(pod))
    return Error{"InterPodAffinity: the namespaces' labels were not shared with this cycle"};
  return namespaces;
}

bool has_preferred_terms(const PodTerms& terms) {
  return !terms.preferred_affinity.empty() || !terms.preferred_anti_affinity.empty();
}

}  // namespace

struct InterPodAffinity::State : AffinityState {};

InterPodAffinityArgs InterPodAffinityArgs::from_yaml(const YAML::Node& args) {
  InterPodAffinityArgs out;
  if (config::is_absent(args)) return out;
  config::reject_unknown_fields(args, "", {"hardPodAffinityWeight", "ignorePreferredTermsOfExistingPods"});
  config::read_optional(args, "", "hardPodAffinityWeight", out.hard_pod_affinity_weight);
  if (out.hard_pod_affinity_weight < 0 || out.hard_pod_affinity_weight > 100)
    throw config::FieldError("hardPodAffinityWeight", "Invalid value: " +
                                                          std::to_string(out.hard_pod_affinity_weight) +
                                                          ": not in valid range [0-100]");
  config::read_optional(args, "", "ignorePreferredTermsOfExistingPods", out.ignore_preferred_terms_of_existing_pods);
  return out;
}

Result<std::shared_ptr<const Plugin>> InterPodAffinity::make(const YAML::Node& args) {
  return build_plugin<InterPodAffinityArgs, InterPodAffinity>(args, InterPodAffinityArgs::from_yaml);
}

AffinityFilterCounts count_for_filter(const Pod& pod, PodTerms terms, const ClusterPods& cluster,
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

bool nothing_to_filter(const AffinityFilterCounts& counts) {
  return counts.terms.required_affinity.empty() && counts.terms.required_anti_affinity.empty() &&
         counts.existing_anti_affinity.empty();
}

void update_counts(AffinityFilterCounts& counts, const Pod& pod, const PodInfo& other, const Labels& node_labels,
                   int64_t delta) {
  for (const auto& term : terms_of_placed(other).required_anti_affinity)
    if (term.matches(pod, counts.namespace_labels)) add_on(counts.existing_anti_affinity, term, node_labels, delta);
  const auto& own = counts.terms;
  if (!own.required_affinity.empty() && matches_all(own.required_affinity, *other.pod))
    for (const auto& term : own.required_affinity) add_on(counts.affinity, term, node_labels, delta);
  for (const auto& term : own.required_anti_affinity)
    if (term.matches(*other.pod)) add_on(counts.anti_affinity, term, node_labels, delta);
}

PluginStatus filter_node(const AffinityFilterCounts& counts, const Pod& pod, const Labels& node_labels) {
  // upstream's order: the pod's affinity (which preemption cannot help), its anti-affinity, then the placed pods'.
  const auto& required = counts.terms.required_affinity;
  bool pods_exist = true;
  for (const auto& term : required) {
    if (label_of(node_labels, term.topology_key) == nullptr)
      return PluginStatus::unresolvable(InterPodAffinity::kReasonAffinity);  // every key must be on the node
    if (!any_in(counts.affinity, term.topology_key, node_labels)) pods_exist = false;
  }
  // The first pod of a group that wants to be with its own kind goes anywhere with the keys.
  if (!pods_exist && !(counts.affinity.empty() && matches_all(required, pod)))
    return PluginStatus::unresolvable(InterPodAffinity::kReasonAffinity);
  for (const auto& term : counts.terms.required_anti_affinity)
    if (any_in(counts.anti_affinity, term.topology_key, node_labels))
      return PluginStatus::unschedulable(InterPodAffinity::kReasonAntiAffinity);
  if (!counts.existing_anti_affinity.empty())
    for (const auto& [key, value] : node_labels)
      if (count_in(counts.existing_anti_affinity, key, value) > 0)
        return PluginStatus::unschedulable(InterPodAffinity::kReasonExistingAntiAffinity);
  return {};
}

TopologyScores score_topologies(const Pod& pod, const PodTerms& terms, const ClusterPods& cluster,
                                const InterPodAffinityArgs& args, const Labels& namespace_labels) {
  static const Labels kOwnTermsNeedNone;  // the pod's own terms have their namespaces resolved
  TopologyScores scores;
  const bool own_preferred = has_preferred_terms(terms);
  if (!own_preferred && (args.ignore_preferred_terms_of_existing_pods || cluster.pods_with_affinity_terms() == 0))
    return scores;
  for (const auto& [name, entry] : cluster.nodes()) {
    if (!entry.node) continue;
    const Labels& labels = entry.node->meta.labels;
    // Without preferred terms of its own, only placed pods' terms can score (upstream's PodsWithAffinity).
    for (const auto& placed : own_preferred ? entry.pods : entry.pods_with_terms) {
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

int64_t score_node(const TopologyScores& scores, const Labels& node_labels) {
  int64_t score = 0;
  for (const auto& [key, by_value] : scores) {
    const std::string* value = label_of(node_labels, key);
    if (value == nullptr) continue;
    if (auto it = by_value.find(*value); it != by_value.end()) score += it->second;
  }
  return score;
}

void normalize_affinity_scores(std::vector<int64_t>& scores) {
  if (scores.empty()) return;
  const auto [lowest, highest] = std::minmax_element(scores.begin(), scores.end());
  const int64_t low = *lowest;
  const int64_t spread = *highest - low;
  for (auto& s : scores)
    s = spread > 0 ? static_cast<int64_t>(static_cast<double>(kMaxNodeScore) *
                                          (static_cast<double>(s - low) / static_cast<double>(spread)))
                   : 0;
}

PluginStatus InterPodAffinity::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  const auto* cluster = state.input<ClusterPods>();
  auto namespaces = namespaces_for(state, *pod.pod);
  if (!namespaces) return PluginStatus::internal_error(namespaces.message());
  PodTerms terms = resolve_terms(*pod.pod, *namespaces);
  const bool own_required = !terms.required_affinity.empty() || !terms.required_anti_affinity.empty();
  if (cluster == nullptr) {
    if (!own_required) return PluginStatus(Code::skip);
    return PluginStatus::internal_error("InterPodAffinity: the cluster's pods were not shared with this cycle");
  }
  auto counts = count_for_filter(*pod.pod, std::move(terms), *cluster,
                                 labels_of_namespace(*namespaces, pod.meta().namespace_name));
  if (nothing_to_filter(counts)) return PluginStatus(Code::skip);
  State data;
  data.filter = std::make_shared<const AffinityFilterCounts>(std::move(counts));
  state.write(state_slot(), std::move(data));
  return {};
}

PluginStatus InterPodAffinity::update_on(CycleState& state, const PodInfo& pod, const PodInfo& other,
                                         const NodeInfo& node, int64_t delta) const {
  auto change = [&](AffinityFilterCounts& counts) {
    update_counts(counts, *pod.pod, other, node.node()->meta.labels, delta);
  };
  return update_counted_pods<State, AffinityFilterCounts>(state, state_slot(), &State::filter, other, node, change);
}

PluginStatus InterPodAffinity::add_pod(CycleState& state, const PodInfo& pod, const PodInfo& added,
                                       const NodeInfo& node) const {
  return update_on(state, pod, added, node, +1);
}

PluginStatus InterPodAffinity::remove_pod(CycleState& state, const PodInfo& pod, const PodInfo& removed,
                                          const NodeInfo& node) const {
  return update_on(state, pod, removed, node, -1);
}

PluginStatus InterPodAffinity::filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const auto* data = state.read<State>(state_slot());
  if (data == nullptr || !data->filter) return {};
  if (node.node() == nullptr) return PluginStatus::unresolvable(kReasonAffinity);
  return filter_node(*data->filter, *pod.pod, node.node()->meta.labels);
}

PluginStatus InterPodAffinity::pre_score(CycleState& state, const PodInfo& pod) const {
  const auto* cluster = state.input<ClusterPods>();
  if (cluster == nullptr) return PluginStatus(Code::skip);  // nothing placed that could count
  State data;
  if (const auto* before = state.read<State>(state_slot())) data = *before;
  auto namespaces = namespaces_for(state, *pod.pod);
  if (!namespaces) return PluginStatus::internal_error(namespaces.message());
  const PodTerms terms = data.filter ? data.filter->terms : resolve_terms(*pod.pod, *namespaces);
  auto scores = score_topologies(*pod.pod, terms, *cluster, args_,
                                 labels_of_namespace(*namespaces, pod.meta().namespace_name));
  if (scores.empty()) return PluginStatus(Code::skip);
  data.scores = std::make_shared<const TopologyScores>(std::move(scores));
  state.write(state_slot(), std::move(data));
  return {};
}

ScoreResult InterPodAffinity::score(const CycleState& state, const PodInfo&, const NodeInfo& node) const {
  ScoreResult result;
  const auto* data = state.read<State>(state_slot());
  if (data == nullptr || !data->scores || node.node() == nullptr) return result;
  result.score = score_node(*data->scores, node.node()->meta.labels);
  return result;
}

PluginStatus InterPodAffinity::normalize_scores(const CycleState&, const PodInfo&,
                                                std::vector<int64_t>& scores) const {
  normalize_affinity_scores(scores);
  return {};
}

std::vector<ClusterEvent> InterPodAffinity::events_to_register() const {
  return {{EventResource::pod, kAdd | kDelete | kUpdatePodLabel, "PodChange"},
          {EventResource::node, kAdd | kUpdateNodeLabel, "NodeAddOrLabelChange"}};
}

}  // namespace troupe::plugins::affinity
