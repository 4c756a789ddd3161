#pragma once
// NodePartition: the nodes one NODE actor owns, and the filter/score/reserve
// work on them. Pure (no CAF): the actor wraps it, tests drive it directly.
//
// Why partitions rather than one actor per node: ../shared/docs/architecture.md
// measured one message per node at 26–241 ms per pod on 5,000 nodes against
// 26–47 µs for one message per partition.

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "actors/evaluation_cache.hpp"
#include "actors/node_object.hpp"
#include "model/device.hpp"
#include "model/node.hpp"
#include "model/node_resource_topology.hpp"
#include "plugins/framework/fit_error.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::actors {

/// One partition's answer to a cycle's round: Filter over its nodes, then
/// Score of the nodes that passed, in one message (see RoundOptions).
struct FilterOutcome {
  /// The feasible nodes in evaluation order, with their raw scores
  /// (weighted_sum and raw[]) when the round scored them.
  std::vector<plugins::NodeScore> feasible;
  plugins::FailureHistogram failures;   // reasons of the nodes that failed
  int64_t nodes = 0;                    // nodes this partition holds
  double score_seconds = 0;             // of the round, the Score part (metrics)
  bool error = false;                   // a plugin reported an internal error
  std::string error_message;
};

/// What a round asks of a partition.
struct RoundOptions {
  /// Stop once this many feasible nodes are found (feasible_share()).
  int64_t limit = std::numeric_limits<int64_t>::max();
  /// The pod's scheduling class, for the evaluation cache; null: every node
  /// is evaluated afresh.
  std::shared_ptr<const plugins::SchedulingClass> scheduling_class;
  /// Score the feasible nodes too (the cycle ran PreScore before the round).
  bool score = true;
};

/// A partition's share of the cycle's feasible-node budget: proportional to
/// its size (nodes are spread by hash, so partitions are uneven), rounded up;
/// no limit when the budget covers the whole cluster (kube-scheduler checks
/// every node of a cluster below 100 nodes).
int64_t feasible_share(int64_t wanted, int64_t total_nodes, int64_t partition_nodes);

/// A partition's answer to the extender endpoint (actors/extender_service.hpp).
struct Evaluation {
  std::vector<std::string> feasible;
  plugins::NodeStatuses failed;
  std::vector<plugins::NodeScore> scores;  // of the feasible nodes, when asked
  std::string error;                       // a plugin reported an internal error
};

class NodePartition {
 public:
  NodePartition() = default;
  // order_ points into nodes_: a copy would point into the original.
  NodePartition(const NodePartition&) = delete;
  NodePartition& operator=(const NodePartition&) = delete;
  NodePartition(NodePartition&&) = default;
  NodePartition& operator=(NodePartition&&) = default;

  /// Adds or replaces a node; pods already accounted on it stay.
  void upsert_node(std::shared_ptr<const Node> node);
  /// Forgets the node object. Its pods stay accounted (they are deleted by
  /// their own events) so a node that comes back is not over-committed.
  void delete_node(const std::string& name);

  /// Accounts a pod bound to `pod->spec().node_name`, unless it is already
  /// (e.g. it was reserved here and its binding has now been observed; from
  /// then on unreserve() leaves it). Assumed on another node, it moves;
  /// accounted here with other requests (resized in place), it is
  /// accounted again from this version.
  void account_pod(std::shared_ptr<const plugins::PodInfo> pod);
  /// Undoes the accounting of the pod with this uid, wherever it is.
  void forget_pod(const std::string& uid);

  /// Applies a node-scoped object (actors/node_object.hpp) to the node it
  /// belongs to; it may come before the node does. A Reservation that moved
  /// node leaves the old one; one that is no longer Available is removed.
  void apply_object(NodeObject object);
  /// The object was deleted (a Device or NRT: the node has none any more).
  void delete_object(const NodeObjectRef& ref);
  /// DeviceShare's debug summaries: `"node":{...}` members, comma-separated,
  /// for the node `name` (every node with device state when empty).
  std::string device_summaries(const std::string& name) const;

  /// NodeNUMAResource's debug view of the node (`available`: Koordinator's
  /// availableCPUs answer instead of the full summary); "" when the node is not ours.
  std::string cpu_summary(const std::string& node_name, bool available) const;
  /// The Reservation plugin's debug view of the node (`koordinator_shape`:
  /// Koordinator's nodeReservations answer instead); "" when the node is not ours.
  std::string reservation_summary(const std::string& node_name, bool koordinator_shape) const;
  /// LoadAwareScheduling's debug view (plugins/load_aware/node_assign_info.hpp)
  /// with `framework`'s plugin; "" when the node is not ours.
  std::string load_summary(const std::string& node_name, const plugins::Framework& framework) const;
  /// The gpushare extender's inspect view (plugins/deviceshare/gpushare_inspect.hpp):
  /// node elements, comma-separated, of the node `name` (even one without
  /// GPU-share capacity), or of every GPU-share node when `name` is empty;
  /// "" when there is none (or the node is not ours).
  std::string gpushare_inspection(const std::string& name) const;

