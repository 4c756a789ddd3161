#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"

#include <algorithm>
#include <climits>

#include "config/yaml_fields.hpp"
#include "plugins/framework/counted_pods_update.hpp"
#include "plugins/common/args.hpp"
#include "plugins/inter_pod_affinity/affinity_counting.hpp"

namespace troupe::plugins::affinity {

namespace {

/// What PreFilter and PreScore leave for Filter and Score (one slot holds both).
struct AffinityState {
  std::shared_ptr<const AffinityFilterCounts> filter;
  std::shared_ptr<const TopologyScores> scores;
  bool dry_run_copy = false;  // `filter` was copied for preemption's dry run (counted_pods_update.hpp)
};

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

/// The cluster's namespaces, when the pod's own terms need them: an error
/// when they were not shared with the cycle.
Result<const NamespaceLabels*> namespaces_for(const CycleState& state, const Pod& pod) {
  const auto* namespaces = state.input<NamespaceLabels>();
  if (namespaces == nullptr && selects_namespaces_by_labels(pod))
    return Error{"InterPodAffinity: the namespaces' labels were not shared with this cycle"};
  return namespaces;
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
