#pragma once
// Framework: one profile's plugins, ordered per extension point with their
// score weights, and the Run<Point>Plugins logic of kube-scheduler's
// runtime/framework.go. Pure and synchronous: the actors decide which thread
// calls what. Filter and score_node are const and safe to call concurrently
// for the same pod from several node partitions.
//
// Scoring is split for partitions: each partition calls score_node() per
// feasible node (raw scores for plugins with NormalizeScore, the weighted sum
// of the others), the cycle merges every partition's NodeScores and calls
// finalize_scores() once, which normalizes across all feasible nodes and
// applies the weights.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "config/scheduler_config.hpp"
#include "model/result.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/framework_observer.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/plugin_registry.hpp"

namespace troupe::plugins {

/// At most this many score plugins with NormalizeScore per profile (NodeScore
/// keeps their raw scores inline so scoring never allocates).
inline constexpr size_t kMaxNormalizingScorePlugins = 8;

/// PreFilter's answer to a pod with spec.resourceClaims: troupe has no
/// DynamicResources plugin, and a pod placed with its claims unallocated
/// could not start.
inline constexpr const char* kResourceClaimsNotSupported =
    "pod has resourceClaims: dynamic resource allocation is not implemented by this scheduler";

struct NodeScore {
  std::string node_name;
  /// Σ weight × score over the score plugins without NormalizeScore.
  int64_t weighted_sum = 0;
  /// Raw scores of the normalizing plugins, in Framework order.
  std::array<int64_t, kMaxNormalizingScorePlugins> raw{};
  /// weighted_sum + Σ weight × normalized score; set by finalize_scores.
  int64_t total = 0;
};

/// The longest a pod may wait at Permit, whatever a plugin asks (upstream's maxTimeout).
inline constexpr std::chrono::milliseconds kMaxPermitWait = std::chrono::minutes(15);

struct PermitOutcome {
  PluginStatus status;  // success, wait (see waiting) or a rejection/error
  std::vector<std::pair<std::string, std::chrono::milliseconds>> waiting;  // plugin, timeout (at most kMaxPermitWait)
};

class Framework {
 public:
  /// Instantiates the profile's plugins (each once, with its pluginConfig args).
  static Result<Framework> create(const config::Profile& profile, const Registry& registry);

  const std::string& profile_name() const { return profile_name_; }
  std::optional<int32_t> percentage_of_nodes_to_score() const { return percentage_of_nodes_to_score_; }
  /// A fresh CycleState with one slot per plugin of this profile (and one for
  /// the Framework's own mark of a cycle whose plugin calls are timed).
  std::unique_ptr<CycleState> new_cycle_state() const;
  /// Plugin names enabled at a point, in order (for metrics and debugging).
  std::vector<std::string> plugin_names(config::ExtensionPoint point) const;
  /// Plugins of this profile, by state slot (FrameworkObserver::plugin_done's index).
  size_t plugin_count() const { return plugins_.size(); }
  std::string_view plugin_name(size_t slot) const;
  /// The plugin in that slot (for actors that drive a plugin in pieces, as
  /// the cycle does the preemption search); nullptr past the end.
  const Plugin* plugin_at(size_t slot) const { return slot < plugins_.size() ? plugins_[slot].get() : nullptr; }
  /// The profile's instance of plugin type T, or nullptr when it does not run one (T::of).
  template <class T>
  const T* find_plugin() const {
    for (const auto& plugin : plugins_)
      if (const auto* found = dynamic_cast<const T*>(plugin.get())) return found;
    return nullptr;
  }
  /// The PostFilter plugins, in the order PostFilter runs them.
  const std::vector<const PostFilterPlugin*>& post_filter_plugins() const { return post_filter_; }

