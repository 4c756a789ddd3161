#pragma once
// SCHEDULING CYCLE actor: kube-scheduler's scheduleOne, one pod at a time.
//
//   pop ─► PreFilter ─► PreScore ─► one round on every NODE actor (Filter of
//       its nodes, then Score of those that pass) ─► PostFilter if none fit
//       ─► [filter extenders] ─► normalise the scores ─► [prioritize extenders]
//       ─► selectHost ─► Reserve on the owning NODE actor, and the next pod
//   ...Reserve answered ─► Permit ─► PreBind ─► hand the Binding to the API WRITER
//
// One message round per pod: PreScore runs before the round (no plugin
// troupe implements needs the feasible nodes for it), so the partitions score
// as they filter; the next pod is popped ahead of time; and the cycle does not
// wait for Reserve: the next pod's round reaches the owning NODE actor after
// the Reserve (one sender's messages arrive in order), so it sees the node as
// a sequential scheduler would. Permit, PreBind and the Binding follow when
// the Reserve is answered, while later pods are being scheduled (binding runs
// concurrently, like upstream's bindingCycle).
//
// A failed binding unreserves on the node and sends the pod back to the QUEUE
// with backoff; an unplaceable pod gets PodScheduled=False and a FailedScheduling event.
// Extender calls (actors/extenders.hpp) block, so they run on the I/O
// TaskPool and the cycle resumes when the pool sends the continuation back.

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <caf/all.hpp>

#include "actors/actor_metrics.hpp"
#include "actors/api_writer.hpp"
#include "actors/atoms.hpp"
#include "actors/cycle_messages.hpp"
#include "actors/extenders.hpp"
#include "actors/metrics_registry.hpp"
#include "actors/node_actor.hpp"
#include "actors/queue_actor.hpp"
#include "actors/quota_accounting.hpp"
#include "actors/reported_conditions.hpp"
#include "actors/task_learning.hpp"
#include "actors/volume_store.hpp"
#include "plugins/coscheduling/gang_book.hpp"
#include "plugins/default_preemption/nomination_book.hpp"
#include "plugins/framework/affinity_term.hpp"
#include "plugins/framework/cluster_pods.hpp"
#include "plugins/framework/workload_selectors.hpp"
#include "plugins/image_locality/image_spread.hpp"
#include "plugins/reservation/cluster_reservations.hpp"

