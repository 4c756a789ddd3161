#include "plugins/volumes/volume_plan.hpp"

#include <algorithm>
#include <unordered_set>

#include "plugins/volumes/volume_matching.hpp"

namespace troupe::plugins::volumes {

namespace {

ClaimToBind to_bind(const PersistentVolumeClaim& claim) {
  ClaimToBind out;
  out.namespace_name = claim.meta.namespace_name;
  out.name = claim.meta.name;
  out.uid = claim.meta.uid;
  out.resource_version = claim.meta.resource_version;
  return out;
}

std::string claim_key(const PersistentVolumeClaim& claim) {
  return claim.meta.namespace_name + "/" + claim.meta.name;
}

/// binder.go hasEnoughCapacity: for a CSI driver that publishes its capacity
/// (CSIDriver spec.storageCapacity), some CSIStorageCapacity of the class
/// that the node can reach must hold the claim's request (its
/// maximumVolumeSize, else its capacity). A claim without request, or
/// another provisioner, is not checked.
bool has_enough_capacity(const PersistentVolumeClaim& claim, const StorageClass& storage_class,
                         const VolumeCatalog& catalog, const Labels& node_labels) {
  if (claim.requested_storage.is_zero()) return true;
  const CsiDriver* driver = catalog.csi_driver(storage_class.provisioner);
  if (driver == nullptr || !driver->storage_capacity) return true;
  const int64_t size = claim.requested_storage.value();
  for (const auto& [key, capacity] : catalog.capacities) {
    const std::optional<Quantity>& limit = capacity->maximum_volume_size ? capacity->maximum_volume_size
                                                                         : capacity->capacity;
    if (capacity->storage_class_name == storage_class.meta.name && limit && limit->value() >= size &&
        capacity->node_topology && capacity->node_topology->matches(node_labels))
      return true;
  }
  return false;
}

/// binder.go checkVolumeProvisions: every claim left must be provisionable
/// here, with room for it where the driver publishes its capacity.
PluginStatus check_provisions(const std::vector<const PersistentVolumeClaim*>& claims, const VolumeCatalog& catalog,
                              const Labels& node_labels, VolumePlan& plan) {
  for (const PersistentVolumeClaim* claim : claims) {
    const std::string class_name = storage_class_of(*claim);
    if (class_name.empty()) return PluginStatus::internal_error("no class for claim " + quoted(claim_key(*claim)));
    const StorageClass* storage_class = catalog.storage_class(class_name);
    if (storage_class == nullptr)
      return PluginStatus::internal_error("failed to find storage class " + quoted(class_name));
    if (storage_class->provisioner.empty() || storage_class->provisioner == kNoProvisioner ||
        !matches_allowed_topologies(*storage_class, node_labels))
      return PluginStatus::unresolvable(kBindConflict);
    if (!has_enough_capacity(*claim, *storage_class, catalog, node_labels))
      return PluginStatus::unresolvable(kNotEnoughSpace);
    plan.claims.push_back(to_bind(*claim));
  }
  return {};
}

}  // namespace

PlanOutcome plan_delayed_claims(const std::vector<const PersistentVolumeClaim*>& delayed, const VolumeCatalog& catalog,
                                const std::string& node_name, const Labels& node_labels) {
  PlanOutcome out;
  std::vector<const PersistentVolumeClaim*> to_match;
  std::vector<const PersistentVolumeClaim*> to_provision;
  for (const PersistentVolumeClaim* claim : delayed) {
    const std::string* selected = claim->meta.annotation(kAnnotationSelectedNode);
    if (selected == nullptr) {
      to_match.push_back(claim);
    } else if (*selected == node_name) {
      to_provision.push_back(claim);
    } else {
      out.status = PluginStatus::unresolvable(kBindConflict);
      return out;
    }
  }
  std::stable_sort(to_match.begin(), to_match.end(), [](const auto* a, const auto* b) {
    return a->requested_storage < b->requested_storage;
  });
  std::unordered_set<std::string> chosen;
  std::vector<const PersistentVolumeClaim*> unmatched;
  for (const PersistentVolumeClaim* claim : to_match) {
    auto volume = find_matching_volume(*claim, catalog, node_labels, chosen);
    if (!volume) {
      unmatched.push_back(claim);
      continue;
    }
    chosen.insert(volume->meta.name);
    ClaimToBind binding = to_bind(*claim);
    binding.volume = volume->meta.name;
    binding.volume_resource_version = volume->meta.resource_version;
    binding.volume_prebound = volume_bound_to_claim(*volume, *claim);
    out.plan.claims.push_back(std::move(binding));
  }
  // Claims without a volume are provisioned, after those already headed there.
  to_provision.insert(to_provision.end(), unmatched.begin(), unmatched.end());
  out.status = check_provisions(to_provision, catalog, node_labels, out.plan);
  return out;
}

}  // namespace troupe::plugins::volumes