  // ---- metrics ----
  /// Reports extension point and (sampled) plugin durations to `observer`;
  /// nullptr stops reporting. Set it before the Framework is shared.
  void set_observer(std::shared_ptr<FrameworkObserver> observer) { observer_ = std::move(observer); }
  /// Share of cycles whose plugin calls are timed, 0..100 (default 10, as upstream).
  void set_plugin_metrics_sample_percent(uint64_t percent) { sample_percent_ = percent; }
  /// Whether this cycle's plugin calls are timed (decided by new_cycle_state).
  bool records_plugin_metrics(const CycleState& state) const;
  /// For extension points the actors run in pieces (Filter and Score fan out
  /// to the node partitions; Bind is the API writer's call): the whole
  /// duration, reported by whoever saw it end.
  void record_extension_point(MetricPoint point, Code code, double seconds) const;

  // ---- queue ----
  /// First non-success PreEnqueue status (with its plugin), or success.
  PluginStatus run_pre_enqueue(const PodInfo& pod) const;
  /// The QueueSort plugin's order.
  bool less(const QueuedPodInfo& a, const QueuedPodInfo& b) const;
  /// Whether `event` may make schedulable a pod that `rejectors` turned down.
  /// Plugins without EnqueueExtensions react to every event, as upstream.
  bool event_may_help(const ClusterEvent& event, const std::set<std::string>& rejectors) const;
  /// Every (plugin, registered event) of this profile.
  std::vector<std::pair<std::string, ClusterEvent>> cluster_events() const;

  // ---- scheduling cycle ----
  /// Runs every PreFilter; records Skips and the node-name restriction in
  /// `state`. A rejection carries the plugin and is the FitError's message.
  PluginStatus run_pre_filter(CycleState& state, const PodInfo& pod) const;
  /// The FitError reason for every node left out by PreFilter's node_names
  /// (count it for total − |node_names| nodes):
  /// "node(s) didn't satisfy plugin(s) [NodeAffinity]".
  static std::string excluded_by_pre_filter_reason(const CycleState& state);
  /// Runs the Filters on one node; the first failure wins (with its reasons
  /// and plugin). Skipped plugins are not called. Allocation-free on success.
  PluginStatus run_filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const;
  /// Preemption's dry run on a CycleState copied for one node: every
  /// PreFilter plugin that did not Skip learns that `other` joined / left
  /// `node` (PreFilterExtensions). An error names the plugin.
  PluginStatus run_pre_filter_extension_add_pod(CycleState& state, const PodInfo& pod, const PodInfo& other,
                                                const NodeInfo& node) const;
  PluginStatus run_pre_filter_extension_remove_pod(CycleState& state, const PodInfo& pod, const PodInfo& other,
                                                   const NodeInfo& node) const;
  /// PostFilter plugins in order until one succeeds (or is unresolvable);
  /// otherwise Unschedulable with every reason, `message` = the reasons
  /// joined (the FitError suffix). No plugin: unschedulable, empty message.
  PostFilterResult run_post_filter(CycleState& state, const PodInfo& pod, const NodeStatuses& statuses) const;
  /// Runs PreScore (before the Filter round, see PreScorePlugin); a Skip
  /// excludes that plugin's Score for this pod.
  PluginStatus run_pre_score(CycleState& state, const PodInfo& pod) const;
  /// Scores one feasible node into `out` (reused between calls: no
  /// allocation); out.node_name is the caller's to set.
  PluginStatus score_node(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                          NodeScore& out) const;
  /// How many entries of NodeScore::raw score_node fills (the score plugins
  /// with NormalizeScore); the rest stay 0.
  size_t normalizing_score_plugins() const { return normalizing_score_plugins_; }
  /// Normalizes the raw scores across all feasible nodes and sets `total`.
  PluginStatus finalize_scores(const CycleState& state, const PodInfo& pod, std::vector<NodeScore>& scores) const;
  /// The index of a highest total, ties broken uniformly at random (as
  /// kube-scheduler's selectHost); nullopt for an empty list.
  static std::optional<size_t> select_host(const std::vector<NodeScore>& scores, std::mt19937_64& rng);