namespace troupe::actors {

class PdbStore;

/// What a PodGroup object says of its gang (plugins/coscheduling/gang_spec.hpp).
struct PodGroupRules {
  std::string gang_id;  // "<ns>/<name>"
  Result<plugins::coscheduling::GangSpec> rules;
};
using PodGroupRulesPtr = std::shared_ptr<const PodGroupRules>;

/// A Service's, ReplicationController's, ReplicaSet's or StatefulSet's pod selector.
using WorkloadSelectorPtr = std::shared_ptr<const WorkloadSelector>;

/// A namespace's labels, or (nullopt) its deletion.
struct NamespaceChange {
  std::string name;
  std::optional<Labels> labels;
};
using NamespaceChangePtr = std::shared_ptr<const NamespaceChange>;

/// The rest of a scheduling attempt, to run on the cycle actor once an I/O
/// thread has the extenders' answers.
using CycleResumePtr = std::shared_ptr<const std::function<void()>>;

using cycle_actor = caf::typed_actor<
    // Start popping pods (sent once everything is synced and we lead).
    caf::reacts_to<atom::start>,
    // INTERNAL: pop and schedule the next pod.
    caf::reacts_to<atom::next>,
    // INTERNAL: an extender call finished on an I/O thread: continue the attempt.
    caf::reacts_to<atom::next, CycleResumePtr>,
    // A pod with this uid was deleted (or finished): drop its nomination,
    // its gang membership, its wait at Permit, its place in the cluster's pods.
    caf::reacts_to<atom::pod_gone, std::string>,
    // A pod is bound to this node (INFORMER): the cluster's pods count it.
    caf::reacts_to<atom::pod_bound, PodInfoPtr, std::string>,
    // A node's labels and taints, or its deletion (INFORMER): the topology domains.
    caf::reacts_to<atom::upsert_node, NodePtr>,
    caf::reacts_to<atom::delete_node, std::string>,
    // An Available reservation on its node, or one that left it (INFORMER):
    // its reserve pod counts among the cluster's pods.
    caf::reacts_to<atom::upsert_reservation, ReservationPtr>,
    caf::reacts_to<atom::delete_reservation, std::string>,
    // A reservation with this uid left the queue (RESERVATION CONTROLLER):
    // drop its nomination and its reserve pod if only assumed.
    caf::reacts_to<atom::dequeue, std::string>,
    // A pending pod of ours names a nominated node in its status (INFORMER):
    // after a restart or a change of leader, its room is held there again.
    caf::reacts_to<atom::nominated, PodInfoPtr>,
    // The cluster's node count (INFORMER), for fit errors before any Filter round.
    caf::reacts_to<atom::node_count, int64_t>,
    // A pod of a gang exists (INFORMER): pending, or bound when the flag says so.
    caf::reacts_to<atom::gang_member, QueuedPodPtr, bool>,
    // The pod with this uid names no gang any more (INFORMER): it leaves its gang.
    caf::reacts_to<atom::gang_member, std::string>,
    // A PodGroup's rules for its gang, or the PodGroup was deleted (INFORMER).
    caf::reacts_to<atom::upsert_podgroup, PodGroupRulesPtr>,
    caf::reacts_to<atom::delete_podgroup, std::string>,
    // A Service's or controller's pod selector, or its deletion (INFORMER):
    // whose siblings PodTopologySpread's default constraints count.
    caf::reacts_to<atom::upsert_workload, WorkloadSelectorPtr>,
    caf::reacts_to<atom::delete_workload, WorkloadSelectorPtr>,
    // A namespace's labels changed, or it is gone (INFORMER): what pod
    // affinity terms' namespaceSelectors select by.
    caf::reacts_to<atom::namespace_labels, NamespaceChangePtr>,
    // INTERNAL: the gang pod with this uid has waited at Permit for its whole
    // waiting time (the number tells this wait from a later one of the same pod).
    caf::reacts_to<atom::gang_timeout, std::string, uint64_t>,
    // A pod of a profile that learns its GPU task classes was found bound (INFORMER):
    // counted while the cycle is not scheduling yet (actors/task_learning.hpp).
    caf::reacts_to<atom::pod_bound, QueuedPodPtr>,
    // An ElasticQuota's spec, or its deletion by name (INFORMER), when CycleDeps::quotas.
    caf::reacts_to<atom::upsert_elastic_quota, QuotaSpecPtr>,
    caf::reacts_to<atom::delete_elastic_quota, std::string>,
    // A pending pod of one of our profiles (INFORMER), when CycleDeps::quotas:
    // its request counts against its quota.
    caf::reacts_to<atom::quota_pod, PodInfoPtr>,
    // ElasticQuota's debug service: one quota's summary ("" when unknown), or every quota's for "".
    caf::replies_to<atom::quota_summary, std::string>::with<std::string>,
    // Every quota's figures (QUOTA STATUS actor); empty when CycleDeps::quotas is off.
    caf::replies_to<atom::quota_figures>::with<QuotaFiguresPtr>,
    // The pods ElasticQuota's overuse revoke evicts now, for quotas over their
    // runtime longer than the delay in nanoseconds (QUOTA STATUS actor).
    caf::replies_to<atom::quota_revoke, int64_t>::with<PodInfoListPtr>,
    // The learnedTaskClasses debug service: TaskLearning::summary_json.
    caf::replies_to<atom::learned_tasks>::with<std::string>,
    // Coscheduling's gang summaries (plugins/coscheduling/gang_summary.hpp).
    caf::replies_to<atom::gang_summary, std::string>::with<std::string>>;

struct CycleDeps {
  queue_actor queue;
  std::vector<node_actor> nodes;  // the partitions, indexed by partition_of()
  api_writer_actor writer;
  std::shared_ptr<MetricsRegistry> metrics;
  int32_t percentage_of_nodes_to_score = 0;  // the configuration's; a profile's own wins
  uint64_t seed = 0;                          // for selectHost's tie-break
  std::shared_ptr<const Extenders> extenders;  // the configuration's extenders[]; null = none
  std::shared_ptr<watch::TaskPool> io;         // where extender calls run (needed with extenders)
  std::shared_ptr<const PdbStore> pdbs;        // what preemption honours; null = none
  bool evaluation_cache = true;                // partitions reuse unchanged nodes' results per pod class
  std::shared_ptr<VolumeStore> volumes;  // claims and volumes for volume scheduling; null = none
  bool quotas = false;                   // a profile runs ElasticQuota: keep the quota book
};

struct Attempt;  // one scheduling attempt (cycle_actor.cpp)

/// A gang pod reserved on its node and waiting at Permit for its gang.
struct WaitingAtPermit {
  std::shared_ptr<Attempt> attempt;
  std::string node;
  uint64_t ticket = 0;  // matches the gang_timeout armed for this wait
  std::chrono::steady_clock::time_point since;  // scheduler_permit_wait_duration_seconds
  std::chrono::milliseconds timeout{0};         // how long it may wait (for the timeout's message)
};

struct cycle_actor_state {
  CycleDeps deps;
  std::mt19937_64 rng;
  uint64_t cycle = 0;
  int64_t total_nodes = 0;  // as the partitions last reported, or the INFORMER counted
  bool started = false;
  ActorMetricsHandle actor_metrics;
  /// Pods nominated after preempting (actors/preemption_step.hpp), and the
  /// nomination of the pod under attempt, released while it is tried.
  plugins::preemption::NominationBook nominations;
  std::optional<std::pair<std::string, plugins::preemption::Nomination>> released;
  /// The pod whose preemption search is under way (uid), and whether it was
  /// deleted meanwhile: then nothing is nominated or evicted for it.
  std::string preempting;
  bool preemptor_gone = false;
  /// Nominations of lower priority than the pod under attempt, off their
  /// nodes until it ends (preemption_step.hpp: set_aside_lower_nominations).
  std::vector<plugins::preemption::Nomination> set_aside;
  /// The next pod, popped ahead of time (cycle_actor.cpp: prefetch).
  QueuedPodPtr prefetched;
  bool pop_pending = false;  // a pop is on its way to the QUEUE
  bool idle = false;         // no attempt under way: the popped pod goes straight in
  /// The GPU task classes learned per profile (DeviceShare Fragmentation without taskClasses).
  TaskLearning task_learning;
  /// Gangs (Coscheduling): their members, and the pods waiting at Permit by uid.
  plugins::coscheduling::GangBook gangs;
  std::unordered_map<std::string, WaitingAtPermit> waiting;
  uint64_t next_wait_ticket = 0;
  /// Gang pods whose Reserve is on its way to their node (by uid), with their
  /// gang group's id: the cycle goes on meanwhile, and a rejection of their
  /// group must reach them too.
  struct ReservingGangMember {
    std::shared_ptr<Attempt> attempt;
    std::string group_id;
  };
  std::unordered_map<std::string, ReservingGangMember> reserving_gang_members;
  /// Every pod bound or reserved, by node, with the nodes: what
  /// InterPodAffinity and PodTopologySpread count domains over.
  plugins::ClusterPods cluster_pods;
  /// The Available reservations, whose reserve pods are among cluster_pods
  /// except for the pods that may use them (actors/reserve_pods_aside.hpp).
  plugins::reservation::ClusterReservations reservations;
  /// How many nodes hold each image: ImageLocality's cluster-wide input.
  plugins::image_locality::ImageSpread image_spread;
  /// Per profile: whether one of its plugins reads the cycle's time (plugins/framework/cycle_clock.hpp).
  std::unordered_map<const plugins::Framework*, bool> reads_clock;
  /// The Services and controllers' pod selectors: the siblings a pod without
  /// spread constraints of its own is spread from (PodTopologySpread's defaults).
  plugins::WorkloadSelectors workloads;
  /// The namespaces' labels, an immutable snapshot replaced on every change
  /// (attempts keep the one they were given), and its version.
  std::shared_ptr<const plugins::affinity::NamespaceLabels> namespaces =
      std::make_shared<const plugins::affinity::NamespaceLabels>();
  uint64_t namespaces_generation = 0;
  /// The PodScheduled=False conditions reported, so that an unchanged one is not written again.
  ReportedConditions reported_conditions;
  /// ElasticQuota's book of quotas and what their pods use (null when no profile runs it).
  std::unique_ptr<QuotaAccounting> quotas;

  static inline const char* name = "scheduling-cycle";
};

}  // namespace troupe::actors

// In-process only: a closure over the attempt, run by the actor that sent it out.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::CycleResumePtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::PodGroupRulesPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::WorkloadSelectorPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::NamespaceChangePtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::QuotaSpecPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::QuotaFiguresPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::PodInfoListPtr)

namespace troupe::actors {

cycle_actor::behavior_type cycle_actor_fn(cycle_actor::stateful_pointer<cycle_actor_state> self, CycleDeps deps);

}  // namespace troupe::actors
