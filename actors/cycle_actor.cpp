#include "actors/cycle_actor.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>
#include <set>

#include "actors/cycle_off_actor.hpp"
#include "actors/fan_out.hpp"
#include "actors/partitioning.hpp"
#include "actors/preemption_step.hpp"
#include "actors/preferred_nodes.hpp"
#include "actors/reservation_diagnosis_step.hpp"
#include "actors/reserve_pods_aside.hpp"
#include "model/go_duration.hpp"
#include "model/timestamp.hpp"
#include "plugins/coscheduling/coscheduling_plugin.hpp"
#include "plugins/coscheduling/gang_summary.hpp"
#include "plugins/deviceshare/go_json.hpp"
#include "plugins/framework/class_labels.hpp"
#include "plugins/framework/cycle_clock.hpp"
#include "plugins/framework/fit_error.hpp"
#include "plugins/load_aware/load_aware_plugin.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "plugins/reservation/reservation_names.hpp"
#include "plugins/reservation/reserve_pod.hpp"
#include "plugins/volumes/claims_in_use.hpp"
#include "plugins/volumes/volume_binding.hpp"

namespace troupe::actors {

namespace {

using Self = cycle_actor::stateful_pointer<cycle_actor_state>;
using Clock = std::chrono::steady_clock;

// The round and Reserve wait for the NODE actors without a timeout: they are
// in-process and answer every message (CAF answers for an actor that is
// gone), and a timed request costs a clock entry and a wake-up of the clock
// thread per message (perf, cpu mix on 5,000 nodes: 5.4 % of the samples,
// plus the clock thread's). A node actor stuck in a plugin would stall
// scheduling either way: every round asks every partition, so a timeout
// would only turn the stall into 30 s per pod.
constexpr auto kNodeReply = caf::infinite;
// Fetching node objects for extenders is off the hot path (only extenders
// that are not nodeCacheCapable): it keeps its timeout.
constexpr auto kNodeTimeout = std::chrono::seconds(30);
constexpr auto kBindTimeout = std::chrono::minutes(5);

}  // namespace

/// One scheduling attempt of one pod, carried through the continuations.
struct Attempt {
  QueuedPodPtr queued;
  std::shared_ptr<CycleRequest> request;
  Clock::time_point started;
  Clock::time_point phase_started;  // of the round under way (its metrics)
  /// PreScore's verdict: it runs before the round (see PreScorePlugin) and
  /// matters only when two or more nodes are left to compare.
  plugins::PluginStatus pre_score;
  /// The feasible nodes with their raw scores (when the round scored them).
  std::vector<plugins::NodeScore> feasible;
  plugins::FailureHistogram failures;
  plugins::NodeStatuses extender_statuses;  // nodes the extenders turned down
  /// `feasible` holds the nodes the pod prefers (actors/preferred_nodes.hpp),
  /// not the round's: when none is left, every node is searched.
  bool preferred_pass = false;
  bool node_chosen = false;  // Reserve began: a failure from here on clears a nomination
  /// Its gang group was rejected while its Reserve was on its way: why.
  std::optional<std::string> gang_rejected;
  int64_t total_nodes = 0;
  double score_seconds = 0;  // the partitions' longest scoring part of the round
  NodeJsonPtr node_json;  // fetched once, when an extender wants whole Node objects

