#include "plugins/volumes/volume_binding.hpp"

#include <set>

#include "config/yaml_fields.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/node_name_set.hpp"
#include "plugins/node_affinity/node_selector.hpp"
#include "plugins/volumes/pod_claims.hpp"

namespace troupe::plugins::volumes {

Result<std::shared_ptr<const Plugin>> VolumeBinding::make(const YAML::Node& args) {
  int64_t timeout = 600;
  Status status = config::catch_field_errors([&] {
    if (config::is_absent(args)) return;
    config::expect_map(args, "");
    config::reject_unknown_fields(args, "", {"bindTimeoutSeconds", "shape"});
    config::read_optional(args, "", "bindTimeoutSeconds", timeout);
    if (timeout < 0)
      throw config::FieldError("bindTimeoutSeconds", "Invalid value: " + std::to_string(timeout) +
                                                         ": invalid BindTimeoutSeconds, should not be a negative value");
    // Capacity scoring sits behind a feature gate troupe does not turn on: upstream's error.
    if (!config::is_absent(args["shape"]))
      throw config::FieldError(
          "shape", "Invalid value: unexpected field `shape`, remove it or turn on the feature gate VolumeCapacityPriority");
  });
  if (!status) return Error{status.message()};
  return std::shared_ptr<const Plugin>(std::make_shared<const VolumeBinding>(std::chrono::seconds(timeout)));
}

const VolumeBinding* VolumeBinding::of(const Framework& framework) {
  return framework.find_plugin<VolumeBinding>();
}

std::set<std::string> local_volume_node_names(const NodeSelector& affinity) {
  std::set<std::string> result;
  for (const auto& term : affinity.terms) {
    NodeNameSet nodes;
    for (const auto& r : term.match_expressions)
      if (r.key == kLabelHostname && r.op == LabelRequirement::Op::in)
        narrow_node_names(nodes, std::set<std::string>(r.values.begin(), r.values.end()));
    if (nodes) result.insert(nodes->begin(), nodes->end());
  }
  return result;
}

namespace {

/// binder.go GetEligibleNodes: the nodes every bound local volume pins
/// (intersected); nullopt when none pins any.
NodeNameSet eligible_nodes(const std::vector<std::shared_ptr<const PersistentVolume>>& bound) {
  NodeNameSet eligible;
  for (const auto& volume : bound) {
    if (volume == nullptr || !volume->node_affinity) continue;
    std::set<std::string> names = local_volume_node_names(*volume->node_affinity);
    if (!names.empty()) narrow_node_names(eligible, std::move(names));
  }
  return eligible;
}

}  // namespace

PluginStatus VolumeBinding::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const {
  if (pod.spec().volume_claims.empty()) return PluginStatus(Code::skip);
  const VolumeCatalog& catalog = catalog_of(state);
  PodClaims claims = resolve_pod_claims(*pod.pod, catalog);
  if (!claims.failure.ok()) return claims.failure;
  // Upstream rejects unbound immediate claims here, before any other claim is looked at.
  for (const PodClaim& claim : claims.claims)
    if (claim.binding == ClaimBinding::unbound_immediate) return PluginStatus::unresolvable(kUnboundImmediate);
  PodVolumes volumes;
  bool reads_node = false;
  for (const PodClaim& claim : claims.claims) {
    if (claim.binding == ClaimBinding::delayed) {
      volumes.delayed.push_back(claim.claim);
      reads_node = true;
      continue;
    }
    auto volume = catalog.volume(claim.claim->volume_name);
    reads_node = reads_node || volume == nullptr || volume->node_affinity.has_value();
    volumes.volumes.push_back(std::move(volume));
  }
  if (!reads_node) return PluginStatus(Code::skip);
  // Upstream narrows the nodes to those its bound local volumes pin (the
  // framework answers "node(s) didn't satisfy plugin VolumeBinding" when the
  // pins have no node in common, and names the plugin in the fit error).
  result.node_names = eligible_nodes(volumes.volumes);
  state.write(state_slot(), std::move(volumes));
  return {};
}

// binder.go FindPodVolumes: the bound claims (the first missing volume or
// affinity conflict stops that check), then the claims to bind; every
// reason found, in upstream's order.
PluginStatus VolumeBinding::filter(const CycleState& state, const PodInfo&, const NodeInfo& node) const {
  const PodVolumes* volumes = state.read<PodVolumes>(state_slot());
  if (volumes == nullptr) return PluginStatus::internal_error("VolumeBinding: no PreFilter state");
  const Labels& labels = node.node()->meta.labels;
  bool bound_reach_node = true;
  bool bound_exist = true;
  for (const auto& volume : volumes->volumes) {
    if (volume == nullptr) {
      bound_exist = false;
      break;
    }
    if (volume->node_affinity && !selector_matches_labels(*volume->node_affinity, labels)) {
      bound_reach_node = false;
      break;
    }
  }
  std::vector<std::string> reasons;
  if (!bound_reach_node) reasons.push_back(kNodeConflict);
  if (!volumes->delayed.empty()) {
    PlanOutcome planned = plan_delayed_claims(volumes->delayed, catalog_of(state), node.node()->meta.name, labels);
    if (planned.status.code == Code::error) return planned.status;
    // kBindConflict or kNotEnoughSpace: between the two others, as upstream orders them.
    reasons.insert(reasons.end(), planned.status.reasons.begin(), planned.status.reasons.end());
  }
  if (!bound_exist) reasons.push_back(kVolumeMissing);
  if (reasons.empty()) return {};
  return PluginStatus(Code::unschedulable_and_unresolvable, std::move(reasons));
}

std::optional<PlanOutcome> VolumeBinding::decide_plan(CycleState& state, const std::string& node_name,
                                                      const Labels& node_labels) const {
  const PodVolumes* volumes = state.read<PodVolumes>(state_slot());
  if (volumes == nullptr || volumes->delayed.empty()) return std::nullopt;
  PlanOutcome outcome = plan_delayed_claims(volumes->delayed, catalog_of(state), node_name, node_labels);
  if (outcome.status.ok()) {
    PodVolumes decided = *volumes;
    decided.decided = outcome.plan;
    state.write(state_slot(), std::move(decided));
  }
  return outcome;
}

// volume_binding.go PreBind: nothing to do when every claim was bound.
PluginStatus VolumeBinding::pre_bind(CycleState& state, const PodInfo&, const std::string&,
                                     BindingChanges& changes) const {
  const PodVolumes* volumes = state.read<PodVolumes>(state_slot());
  if (volumes == nullptr || volumes->delayed.empty()) return {};
  if (!volumes->decided) return PluginStatus::internal_error("VolumeBinding: no volume plan decided at Reserve");
  changes.claim_bindings.claims = volumes->decided->claims;
  changes.claim_bindings.timeout = bind_timeout_;
  return {};
}

std::vector<ClusterEvent> VolumeBinding::events_to_register() const {
  return {{EventResource::storage, kAdd | kUpdate, "StorageChange"},
          {EventResource::node, kAdd | kUpdateNodeLabel | kUpdateNodeTaint, "NodeChange"}};
}

}  // namespace troupe::plugins::volumes
