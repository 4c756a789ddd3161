#include "actors/reservation_actor.hpp"

#include <set>
#include <unordered_map>

#include <spdlog/spdlog.h>

#include "actors/atoms.hpp"
#include "actors/messages.hpp"
#include "actors/reservation_writes.hpp"
#include "actors/undecodable_objects.hpp"
#include "config/yaml_fields.hpp"
#include "model/json.hpp"
#include "plugins/reservation/pod_annotations.hpp"
#include "plugins/reservation/reservation_args.hpp"
#include "plugins/reservation/reservation_lifecycle.hpp"
#include "plugins/reservation/reservation_metrics.hpp"
#include "plugins/reservation/reservation_names.hpp"
#include "plugins/reservation/reservation_status.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::actors {

/// What an I/O task reports back about one reservation write.
struct ReservationWriteDone {
  std::string uid;
  std::string name;
  std::string what;
  watch::ApiResult result;
};
using ReservationWriteDonePtr = std::shared_ptr<const ReservationWriteDone>;

}  // namespace troupe::actors

// In-process only: the outcome of a write, sent back by the I/O thread.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::ReservationWriteDonePtr)

namespace troupe::actors {

namespace rsv = plugins::reservation;

namespace {

constexpr const char* kPhasesMetric = "troupe_reservations";
constexpr const char* kReservationPhaseMetric = "scheduler_reservation_status_phase";
constexpr const char* kReservationResourceMetric = "scheduler_reservation_resource";
constexpr const char* kReservations = "reservations";
constexpr const char* kPods = "pods";
constexpr const char* kNodes = "nodes";

/// A pod that allocated a reservation (its reservation-allocated annotation).
struct OwnerPod {
  std::string reservation_uid;
  std::shared_ptr<const Pod> pod;
};

struct QueuedReservePod {
  std::string key;          // the reserve pod's queue key
  std::string fingerprint;  // what scheduling reads of the reservation when it was queued
};

/// spec, labels and annotations: a change there makes a new reserve pod. A
/// status-only change (our own Scheduled=False) must not, or every failed
/// attempt would send the reservation straight back to the active queue.
std::string scheduling_fingerprint(const Reservation& r) {
  if (!r.raw) return {};
  std::string out;
  if (const rapidjson::Value* spec = find_path(*r.raw, "spec")) out += to_json(*spec);
  for (const char* field : {"labels", "annotations"}) {
    out += '|';
    if (const rapidjson::Value* v = find_path(*r.raw, "metadata", field)) out += to_json(*v);
  }
  return out;
}

struct FinishedUndecodable {
  std::string name;
  std::optional<Timestamp> finished;
  bool deleting = false;  // a DELETE was sent: its watch event follows (or, failed, it is sent again)
};

struct ReservationActorState {
  ReservationControllerDeps deps;
  ReservationControllerSettings settings;
  std::map<std::string, std::shared_ptr<const Reservation>> reservations;  // by uid
  std::unordered_map<std::string, OwnerPod> owner_pods;                    // by pod uid
  std::set<std::string> nodes;
  std::set<std::string> unsynced;
  /// Reservation uid -> its reserve pod in the queue.
  std::map<std::string, QueuedReservePod> queued;
  std::set<std::string> busy;                 // reservation uids with a write on the I/O pool
  /// Pending reservations of our profiles that do not decode, to be marked Failed (by uid).
  std::map<std::string, UndecodableObject> undecodable;
  /// Finished reservations of our profiles that do not decode (any version
  /// kept is dropped), to be garbage collected as the others (by uid).
  std::map<std::string, FinishedUndecodable> finished_undecodable;
};

using Self = caf::stateful_actor<ReservationActorState>*;

bool leading(const ReservationActorState& st) { return !st.deps.leading || st.deps.leading->load(); }
bool synced(const ReservationActorState& st) { return st.unsynced.empty(); }

std::string string_at(const rapidjson::Value& object, const char* a, const char* b) {
  const rapidjson::Value* v = find_path(object, a, b);
  return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

/// A reservation is ours when its template names one of our profiles (absent:
/// default-scheduler), as its reserve pod's schedulerName: another
/// scheduler's reservations are left to its own controller.
bool ours(const ReservationActorState& st, std::string scheduler_name) {
  if (scheduler_name.empty()) scheduler_name = rsv::kDefaultSchedulerName;
  return st.deps.frameworks.count(scheduler_name) > 0;
}

bool ours(const ReservationActorState& st, const Reservation& r) {
  return ours(st, r.spec.pod_template ? r.spec.pod_template->spec.scheduler_name : "");
}

// ---- queueing reserve pods -------------------------------------------------

void dequeue(Self self, const std::string& uid) {
  auto it = self->state.queued.find(uid);
  if (it == self->state.queued.end()) return;
  self->send(self->state.deps.queue, atom::dequeue_v, it->second.key);
  // A preemption may hold room for it, a Reserve a copy of its reserve pod.
  if (self->state.deps.cycle) self->send(self->state.deps.cycle, atom::dequeue_v, uid);
  self->state.queued.erase(it);
}

/// Queues the reserve pod of a Pending reservation of one of our profiles,
/// again only when what scheduling reads of it changed.
void enqueue(Self self, const Reservation& r) {
  auto& st = self->state;
  std::string fingerprint = scheduling_fingerprint(r);
  auto known = st.queued.find(r.meta.uid);
  const bool again = known != st.queued.end();
  if (again && known->second.fingerprint == fingerprint) return;
  auto pod = rsv::make_reserve_pod_info(r);
  auto framework = st.deps.frameworks.find(pod->pod->spec.scheduler_name);
  if (framework == st.deps.frameworks.end()) return;  // another scheduler's reservation
  auto queued = make_queued_pod(pod, framework->second);
  st.queued[r.meta.uid] = QueuedReservePod{pod->key, std::move(fingerprint)};
  self->send(st.deps.queue, atom::enqueue_v, QueuedPodPtr(std::move(queued)));
  spdlog::info("reservation {}: {} for scheduling", r.meta.name, again ? "changed, queued again" : "queued");
}

/// Keeps the queue in step with the reservation: queued while Pending, valid
/// and not expired; out of the queue otherwise.
void track_queue(Self self, const Reservation& r) {
  const bool schedulable = rsv::reservation_phase(r) == rsv::kPhasePending && rsv::validate_reservation(r).ok() &&
                           !rsv::needs_expiration(r, timestamp_now());
  if (schedulable) return enqueue(self, r);
  dequeue(self, r.meta.uid);
}

// ---- the watch view ------------------------------------------------------------

/// A finished reservation of ours that does not decode: whatever version
/// was kept is over; it is garbage collected as the others, from what can be
/// read of it.
void collect_undecodable(Self self, const rapidjson::Value& object, const UndecodableObject& bad) {
  auto& st = self->state;
  st.reservations.erase(bad.uid);
  dequeue(self, bad.uid);
  // One being deleted (finalizers) needs no DELETE.
  if (find_path(object, "metadata", "deletionTimestamp") == nullptr)
    st.finished_undecodable[bad.uid] = {bad.name, raw_finished_at(object, {rsv::kConditionReady,
                                                                           rsv::kConditionScheduled})};
  spdlog::warn("reservation {} ({}): {}; {}", bad.name, raw_phase(object), bad.message,
               st.settings.garbage_collection ? "it is deleted gcDurationSeconds after it finished"
                                              : "left alone (garbage collection is disabled)");
}

/// A Pending reservation of ours that does not decode is marked Failed by
/// the next lifecycle pass; a started one keeps its last decoded version
/// (actors/undecodable_objects.hpp); a finished one is collected.
void on_undecodable(Self self, const rapidjson::Value& object, const std::string& message) {
  auto& st = self->state;
  UndecodableObject bad = undecodable_object(object, "the reservation is malformed: " + message);
  const rapidjson::Value* scheduler = find_path(object, "spec", "template", "spec", "schedulerName");
  const bool mine = ours(st, scheduler && scheduler->IsString() ? scheduler->GetString() : "");
  st.finished_undecodable.erase(bad.uid);  // decided again below
  if (mine && raw_finished(object)) {
    st.undecodable.erase(bad.uid);
    return collect_undecodable(self, object, bad);
  }
  if (!mine || !raw_pending(object)) {
    st.undecodable.erase(bad.uid);
    const bool kept = st.reservations.count(bad.uid) > 0;
    spdlog::warn("reservation {} ({}): {}; {}", bad.name, raw_phase(object), bad.message,
                 kept ? "its last decoded version is kept" : "left alone");
    return;
  }
  spdlog::warn("reservation {}: {}; it will be marked Failed", bad.name, bad.message);
  st.reservations.erase(bad.uid);
  dequeue(self, bad.uid);
  st.undecodable[bad.uid] = std::move(bad);
}

void on_reservation(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  auto& st = self->state;
  if (type == watch::EventType::deleted) {
    const std::string uid = string_at(*object, "metadata", "uid");
    st.reservations.erase(uid);
    st.undecodable.erase(uid);
    st.finished_undecodable.erase(uid);
    dequeue(self, uid);
    return;
  }
  auto decoded = decode_reservation(object);
  if (!decoded) return on_undecodable(self, *object, decoded.message());
  st.undecodable.erase(decoded->meta.uid);
  st.finished_undecodable.erase(decoded->meta.uid);
  auto r = std::make_shared<const Reservation>(std::move(*decoded));
  st.reservations[r->meta.uid] = r;
  track_queue(self, *r);
}

void on_pod(Self self, const ObjectEvent& event) {
  auto& st = self->state;
  const watch::ObjectPtr& object = event.object;
  const std::string uid = string_at(*object, "metadata", "uid");
  const rapidjson::Value* annotations = find_path(*object, "metadata", "annotations");
  const bool allocated = annotations && annotations->IsObject() &&
                         annotations->HasMember(rsv::kAnnotationReservationAllocated);
  if (event.type == watch::EventType::deleted || !allocated) {
    st.owner_pods.erase(uid);
    return;
  }
  const auto& pod = event.pod();  // decoded once for every actor following pods
  if (!pod) {
    st.owner_pods.erase(uid);
    return;
  }
  auto names = rsv::reservation_allocated_of((*pod)->meta);
  if (!names || !*names) {
    st.owner_pods.erase(uid);
    return;
  }
  st.owner_pods[uid] = OwnerPod{(*names)->uid, *pod};
}

void on_node(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  const std::string name = string_at(*object, "metadata", "name");
  if (type == watch::EventType::deleted)
    self->state.nodes.erase(name);
  else
    self->state.nodes.insert(name);
}

// ---- the lifecycle pass --------------------------------------------------------

void post_write(Self self, const std::string& uid, const std::string& name, std::string what,
                std::function<watch::ApiResult(watch::ApiClient&)> write) {
  auto& st = self->state;
  st.busy.insert(uid);
  auto me = caf::actor_cast<caf::actor>(self);
  auto api = st.deps.api;
  auto done = std::make_shared<ReservationWriteDone>();
  done->uid = uid;
  done->name = name;
  done->what = std::move(what);
  bool queued = st.deps.io->post([me, api, done, write = std::move(write)] {
    done->result = write(*api);
    caf::anon_send(me, atom::done_v, ReservationWriteDonePtr(done));
  });
  if (!queued) st.busy.erase(uid);
}

void act(Self self, const std::shared_ptr<const Reservation>& r, rsv::LifecycleDecision decision) {
  switch (decision.action) {
    case rsv::LifecycleAction::none: return;
    case rsv::LifecycleAction::schedule: return enqueue(self, *r);
    case rsv::LifecycleAction::write_status: {
      dequeue(self, r->meta.uid);
      auto status = std::make_shared<const ReservationStatus>(std::move(*decision.status));
      return post_write(self, r->meta.uid, r->meta.name, "status (" + decision.why + ")",
                        [r, status](watch::ApiClient& api) { return write_reservation_status(api, *r, *status); });
    }
    case rsv::LifecycleAction::delete_object:
      return post_write(self, r->meta.uid, r->meta.name, "deletion (" + decision.why + ")",
                        [r](watch::ApiClient& api) { return delete_reservation(api, r->meta.name, r->meta.uid); });
  }
}

void record_phases(ReservationActorState& st) {
  if (!st.deps.metrics) return;
  std::map<std::string, double> counts = {{rsv::kPhasePending, 0},   {rsv::kPhaseWaiting, 0}, {rsv::kPhaseAvailable, 0},
                                          {rsv::kPhaseSucceeded, 0}, {rsv::kPhaseFailed, 0}};
  for (const auto& [uid, r] : st.reservations) counts[rsv::reservation_phase(*r)] += 1;
  for (const auto& [phase, count] : counts) st.deps.metrics->set(kPhasesMetric, {phase}, count);
  // Koordinator's per-reservation series, rebuilt whole: a reservation gone takes its series along.
  rsv::MetricSeries phases, resources;
  for (const auto& [uid, r] : st.reservations) {
    for (auto& series : rsv::reservation_phase_series(*r)) phases.push_back(std::move(series));
    for (auto& series : rsv::reservation_resource_series(*r)) resources.push_back(std::move(series));
  }
  st.deps.metrics->replace(kReservationPhaseMetric, phases);
  st.deps.metrics->replace(kReservationResourceMetric, resources);
}

void lifecycle_pass(Self self) {
  auto& st = self->state;
  std::unordered_map<std::string, std::vector<const Pod*>> owners;
  for (const auto& [uid, owner] : st.owner_pods) owners[owner.reservation_uid].push_back(owner.pod.get());
  rsv::LifecycleContext context;
  context.now = timestamp_now();
  context.retention = st.settings.retention;
  context.garbage_collection = st.settings.garbage_collection;
  for (const auto& [uid, r] : st.reservations) {
    if (st.busy.count(uid) || !ours(st, *r)) continue;
    auto mine = owners.find(uid);
    context.owner_pods = mine == owners.end() ? std::vector<const Pod*>{} : mine->second;
    context.node_exists = r->status.node_name.empty() || st.nodes.count(r->status.node_name) > 0;
    act(self, r, rsv::decide_lifecycle(*r, context));
  }
  for (const auto& [uid, bad] : st.undecodable) {
    if (st.busy.count(uid)) continue;
    auto marked = std::make_shared<const UndecodableObject>(bad);
    post_write(self, uid, bad.name, "status (invalid: " + bad.message + ")",
               [marked](watch::ApiClient& api) { return fail_undecodable_reservation(api, *marked); });
  }
  for (auto& [uid, finished] : st.finished_undecodable) {
    if (finished.deleting || st.busy.count(uid) || !rsv::due_for_collection(finished.finished, context)) continue;
    finished.deleting = true;
    post_write(self, uid, finished.name, "deletion (finished, and does not decode)",
               [name = finished.name, uid = uid](watch::ApiClient& api) { return delete_reservation(api, name, uid); });
  }
}

caf::behavior reservation_actor_fn(Self self, ReservationControllerDeps deps, ReservationControllerSettings settings,
                                   std::vector<std::string> resources) {
  auto& st = self->state;
  st.deps = std::move(deps);
  st.settings = settings;
  st.unsynced.insert(resources.begin(), resources.end());
  self->send(self, atom::tick_v);
  return {
      [=](atom::watch_event, const ObjectEventPtr& event) {
        if (event->resource == kReservations) return on_reservation(self, event->type, event->object);
        if (event->resource == kPods) return on_pod(self, *event);
        if (event->resource == kNodes) return on_node(self, event->type, event->object);
      },
      [=](atom::synced, const std::string& resource) {
        auto& st = self->state;
        if (st.unsynced.erase(resource) == 0 || !synced(st)) return;
        spdlog::info("reservation controller: synced ({} reservations, {} owner pods, {} nodes)",
                     st.reservations.size(), st.owner_pods.size(), st.nodes.size());
      },
      [=](atom::tick) {
        auto& st = self->state;
        // Writes wait for the whole view: a node not listed yet is not a gone node.
        if (synced(st) && leading(st)) lifecycle_pass(self);
        record_phases(st);
        self->delayed_send(self, st.settings.tick, atom::tick_v);
      },
      [=](atom::done, const ReservationWriteDonePtr& done) {
        auto& st = self->state;
        st.busy.erase(done->uid);
        // Marked Failed, or found readable again: the watch event follows.
        if (done->result.ok) st.undecodable.erase(done->uid);
        // A DELETE that failed is sent again by a later pass.
        if (auto it = st.finished_undecodable.find(done->uid); !done->result.ok && it != st.finished_undecodable.end())
          it->second.deleting = false;
        if (done->result.ok)
          spdlog::info("reservation {}: wrote {}", done->name, done->what);
        else if (done->result.code != 404)
          spdlog::warn("reservation {}: {} failed: {}", done->name, done->what, done->result.message);
      },
  };
}

const CollectionSpec kCollections[] = {
    {kReservations, "/apis/scheduling.koordinator.sh/v1alpha1/reservations", "", true},
    // Finished pods hold nothing (recompute_owners skips them anyway).
    {kPods, "/api/v1/pods", "status.phase!=Succeeded,status.phase!=Failed", false},
    {kNodes, "/api/v1/nodes", "", false},
};

}  // namespace

Result<ReservationControllerSettings> reservation_controller_settings(const config::SchedulerConfiguration& cfg) {
  ReservationControllerSettings settings;
  for (const config::Profile& profile : cfg.profiles) {
    YAML::Node node = profile.args_for("Reservation");
    if (!node || node.IsNull()) continue;
    try {
      auto args = rsv::ReservationArgs::from_yaml(node);
      settings.retention = std::chrono::seconds(args.gc_duration_seconds);
      settings.garbage_collection = !args.disable_garbage_collection;
    } catch (const config::FieldError& e) {
      return Error{"profile " + profile.scheduler_name + ": Reservation args: " + e.what()};
    }
    break;
  }
  return settings;
}

void declare_reservation_metrics(MetricsRegistry& registry) {
  registry.declare(kPhasesMetric, MetricsRegistry::Type::gauge,
                   "Reservations the reservation controller sees, by status.phase.", {"phase"});
  registry.declare(kReservationPhaseMetric, MetricsRegistry::Type::gauge,
                   "The current number of reservations in each status phase (e.g. Pending, Available, Succeeded, "
                   "Failed)",
                   {"name", "phase"});
  registry.declare(kReservationResourceMetric, MetricsRegistry::Type::gauge,
                   "Resource metrics for a reservation, including allocatable, allocated, and utilization with unit.",
                   {"type", "name", "resource", "unit"});
}

Result<std::unique_ptr<ReservationController>> ReservationController::start(ReservationControllerDeps deps,
                                                                            const config::SchedulerConfiguration& cfg) {
  auto settings = reservation_controller_settings(cfg);
  if (!settings) return Error{settings.message()};
  if (deps.metrics) declare_reservation_metrics(*deps.metrics);
  std::unique_ptr<ReservationController> controller(new ReservationController());
  if (deps.reflectors == nullptr) return Error{"reservation controller: no reflectors to subscribe to"};
  std::vector<std::string> resources;
  for (const CollectionSpec& c : kCollections) resources.push_back(c.resource);
  auto* reflectors = deps.reflectors;
  auto* system = deps.system;
  controller->actor_ = system->spawn(reservation_actor_fn, std::move(deps), *settings, resources);
  for (const CollectionSpec& c : kCollections) {
    if (auto subscribed = reflectors->subscribe(c, controller->actor_); !subscribed) {
      controller->stop();
      return Error{subscribed.message()};
    }
  }
  return controller;
}

ReservationController::~ReservationController() { stop(); }

void ReservationController::stop() {
  if (actor_) caf::anon_send_exit(actor_, caf::exit_reason::user_shutdown);
  actor_ = nullptr;
}

}  // namespace troupe::actors
