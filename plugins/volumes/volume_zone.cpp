#include "plugins/volumes/volume_zone.hpp"

#include <array>

namespace troupe::plugins::volumes {

namespace {

constexpr const char* kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr const char* kBetaRegion = "failure-domain.beta.kubernetes.io/region";
constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kRegion = "topology.kubernetes.io/region";
constexpr std::array<const char*, 4> kTopologyKeys = {kBetaZone, kBetaRegion, kZone, kRegion};

std::string trimmed(const std::string& s) {
  const char* space = " \t\n\r\f\v";
  const size_t begin = s.find_first_not_of(space);
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(space) - begin + 1);
}

/// The PersistentVolume name of a claim, "" to skip it (unbound, waiting for
/// its first consumer), or the PreFilter failure.
PluginStatus volume_of(const PersistentVolumeClaim& claim, const VolumeCatalog& catalog, std::string& volume) {
  volume = claim.volume_name;
  if (!volume.empty()) return {};
  const std::string class_name = storage_class_of(claim);
  if (class_name.empty()) return PluginStatus::unresolvable("PersistentVolumeClaim had no pv name and storageClass name");
  const StorageClass* storage_class = catalog.storage_class(class_name);
  if (storage_class == nullptr)
    return PluginStatus::unresolvable("storageclass.storage.k8s.io " + quoted(class_name) + " not found");
  if (storage_class->volume_binding_mode.empty())
    return PluginStatus::unresolvable("VolumeBindingMode not set for StorageClass " + quoted(class_name));
  if (storage_class->waits_for_first_consumer()) return {};
  return PluginStatus::unresolvable("PersistentVolume had no name");
}

void add_topologies(const PersistentVolume& volume, VolumeZone::Topologies& out) {
  for (const char* key : kTopologyKeys) {
    const std::string* value = volume.meta.label(key);
    if (value == nullptr) continue;
    auto zones = zones_of_label(*value);
    if (!zones) continue;  // upstream logs and ignores a malformed value
    out.push_back(VolumeZone::Topology{volume.meta.name, key, std::move(*zones)});
  }
}

bool has_topology_label(const Labels& labels) {
  for (const char* key : kTopologyKeys)
    if (labels.count(key) > 0) return true;
  return false;
}

/// The node's value for a volume's key; a beta key falls back to its GA label.
const std::string* node_value(const Labels& labels, const std::string& key) {
  auto it = labels.find(key);
  if (it != labels.end()) return &it->second;
  const char* ga = key == kBetaZone ? kZone : key == kBetaRegion ? kRegion : nullptr;
  if (ga == nullptr) return nullptr;
  it = labels.find(ga);
  return it == labels.end() ? nullptr : &it->second;
}

}  // namespace

std::optional<std::set<std::string>> zones_of_label(const std::string& value) {
  std::set<std::string> zones;
  size_t start = 0;
  while (true) {
    const size_t end = value.find("__", start);
    std::string zone = trimmed(value.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (zone.empty()) return std::nullopt;
    zones.insert(std::move(zone));
    if (end == std::string::npos) return zones;
    start = end + 2;
  }
}

PluginStatus VolumeZone::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  const VolumeCatalog& catalog = catalog_of(state);
  Topologies topologies;
  for (const PodVolumeClaim& volume : pod.spec().volume_claims) {
    if (volume.ephemeral) continue;
    if (volume.claim_name.empty()) return PluginStatus::unresolvable("PersistentVolumeClaim had no name");
    const PersistentVolumeClaim* claim = catalog.claim(pod.meta().namespace_name, volume.claim_name);
    if (claim == nullptr)
      return PluginStatus::unresolvable("persistentvolumeclaim " + quoted(volume.claim_name) + " not found");
    std::string volume_name;
    if (PluginStatus status = volume_of(*claim, catalog, volume_name); !status.ok()) return status;
    if (volume_name.empty()) continue;
    auto persistent_volume = catalog.volume(volume_name);
    if (persistent_volume == nullptr)
      return PluginStatus::unresolvable("persistentvolume " + quoted(volume_name) + " not found");
    add_topologies(*persistent_volume, topologies);
  }
  if (topologies.empty()) return PluginStatus(Code::skip);
  state.write(state_slot(), std::move(topologies));
  return {};
}

PluginStatus VolumeZone::filter(const CycleState& state, const PodInfo&, const NodeInfo& node) const {
  const Topologies* topologies = state.read<Topologies>(state_slot());
  if (topologies == nullptr) return PluginStatus::internal_error("VolumeZone: no PreFilter state");
  const Labels& labels = node.node()->meta.labels;
  if (!has_topology_label(labels)) return {};
  for (const Topology& topology : *topologies) {
    const std::string* value = node_value(labels, topology.key);
    if (value == nullptr || topology.values.count(*value) == 0) return PluginStatus::unresolvable(kConflict);
  }
  return {};
}

std::vector<ClusterEvent> VolumeZone::events_to_register() const {
  return {{EventResource::storage, kAdd | kUpdate, "StorageChange"},
          {EventResource::node, kAdd | kUpdateNodeLabel | kUpdateNodeTaint, "NodeChange"}};
}

}  // namespace troupe::plugins::volumes
