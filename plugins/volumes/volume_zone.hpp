#pragma once
// VolumeZone (kube-scheduler's volumezone plugin): a pod whose bound
// PersistentVolumes carry zone or region labels only fits nodes in one of
// those zones and regions. The labels read, on the volume and the node:
// failure-domain.beta.kubernetes.io/{zone,region} and
// topology.kubernetes.io/{zone,region}; a volume's value may list several
// zones joined by "__". A node with none of those labels passes (a single-zone
// cluster); one missing the volume's key, or with a value outside its set,
// does not ("node(s) had no available volume zone"). A node's beta label
// stands in for nothing; its GA label stands in for a volume's beta one.
// Ephemeral volumes are not looked at; an unbound claim of a
// WaitForFirstConsumer class is skipped, any other unbound claim rejects.

#include <set>
#include <string>
#include <vector>

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"
#include "plugins/volumes/volume_catalog.hpp"

namespace troupe::plugins::volumes {

/// volume/helpers.LabelZonesToSet: "a__b" → {a, b}, each trimmed; nullopt
/// when a part is empty (the label is then ignored).
std::optional<std::set<std::string>> zones_of_label(const std::string& value);

class VolumeZone final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = names::kVolumeZone;
  static constexpr const char* kConflict = "node(s) had no available volume zone";

  std::string_view name() const override { return kName; }
  /// Skip for a pod whose volumes carry no zone or region label.
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  std::vector<ClusterEvent> events_to_register() const override;

  /// One zone or region label of one of the pod's volumes.
  struct Topology {
    std::string volume;
    std::string key;
    std::set<std::string> values;
  };
  using Topologies = std::vector<Topology>;
};

}  // namespace troupe::plugins::volumes
