#pragma once
// The configuration's extenders[] at work: kube-scheduler's calls to
// HTTPExtenders, at the points schedule_one.go makes them.
//
//   Filter:     after the Filter plugins, each interested extender with a
//               filterVerb in turn narrows the feasible nodes
//               (findNodesThatPassExtenders); an ignorable extender's failure
//               is skipped, any other fails the attempt with an error.
//   Prioritize: each interested extender with a prioritizeVerb scores the
//               feasible nodes; score × weight summed over extenders, then
//               × MaxNodeScore / MaxExtenderPriority, is added to the plugin
//               total (prioritizeNodes); an extender's error is ignored.
//   Bind:       the first extender with a bindVerb interested in the pod
//               binds it instead of the Binding API (extendersBinding).
//   Preempt:    see extender_preemption.hpp.
//
// The calls block: run them on I/O threads (TaskPool), never in an actor.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "config/scheduler_config.hpp"
#include "model/pod.hpp"
#include "model/result.hpp"
#include "plugins/framework/plugin.hpp"
#include "watch/extender_client.hpp"

namespace troupe::actors {

/// MaxExtenderPriority (extender/v1): extenders score 0..10.
inline constexpr int64_t kMaxExtenderScore = 10;

/// HTTPExtender.IsInterested: every pod when managedResources is empty,
/// otherwise pods whose containers or init containers request or limit one
/// of the managed resources.
bool extender_interested(const config::Extender& extender, const Pod& pod);

/// Where the Filter round stands after the plugins and each extender.
struct ExtenderFilterOutcome {
  std::vector<std::string> feasible;
  plugins::NodeStatuses statuses;  // nodes the extenders turned down
  bool error = false;              // a non-ignorable extender failed: the attempt is an error
  std::string error_message;
};

/// Folds one extender's answer in as findNodesThatPassExtenders does: its
/// passing nodes become the feasible set; FailedAndUnresolvableNodes get
/// UnschedulableAndUnresolvable, FailedNodes (not also unresolvable) Unschedulable.
void apply_extender_filter(ExtenderFilterOutcome& outcome, const watch::ExtenderFilterResult& result);

/// Adds one extender's HostPriorityList × weight into `combined` (host -> sum).
void add_extender_priorities(std::map<std::string, int64_t>& combined, const std::vector<watch::HostPriority>& list,
                             int64_t weight);
/// The amount added to a node's total: combined × MaxNodeScore / MaxExtenderPriority.
int64_t scale_extender_score(int64_t combined);

/// Turns the configuration's tlsConfig/httpTimeout into the client's endpoint
/// (reading certFile/keyFile/caFile, decoding certData/keyData/caData).
/// Errors name the field: "extenders[0].tlsConfig.caData: ...".
Result<watch::ExtenderEndpoint> extender_endpoint(const config::Extender& extender, size_t index);

class Extenders {
 public:
  struct Entry {
    config::Extender config;
    std::shared_ptr<watch::ExtenderClient> client;
  };

  static Result<std::shared_ptr<const Extenders>> create(const std::vector<config::Extender>& configs);

  bool empty() const { return entries_.empty(); }
  const std::vector<Entry>& entries() const { return entries_; }
  /// Whether an interested extender filters / prioritizes this pod.
  bool filters(const Pod& pod) const;
  bool prioritizes(const Pod& pod) const;
  /// Whether an interested extender has a preemptVerb (see extender_preemption.hpp).
  bool preempts(const Pod& pod) const;
  /// Whether some interested filter/prioritize extender wants whole Node
  /// objects (not nodeCacheCapable), so the cycle must fetch them.
  bool needs_node_objects(const Pod& pod) const;
  /// The extender that binds this pod, or nullptr (the Binding API does).
  const Entry* binder(const Pod& pod) const;

  /// Runs the filter extenders in order over `feasible`. `node_json` holds
  /// the API JSON of the candidates (needed only if needs_node_objects()).
  ExtenderFilterOutcome filter(const Pod& pod, std::vector<std::string> feasible,
                               const std::map<std::string, std::string>& node_json) const;
  /// Every prioritize extender's scores, combined and scaled (host -> points
  /// to add to the plugin total). Failures are logged and skipped.
  std::map<std::string, int64_t> prioritize(const Pod& pod, const std::vector<std::string>& feasible,
                                            const std::map<std::string, std::string>& node_json) const;

 private:
  std::vector<Entry> entries_;
};

}  // namespace troupe::actors

namespace troupe::actors {
/// The extender that binds a pod, as the cycle hands it to the API WRITER.
using ExtenderBinderPtr = std::shared_ptr<const Extenders::Entry>;
}  // namespace troupe::actors

// In-process only: the binder is shared with the I/O thread that calls it.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::ExtenderBinderPtr)