  const plugins::Framework& framework() const { return *request->framework; }
  const plugins::PodInfo& pod() const { return *request->pod; }
  const std::string& profile() const { return request->framework->profile_name(); }
  std::vector<std::string> feasible_names() const {
    std::vector<std::string> names;
    names.reserve(feasible.size());
    for (const auto& s : feasible) names.push_back(s.node_name);
    return names;
  }
};
using AttemptPtr = std::shared_ptr<Attempt>;

namespace {

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// The attempt has ended (or, after Reserve, handed over): take the next pod.
void next(Self self) { self->send(self, atom::next_v); }

const Extenders* extenders_of(Self self) { return self->state.deps.extenders.get(); }

/// Calls `then()` once a->node_json holds the API JSON of the feasible nodes
/// (only fetched from the NODE actors when an interested extender is not
/// nodeCacheCapable; otherwise, or if a partition does not answer, extenders
/// get what there is and stubs with the names for the rest).
void with_node_objects(Self self, const AttemptPtr& a, std::function<void()> then) {
  if (a->node_json || !extenders_of(self)->needs_node_objects(*a->pod().pod)) {
    if (!a->node_json) a->node_json = std::make_shared<const std::map<std::string, std::string>>();
    return then();
  }
  auto names = std::make_shared<const std::vector<std::string>>(a->feasible_names());
  fan_out<NodeJsonPtr>(
      self, self->state.deps.nodes, kNodeTimeout,
      [a, then](std::vector<NodeJsonPtr> parts) {
        auto all = std::make_shared<std::map<std::string, std::string>>();
        for (const auto& part : parts) all->insert(part->begin(), part->end());
        a->node_json = std::move(all);
        then();
      },
      [a, then](caf::error err) {
        spdlog::warn("scheduling-cycle: node objects for extenders unavailable ({}); sending names only",
                     to_string(err));
        a->node_json = std::make_shared<const std::map<std::string, std::string>>();
        then();
      },
      atom::node_objects_v, NodeNamesPtr(names));
}

void record_attempt(Self self, const Attempt& a, const char* result) {
  auto& m = self->state.deps.metrics;
  if (!m) return;
  m->add("scheduler_schedule_attempts_total", {a.profile(), result});
  m->observe("scheduler_scheduling_attempt_duration_seconds", {a.profile(), result}, seconds_since(a.started));
}

/// The pod could not be placed this time: tell the pod (condition + event)
/// and the QUEUE (which plugins to wait for, or backoff on an error).
void fail(Self self, const AttemptPtr& a, const std::string& message, std::vector<std::string> rejectors,
          bool error) {
  record_attempt(self, *a, error ? "error" : "unschedulable");
  settle_nomination_after_failure(self, *a->request, error || a->node_chosen);
  const auto& meta = a->pod().meta();
  auto report = std::make_shared<FailureReport>();
  report->ns = meta.namespace_name;
  report->name = meta.name;
  report->uid = meta.uid;
  report->resource_version = meta.resource_version;
  report->profile = a->profile();
  report->reason = error ? "SchedulerError" : "Unschedulable";
  report->message = message;
  if (plugins::reservation::is_reserve_pod(meta)) report->reservation = plugins::reservation::reservation_name_of(meta);
  const auto decision = self->state.reported_conditions.report(*a->pod().pod, report->reason, message, timestamp_now());
  report->patch_condition = decision.write;
  report->transition_time = decision.since;
  self->send(self->state.deps.writer, atom::report_v, FailureReportPtr(std::move(report)));
  self->send(self->state.deps.queue, atom::failed_v, a->pod().key, meta.uid, std::move(rejectors), error);
  spdlog::debug("scheduling-cycle could not place {}: {}", a->pod().key, message);
}

/// fail(), then the next pod: the attempt ends here.
void fail_and_next(Self self, const AttemptPtr& a, const std::string& message, std::vector<std::string> rejectors,
                   bool error) {
  fail(self, a, message, std::move(rejectors), error);
  restore_set_aside(self);
  next(self);
}

node_actor& owner(Self self, const std::string& node) {
  auto& nodes = self->state.deps.nodes;
  return nodes[partition_of(node, nodes.size())];
}

/// The pod's volume bindings, assumed at Reserve, are no longer pending.
void forget_volumes(Self self, const Attempt& a) {
  if (self->state.deps.volumes && !a.pod().spec().volume_claims.empty())
    self->state.deps.volumes->forget(a.pod().meta().uid);
}

/// ElasticQuota: the pod under attempt uses its quota from Reserve until Unreserve.
void quota_reserved(Self self, const Attempt& a, bool on_node) {
  if (self->state.quotas) self->state.quotas->reserved(a.pod().meta().uid, on_node);
}

/// The pods that saw this one placed get another try: what it held (its room,
/// a ReadWriteOncePod claim, its quota, its place in domain counts) is free
/// again, as upstream moves them after a failed binding cycle (AssignedPodDelete).
void pod_let_go(Self self) {
  self->send(self->state.deps.queue, atom::cluster_event_v, static_cast<uint8_t>(plugins::EventResource::pod),
             static_cast<uint32_t>(plugins::ActionType::kDelete));
}

void unreserve(Self self, const AttemptPtr& a, const std::string& node) {
  self->state.gangs.binding_failed(a->pod().meta().uid);
  self->state.cluster_pods.forget_assumed(plugins::pod_identity(a->pod()));
  quota_reserved(self, *a, false);  // the event below requeues what the quota turned away
  forget_volumes(self, *a);
  self->send(owner(self, node), atom::unreserve_v, CycleRequestPtr(a->request), node);
  pod_let_go(self);
}

/// A namespace's labels change or it goes: a new snapshot, so that attempts
/// under way keep theirs.
void change_namespace(Self self, const NamespaceChange& change) {
  auto& st = self->state;
  auto known = st.namespaces->find(change.name);
  if (change.labels ? known != st.namespaces->end() && known->second == *change.labels
                    : known == st.namespaces->end())
    return;  // nothing a namespaceSelector reads changed
  auto next = std::make_shared<plugins::affinity::NamespaceLabels>(*st.namespaces);
  if (change.labels)
    (*next)[change.name] = *change.labels;
  else
    next->erase(change.name);
  st.namespaces = std::move(next);
  ++st.namespaces_generation;
}

/// How PodTopologySpread's default constraints apply to the pod: not at all
/// (it has constraints of its own, the profile has no defaults, or nothing
/// selects its siblings), at Score only (ScheduleAnyway ones, as the system
/// defaults), or at Filter too (a DoNotSchedule one in the profile's list).
/// `selector`: the siblings' selector, where it applies.
enum class DefaultSpreading { none, score, filter };

DefaultSpreading default_spreading(Self self, const Attempt& a, LabelSelector* selector = nullptr) {
  const auto& workloads = self->state.workloads;
  const Pod& pod = *a.pod().pod;
  if (workloads.size() == 0 || !pod.spec.topology_spread_constraints.empty()) return DefaultSpreading::none;
  const auto* spread = plugins::spread::PodTopologySpread::of(a.framework());
  if (spread == nullptr || spread->args().default_constraints.empty()) return DefaultSpreading::none;
  LabelSelector siblings = workloads.default_selector(pod);
  if (siblings.empty()) return DefaultSpreading::none;
  if (selector != nullptr) *selector = std::move(siblings);
  for (const auto& c : spread->args().default_constraints)
    if (c.when_unsatisfiable == UnsatisfiableAction::do_not_schedule) return DefaultSpreading::filter;
  return DefaultSpreading::score;
}

/// Keeps the topology keys PodTopologySpread will count the pod by in
/// ClusterPods::domains, so that it lists their domains without a walk over
/// the nodes (spread/domain_counting.hpp). A key, once kept, stays kept.
void keep_spread_keys(Self self, const Attempt& a, DefaultSpreading by_default) {
  auto& cluster = self->state.cluster_pods;
  for (const auto& c : a.pod().spec().topology_spread_constraints) cluster.track_topology_key(c.topology_key);
  if (by_default == DefaultSpreading::none) return;
  for (const auto& c : plugins::spread::PodTopologySpread::of(a.framework())->args().default_constraints)
    cluster.track_topology_key(c.topology_key);
}

/// InterPodAffinity and PodTopologySpread count the cluster's pods at
/// PreFilter and PreScore: the attempt gets them when the pod's placement may
/// depend on them, and with them the Services and controllers when the pod
/// is spread by default. The views are the cycle's own, not copies: only
/// PreFilter and PreScore read them, here on the cycle, and
/// withdraw_cycle_inputs takes them back before the CycleState travels to the
/// partitions. Their versions go into the pod's class, so the partitions
/// reuse no verdict computed over other pods (for a pod without terms or
/// spreading of its own, only other pods' terms and the nodes count:
/// ClusterPods::terms_generation). Default spreading counts the siblings,
/// which any placement may change: the selectors are shared under the whole
/// generation, and read by Filter only when a default constraint filters, so
/// the replicas of a workload spread by the system defaults still reuse
/// Filter verdicts. Returns the ClusterPods version shared, 0 for none.
uint64_t share_cluster_pods(Self self, const Attempt& a, DefaultSpreading by_default) {
  const auto& cluster = self->state.cluster_pods;
  if (by_default == DefaultSpreading::none && !plugins::placement_reads_other_pods(*a.pod().pod, cluster)) return 0;
  keep_spread_keys(self, a, by_default);
  std::shared_ptr<const plugins::ClusterPods> view(std::shared_ptr<const plugins::ClusterPods>(), &cluster);
  const uint64_t version = by_default == DefaultSpreading::filter ? cluster.generation() + 1
                                                                  : plugins::version_seen_by(*a.pod().pod, cluster);
  a.request->state->share_input(std::move(view), version);
  // An immutable snapshot: it may travel with the counts to the partitions.
  a.request->state->share_input(self->state.namespaces, self->state.namespaces_generation + 1);
  if (by_default != DefaultSpreading::none) {
    const auto& workloads = self->state.workloads;
    std::shared_ptr<const plugins::WorkloadSelectors> selectors(std::shared_ptr<const plugins::WorkloadSelectors>(),
                                                                &workloads);
    const uint64_t siblings = ((cluster.generation() + 1) * 0x9e3779b97f4a7c15ULL) ^ (workloads.generation() + 1);
    a.request->state->share_input(std::move(selectors), siblings == 0 ? 1 : siblings,  // 0 = no input
                                  by_default == DefaultSpreading::filter);
  }
  return version;
}

/// After PreScore: Filter, Score and Reserve run on other threads while the
/// cycle changes ClusterPods, WorkloadSelectors and ImageSpread, so they must
/// not reach them. The versions stay (the pod's class was keyed on them).
void withdraw_cycle_inputs(const Attempt& a, uint64_t version) {
  auto& state = *a.request->state;
  if (const uint64_t spread = state.input_version<plugins::image_locality::ImageSpread>(); spread != 0)
    state.share_input(std::shared_ptr<const plugins::image_locality::ImageSpread>(), spread, false);
  if (version == 0) return;
  state.share_input(std::shared_ptr<const plugins::ClusterPods>(), version);
  if (const uint64_t selectors = state.input_version<plugins::WorkloadSelectors>(); selectors != 0)
    state.share_input(std::shared_ptr<const plugins::WorkloadSelectors>(), selectors);
}

/// A gang member was unreserved after a failure (Reserve, PreBind, Binding):
/// in Strict mode its waiting siblings are sent back too (defined with the gangs below).
void gang_member_unreserved(Self self, const AttemptPtr& a);
void filter_round(Self self, const AttemptPtr& a);

/// The binding cycle: runs while later pods are being scheduled.
void bind(Self self, const AttemptPtr& a, const std::string& node, plugins::BindingChanges changes) {
  auto job = std::make_shared<BindJob>();
  const auto& meta = a->pod().meta();
  job->ns = meta.namespace_name;
  job->name = meta.name;
  job->uid = meta.uid;
  job->node = node;
  job->profile = a->profile();
  job->annotations = std::move(changes.annotations);
  job->pod_patches = std::move(changes.pod_patches);
  job->claim_bindings = std::move(changes.claim_bindings);
  job->patch_before_binding = changes.patch_before_binding;
  // A reserve pod is bound by writing its Reservation's status (the plugin's Bind).
  if (plugins::reservation::is_reserve_pod(meta)) job->reservation = plugins::reservation::reservation_name_of(meta);
  const auto bind_started = Clock::now();
  // kube-scheduler's extendersBinding: an interested binder extender binds instead of the API.
  const Extenders::Entry* binder =
      extenders_of(self) && job->reservation.empty() ? extenders_of(self)->binder(*a->pod().pod) : nullptr;
  // The wait for claims to be bound comes on top of the binding's own time.
  const auto timeout = job->claim_bindings.claims.empty() ? kBindTimeout : kBindTimeout + job->claim_bindings.timeout;
  auto pending = binder ? self->request(self->state.deps.writer, timeout, atom::bind_v, BindJobPtr(job),
                                        ExtenderBinderPtr(self->state.deps.extenders, binder))
                        : self->request(self->state.deps.writer, timeout, atom::bind_v, BindJobPtr(job));
  pending.then(
          [=](WriteOutcome& outcome) {
            a->framework().record_extension_point(plugins::MetricPoint::bind,
                                                  outcome.ok ? plugins::Code::success : plugins::Code::error,
                                                  seconds_since(bind_started));
            if (outcome.ok) {
              forget_volumes(self, *a);
              record_attempt(self, *a, "scheduled");
              self->state.gangs.mark_bound(a->pod().meta().uid);
              a->framework().run_post_bind(*a->request->state, a->pod(), node);
              self->send(self->state.deps.queue, atom::done_v, a->pod().key, a->pod().meta().uid);
              if (auto& m = self->state.deps.metrics) {
                m->observe("scheduler_pod_scheduling_sli_duration_seconds",
                           {std::to_string(std::min(a->queued->attempts + 1, 15))},
                           seconds_since(a->queued->first_queued));
                m->observe("scheduler_pod_scheduling_attempts", {}, a->queued->attempts + 1);
              }
              return;
            }
            unreserve(self, a, node);
            gang_member_unreserved(self, a);
            // A PreBind plugin's write (VolumeBinding's claims) failed: its error, as PreBind's are.
            if (!outcome.pre_bind_plugin.empty())
              return fail(self, a, outcome.message, {outcome.pre_bind_plugin}, true);
            fail(self, a, "binding rejected: " + outcome.message, {}, true);
          },
          [=](caf::error& err) {
            a->framework().record_extension_point(plugins::MetricPoint::bind, plugins::Code::error,
                                                  seconds_since(bind_started));
            unreserve(self, a, node);
            gang_member_unreserved(self, a);
            fail(self, a, "binding failed: " + to_string(err), {}, true);
          });
}

/// PreBind, then hand over to the binding cycle.
void pre_bind_and_bind(Self self, const AttemptPtr& a, const std::string& node) {
  plugins::BindingChanges changes;
  auto pre_bind = a->framework().run_pre_bind(*a->request->state, a->pod(), node, changes);
  if (!pre_bind.ok()) {
    unreserve(self, a, node);
    gang_member_unreserved(self, a);
    fail(self, a, pre_bind.message(), {pre_bind.plugin}, true);
    return;
  }
  bind(self, a, node, std::move(changes));
}

// ---- gangs (Coscheduling): PreFilter's view, the wait at Permit, rejections ------------

using plugins::coscheduling::Coscheduling;

/// The pod's gang spec when its profile runs Coscheduling and the pod is in a gang.
const plugins::coscheduling::GangSpec* gang_spec_of(const Attempt& a) {
  const auto* plugin = Coscheduling::of(a.framework());
  const auto* view = plugin ? plugin->view(*a.request->state) : nullptr;
  return view && view->spec ? &*view->spec : nullptr;
}

/// The pod's gang view when Coscheduling's PostFilter rejected its group.
const plugins::coscheduling::GangView* gang_rejected_at_post_filter(const Attempt& a) {
  const auto* plugin = Coscheduling::of(a.framework());
  const auto* view = plugin ? plugin->view(*a.request->state) : nullptr;
  return view && view->spec && view->rejected_at_post_filter ? view : nullptr;
}

/// The rules of the gang the pod names, if that gang has a readable member.
const plugins::coscheduling::GangSpec* gang_rules_of(Self self, const ObjectMeta& meta) {
  auto name = plugins::coscheduling::gang_name_of(meta);
  return name ? self->state.gangs.rules(meta.namespace_name + "/" + *name) : nullptr;
}

/// Before PreFilter: tells Coscheduling which gang the pod is in and whether
/// that gang has its members yet.
void share_gang_view(Self self, const Attempt& a) {
  const auto* plugin = Coscheduling::of(a.framework());
  if (plugin == nullptr) return;
  plugins::coscheduling::GangView view;
  auto spec = plugins::coscheduling::read_gang_spec(a.pod().meta(), plugin->args().defaults);
  if (!spec) {
    // Its own annotations do not read: it goes by its gang's rules when the
    // gang has some (Koordinator reads a gang's rules once, from one member).
    if (const auto* rules = gang_rules_of(self, a.pod().meta()))
      spec = std::optional<plugins::coscheduling::GangSpec>(*rules);
    else
      view.invalid = spec.message();
  }
  if (spec && *spec) {
    // Members come from the INFORMER alone (it reports a pod before queueing
    // it), so a pod deleted meanwhile is not counted back in.
    auto& gangs = self->state.gangs;
    view.not_ready = gangs.pre_filter(**spec, a.pod().key);
    view.keeps_schedule_cycle = view.not_ready.has_value();
    // The gang's rules (its PodGroup's, or its first member's) decide, not this pod's.
    const auto* rules = gangs.rules((*spec)->id);
    view.spec = rules ? *rules : **spec;
    view.failure_rejects_group = gangs.failure_rejects_group(*view.spec);
    if (!view.not_ready && !plugin->args().skip_check_schedule_cycle) {
      auto check = gangs.enter_schedule_cycle(*view.spec, a.pod().meta().uid, a.pod().key,
                                              !a.pod().pod->status.nominated_node_name.empty());
      view.not_ready = std::move(check.rejection);
      view.skip_reject = check.skip_reject;
    }
  }
  plugin->share_view(*a.request->state, std::move(view));
}

/// scheduler_waiting_gang_group_number follows the GangBook after every change of the waits.
void count_waiting_groups(Self self) {
  if (auto& m = self->state.deps.metrics)
    m->set("scheduler_waiting_gang_group_number", {}, static_cast<double>(self->state.gangs.waiting_groups()));
}

/// The pod's wait at Permit, taken out of the waiting list; its length goes
/// to scheduler_permit_wait_duration_seconds by how it ended (a status code:
/// "Success" when allowed, "Unschedulable" when rejected, as upstream).
std::optional<WaitingAtPermit> take_waiting(Self self, const std::string& uid, const char* result) {
  auto it = self->state.waiting.find(uid);
  if (it == self->state.waiting.end()) return std::nullopt;
  WaitingAtPermit entry = std::move(it->second);
  self->state.waiting.erase(it);
  if (auto& m = self->state.deps.metrics)
    m->observe("scheduler_permit_wait_duration_seconds", {result}, seconds_since(entry.since));
  return entry;
}

/// A waiting gang pod is let go without binding: its node forgets it and,
/// when `message` is set, the pod is reported unschedulable (by `rejector`) and requeued.
void drop_waiting(Self self, const std::string& uid, const std::string* message,
                  const std::string& rejector = Coscheduling::kName) {
  auto entry = take_waiting(self, uid, "Unschedulable");
  if (!entry) return;
  self->state.gangs.stop_waiting(uid);
  unreserve(self, entry->attempt, entry->node);
  if (message) fail(self, entry->attempt, *message, {rejector}, false);
  count_waiting_groups(self);
}

/// What the other members hear when a waiting one leaves (Koordinator's Unreserve).
std::string left_in_unreserve(const plugins::coscheduling::GangSpec& spec, const Attempt& a) {
  return "Gang \"" + spec.id + "\" gets rejected due to Pod \"" + a.pod().meta().name + "\" in Unreserve";
}

/// A member failed (no node, timeout, gone): in Strict mode the rest of its
/// gang group stops waiting too, so that no partial gang holds nodes, and the
/// group's schedule cycle is over (unless `end_cycle` is false: the member
/// check turned the pod away).
void reject_gang_group(Self self, const plugins::coscheduling::GangSpec& spec, const std::string& message,
                       bool end_cycle = true) {
  auto& gangs = self->state.gangs;
  if (!gangs.failure_rejects_group(spec)) return;
  if (end_cycle) gangs.end_schedule_cycles(spec);
  for (const auto& uid : gangs.take_waiting_of_group(spec)) {
    // take_waiting_of_group already stopped the wait; drop_waiting finds the entry.
    drop_waiting(self, uid, &message);
  }
  // Members whose Reserve is still on its way would wait at Permit once it
  // lands, holding their nodes; in kube-scheduler they would already wait
  // there and be rejected with the others.
  for (auto& [uid, member] : self->state.reserving_gang_members)
    if (member.group_id == spec.group_id && !member.attempt->gang_rejected) member.attempt->gang_rejected = message;
}

/// Permit said wait: keep the attempt, reserved, until its gang is complete
/// or its waiting time is over.
void wait_at_permit(Self self, const AttemptPtr& a, const std::string& node, std::chrono::milliseconds timeout) {
  auto& st = self->state;
  const std::string& uid = a->pod().meta().uid;
  const uint64_t ticket = ++st.next_wait_ticket;
  st.waiting[uid] = WaitingAtPermit{a, node, ticket, Clock::now(), timeout};
  self->delayed_send(self, timeout, atom::gang_timeout_v, uid, ticket);
  count_waiting_groups(self);
  spdlog::debug("scheduling-cycle: {} waits at Permit on {} for its gang", a->pod().key, node);
}

/// Permit allowed the gang: every other waiting member goes on to bind.
void release_gang(Self self, const std::vector<std::string>& released) {
  for (const auto& uid : released)
    if (auto entry = take_waiting(self, uid, "Success")) pre_bind_and_bind(self, entry->attempt, entry->node);
}

void gang_member_unreserved(Self self, const AttemptPtr& a) {
  if (const auto* spec = gang_spec_of(*a)) reject_gang_group(self, *spec, left_in_unreserve(*spec, *a));
}

/// Preemption victims waiting at Permit are rejected, not deleted (upstream's
/// waitingPod.Reject(plugin, "preempted")): their nodes forget them, they are
/// requeued, and then their Unreserve sends a Strict gang's other waiting
/// members back. Returns the ones that were waiting.
std::set<std::string> reject_waiting_victims(Self self, const std::vector<std::string>& uids,
                                             const std::string& plugin) {
  std::set<std::string> rejected;
  std::vector<AttemptPtr> attempts;
  for (const auto& uid : uids) {
    auto it = self->state.waiting.find(uid);
    if (it == self->state.waiting.end() || !rejected.insert(uid).second) continue;
    attempts.push_back(it->second.attempt);
  }
  static const std::string kPreempted = "preempted";
  for (const auto& uid : rejected) drop_waiting(self, uid, &kPreempted, plugin);
  for (const auto& victim : attempts) gang_member_unreserved(self, victim);
  return rejected;
}

void on_gang_timeout(Self self, const std::string& uid, uint64_t ticket) {
  auto it = self->state.waiting.find(uid);
  if (it == self->state.waiting.end() || it->second.ticket != ticket) return;  // allowed or rejected meanwhile
  AttemptPtr a = it->second.attempt;
  const auto* spec = gang_spec_of(*a);
  const std::string message = "rejected due to timeout after waiting " + format_go_duration(it->second.timeout) +
                              " at plugin " + Coscheduling::kName;
  drop_waiting(self, uid, &message);
  if (spec) reject_gang_group(self, *spec, left_in_unreserve(*spec, *a));
}

/// ImageLocality's input, while some node lists images (else it has nothing
/// to score, and pods' classes stay as they were). Only Score reads it.
void share_image_spread(Self self, const Attempt& a) {
  const auto& spread = self->state.image_spread;
  if (!spread.any_images()) return;
  std::shared_ptr<const plugins::image_locality::ImageSpread> view(
      std::shared_ptr<const plugins::image_locality::ImageSpread>(), &spread);
  a.request->state->share_input(std::move(view), spread.generation() + 1, /*read_by_filter=*/false);
}

/// The pod left its gang: it was deleted (`still_pending` false), or its gang
/// label or annotation was taken off. Either way it leaves its node if it was
/// waiting there; a pod that is still pending is then requeued, to be
/// scheduled on its own (nothing else would ever try it again).
void on_gang_member_gone(Self self, const std::string& uid, bool still_pending) {
  auto it = self->state.waiting.find(uid);
  if (it != self->state.waiting.end()) {
    AttemptPtr a = it->second.attempt;
    const auto* spec = gang_spec_of(*a);
    const std::string left = "pod left gang \"" + (spec ? spec->id : std::string()) + "\" while waiting at Permit";
    drop_waiting(self, uid, still_pending ? &left : nullptr);
    if (spec) reject_gang_group(self, *spec, left_in_unreserve(*spec, *a));
  }
  self->state.gangs.remove_member(uid);
}

void on_gang_member(Self self, const QueuedPod& pod, bool bound) {
  if (!pod.framework || !pod.pod) return;
  const auto* plugin = Coscheduling::of(*pod.framework);
  if (plugin == nullptr) return;
  auto spec = plugins::coscheduling::read_gang_spec(pod.pod->meta(), plugin->args().defaults);
  if (spec && *spec) return self->state.gangs.add_member(pod.pod->meta().uid, **spec, bound, pod.pod->key);
  // Its gang annotations do not read: a member under its gang's rules all the
  // same; with none yet, it is reported when tried (PreFilter).
  if (!spec)
    if (auto name = plugins::coscheduling::gang_name_of(pod.pod->meta()))
      self->state.gangs.add_unreadable_member(pod.pod->meta().uid, pod.pod->meta().namespace_name + "/" + *name,
                                              bound, pod.pod->key);
}

/// After Reserve: Permit (a gang pod may wait there), then PreBind and the binding.
void after_reserve(Self self, const AttemptPtr& a, const std::string& node) {
  if (a->gang_rejected) {
    // Rejected with its group while its Reserve was on its way (as a pod
    // waiting at Permit would be): its node lets it go, it is requeued.
    unreserve(self, a, node);
    return fail(self, a, *a->gang_rejected, {Coscheduling::kName}, false);
  }
  auto& state = *a->request->state;
  std::vector<std::string> released;
  if (const auto* plugin = Coscheduling::of(a->framework())) {
    if (const auto* view = plugin->view(state); view && view->spec) {
      auto decision = self->state.gangs.permit(*view->spec, a->pod().meta().uid);
      if (decision.gone) {
        unreserve(self, a, node);
        return fail(self, a, "pod is no longer a member of gang " + view->spec->id, {Coscheduling::kName}, false);
      }
      released = std::move(decision.released);
      plugins::coscheduling::GangView decided = *view;
      decided.permit_allowed = decision.allowed;
      plugin->share_view(state, std::move(decided));
    }
  }
  auto permit = a->framework().run_permit(state, a->pod(), node);
  if (permit.status.code == plugins::Code::wait) {
    auto timeout = std::chrono::milliseconds::max();
    for (const auto& [plugin_name, plugin_timeout] : permit.waiting) timeout = std::min(timeout, plugin_timeout);
    return wait_at_permit(self, a, node, timeout);
  }
  if (self->state.gangs.stop_waiting(a->pod().meta().uid) || !released.empty()) count_waiting_groups(self);
  release_gang(self, released);
  if (!permit.status.ok()) {
    unreserve(self, a, node);
    fail(self, a, permit.status.message(), {permit.status.plugin}, permit.status.code == plugins::Code::error);
    return;
  }
  pre_bind_and_bind(self, a, node);
}

/// VolumeBinding's plan for the chosen node (binder.go AssumePodVolumes):
/// assumed from now on, so that the next pods see its volumes taken. False
/// when there is none to be had there after all: the attempt has failed.
bool assume_volumes(Self self, const AttemptPtr& a, const std::string& node) {
  if (!self->state.deps.volumes || a->pod().spec().volume_claims.empty()) return true;
  const auto* binding = plugins::volumes::VolumeBinding::of(a->framework());
  if (binding == nullptr) return true;
  // The node's labels as the cycle knows them: those Filter saw, or newer.
  auto entry = self->state.cluster_pods.nodes().find(node);
  if (entry == self->state.cluster_pods.nodes().end() || !entry->second.node) {
    gang_member_unreserved(self, a);
    const std::string why = "node " + plugins::volumes::quoted(node) + " not found";
    fail_and_next(self, a, "running Reserve plugin \"VolumeBinding\": " + why, {plugins::volumes::VolumeBinding::kName},
                  true);
    return false;
  }
  auto outcome = binding->decide_plan(*a->request->state, node, entry->second.node->meta.labels);
  if (!outcome) return true;
  if (!outcome->status.ok()) {
    // The node changed since Filter: upstream's Reserve fails the same way, and Unreserve follows.
    gang_member_unreserved(self, a);
    fail_and_next(self, a, outcome->status.message(), {plugins::volumes::VolumeBinding::kName},
                  outcome->status.code == plugins::Code::error);
    return false;
  }
  self->state.deps.volumes->assume(a->pod().meta().uid, node, outcome->plan.claims);
  return true;
}

/// Koordinator's evaluated/feasible-node histograms, for a pod whose node is
/// chosen: kube-scheduler's ScheduleResult counts, the nodes that passed
/// every filter and those that failed one; 1 and 1 when the pod's nominated
/// node is taken (upstream evaluates it alone first).
void observe_chosen(Self self, const Attempt& a, bool nominated_node) {
  auto& m = self->state.deps.metrics;
  if (!m) return;
  const auto feasible = nominated_node ? 1.0 : static_cast<double>(a.feasible.size());
  const auto evaluated = nominated_node ? 1.0 : feasible + static_cast<double>(a.failures.rejected_nodes());
  m->observe("scheduler_pod_scheduling_evaluated_nodes", {}, evaluated);
  m->observe("scheduler_pod_scheduling_feasible_nodes", {}, feasible);
}

/// Reserve failed on the node (which changed since the round): what the cycle
/// assumed for the pod meanwhile is let go.
void reserve_failed(Self self, const AttemptPtr& a) {
  self->state.cluster_pods.forget_assumed(plugins::pod_identity(a->pod()));
  quota_reserved(self, *a, false);
  forget_volumes(self, *a);
  gang_member_unreserved(self, a);
  pod_let_go(self);
}

/// Reserve on the owning NODE actor, and at once the next pod: its round
/// reaches that actor after this Reserve (messages from one sender arrive in
/// order), so it sees the node with this pod on it, exactly as if the cycle
/// had waited. The cycle does not wait for the answer: Permit, PreBind and
/// the Binding follow when it comes, while the next pods are scheduled. If
/// Reserve fails (the node changed since the round), the next pod saw the
/// node without this one, which is what the node then holds.
void reserve(Self self, const AttemptPtr& a, const std::string& node) {
  a->node_chosen = true;
  if (!assume_volumes(self, a, node)) return;
  // Assumed on the node from now on, for the next pods' domain counts.
  self->state.cluster_pods.assume_pod(a->request->pod, node);
  quota_reserved(self, *a, true);
  const std::string uid = a->pod().meta().uid;
  // Its group is read now: the node actor works on the attempt's state while Reserve runs.
  if (const auto* spec = gang_spec_of(*a)) self->state.reserving_gang_members[uid] = {a, spec->group_id};
  self->request(owner(self, node), kNodeReply, atom::reserve_v, CycleRequestPtr(a->request), node)
      .then(
          [=](ReserveOutcome& outcome) {
            self->state.reserving_gang_members.erase(uid);
            if (outcome.ok) return after_reserve(self, a, node);
            reserve_failed(self, a);
            // As schedule_one.go: a rejection at Reserve is a FitError over the one node tried.
            if (outcome.rejected)
              return fail(self, a, plugins::fit_error_message(1, {{outcome.message, 1}}), {outcome.plugin}, false);
            fail(self, a, outcome.message, {outcome.plugin}, true);
          },
          [=](caf::error& err) {
            self->state.reserving_gang_members.erase(uid);
            reserve_failed(self, a);
            fail(self, a, "reserve failed: " + to_string(err), {}, true);
          });
  restore_set_aside(self);
  next(self);
}

void select_and_reserve(Self self, const AttemptPtr& a) {
  auto chosen = plugins::Framework::select_host(a->feasible, self->state.rng);
  if (!chosen) return fail_and_next(self, a, "no node could be scored", {}, true);
  observe_chosen(self, *a, false);
  reserve(self, a, a->feasible[*chosen].node_name);
}

/// prioritizeNodes' extender part: their scores, weighted and scaled, are
/// added to the plugins' totals before a host is selected.
void prioritize_with_extenders(Self self, const AttemptPtr& a) {
  auto extenders = self->state.deps.extenders;
  auto pod = a->pod().pod;
  auto feasible = a->feasible_names();
  auto nodes = a->node_json;
  bool posted = off_actor<std::map<std::string, int64_t>>(
      self, [extenders, pod, feasible, nodes] { return extenders->prioritize(*pod, feasible, *nodes); },
      [self, a](const std::map<std::string, int64_t>& extra) {
        for (auto& s : a->feasible)
          if (auto it = extra.find(s.node_name); it != extra.end()) s.total += it->second;
        select_and_reserve(self, a);
      });
  if (!posted) fail_and_next(self, a, "extenders cannot be called: no I/O threads (the scheduler is shutting down)", {}, true);
}

/// Two or more nodes to compare: normalise the round's raw scores across
/// every partition, then (extenders) prioritize and select.
void score(Self self, const AttemptPtr& a) {
  if (!a->pre_score.ok()) return fail_and_next(self, a, a->pre_score.message(), {a->pre_score.plugin}, true);
  const auto normalize_started = Clock::now();
  auto status = a->framework().finalize_scores(*a->request->state, a->pod(), a->feasible);
  a->framework().record_extension_point(plugins::MetricPoint::score, status.ok() ? plugins::Code::success : status.code,
                                        a->score_seconds + seconds_since(normalize_started));
  if (!status.ok()) return fail_and_next(self, a, status.message(), {status.plugin}, true);
  if (extenders_of(self) && extenders_of(self)->prioritizes(*a->pod().pod))
    return with_node_objects(self, a, [self, a] { prioritize_with_extenders(self, a); });
  select_and_reserve(self, a);
}

/// Coscheduling's PostFilter message for the members it sends back (Go's %q throughout).
std::string member_unschedulable(const plugins::coscheduling::GangSpec& spec, const Attempt& a,
                                 const std::string& reason) {
  using plugins::deviceshare::go_quote;
  return "Gang " + go_quote(spec.id) + " gets rejected due to member Pod " + go_quote(a.pod().meta().name) +
         " is unschedulable with reason " + go_quote(reason);
}

void report_no_fit(Self self, const AttemptPtr& a, const plugins::PostFilterResult& post) {
  auto message = plugins::fit_error_message(a->total_nodes, a->failures.counts(), post.message);
  // Coscheduling's reason is the FitError of the node statuses alone (PostFilter's message comes after it).
  if (const auto* gang = gang_rejected_at_post_filter(*a))
    reject_gang_group(self, *gang->spec,
                      member_unschedulable(*gang->spec, *a,
                                           plugins::fit_error_message(a->total_nodes, a->failures.counts())));
  const auto& plugins_set = a->failures.plugins();
  fail_and_next(self, a, message, std::vector<std::string>(plugins_set.begin(), plugins_set.end()), false);
}

/// PostFilter: a preempting plugin's search runs on the partitions first (off the path of pods that fit).
void post_filter(Self self, const AttemptPtr& a) {
  if (const auto* preemption = preemption_plugin(a->framework())) {
    return search_preemption(self, a->request, a->extender_statuses, a->total_nodes, *preemption,
                             [self, a, preemption](const plugins::PostFilterResult& post) {
                               act_on_preemption(self, *a->request, *preemption, post,
                                                 [self](const std::vector<std::string>& uids,
                                                        const std::string& plugin) {
                                                   return reject_waiting_victims(self, uids, plugin);
                                                 });
                               report_no_fit(self, a, post);
                             });
  }
  self->state.preempting.clear();  // no search: nothing to nominate
  report_no_fit(self, a, a->framework().run_post_filter(*a->request->state, a->pod(), a->extender_statuses));
}

/// No node fits: the reservation diagnosis (when the profile wants it), then PostFilter.
void no_fit(Self self, const AttemptPtr& a) {
  begin_post_filter(self, a->pod());
  diagnose_reservations(self, a->request, a->extender_statuses, [self, a] { post_filter(self, a); });
}

/// The pod's nominated node while it is tried (its nomination released for the attempt).
std::optional<std::string> nominated_node(Self self, const Attempt& a) {
  const auto& released = self->state.released;
  if (!released || released->first != plugins::pod_identity(a.pod())) return std::nullopt;
  return released->second.node;
}

/// None of the nodes tried first fits (extenders included): the usual round,
/// as if the pod preferred no node; what the first pass found is forgotten.
void search_every_node(Self self, const AttemptPtr& a) {
  a->preferred_pass = false;
  a->feasible.clear();
  a->failures = plugins::FailureHistogram{};
  a->extender_statuses.clear();
  a->node_json.reset();  // fetched for the preferred nodes only
  filter_round(self, a);
}

/// The node the pod was nominated to after preempting, when it passed every
/// filter: upstream's PreferNominatedNode takes it without scoring the others.
std::optional<std::string> feasible_nomination(Self self, const Attempt& a) {
  auto node = nominated_node(self, a);
  if (!node) return std::nullopt;
  for (const auto& candidate : a.feasible)
    if (candidate.node_name == *node) return node;
  return std::nullopt;
}

/// After every filter (plugins, then extenders): nothing fits, one node
/// fits (nothing to compare), or score.
void after_filters(Self self, const AttemptPtr& a) {
  if (a->feasible.empty() && a->preferred_pass) return search_every_node(self, a);
  if (a->feasible.empty()) return no_fit(self, a);
  auto nominated = feasible_nomination(self, *a);
  if (nominated) {
    observe_chosen(self, *a, true);
    return reserve(self, a, *nominated);
  }
  if (a->feasible.size() == 1) {
    observe_chosen(self, *a, false);
    return reserve(self, a, a->feasible.front().node_name);
  }
  score(self, a);
}

/// findNodesThatPassExtenders: the extenders narrow what the plugins let through.
void filter_with_extenders(Self self, const AttemptPtr& a) {
  auto extenders = self->state.deps.extenders;
  auto pod = a->pod().pod;
  auto feasible = a->feasible_names();
  auto nodes = a->node_json;
  bool posted = off_actor<ExtenderFilterOutcome>(
      self, [extenders, pod, feasible, nodes] { return extenders->filter(*pod, feasible, *nodes); },
      [self, a](const ExtenderFilterOutcome& outcome) {
        if (outcome.error) return fail_and_next(self, a, outcome.error_message, {}, true);
        for (const auto& [node, status] : outcome.statuses) {
          a->failures.add(status);
          a->extender_statuses.emplace_back(node, status);
        }
        // Keep the nodes (and their scores) the extenders let through.
        const std::set<std::string> passed(outcome.feasible.begin(), outcome.feasible.end());
        a->feasible.erase(std::remove_if(a->feasible.begin(), a->feasible.end(),
                                         [&](const plugins::NodeScore& s) { return passed.count(s.node_name) == 0; }),
                          a->feasible.end());
        after_filters(self, a);
      });
  if (!posted) fail_and_next(self, a, "extenders cannot be called: no I/O threads (the scheduler is shutting down)", {}, true);
}

/// kube-scheduler's ErrNoNodesAvailable: no FitError, no PostFilter; an earlier nomination is void.
void no_nodes(Self self, const AttemptPtr& a) {
  clear_nomination(self, *a->request);
  fail_and_next(self, a, plugins::kNoNodesAvailableMessage, {}, false);
}

/// The plugins' filters passed (in `filter_seconds`): Filter's and the
/// scheduling algorithm's durations, once per attempt.
void record_filtered(Self self, const Attempt& a, double filter_seconds) {
  a.framework().record_extension_point(plugins::MetricPoint::filter, plugins::Code::success, filter_seconds);
  if (auto& m = self->state.deps.metrics)
    m->observe("scheduler_scheduling_algorithm_duration_seconds", {}, seconds_since(a.started));
}

/// After the plugins' filters: the extenders' (with Node objects when they
/// want them) when they filter this pod, then the choice.
void extenders_then_choose(Self self, const AttemptPtr& a) {
  if (!a->feasible.empty() && extenders_of(self) && extenders_of(self)->filters(*a->pod().pod))
    return with_node_objects(self, a, [self, a] { filter_with_extenders(self, a); });
  after_filters(self, a);
}

void on_round(Self self, const AttemptPtr& a, std::vector<FilterOutcomePtr>& parts) {
  const double round_seconds = seconds_since(a->phase_started);
  int64_t total = 0;
  size_t feasible = 0;
  for (const auto& part : parts) feasible += part->feasible.size();
  a->feasible.reserve(feasible);  // one allocation for the merged list
  for (const auto& part : parts) {
    if (part->error) {
      a->framework().record_extension_point(plugins::MetricPoint::filter, plugins::Code::error, round_seconds);
      return fail_and_next(self, a, part->error_message, {}, true);
    }
    total += part->nodes;
    std::move(part->feasible.begin(), part->feasible.end(), std::back_inserter(a->feasible));
    a->failures.merge(part->failures);
    a->score_seconds = std::max(a->score_seconds, part->score_seconds);
  }
  a->total_nodes = total;
  self->state.total_nodes = total;
  record_filtered(self, *a, round_seconds - a->score_seconds);
  if (total == 0) return no_nodes(self, a);
  extenders_then_choose(self, a);
}

/// When PreFilter or PreScore may count the cluster's pods for the pod
/// (share_cluster_pods shares them): the selectors through which its own
/// rules pick them (`siblings`: its default spreading's); nullopt when they
/// count none.
std::optional<plugins::OwnSelectors> selectors_counting(Self self, const Attempt& a, DefaultSpreading by_default,
                                                        LabelSelector siblings) {
  const Pod& pod = *a.pod().pod;
  if (by_default != DefaultSpreading::none) return plugins::OwnSelectors(pod, std::move(siblings));
  if (plugins::placement_reads_other_pods(pod, self->state.cluster_pods))
    return plugins::OwnSelectors(pod, std::nullopt);
  return std::nullopt;
}

/// A pod that must use a reservation (reservation-affinity) gets the nodes
/// holding one it may use, so the Reservation plugin's PreFilter restricts
/// the candidates to them (ClusterReservations::usable_by). Filter does not
/// read them: verdicts stay cacheable.
void share_reservation_affinity_nodes(Self self, const Attempt& a) {
  const Pod& pod = *a.pod().pod;
  if (pod.meta.annotation(plugins::reservation::kAnnotationReservationAffinity) == nullptr) return;
  auto usable = std::make_shared<plugins::reservation::ReservationAffinityNodes>();
  for (const auto* held : self->state.reservations.usable_by(pod, self->state.cluster_pods))
    usable->nodes.insert(held->node);
  uint64_t version = 1;
  for (const auto& node : usable->nodes) version = version * 0x9e3779b97f4a7c15ULL ^ std::hash<std::string>{}(node);
  a.request->state->share_input(std::shared_ptr<const plugins::reservation::ReservationAffinityNodes>(std::move(usable)),
                                version == 0 ? 1 : version, /*read_by_filter=*/false);
}

/// The cycle's time, for a profile whose plugins read it (LoadAwareScheduling).
void share_cycle_clock(Self self, const Attempt& a) {
  const plugins::Framework* framework = &a.framework();
  auto known = self->state.reads_clock.find(framework);
  if (known == self->state.reads_clock.end())
    known = self->state.reads_clock
                .emplace(framework, plugins::load_aware::LoadAwareScheduling::of(*framework) != nullptr)
                .first;
  if (!known->second) return;
  auto clock = std::make_shared<const plugins::CycleClock>(plugins::CycleClock{timestamp_now()});
  const uint64_t version = clock->version();
  a.request->state->share_input(std::move(clock), version);
}

/// The claims, volumes and storage classes, for a pod that uses claims
/// (plugins/volumes/): an immutable snapshot, versioned by its changes; and
/// which of its ReadWriteOncePod claims placed pods use.
void share_volumes(Self self, const Attempt& a) {
  if (!self->state.deps.volumes || a.pod().spec().volume_claims.empty()) return;
  auto catalog = self->state.deps.volumes->snapshot();
  const uint64_t version = catalog->generation + 1;
  // Which of its ReadWriteOncePod claims placed pods use already (VolumeRestrictions).
  auto in_use = std::make_shared<const plugins::volumes::ClaimsInUse>(
      plugins::volumes::claims_in_use(*a.pod().pod, self->state.cluster_pods, *catalog));
  if (!in_use->in_use.empty()) {
    const uint64_t in_use_version = in_use->version();
    a.request->state->share_input(std::move(in_use), in_use_version);
  }
  a.request->state->share_input(std::move(catalog), version);
}

/// The pod's class in this cycle (the evaluation cache's key): the queue's,
/// with only the labels something may read of it now, under the cycle's inputs.
std::shared_ptr<const plugins::SchedulingClass> cycle_class(Self self, const Attempt& a) {
  const plugins::SelectedLabelKeys selected{self->state.cluster_pods.terms_by_label().selected_keys(),
                                            self->state.workloads.selected_keys()};
  return plugins::with_inputs_version(plugins::with_labels_read(a.queued->scheduling_class, *a.pod().pod, selected),
                                      a.request->state->inputs_version(), a.request->state->filter_inputs_version());
}

/// The cycle's inputs, PreFilter, and PreScore when PreFilter passed (into
/// a->pre_score); returns PreFilter's status. They count the cluster's pods
/// as the pod sees them: without the reserve pods of the reservations it may
/// use, which are back when this returns.
plugins::PluginStatus pre_filter_and_score(Self self, const AttemptPtr& a) {
  auto& request = *a->request;
  LabelSelector siblings;
  const DefaultSpreading by_default = default_spreading(self, *a, &siblings);
  const auto selectors =
      self->state.reservations.empty() ? std::nullopt : selectors_counting(self, *a, by_default, std::move(siblings));
  ReservePodsAside aside(self->state.cluster_pods, self->state.reservations, *request.pod->pod,
                         selectors ? &*selectors : nullptr);
  const uint64_t cluster_version = share_cluster_pods(self, *a, by_default);
  share_image_spread(self, *a);
  share_reservation_affinity_nodes(self, *a);
  share_cycle_clock(self, *a);
  share_volumes(self, *a);
  if (self->state.deps.evaluation_cache) request.scheduling_class = cycle_class(self, *a);
  share_gang_view(self, *a);
  if (self->state.quotas) self->state.quotas->share_view(a->framework(), *request.state, a->pod());
  auto pre_filter = a->framework().run_pre_filter(*request.state, a->pod());
  if (pre_filter.ok()) a->pre_score = a->framework().run_pre_score(*request.state, a->pod());
  withdraw_cycle_inputs(*a, cluster_version);
  return pre_filter;
}

/// A PreFilter rejected the pod. An error ends the attempt; a rejection
/// gives every node the PreFilter's status and runs PostFilter on that, as
/// kube-scheduler does: preemption finds nothing it could help
/// (troupe's PreFilters reject as UnschedulableAndUnresolvable; a plain
/// Unschedulable one, ElasticQuota's, would need a search of every node
/// without the PreFilter's state, which troupe does not run: only
/// Coscheduling's PostFilter then), the Reservation plugin says why the pod's
/// reservations did not help, and a Strict gang's waiting members are sent
/// back by Coscheduling's PostFilter (not when the gang's schedule cycle
/// turned the pod away: skipReject; a rejection by its member check leaves
/// the cycle as it is).
void pre_filter_rejected(Self self, const AttemptPtr& a, const plugins::PluginStatus& rejection) {
  if (rejection.code == plugins::Code::error)
    return fail_and_next(self, a, rejection.message(), {rejection.plugin}, true);
  const int64_t total_nodes = self->state.total_nodes;
  if (total_nodes == 0) return no_nodes(self, a);
  plugins::PostFilterResult post;
  if (rejection.code == plugins::Code::unschedulable_and_unresolvable) {
    diagnose_reservations_after_pre_filter(self, *a->request, rejection);
    if (const auto* preemption = preemption_plugin(a->framework())) {
      post = post_filter_after_pre_filter(self, *a->request, total_nodes, *preemption);
      act_on_preemption(self, *a->request, *preemption, post);
    } else {
      post = a->framework().run_post_filter(*a->request->state, a->pod(), {});
    }
  } else if (const auto* coscheduling = Coscheduling::of(a->framework())) {
    const auto& at_post_filter = a->framework().post_filter_plugins();
    const plugins::PostFilterPlugin* as_post_filter = coscheduling;
    if (std::find(at_post_filter.begin(), at_post_filter.end(), as_post_filter) != at_post_filter.end())
      post = coscheduling->post_filter(*a->request->state, a->pod(), {});
  }
  if (const auto* gang = gang_rejected_at_post_filter(*a)) {
    std::map<std::string, int64_t> every_node;
    for (const auto& reason : rejection.reasons) every_node[reason] = total_nodes;
    reject_gang_group(self, *gang->spec,
                      member_unschedulable(*gang->spec, *a, plugins::fit_error_message(total_nodes, every_node)),
                      !gang->keeps_schedule_cycle);
  }
  fail_and_next(self, a, plugins::pre_filter_fit_error_message(total_nodes, rejection.message(), post.message),
                {rejection.plugin}, false);
}

/// The preferred pass (actors/preferred_nodes.hpp): the partitions holding
/// `names` filter and score them; the best of those that pass is taken,
/// or, when none passes, every node is searched.
void try_preferred_nodes(Self self, const AttemptPtr& a, std::vector<std::string> names) {
  a->phase_started = Clock::now();
  auto tried = std::make_shared<const std::vector<std::string>>(std::move(names));
  std::vector<node_actor> holders;
  for (size_t i : partitions_holding(*tried, self->state.deps.nodes.size())) holders.push_back(self->state.deps.nodes[i]);
  const bool scored = a->request->score;
  fan_out<EvaluationPtr>(
      self, holders, kNodeReply,
      [=](std::vector<EvaluationPtr> parts) {
        // Filter is recorded once per attempt: here when the pass decides (its
        // few nodes' scoring included), else by the round that follows.
        const double pass_seconds = seconds_since(a->phase_started);
        auto outcome = merge_preferred(*tried, parts, scored);
        if (!outcome.error.empty()) {
          a->framework().record_extension_point(plugins::MetricPoint::filter, plugins::Code::error, pass_seconds);
          return fail_and_next(self, a, outcome.error, {}, true);
        }
        if (outcome.feasible.empty()) return search_every_node(self, a);
        record_filtered(self, *a, pass_seconds);
        a->preferred_pass = true;
        a->feasible = std::move(outcome.feasible);
        a->total_nodes = self->state.total_nodes;
        extenders_then_choose(self, a);
      },
      [=](caf::error err) { fail_and_next(self, a, "filter failed: " + to_string(err), {}, true); },
      atom::evaluate_v, CycleRequestPtr(a->request), NodeNamesPtr(tried), scored);
}

/// PreFilter and PreScore on the cycle, then one round on every partition:
/// each filters its nodes and scores those that pass.
void attempt(Self self, QueuedPodPtr queued) {
  auto a = std::make_shared<Attempt>();
  a->queued = queued;
  a->started = Clock::now();
  auto request = std::make_shared<CycleRequest>();
  request->cycle = ++self->state.cycle;
  request->framework = queued->framework;
  request->pod = queued->pod;
  request->state = std::shared_ptr<plugins::CycleState>(queued->framework->new_cycle_state());
  self->state.task_learning.on_attempt(*queued, *request->state);  // actors/task_learning.hpp
  a->request = request;
  // Nominations change the nodes and the domains the pod is tried against.
  release_nomination(self, *request->pod);
  set_aside_lower_nominations(self, *request->pod);
  auto pre_filter = pre_filter_and_score(self, a);
  if (!pre_filter.ok()) return pre_filter_rejected(self, a, pre_filter);
  request->score = a->pre_score.ok();
  int32_t percentage = a->framework().percentage_of_nodes_to_score().value_or(
      self->state.deps.percentage_of_nodes_to_score);
  request->total_nodes = self->state.total_nodes;
  request->feasible_wanted = self->state.total_nodes > 0
                                 ? plugins::num_feasible_nodes_to_find(percentage, self->state.total_nodes)
                                 : 0;  // size unknown yet: every partition checks every node
  auto first = nodes_to_try_first(a->framework(), *request->state, nominated_node(self, *a));
  if (!first.empty()) return try_preferred_nodes(self, a, std::move(first));
  filter_round(self, a);
}

/// The round: every partition filters its nodes and scores those that pass.
void filter_round(Self self, const AttemptPtr& a) {
  a->phase_started = Clock::now();
  fan_out<FilterOutcomePtr>(
      self, self->state.deps.nodes, kNodeReply,
      [=](std::vector<FilterOutcomePtr> parts) { on_round(self, a, parts); },
      [=](caf::error err) {
        a->framework().record_extension_point(plugins::MetricPoint::filter, plugins::Code::error,
                                              seconds_since(a->phase_started));
        fail_and_next(self, a, "filter failed: " + to_string(err), {}, true);
      },
      atom::filter_v, CycleRequestPtr(a->request));
}

/// Asks the QUEUE for the next pod ahead of time, so that a pod is at hand
/// as soon as the cycle is free (the pop's round trip overlaps the attempt).
void prefetch(Self self) {
  auto& st = self->state;
  st.pop_pending = true;
  self->request(st.deps.queue, caf::infinite, atom::pop_v)
      .then(
          [=](QueuedPodPtr& queued) {
            auto& st = self->state;
            st.pop_pending = false;
            if (!st.idle) {
              st.prefetched = std::move(queued);
              return;
            }
            st.idle = false;
            prefetch(self);
            attempt(self, std::move(queued));
          },
          [=](caf::error& err) {
            spdlog::error("scheduling-cycle lost the queue: {}", to_string(err));
            self->quit(err);
          });
}

/// An Available reservation's reserve pod counts on its node (replacing the
/// copy assumed at its Reserve); one no longer Available leaves.
void hold_reservation(Self self, const ReservationPtr& reservation) {
  auto& st = self->state;
  const std::string uid = reservation->meta.uid;
  const bool was_held = st.reservations.find(uid) != nullptr;
  if (const auto* held = st.reservations.upsert(reservation))
    st.cluster_pods.add_pod(held->reserve_pod, held->node);
  else if (was_held)
    st.cluster_pods.remove_pod(uid);
}

/// The cycle is free: attempt the prefetched pod, or wait for one.
void take_next(Self self) {
  auto& st = self->state;
  if (st.prefetched) {
    QueuedPodPtr queued = std::move(st.prefetched);
    st.prefetched = nullptr;
    prefetch(self);
    return attempt(self, std::move(queued));
  }
  st.idle = true;
  if (!st.pop_pending) prefetch(self);
}

}  // namespace

cycle_actor::behavior_type cycle_actor_fn(Self self, CycleDeps deps) {
  self->state.deps = std::move(deps);
  self->state.rng.seed(self->state.deps.seed);
  if (self->state.deps.quotas) self->state.quotas = std::make_unique<QuotaAccounting>();
  self->state.actor_metrics = actor_metrics(self->state.deps.metrics, "cycle");
  return {
      [=](atom::start) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (self->state.started) return;
        self->state.started = true;
        next(self);
      },
      [=](atom::next) {
        MessageTimer timer(self->state.actor_metrics, self);
        take_next(self);
      },
      [=](atom::next, CycleResumePtr resume) {
        MessageTimer timer(self->state.actor_metrics, self);
        (*resume)();
      },
      [=](atom::pod_gone, const std::string& uid) {
        MessageTimer timer(self->state.actor_metrics, self);
        forget_nomination(self, uid);
        self->state.reported_conditions.gone(uid);
        on_gang_member_gone(self, uid, /*still_pending=*/false);
        self->state.cluster_pods.remove_pod(uid);
        if (self->state.quotas) self->state.quotas->pod_gone(uid);
      },
      [=](atom::pod_bound, const PodInfoPtr& pod, const std::string& node) {
        MessageTimer timer(self->state.actor_metrics, self);
        nominated_pod_bound(self, std::string(plugins::pod_identity(*pod)), node);
        self->state.cluster_pods.add_pod(pod, node);
        self->state.reported_conditions.forget(pod->meta().uid);
        if (self->state.quotas) self->state.quotas->pod_placed(pod);
      },
      [=](atom::upsert_reservation, const ReservationPtr& reservation) {
        MessageTimer timer(self->state.actor_metrics, self);
        hold_reservation(self, reservation);
      },
      [=](atom::delete_reservation, const std::string& uid) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (self->state.reservations.remove(uid)) self->state.cluster_pods.remove_pod(uid);
      },
      [=](atom::dequeue, const std::string& uid) {
        MessageTimer timer(self->state.actor_metrics, self);
        // A preemption may hold room for it (the reserve pod's uid is the reservation's).
        forget_nomination(self, uid);
        self->state.reported_conditions.forget(uid);
        self->state.cluster_pods.forget_assumed(uid);
      },
      [=](atom::nominated, const PodInfoPtr& pod) {
        MessageTimer timer(self->state.actor_metrics, self);
        adopt_nomination(self, pod);
      },
      [=](atom::upsert_node, const NodePtr& node) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.cluster_pods.upsert_node(node);
        self->state.image_spread.upsert_node(node);
        if (self->state.quotas) self->state.quotas->upsert_node(*node);
      },
      [=](atom::delete_node, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.cluster_pods.remove_node(name);
        self->state.image_spread.remove_node(name);
        if (self->state.quotas) self->state.quotas->remove_node(name);
      },
      [=](atom::node_count, int64_t count) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.total_nodes = count;
      },
      [=](atom::gang_member, const QueuedPodPtr& pod, bool bound) {
        MessageTimer timer(self->state.actor_metrics, self);
        on_gang_member(self, *pod, bound);
      },
      [=](atom::gang_member, const std::string& left_uid) {
        MessageTimer timer(self->state.actor_metrics, self);
        on_gang_member_gone(self, left_uid, /*still_pending=*/true);
      },
      [=](atom::upsert_podgroup, const PodGroupRulesPtr& group) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.gangs.set_pod_group(group->gang_id, group->rules);
      },
      [=](atom::upsert_workload, const WorkloadSelectorPtr& workload) { self->state.workloads.upsert(*workload); },
      [=](atom::delete_workload, const WorkloadSelectorPtr& workload) {
        self->state.workloads.remove(workload->kind, workload->namespace_name, workload->name);
      },
      [=](atom::namespace_labels, const NamespaceChangePtr& change) { change_namespace(self, *change); },
      [=](atom::delete_podgroup, const std::string& gang_id) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.gangs.remove_pod_group(gang_id);
      },
      [=](atom::gang_timeout, const std::string& uid, uint64_t ticket) {
        MessageTimer timer(self->state.actor_metrics, self);
        on_gang_timeout(self, uid, ticket);
      },
      [=](atom::pod_bound, const QueuedPodPtr& pod) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.task_learning.on_bound(*pod, self->state.started);
      },
      [=](atom::upsert_elastic_quota, const QuotaSpecPtr& spec) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (self->state.quotas) self->state.quotas->upsert_quota(*spec);
      },
      [=](atom::delete_elastic_quota, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (self->state.quotas) self->state.quotas->remove_quota(name);
      },
      [=](atom::quota_pod, const PodInfoPtr& pod) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (self->state.quotas) self->state.quotas->pod_pending(pod);
      },
      [=](atom::quota_summary, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (!self->state.quotas) return std::string();
        return self->state.quotas->summary_json(name).value_or(std::string());
      },
      [=](atom::quota_figures) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (!self->state.quotas) return QuotaFiguresPtr(std::make_shared<const QuotaFigures>());
        return self->state.quotas->figures();
      },
      [=](atom::quota_revoke, int64_t delay_ns) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (!self->state.quotas) return PodInfoListPtr(std::make_shared<const std::vector<PodInfoPtr>>());
        return self->state.quotas->revocations(QuotaAccounting::Clock::now(), std::chrono::nanoseconds(delay_ns));
      },
      [=](atom::learned_tasks) {
        MessageTimer timer(self->state.actor_metrics, self);
        return self->state.task_learning.summary_json();
      },
      // Coscheduling's debug service: one gang ("ns/name"; "" when unknown), or every gang for "".
      [=](atom::gang_summary, const std::string& gang_id) {
        MessageTimer timer(self->state.actor_metrics, self);
        const auto& book = self->state.gangs;
        if (gang_id.empty()) return plugins::coscheduling::gang_summaries_json(book);
        return plugins::coscheduling::gang_summary_json(book, gang_id).value_or(std::string());
      },
  };
}

}  // namespace troupe::actors
