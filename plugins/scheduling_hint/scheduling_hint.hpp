#pragma once
// SchedulingHint (Koordinator): a pod's annotation tells the scheduler where
// to look, for a component that already knows (a job queue, a descheduler):
//
//   internal.scheduling.koordinator.sh/scheduling-hint:
//     {"nodeNames": ["n1", "n2"], "preferredNodeNames": ["n2"], "extensions": {...}}
//
// (the deprecated key scheduling.koordinator.sh/scheduling-hint is read when
// the new one is absent or empty). `nodeNames` restricts the candidates at
// PreFilter, as any PreFilter's node names do. `preferredNodeNames` are tried
// first: the cycle filters them before the rest of the cluster and, when any
// passes every filter (extenders included), chooses among those alone; else
// it searches every node as usual (actors/preferred_nodes.hpp). Unlike a
// nomination, a preference holds no room on the node. `extensions` are for
// other plugins: with a `DeviceShare` key, DeviceShare takes the devices the
// pod's device-allocated annotation names, with a `NodeNUMAResource` key,
// NodeNUMAResource the CPUs of its resource-status cpuset (their designated
// allocations); the other plugins' extensions are accepted and not read.

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/object_meta.hpp"
#include "model/result.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins::scheduling_hint {

inline constexpr const char* kAnnotationSchedulingHint = "internal.scheduling.koordinator.sh/scheduling-hint";
inline constexpr const char* kDeprecatedAnnotationSchedulingHint = "scheduling.koordinator.sh/scheduling-hint";

struct SchedulingHint {
  std::vector<std::string> node_names;
  std::vector<std::string> preferred_node_names;
  /// The plugins `extensions` names (its keys): DeviceShare reads the pod's
  /// device-allocated annotation as a designated allocation when named.
  std::vector<std::string> extensions;
};

/// The annotation's text, decoded; an error names the annotation and the field.
Result<SchedulingHint> decode_scheduling_hint(std::string_view text);

/// The pod's hint: nullopt without one (no annotation, or an empty one).
Result<std::optional<SchedulingHint>> scheduling_hint_of(const ObjectMeta& pod_meta);

/// Whether the pod's hint names `plugin` among its extensions (false without
/// a hint, or with one that does not decode: SchedulingHint's PreFilter says why).
bool hint_extends(const ObjectMeta& pod_meta, std::string_view plugin);

/// SchedulingHintArgs: how many preferred nodes are tried at most (the rest are ignored).
struct SchedulingHintArgs {
  int64_t max_hint_nodes = 100;

  static SchedulingHintArgs from_yaml(const YAML::Node& args);
};

/// The preferred nodes `hint` leaves to try: at most `max_hint_nodes`, in
/// the hint's order, and only those in `allowed` (PreFilter's node names;
/// nullopt = every node). Empty when none is left: the hint is dropped, never
/// widens what PreFilter allows.
std::vector<std::string> nodes_to_prefer(const std::vector<std::string>& preferred, int64_t max_hint_nodes,
                                         const std::optional<std::set<std::string>>& allowed);

class SchedulingHintPlugin final : public PreFilterPlugin {
 public:
  static constexpr const char* kName = "SchedulingHint";

  explicit SchedulingHintPlugin(SchedulingHintArgs args) : args_(args) {}
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);
  /// The profile's instance, or nullptr when the profile does not enable it.
  static const SchedulingHintPlugin* of(const Framework& framework);

  std::string_view name() const override { return kName; }
  /// Reads the hint: nodeNames become the PreFilter's node names; a
  /// malformed hint is an error (the attempt fails, the pod says why).
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;

  /// After PreFilter: the preferred nodes to try first (see nodes_to_prefer).
  std::vector<std::string> preferred_nodes(const CycleState& state) const;

 private:
  SchedulingHintArgs args_;
};

}  // namespace troupe::plugins::scheduling_hint
