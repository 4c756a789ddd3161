#include "plugins/node_affinity/node_affinity.hpp"

#include <algorithm>

#include "config/yaml_fields.hpp"
#include "plugins/common/args.hpp"
#include "plugins/framework/node_name_set.hpp"
#include "plugins/framework/normalize_score.hpp"
#include "plugins/node_affinity/node_selector.hpp"

namespace troupe::plugins {

using config::FieldError;

namespace {

const std::vector<PreferredSchedulingTerm>* pod_preferred(const PodInfo& pod) {
  const auto& affinity = pod.spec().affinity;
  if (!affinity || !affinity->node_affinity) return nullptr;
  return &affinity->node_affinity->preferred;
}

/// Weight 0 and empty preferences are no-ops, as upstream drops them.
bool counts(const PreferredSchedulingTerm& t) {
  return t.weight != 0 && !(t.preference.match_expressions.empty() && t.preference.match_fields.empty());
}

int64_t preferred_score(const std::vector<PreferredSchedulingTerm>& terms, const Node& node) {
  int64_t score = 0;
  for (const auto& t : terms)
    if (counts(t) && term_matches(t.preference, node)) score += t.weight;
  return score;
}

/// Node names a term pins with metadata.name In (ANDed within the term);
/// nullopt when the term does not pin names.
std::optional<std::set<std::string>> pinned_names(const NodeSelectorTerm& term) {
  NodeNameSet names;
  for (const auto& r : term.match_fields)
    if (r.key == kNodeNameField && r.op == LabelRequirement::Op::in)
      narrow_node_names(names, std::set<std::string>(r.values.begin(), r.values.end()));
  return names;
}

NodeSelector read_required(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"nodeSelectorTerms"});
  NodeSelector selector;
  const std::string terms_path = config::child_path(path, "nodeSelectorTerms");
  const YAML::Node terms = node["nodeSelectorTerms"];
  // No term is accepted, as kube-scheduler's NewNodeSelector does: then no node matches.
  if (config::is_absent(terms)) return selector;
  config::expect_sequence(terms, terms_path);
  for (size_t i = 0; i < terms.size(); ++i)
    selector.terms.push_back(read_node_selector_term(terms[i], config::index_path(terms_path, i)));
  return selector;
}

std::vector<PreferredSchedulingTerm> read_preferred(const YAML::Node& list, const std::string& path) {
  config::expect_sequence(list, path);
  std::vector<PreferredSchedulingTerm> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string entry = config::index_path(path, i);
    config::expect_map(list[i], entry);
    config::reject_unknown_fields(list[i], entry, {"weight", "preference"});
    PreferredSchedulingTerm term;
    // The weight is not range-checked, as kube-scheduler's
    // NewPreferredSchedulingTerms (the API server checks 1-100 on pods, not
    // here); a term of weight 0 adds nothing.
    config::read_optional(list[i], entry, "weight", term.weight);
    const YAML::Node preference = list[i]["preference"];
    if (config::is_absent(preference)) throw FieldError(config::child_path(entry, "preference"), "Required value");
    term.preference = read_node_selector_term(preference, config::child_path(entry, "preference"));
    out.push_back(std::move(term));
  }
  return out;
}

}  // namespace

NodeAffinityArgs NodeAffinityArgs::from_yaml(const YAML::Node& args) {
  NodeAffinityArgs out;
  if (config::is_absent(args)) return out;
  config::reject_unknown_fields(args, "", {"addedAffinity"});
  const YAML::Node added = args["addedAffinity"];
  if (config::is_absent(added)) return out;
  const std::string path = "addedAffinity";
  config::expect_map(added, path);
  config::reject_unknown_fields(added, path, {"requiredDuringSchedulingIgnoredDuringExecution",
                                              "preferredDuringSchedulingIgnoredDuringExecution"});
  const YAML::Node required = added["requiredDuringSchedulingIgnoredDuringExecution"];
  if (!config::is_absent(required))
    out.added_required = read_required(required, config::child_path(path, "requiredDuringSchedulingIgnoredDuringExecution"));
  const YAML::Node preferred = added["preferredDuringSchedulingIgnoredDuringExecution"];
  if (!config::is_absent(preferred))
    out.added_preferred =
        read_preferred(preferred, config::child_path(path, "preferredDuringSchedulingIgnoredDuringExecution"));
  return out;
}

Result<std::shared_ptr<const Plugin>> NodeAffinity::make(const YAML::Node& args) {
  return build_plugin<NodeAffinityArgs, NodeAffinity>(args, NodeAffinityArgs::from_yaml);
}

PluginStatus NodeAffinity::pre_filter(CycleState&, const PodInfo& pod, PreFilterResult& result) const {
  const NodeSelector* required = required_node_affinity(pod.spec());
  if (required == nullptr && !args_.added_required && pod.spec().node_selector.empty())
    return PluginStatus(Code::skip);
  if (required == nullptr || required->terms.empty()) return {};
  std::set<std::string> names;
  for (const auto& term : required->terms) {
    auto pinned = pinned_names(term);
    if (!pinned) return {};  // this term admits any node: the terms are ORed
    names.insert(pinned->begin(), pinned->end());
  }
  if (names.empty()) return PluginStatus::unresolvable(kReasonConflict);
  result.node_names = std::move(names);
  return {};
}

PluginStatus NodeAffinity::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node_info) const {
  const Node* node = node_info.node();
  if (node == nullptr) return PluginStatus::unresolvable(kReasonPod);
  if (args_.added_required && !selector_matches(*args_.added_required, *node))
    return PluginStatus::unresolvable(kReasonEnforced);
  if (!required_node_selection_matches(pod.spec(), *node)) return PluginStatus::unresolvable(kReasonPod);
  return {};
}

PluginStatus NodeAffinity::pre_score(CycleState&, const PodInfo& pod) const {
  const auto* preferred = pod_preferred(pod);
  bool any = std::any_of(args_.added_preferred.begin(), args_.added_preferred.end(), counts);
  if (preferred != nullptr) any = any || std::any_of(preferred->begin(), preferred->end(), counts);
  return any ? PluginStatus() : PluginStatus(Code::skip);
}

ScoreResult NodeAffinity::score(const CycleState&, const PodInfo& pod, const NodeInfo& node_info) const {
  ScoreResult result;
  const Node* node = node_info.node();
  if (node == nullptr) return result;
  if (const auto* preferred = pod_preferred(pod)) result.score += preferred_score(*preferred, *node);
  result.score += preferred_score(args_.added_preferred, *node);
  return result;
}

PluginStatus NodeAffinity::normalize_scores(const CycleState&, const PodInfo&, std::vector<int64_t>& scores) const {
  default_normalize_score(kMaxNodeScore, false, scores);
  return {};
}

std::vector<ClusterEvent> NodeAffinity::events_to_register() const {
  return {{EventResource::node, kAdd | kUpdateNodeLabel, "NodeAddOrLabelChange"}};
}

}  // namespace troupe::plugins
