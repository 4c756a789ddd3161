#pragma once
// INFORMER actor: where watch events enter the actor world. Reflector threads
// anon_send every node and pod event here (actors/shared_reflectors.hpp); the
// informer decodes each object once (a pod's decoding is shared with the
// other actors that follow pods, ObjectEvent::pod()) and routes it: nodes to the NODE actor owning them, pods bound to a
// node to that node's actor (whoever scheduled them), pending pods of our
// profiles to the QUEUE, and changes that may help waiting pods to the QUEUE
// as cluster events. A pod that cannot be decoded is reported on that pod
// alone (PodScheduled=False + FailedScheduling) and never reaches a plugin.
// A pod of ours a re-list finds deleted, last seen unbound, may have been
// bound by the cycle meanwhile: every node actor is told to let it go.

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <caf/all.hpp>

#include "actors/api_writer.hpp"
#include "actors/actor_metrics.hpp"
#include "actors/atoms.hpp"
#include "actors/cycle_actor.hpp"
#include "actors/messages.hpp"
#include "actors/unreadable_objects.hpp"
#include "actors/node_actor.hpp"
#include "actors/queue_actor.hpp"

namespace troupe::actors {

using informer_actor = caf::typed_actor<
    // A watch event from a reflector thread.
    caf::reacts_to<atom::watch_event, ObjectEventPtr>,
    // The reflector of this resource has delivered a complete list.
    caf::reacts_to<atom::synced, std::string>,
    // INTERNAL: send the cluster event for the pods placed since the last one.
    caf::reacts_to<atom::tick>,
    // This replica leads now (leader election): record the events held back.
    caf::reacts_to<atom::start>>;

/// koordlet's NodeMetrics: followed when a profile runs LoadAwareScheduling,
/// from the list and watch the descheduler's view shares.
inline constexpr const char* kNodeMetricsResource = "nodemetrics";
inline constexpr const char* kNodeMetricsPath = "/apis/slo.koordinator.sh/v1alpha1/nodemetrics";

struct InformerDeps {
  std::vector<node_actor> nodes;
  queue_actor queue;
  api_writer_actor writer;
  cycle_actor cycle;
  /// schedulerName -> the framework of that profile.
  std::map<std::string, std::shared_ptr<const plugins::Framework>> frameworks;
  /// Resources whose reflectors must sync before scheduling starts.
  std::set<std::string> resources;
  std::shared_ptr<MetricsRegistry> metrics;
  /// Set once every reflector synced (read by /readyz on another thread).
  std::shared_ptr<std::atomic<bool>> ready;
  /// False while waiting to be leader: sync, but do not start the cycle.
  std::shared_ptr<std::atomic<bool>> may_schedule;
};

struct informer_state {
  ActorMetricsHandle actor_metrics;
  InformerDeps deps;
  std::set<std::string> synced;
  std::set<std::string> our_scheduler_names;                   // the profiles' names (deps.frameworks' keys)
  bool follows_quotas = false;  // a profile runs ElasticQuota: the cycle hears of pending pods
  std::unordered_map<std::string, NodePtr> nodes;             // by name, for update diffs
  std::unordered_map<std::string, std::string> bound_pods;    // uid -> node
  /// What the informer keeps of each bound pod (by uid) to tell what an
  /// update changed.
  struct BoundPodSeen {
    /// Hash of what pod affinity and spread read that can change while the
    /// pod stays bound: its labels, and whether it is terminating.
    uint64_t placement = 0;
    /// Hash of what its requests are computed from (an in-place resize
    /// changes them: spec resources, the containers' status resources).
    uint64_t resources = 0;
    /// The version accounted, to tell a resize that frees room.
    std::shared_ptr<const plugins::PodInfo> info;
  };
  std::unordered_map<std::string, BoundPodSeen> bound_seen;
  /// The pod-event actions (add, label change) of pods placed since the last
  /// coalesced cluster event; 0 = none pending.
  uint32_t placed_actions = 0;
  std::unordered_map<std::string, std::string> reservation_nodes;  // uid -> node holding the Reservation
  /// Pending pods: key -> what scheduling reads of them (spec, labels,
  /// annotations). A status-only update (our own PodScheduled patch) must not
  /// send an unschedulable pod back to the active queue, as kube-scheduler's
  /// isPodUpdated ignores such updates.
  std::unordered_map<std::string, std::string> pending;
  std::unordered_map<std::string, std::string> reported;      // key -> "uid\nmessage" already reported as malformed
  /// Nodes, Devices, NodeResourceTopologies and NodeMetrics that do not decode.
  UnreadableReports unreadable;
  /// Nodes whose Device was read at least once (since it was last deleted),
  /// and those holding an empty stand-in for an unreadable first Device.
  std::unordered_set<std::string> devices_read;
  std::unordered_set<std::string> device_stand_ins;
  std::unordered_set<std::string> gang_members;               // uids reported to the cycle as gang members
  /// The gang group id each readable PodGroup sets, by gang id: the queue's
  /// gang rounds go by it (QueuedPod::gang_group).
  std::unordered_map<std::string, std::string> pod_group_groups;
  /// The last NodeMetric of each node (shared with its node actor), for
  /// LoadAwareScheduling's queueing hint.
  std::unordered_map<std::string, std::shared_ptr<const NodeMetric>> node_metrics;

  static inline const char* name = "informer";
};

informer_actor::behavior_type informer_actor_fn(informer_actor::stateful_pointer<informer_state> self,
                                                InformerDeps deps);

/// Which ActionType bits a node update carries (kube-scheduler's nodeSchedulingPropertiesChange).
uint32_t node_update_actions(const Node& before, const Node& after);

}  // namespace troupe::actors