  /// A cycle's round: runs the Filters over the nodes, starting where the
  /// last round stopped (kube-scheduler's nextStartNodeIndex), until
  /// `options.limit` feasible nodes are found or every node was tried, then
  /// (with `options.score`) scores the feasible ones. With the pod's
  /// scheduling class, verdicts and scores are reused from earlier pods of
  /// the class on nodes that have not changed since
  /// (actors/evaluation_cache.hpp); the results are the same either way.
  /// Remembers the rejected nodes for the preemption search (last_rejections()).
  FilterOutcome run_round(const plugins::Framework& framework, const plugins::CycleState& state,
                          const plugins::PodInfo& pod, const RoundOptions& options);

  /// A node the last round rejected, and how: the preemption search skips
  /// UnschedulableAndUnresolvable ones and looks for victims on the others.
  /// (Only the code is kept: the reasons are already counted in the round's
  /// FailureHistogram, and copying every rejected node's status cost more
  /// than the whole failing round.)
  struct Rejection {
    const plugins::NodeInfo* node;
    plugins::Code code;
  };
  const std::vector<Rejection>& last_rejections() const { return last_rejections_; }

  /// Filter (and, with `score`, Score) of the named nodes of this partition,
  /// for the extender endpoint; leaves the cycle's round state alone. A name
  /// without a node object fails as "node(s) not found".
  Evaluation evaluate(const plugins::Framework& framework, const plugins::CycleState& state,
                      const plugins::PodInfo& pod, const std::vector<std::string>& names, bool score) const;

  /// Assumes the pod on the node and runs Reserve (NodeInfo::add_pod + plugins).
  plugins::PluginStatus reserve(const plugins::Framework& framework, plugins::CycleState& state,
                                const std::shared_ptr<const plugins::PodInfo>& pod, const std::string& node_name);
  /// The exact inverse of a successful reserve(), unless the pod has been
  /// observed bound meanwhile (a binding reported failed that took effect).
  void unreserve(const plugins::Framework& framework, plugins::CycleState& state, const plugins::PodInfo& pod,
                 const std::string& node_name);

  size_t node_count() const { return known_nodes_; }
  size_t pod_count() const { return pod_node_.size(); }
  const plugins::NodeInfo* find(const std::string& name) const;
  /// Every node (with or without a node object), for debug endpoints and tests.
  const std::unordered_map<std::string, plugins::NodeInfo>& nodes() const { return nodes_; }

 private:
  plugins::NodeInfo& node_info(const std::string& name);
  /// Drops the entry of a node with no node object, no pods and no node-scoped object (Device, NRT).
  void erase_if_unused(const std::string& name);
  /// The node order changed: cached evaluations are indexed by it.
  void order_changed();
  /// Filter of the node at `at` in order_: the class's cached verdict when
  /// it still holds the node's generation (not copied: most nodes of a round
  /// are answered so), else a fresh one, evaluated into `scratch`.
  const plugins::PluginStatus& filter_node(const plugins::Framework& framework, const plugins::CycleState& state,
                                           const plugins::PodInfo& pod, size_t at, ClassEvaluations* cache,
                                           plugins::PluginStatus& scratch);
  /// Score of the round's feasible nodes (positions `at` in order_) into `feasible`.
  plugins::PluginStatus score_feasible(const plugins::Framework& framework, const plugins::CycleState& state,
                                       const plugins::PodInfo& pod, const std::vector<size_t>& at,
                                       ClassEvaluations* cache, std::vector<plugins::NodeScore>& feasible);

  std::unordered_map<std::string, plugins::NodeInfo> nodes_;
  /// A node's entry in nodes_, by pointers (stable: unordered_map never moves
  /// its elements), so the name is not stored twice.
  struct OrderedNode {
    const std::string* name;
    plugins::NodeInfo* info;
  };
  std::vector<OrderedNode> order_;  // stable iteration order
  struct PodPlace {
    std::string node;
    /// The API server says the pod is bound there (not only assumed by a
    /// Reserve): a late Unreserve must not take it off.
    bool observed_bound = false;
  };
  std::unordered_map<std::string, PodPlace> pod_node_;  // pod identity -> where it is accounted
  // Reservation uid -> the node holding it (a Reservation can move node).
  // Devices and NRTs are named after their node, so they need no entry.
  std::unordered_map<std::string, std::string> reservation_node_;
  std::vector<Rejection> last_rejections_;
  std::vector<size_t> round_feasible_at_;  // scratch: the round's feasible nodes' positions in order_
  EvaluationCache cache_;
  size_t next_start_ = 0;
  size_t known_nodes_ = 0;  // nodes with a node object
};

}  // namespace troupe::actors
