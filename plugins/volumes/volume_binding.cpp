#include "plugins/volumes/volume_binding.hpp"

#include "config/yaml_fields.hpp"
#include "plugins/node_affinity/node_selector.hpp"
#include "plugins/volumes/pod_claims.hpp"

namespace troupe::plugins::volumes {

namespace {

std::string waits_for_binding(const PodClaim& claim) {
  return "persistentvolumeclaim " + quoted(claim.name) + " waits for its first consumer (storage class " +
         quoted(storage_class_of(*claim.claim)) + "): troupe does not bind volumes";
}

}  // namespace

Result<std::shared_ptr<const Plugin>> VolumeBinding::make(const YAML::Node& args) {
  Status status = config::catch_field_errors([&] {
    if (config::is_absent(args)) return;
    config::expect_map(args, "");
    config::reject_unknown_fields(args, "", {"bindTimeoutSeconds", "shape"});
    int64_t timeout = 600;
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
  return std::shared_ptr<const Plugin>(std::make_shared<const VolumeBinding>());
}

PluginStatus VolumeBinding::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  if (pod.spec().volume_claims.empty()) return PluginStatus(Code::skip);
  const VolumeCatalog& catalog = catalog_of(state);
  PodClaims claims = resolve_pod_claims(*pod.pod, catalog);
  if (!claims.failure.ok()) return claims.failure;
  // Upstream rejects unbound immediate claims here, before any delayed claim
  // is looked at (those would fail at its Filter): whichever volume comes first.
  for (const PodClaim& claim : claims.claims)
    if (claim.binding == ClaimBinding::unbound_immediate) return PluginStatus::unresolvable(kUnboundImmediate);
  BoundVolumes bound;
  bool reads_node = false;
  for (const PodClaim& claim : claims.claims) {
    if (claim.binding == ClaimBinding::delayed) return PluginStatus::unresolvable(waits_for_binding(claim));
    auto volume = catalog.volume(claim.claim->volume_name);
    reads_node = reads_node || volume == nullptr || volume->node_affinity.has_value();
    bound.volumes.push_back(std::move(volume));
  }
  if (!reads_node) return PluginStatus(Code::skip);
  state.write(state_slot(), std::move(bound));
  return {};
}

// binder.go checkBoundClaims: the first missing volume or affinity conflict decides.
PluginStatus VolumeBinding::filter(const CycleState& state, const PodInfo&, const NodeInfo& node) const {
  const BoundVolumes* bound = state.read<BoundVolumes>(state_slot());
  if (bound == nullptr) return PluginStatus::internal_error("VolumeBinding: no PreFilter state");
  for (const auto& volume : bound->volumes) {
    if (volume == nullptr) return PluginStatus::unresolvable(kVolumeMissing);
    if (volume->node_affinity && !selector_matches_labels(*volume->node_affinity, node.node()->meta.labels))
      return PluginStatus::unresolvable(kNodeConflict);
  }
  return {};
}

std::vector<ClusterEvent> VolumeBinding::events_to_register() const {
  return {{EventResource::storage, kAdd | kUpdate, "StorageChange"},
          {EventResource::node, kAdd | kUpdateNodeLabel | kUpdateNodeTaint, "NodeChange"}};
}

}  // namespace troupe::plugins::volumes
