#pragma once
// Plugin interfaces, one per extension point, as kube-scheduler's
// framework/interface.go. Plugins are immutable after construction (every
// method is const) and hold no I/O: what changes lives in CycleState (per
// pod and cycle) and NodeInfo (per node, owned by a node actor). Filter and
// Score are called concurrently from several threads.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plugins/framework/claim_binding.hpp"
#include "plugins/framework/cluster_event.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/framework/status.hpp"

namespace troupe::plugins {

inline constexpr int64_t kMinNodeScore = 0;
inline constexpr int64_t kMaxNodeScore = 100;

class Plugin {
 public:
  virtual ~Plugin() = default;
  /// The name used in configuration ("NodeResourcesFit").
  virtual std::string_view name() const = 0;

  /// The CycleState slot this instance writes and reads; set by the Framework.
  size_t state_slot() const { return state_slot_; }
  void set_state_slot(size_t slot) { state_slot_ = slot; }

 private:
  size_t state_slot_ = 0;
};

/// Decides whether a pod may enter the active queue at all (e.g. scheduling gates).
class PreEnqueuePlugin : public virtual Plugin {
 public:
  virtual PluginStatus pre_enqueue(const PodInfo& pod) const = 0;
};

/// Orders the active queue. Only one may be enabled, shared by all profiles.
class QueueSortPlugin : public virtual Plugin {
 public:
  virtual bool less(const QueuedPodInfo& a, const QueuedPodInfo& b) const = 0;
};

/// What a PreFilter may add to its status: the only nodes worth filtering.
struct PreFilterResult {
  std::optional<std::set<std::string>> node_names;  // nullopt = all nodes
};

/// Precomputes per-pod data into CycleState; may reject the pod outright,
/// restrict the candidate nodes, or return Skip (then its Filter is skipped).
class PreFilterPlugin : public virtual Plugin {
 public:
  virtual PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const = 0;

  // PreFilterExtensions (upstream's AddPod/RemovePod). Preemption's dry run
  // takes pods off a node copy and puts some back; a plugin whose PreFilter
  // counted other pods (topology domains spanning nodes) updates its data in
  // `state`, a copy made for that node, so that its Filter sees the node as
  // it now is. Plugins whose Filter reads only the NodeInfo need nothing.
  virtual PluginStatus add_pod(CycleState& state, const PodInfo& pod, const PodInfo& added,
                               const NodeInfo& node) const {
    return {};
  }
  virtual PluginStatus remove_pod(CycleState& state, const PodInfo& pod, const PodInfo& removed,
                                  const NodeInfo& node) const {
    return {};
  }
};

/// Decides whether one node can run the pod. Called concurrently; must not allocate on success.
class FilterPlugin : public virtual Plugin {
 public:
  virtual PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const = 0;
};

/// Why each node was rejected, as handed to PostFilter.
using NodeStatuses = std::vector<std::pair<std::string, PluginStatus>>;

struct PostFilterResult {
  PluginStatus status;                     // success: the pod may fit after nominating
  std::optional<std::string> nominated_node;
  /// Appended to the FitError ("preemption: 0/5 nodes are available: ...");
  /// the Framework fills it from the status reasons when a plugin leaves it empty.
  std::string message;
};

/// Runs when no node fits (preemption).
///
/// In troupe the per-node Filter verdicts stay in the node partitions that
/// produced them (copying a status per rejected node to the cycle cost more
/// than the failing round itself), so `statuses` holds only what the cycle
/// itself saw: the extenders' rejections. The preempting PostFilter plugins
/// (DefaultPreemption, Reservation) read the plugins' verdicts through the
/// partition search (actors/preemption_step.hpp) instead.
class PostFilterPlugin : public virtual Plugin {
 public:
  virtual PostFilterResult post_filter(CycleState& state, const PodInfo& pod,
                                       const NodeStatuses& statuses) const = 0;
};

/// Precomputes scoring data for the pod; Skip skips its Score.
///
/// troupe runs PreScore before the Filter round, not after it as
/// kube-scheduler does, so that each node partition filters and scores its
/// nodes in one message: PreScore sees the pod, not the feasible nodes.
/// Upstream, InterPodAffinity and PodTopologySpread read the feasible nodes at
/// PreScore; troupe's count over the nodes the pod's node affinity allows
/// (plugins/pod_topology_spread/pod_topology_spread.hpp says what differs).
class PreScorePlugin : public virtual Plugin {
 public:
  virtual PluginStatus pre_score(CycleState& state, const PodInfo& pod) const = 0;
};

struct ScoreResult {
  int64_t score = 0;
  PluginStatus status;  // anything but success aborts the cycle
};

/// Ranks one feasible node. Called concurrently; must not allocate.
class ScorePlugin : public virtual Plugin {
 public:
  virtual ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const = 0;
  /// True when normalize_scores must see every feasible node's raw score.
  virtual bool has_normalize_score() const { return false; }
  /// Maps raw scores (one per feasible node) into [0, 100].
  virtual PluginStatus normalize_scores(const CycleState& state, const PodInfo& pod,
                                        std::vector<int64_t>& scores) const {
    return {};
  }
};

/// Claims what the pod needs on the chosen node (the node actor calls it on
/// the NodeInfo it owns). Unreserve must undo Reserve exactly.
class ReservePlugin : public virtual Plugin {
 public:
  virtual PluginStatus reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const = 0;
  virtual void unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const = 0;
};

struct PermitResult {
  PluginStatus status;                             // success, wait, or a rejection
  std::chrono::milliseconds timeout{0};            // for wait
};

class PermitPlugin : public virtual Plugin {
 public:
  virtual PermitResult permit(CycleState& state, const PodInfo& pod, const std::string& node_name) const = 0;
};

/// What PreBind plugins want written with the binding.
struct BindingChanges {
  /// Put on the Binding's metadata.annotations: the API server copies them
  /// onto the pod, so they cost no extra request.
  std::map<std::string, std::string> annotations;
  /// Strategic-merge patches to apply to the pod before binding, for plugins
  /// that must write elsewhere than annotations.
  std::vector<std::string> pod_patches;
  /// Claims to bind before the pod (VolumeBinding); none = nothing to wait for.
  ClaimBindings claim_bindings;
  /// Koordinator's DefaultPreBind is in the profile: `annotations` are
  /// patched onto the pod before the Binding, as Koordinator writes them,
  /// instead of riding on it (plugins/default_prebind/).
  bool patch_before_binding = false;
};

class PreBindPlugin : public virtual Plugin {
 public:
  virtual PluginStatus pre_bind(CycleState& state, const PodInfo& pod, const std::string& node_name,
                                BindingChanges& changes) const = 0;
};

/// Binds the pod. The plugins hold no I/O: success means "this plugin owns
/// the binding" and the binder performs it (DefaultBinder: POST
/// pods/{name}/binding); Skip passes to the next bind plugin.
class BindPlugin : public virtual Plugin {
 public:
  virtual PluginStatus bind(const CycleState& state, const PodInfo& pod, const std::string& node_name) const = 0;
};

class PostBindPlugin : public virtual Plugin {
 public:
  virtual void post_bind(const CycleState& state, const PodInfo& pod, const std::string& node_name) const = 0;
};

/// The cluster events that may make a pod this plugin rejected schedulable.
class EnqueueExtensions : public virtual Plugin {
 public:
  virtual std::vector<ClusterEvent> events_to_register() const = 0;
};

}  // namespace troupe::plugins
