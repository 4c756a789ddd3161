#pragma once
// QUEUE actor: owns the SchedulingQueue of every profile (kube-scheduler has
// one queue for all profiles, ordered by their common QueueSort plugin). The
// INFORMER adds, updates and removes pending pods; the SCHEDULING CYCLE pops
// one at a time (a pop on an empty queue is answered when a pod arrives) and
// reports how the attempt ended; cluster events move unschedulable pods back.

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/actor_metrics.hpp"
#include "actors/atoms.hpp"
#include "actors/cycle_messages.hpp"
#include "actors/metrics_registry.hpp"
#include "actors/scheduling_queue.hpp"
#include "plugins/framework/cluster_event.hpp"
#include "plugins/framework/scheduling_class.hpp"

namespace troupe::actors {

/// A pod handed to the cycle: the pod, the framework of its profile, and its history.
struct QueuedPod {
  PodInfoPtr pod;
  std::shared_ptr<const plugins::Framework> framework;
  /// What the partitions' evaluation caches key the pod's results by.
  std::shared_ptr<const plugins::SchedulingClass> scheduling_class;
  int attempts = 0;  // failed attempts before this one
  QueueClock::time_point first_queued;  // when it was first queued with no gate: where its latency starts
  /// The gang group it is tried with when its profile runs Coscheduling
  /// (plugins/coscheduling/gang_spec.hpp, gang_group_key); empty otherwise.
  std::string gang_group;
};
using QueuedPodPtr = std::shared_ptr<const QueuedPod>;

/// A QueuedPod of `framework`'s profile. Its scheduling class (an encoding
/// of the pod) is worked out here, by the actor that queues the pod, rather
/// than on the scheduling cycle, which handles one pod at a time.
std::shared_ptr<QueuedPod> make_queued_pod(PodInfoPtr pod, std::shared_ptr<const plugins::Framework> framework);

using queue_actor = caf::typed_actor<
    // A pending pod of one of our profiles appeared or changed.
    caf::reacts_to<atom::enqueue, QueuedPodPtr>,
    // The pod is no longer pending (deleted, bound elsewhere): forget it.
    caf::reacts_to<atom::dequeue, std::string>,
    // The gang "namespace/name" is tried with this group from now on (its
    // PodGroup's), or with its pods' own when empty (the PodGroup is gone).
    caf::reacts_to<atom::regroup, std::string, std::string>,
    // The next pod to schedule; answered later if the queue is empty.
    caf::replies_to<atom::pop>::with<QueuedPodPtr>,
    // The popped pod (key, uid) was placed (bound).
    caf::reacts_to<atom::done, std::string, std::string>,
    // The popped pod (key, uid) could not be placed: the plugins that rejected
    // it, and whether it was an internal error (then it always backs off).
    // Both are ignored unless that very pod is in flight: a pod deleted and
    // created again under its name while the attempt ran is not its verdict's.
    caf::reacts_to<atom::failed, std::string, std::string, std::vector<std::string>, bool>,
    // Something changed in the cluster: (resource, action bits) of plugins::ClusterEvent.
    caf::reacts_to<atom::cluster_event, uint8_t, uint32_t>,
    // INTERNAL: flush expired backoffs, publish queue sizes, re-arm.
    caf::reacts_to<atom::tick>>;

struct queue_actor_state {
  std::unique_ptr<SchedulingQueue<QueuedPod>> queue;  // created with the actor's settings
  std::vector<caf::typed_response_promise<QueuedPodPtr>> waiting;  // pops on an empty queue
  std::shared_ptr<MetricsRegistry> metrics;
  ActorMetricsHandle actor_metrics;

  /// (plugin, profile) series of scheduler_unschedulable_pods published so
  /// far: one that empties is set to 0, as upstream's gauge goes down.
  std::set<std::pair<std::string, std::string>> unschedulable_series;

  /// Answers waiting pops while pods are ready.
  void serve_waiting(QueueClock::time_point now);
  void publish_sizes();
  /// scheduler_unschedulable_pods{plugin,profile}: each unschedulable pod
  /// counts once for every plugin that rejected it (walked at each tick).
  void publish_unschedulable_by_plugin();

  static inline const char* name = "queue";
};

struct QueueActorSettings {
  QueueSettings queue;
  std::chrono::milliseconds tick{200};
  std::shared_ptr<MetricsRegistry> metrics;
};

queue_actor::behavior_type queue_actor_fn(queue_actor::stateful_pointer<queue_actor_state> self,
                                          QueueActorSettings settings);

}  // namespace troupe::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::QueuedPodPtr)