  // ---- on the chosen node (the node actor owning it) ----
  /// Assumes the pod on the node (NodeInfo::add_pod), then runs Reserve. On a
  /// failure every Reserve plugin is unreserved and the pod removed again.
  PluginStatus run_reserve(CycleState& state, const std::shared_ptr<const PodInfo>& pod, NodeInfo& node) const;
  /// Unreserve in reverse order, then removes the pod: the inverse of run_reserve.
  void run_unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const;

  // ---- binding cycle ----
  PermitOutcome run_permit(CycleState& state, const PodInfo& pod, const std::string& node_name) const;
  PluginStatus run_pre_bind(CycleState& state, const PodInfo& pod, const std::string& node_name,
                            BindingChanges& changes) const;
  /// The first bind plugin that does not Skip; its name is in status.plugin
  /// (the binder performs the binding that plugin stands for).
  PluginStatus run_bind(const CycleState& state, const PodInfo& pod, const std::string& node_name) const;
  void run_post_bind(const CycleState& state, const PodInfo& pod, const std::string& node_name) const;

 private:
  struct ScoreEntry {
    const ScorePlugin* plugin = nullptr;
    int64_t weight = 1;
    int normalize_index = -1;  // index into NodeScore::raw, or -1
    size_t pre_score_skip_bit = 0;
  };

  Framework() = default;
  /// The observer when this cycle's plugin calls are timed, else nullptr.
  FrameworkObserver* sampled(const CycleState& state) const {
    return records_plugin_metrics(state) ? observer_.get() : nullptr;
  }
  Status add_plugin(const std::string& name, std::shared_ptr<const Plugin> plugin);
  // The plugin loops behind the timed public entry points.
  PluginStatus run_pre_filter_plugins(CycleState& state, const PodInfo& pod) const;
  PluginStatus run_pre_filter_extensions(CycleState& state, const PodInfo& pod, const PodInfo& other,
                                         const NodeInfo& node, bool added) const;
  PostFilterResult run_post_filter_plugins(CycleState& state, const PodInfo& pod,
                                           const NodeStatuses& statuses) const;
  PluginStatus run_reserve_plugins(CycleState& state, const std::shared_ptr<const PodInfo>& pod,
                                   NodeInfo& node) const;
  PermitOutcome run_permit_plugins(CycleState& state, const PodInfo& pod, const std::string& node_name) const;
  const Plugin* find(const std::string& name) const;

  /// Marks a sampled cycle in the CycleState's extra slot.
  struct SampledCycle {};

  std::string profile_name_;
  std::optional<int32_t> percentage_of_nodes_to_score_;
  std::shared_ptr<FrameworkObserver> observer_;
  uint64_t sample_percent_ = kPluginMetricsSamplePercent;
  /// Cycles started, for the sampling decision (shared: Framework is movable).
  std::shared_ptr<std::atomic<uint64_t>> cycles_ = std::make_shared<std::atomic<uint64_t>>(0);
  std::vector<std::shared_ptr<const Plugin>> plugins_;  // owning; slot = index
  std::vector<const PreEnqueuePlugin*> pre_enqueue_;
  const QueueSortPlugin* queue_sort_ = nullptr;
  std::vector<const PreFilterPlugin*> pre_filter_;
  std::vector<const FilterPlugin*> filter_;
  std::vector<const PostFilterPlugin*> post_filter_;
  std::vector<const PreScorePlugin*> pre_score_;
  std::vector<ScoreEntry> score_;
  size_t normalizing_score_plugins_ = 0;
  std::vector<const ReservePlugin*> reserve_;
  std::vector<const PermitPlugin*> permit_;
  std::vector<const PreBindPlugin*> pre_bind_;
  std::vector<const BindPlugin*> bind_;
  std::vector<const PostBindPlugin*> post_bind_;
};

}  // namespace troupe::plugins
