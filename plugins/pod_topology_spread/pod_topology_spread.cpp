#include "plugins/pod_topology_spread/pod_topology_spread.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "config/yaml_fields.hpp"
#include "plugins/framework/counted_pods_update.hpp"
#include "plugins/common/args.hpp"
#include "plugins/pod_topology_spread/default_constraints.hpp"
#include "plugins/pod_topology_spread/domain_counting.hpp"
#include "plugins/node_affinity/node_selector.hpp"
#include "plugins/taint_toleration/taint_toleration.hpp"

namespace troupe::plugins::spread {

namespace {

/// What PreFilter and PreScore leave for Filter and Score (one slot holds both).
struct SpreadState {
  std::shared_ptr<const SpreadFilterCounts> filter;
  std::shared_ptr<const SpreadScoreCounts> score;
  bool dry_run_copy = false;  // `filter` was copied for preemption's dry run (counted_pods_update.hpp)
};

/// The fewest matching pods in any of the `domains`, of which `matching`
/// lists those with any; 0 when there are fewer domains than minDomains;
/// INT32_MAX without a domain (nothing to be skewed against).
int64_t fewest_matching(const std::unordered_map<std::string, int64_t>& matching, size_t domains,
                        const std::optional<int32_t>& min_domains) {
  int64_t fewest = matching.size() < domains ? 0 : INT32_MAX;
  for (const auto& [value, count] : matching) fewest = std::min(fewest, count);
  if (min_domains && static_cast<int64_t>(domains) < *min_domains) fewest = 0;
  return fewest;
}

double normalizing_weight(size_t domains) { return std::log(static_cast<double>(domains) + 2); }

}  // namespace

struct PodTopologySpread::State : SpreadState {};

PodTopologySpreadArgs::PodTopologySpreadArgs() : default_constraints(system_default_constraints()) {}

PodTopologySpreadArgs PodTopologySpreadArgs::from_yaml(const YAML::Node& args) {
  PodTopologySpreadArgs out;
  if (config::is_absent(args)) return out;
  config::reject_unknown_fields(args, "", {"defaultConstraints", "defaultingType"});
  std::string defaulting = "System";
  config::read_optional(args, "", "defaultingType", defaulting);
  if (defaulting != "System" && defaulting != "List")
    throw config::FieldError("defaultingType", "Unsupported value: \"" + defaulting +
                                                   "\": supported values: \"System\", \"List\"");
  std::vector<TopologySpreadConstraint> listed;
  const YAML::Node defaults = args["defaultConstraints"];
  if (!config::is_absent(defaults)) listed = read_default_constraints(defaults, "defaultConstraints");
  if (defaulting == "System" && !listed.empty())
    throw config::FieldError("defaultingType", "Invalid value: \"System\": when .defaultConstraints are not empty");
  if (defaulting == "List") {
    out.default_constraints = std::move(listed);
    out.system_defaulted = false;
  }
  return out;
}

Result<std::shared_ptr<const Plugin>> PodTopologySpread::make(const YAML::Node& args) {
  return build_plugin<PodTopologySpreadArgs, PodTopologySpread>(args, PodTopologySpreadArgs::from_yaml);
}

const PodTopologySpread* PodTopologySpread::of(const Framework& framework) {
  return framework.find_plugin<PodTopologySpread>();
}

std::vector<SpreadConstraint> PodTopologySpread::constraints_for(const Pod& pod, UnsatisfiableAction kind,
                                                                 const WorkloadSelectors* workloads) const {
  if (!pod.spec.topology_spread_constraints.empty()) return constraints_of(pod, kind);
  if (workloads == nullptr) return {};
  return default_constraints_of(args_.default_constraints, kind, workloads->default_selector(pod));
}

std::vector<SpreadConstraint> constraints_of(const Pod& pod, UnsatisfiableAction kind) {
  std::vector<SpreadConstraint> out;
  for (const auto& c : pod.spec.topology_spread_constraints) {
    if (c.when_unsatisfiable != kind) continue;
    LabelSelector selector = with_label_values(c.label_selector, pod.meta.labels, c.match_label_keys);
    out.push_back(SpreadConstraint{c.max_skew, c.topology_key, std::move(selector), c.min_domains,
                                   c.node_affinity_policy, c.node_taints_policy});
  }
  return out;
}

bool counts_for(const ObjectMeta& meta, const LabelSelector& selector, const std::string& ns) {
  return !selector.empty() && !meta.is_terminating() && meta.namespace_name == ns && selector.matches(meta.labels);
}

int64_t count_matching(const std::vector<std::shared_ptr<const PodInfo>>& pods, const LabelSelector& selector,
                       const std::string& ns, const ClusterPods* leave_out_nominated) {
  int64_t count = 0;
  for (const auto& p : pods)
    if (counts_for(p->meta(), selector, ns) && !(leave_out_nominated && leave_out_nominated->is_nominated(*p)))
      ++count;
  return count;
}

bool node_included(const SpreadConstraint& c, const Pod& pod, const Node& node) {
  if (c.node_affinity_policy == NodeInclusionPolicy::honor && !required_node_selection_matches(pod.spec, node))
    return false;
  if (c.node_taints_policy == NodeInclusionPolicy::honor &&
      first_untolerated_scheduling_taint(node.spec.taints, pod.spec.tolerations) != nullptr)
    return false;
  return true;
}

SpreadFilterCounts count_for_filter(const Pod& pod, std::vector<SpreadConstraint> constraints,
                                    const ClusterPods& cluster) {
  SpreadFilterCounts out;
  const CountingRequest request{/*require_all_keys=*/true, EmptyDomains::count, /*count_admitted=*/false,
                                /*with_nominated=*/true};
  DomainCounts counted = count_domains(pod, constraints, cluster, request);
  out.matching = std::move(counted.matching);
  out.domains = std::move(counted.domains);
  for (size_t i = 0; i < constraints.size(); ++i)
    out.min_matching.push_back(fewest_matching(out.matching[i], out.domains[i], constraints[i].min_domains));
  out.constraints = std::move(constraints);
  return out;
}

void update_counts(SpreadFilterCounts& counts, const Pod& pod, const PodInfo& other, const Node& node,
                   int64_t delta) {
  const Labels& labels = node.meta.labels;
  if (!has_all_keys(labels, counts.constraints)) return;
  for (size_t i = 0; i < counts.constraints.size(); ++i) {
    const auto& c = counts.constraints[i];
    if (!counts_for(other.meta(), c.selector, pod.meta.namespace_name) || !node_included(c, pod, node)) continue;
    counts.matching[i][labels.at(c.topology_key)] += delta;
    counts.min_matching[i] = fewest_matching(counts.matching[i], counts.domains[i], c.min_domains);
  }
}

PluginStatus filter_node(const SpreadFilterCounts& counts, const Pod& pod, const Labels& node_labels) {
  for (size_t i = 0; i < counts.constraints.size(); ++i) {
    const auto& c = counts.constraints[i];
    auto value = node_labels.find(c.topology_key);
    if (value == node_labels.end()) return PluginStatus::unresolvable(PodTopologySpread::kReasonMissingLabel);
    const int64_t self = c.selector.matches(pod.meta.labels) ? 1 : 0;
    auto domain = counts.matching[i].find(value->second);
    const int64_t matching = domain == counts.matching[i].end() ? 0 : domain->second;
    if (matching + self - counts.min_matching[i] > c.max_skew)
      return PluginStatus::unschedulable(PodTopologySpread::kReasonNotMatch);
  }
  return {};
}

SpreadScoreCounts count_for_score(const Pod& pod, std::vector<SpreadConstraint> constraints,
                                  const ClusterPods& cluster, bool require_all_keys) {
  SpreadScoreCounts out;
  out.require_all_keys = require_all_keys;
  const CountingRequest request{require_all_keys, EmptyDomains::drop, /*count_admitted=*/true,
                                /*with_nominated=*/false};
  DomainCounts counted = count_domains(pod, constraints, cluster, request);
  out.matching = std::move(counted.matching);
  // How many domains each constraint has among the nodes the pod may go to.
  for (size_t domains : counted.admitted_domains) out.weights.push_back(normalizing_weight(domains));
  out.constraints = std::move(constraints);
  return out;
}

int64_t score_node(const SpreadScoreCounts& counts, const Node& node) {
  const Labels& labels = node.meta.labels;
  double score = 0;
  for (size_t i = 0; i < counts.constraints.size(); ++i) {
    const auto& c = counts.constraints[i];
    auto value = labels.find(c.topology_key);
    if (value == labels.end()) {
      if (counts.require_all_keys) return kIgnoredNode;
      continue;
    }
    auto domain = counts.matching[i].find(value->second);
    const int64_t matching = domain == counts.matching[i].end() ? 0 : domain->second;
    // upstream's scoreForCount
    score += static_cast<double>(matching) * counts.weights[i] + static_cast<double>(c.max_skew - 1);
  }
  return std::llround(score);
}

void normalize_spread_scores(std::vector<int64_t>& scores) {
  int64_t lowest = INT64_MAX;
  int64_t highest = 0;
  for (int64_t s : scores) {
    if (s == kIgnoredNode) continue;
    lowest = std::min(lowest, s);
    highest = std::max(highest, s);
  }
  for (auto& s : scores) {
    if (s == kIgnoredNode) {
      s = 0;
    } else if (highest == 0) {
      s = kMaxNodeScore;
    } else {
      s = kMaxNodeScore * (highest + lowest - s) / highest;
    }
  }
}

PluginStatus PodTopologySpread::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  auto constraints =
      constraints_for(*pod.pod, UnsatisfiableAction::do_not_schedule, state.input<WorkloadSelectors>());
  if (constraints.empty()) return PluginStatus(Code::skip);
  const auto* cluster = state.input<ClusterPods>();
  if (cluster == nullptr)
    return PluginStatus::internal_error("PodTopologySpread: the cluster's pods were not shared with this cycle");
  State data;
  data.filter = std::make_shared<const SpreadFilterCounts>(count_for_filter(*pod.pod, std::move(constraints), *cluster));
  state.write(state_slot(), std::move(data));
  return {};
}

