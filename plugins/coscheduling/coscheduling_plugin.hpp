#pragma once
// Coscheduling (Koordinator's gang scheduling, lightweight annotation gangs):
// the pods of a gang are bound all together or not at all.
//   PreFilter  a gang pod is tried only once its gang (and every gang of its
//              group) has at least min-available members
//   Permit     a reserved gang pod waits, holding its node, until enough
//              members of every gang of its group wait too; then all of
//              them go on to bind (the SCHEDULING CYCLE keeps the waiting
//              pods and their timers: actors/cycle_actor.cpp)
// The gang state lives in a GangBook the cycle owns; the cycle hands this
// plugin its view of the pod's gang in the CycleState (GangView), so the
// plugin stays a pure function of what it is given.
//   args: {defaultTimeout: 600s, controllerWorkers: 1, defaultMatchPolicy: once-satisfied,
//          skipCheckScheduleCycle: false, enablePreemption: false, awareNetworkTopology: false}

#include <chrono>
#include <optional>
#include <string>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/coscheduling/gang_spec.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins::coscheduling {

struct CoschedulingArgs {
  GangDefaults defaults;
  int32_t controller_workers = 1;
  bool skip_check_schedule_cycle = false;

  /// Errors name the field ("defaultTimeout: must not be negative").
  static CoschedulingArgs from_yaml(const YAML::Node& args);
};

/// What the cycle tells the plugin about the pod under attempt.
struct GangView : StateData {
  std::optional<GangSpec> spec;           // nullopt: not a gang pod
  std::string invalid;                    // the pod's gang annotations cannot be read
  std::optional<std::string> not_ready;   // PreFilter: why the gang cannot be tried yet
  bool permit_allowed = false;            // Permit: the GangBook's decision for this pod
  /// A failure of this pod sends its group's waiting members back (Strict,
  /// and not a once-satisfied gang that was satisfied): GangBook::failure_rejects_group.
  bool failure_rejects_group = false;
  /// PreFilter turned the pod away because its gang's schedule cycle is over
  /// (Koordinator's skipReject): PostFilter rejects nothing more.
  bool skip_reject = false;
  /// PreFilter's member check turned it away (Koordinator's
  /// skipSetCycleInvalid): a rejection of the group leaves the cycle as it is.
  bool keeps_schedule_cycle = false;
  /// Set by PostFilter when it rejected the group: the cycle then sends the
  /// waiting members back (it owns them; the plugin only decides).
  bool rejected_at_post_filter = false;
};

class Coscheduling final : public PreFilterPlugin, public PostFilterPlugin, public PermitPlugin,
                           public EnqueueExtensions {
 public:
  static constexpr const char* kName = "Coscheduling";

  explicit Coscheduling(CoschedulingArgs args) : args_(std::move(args)) {}
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  /// The profile's Coscheduling, or null when the profile does not run it.
  static const Coscheduling* of(const Framework& framework);

  const CoschedulingArgs& args() const { return args_; }
  std::string_view name() const override { return kName; }

  /// The cycle's view of the pod's gang, for this cycle's plugin calls.
  void share_view(CycleState& state, GangView view) const;
  const GangView* view(const CycleState& state) const;

  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  /// Koordinator's PostFilter: a Strict gang's member that cannot be placed
  /// rejects its group ("Gang \"ns/g\" gets rejected due to pod is
  /// unschedulable"), noted in the view (`rejected_at_post_filter`).
  PostFilterResult post_filter(CycleState& state, const PodInfo& pod, const NodeStatuses& statuses) const override;
  PermitResult permit(CycleState& state, const PodInfo& pod, const std::string& node_name) const override;
  /// A new member, a PodGroup, a pod or node going away or coming: a gang
  /// that could not be tried, or was rejected, may now succeed.
  std::vector<ClusterEvent> events_to_register() const override;

 private:
  CoschedulingArgs args_;
};

}  // namespace troupe::plugins::coscheduling