PluginStatus PodTopologySpread::update_on(CycleState& state, const PodInfo& pod, const PodInfo& other,
                                          const NodeInfo& node, int64_t delta) const {
  auto change = [&](SpreadFilterCounts& counts) { update_counts(counts, *pod.pod, other, *node.node(), delta); };
  return update_counted_pods<State, SpreadFilterCounts>(state, state_slot(), &State::filter, other, node, change);
}

PluginStatus PodTopologySpread::add_pod(CycleState& state, const PodInfo& pod, const PodInfo& added,
                                        const NodeInfo& node) const {
  return update_on(state, pod, added, node, +1);
}

PluginStatus PodTopologySpread::remove_pod(CycleState& state, const PodInfo& pod, const PodInfo& removed,
                                           const NodeInfo& node) const {
  return update_on(state, pod, removed, node, -1);
}

PluginStatus PodTopologySpread::filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const auto* data = state.read<State>(state_slot());
  if (data == nullptr || !data->filter) return {};
  if (node.node() == nullptr) return PluginStatus::unresolvable(kReasonMissingLabel);
  return filter_node(*data->filter, *pod.pod, node.node()->meta.labels);
}

PluginStatus PodTopologySpread::pre_score(CycleState& state, const PodInfo& pod) const {
  auto constraints =
      constraints_for(*pod.pod, UnsatisfiableAction::schedule_anyway, state.input<WorkloadSelectors>());
  if (constraints.empty()) return PluginStatus(Code::skip);
  const auto* cluster = state.input<ClusterPods>();
  if (cluster == nullptr)
    return PluginStatus::internal_error("PodTopologySpread: the cluster's pods were not shared with this cycle");
  State data;
  if (const auto* before = state.read<State>(state_slot())) data = *before;
  // upstream's requireAllTopologies: only the system defaults let a node
  // without a zone label still spread by host.
  const bool require_all_keys = !pod.spec().topology_spread_constraints.empty() || !args_.system_defaulted;
  data.score = std::make_shared<const SpreadScoreCounts>(
      count_for_score(*pod.pod, std::move(constraints), *cluster, require_all_keys));
  state.write(state_slot(), std::move(data));
  return {};
}

ScoreResult PodTopologySpread::score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  ScoreResult result;
  const auto* data = state.read<State>(state_slot());
  if (data == nullptr || !data->score) return result;
  result.score = node.node() == nullptr ? kIgnoredNode : score_node(*data->score, *node.node());
  return result;
}

PluginStatus PodTopologySpread::normalize_scores(const CycleState&, const PodInfo&,
                                                 std::vector<int64_t>& scores) const {
  normalize_spread_scores(scores);
  return {};
}

std::vector<ClusterEvent> PodTopologySpread::events_to_register() const {
  return {{EventResource::pod, kAdd | kDelete | kUpdatePodLabel, "PodChange"},
          {EventResource::node, kAdd | kDelete | kUpdateNodeLabel | kUpdateNodeTaint, "NodeChange"}};
}

}  // namespace troupe::plugins::spread
