#include "actors/migration_actor.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <spdlog/spdlog.h>

#include "actors/atoms.hpp"
#include "actors/messages.hpp"
#include "actors/migration_settings.hpp"
#include "actors/migration_view.hpp"
#include "actors/preemption_pdbs.hpp"
#include "actors/undecodable_objects.hpp"
#include "actors/unreadable_objects.hpp"
#include "watch/json_util.hpp"
#include "plugins/descheduler/arbiter.hpp"
#include "plugins/descheduler/evictor_filter.hpp"
#include "plugins/descheduler/gpu_defrag_round.hpp"
#include "plugins/descheduler/gpu_inventory.hpp"
#include "plugins/descheduler/job_scavenger.hpp"
#include "plugins/descheduler/low_node_load.hpp"
#include "plugins/descheduler/migration_job.hpp"
#include "watch/object_writes.hpp"
#include "watch/pod_writes.hpp"

namespace troupe::actors {

namespace ds = plugins::descheduler;

namespace {

constexpr const char* kEvictionsMetric = "troupe_descheduler_evictions_total";
/// Koordinator's (and the upstream descheduler's) eviction counter.
constexpr const char* kPodsEvictedMetric = "descheduler_pods_evicted";
constexpr const char* kJobsMetric = "troupe_migration_jobs";
constexpr const char* kCycleMetric = "troupe_descheduler_cycle_duration_seconds";
constexpr const char* kKoordRoot = "/apis/scheduling.koordinator.sh/v1alpha1";
/// Which plugin asked for a migration (Koordinator's evictor annotations).
constexpr const char* kTriggerAnnotation = "descheduler.koordinator.sh/evict-trigger";
constexpr const char* kReasonAnnotation = "descheduler.koordinator.sh/evict-reason";
constexpr const char* kSoftEvictionAnnotation = "scheduling.koordinator.sh/soft-eviction";
constexpr const char* kControllerPlugin = "MigrationController";
/// The reason Koordinator's arbitrator fails a job whose pod may not move with.
constexpr const char* kReasonForbiddenMigratePod = "ForbiddenMigratePod";

struct MigrationState {
  MigrationDeps deps;
  MigrationSettings settings;
  MigrationView view;
  std::set<std::string> unsynced;
  bool started = false;
  bool cycled_once = false;
  ds::AnomalyDetectors detectors;
  std::unique_ptr<ds::ArbiterState> arbiter;
  std::set<std::string> admitted;   // jobs that passed arbitration (in memory, as Koordinator's cache)
  std::set<std::string> busy;       // a step of the job is on the I/O pool
  /// Pods whose job we created and have not seen yet -> that job's name, once
  /// the API server has answered ("" until then).
  std::map<std::string, std::string> requested;
  std::set<std::string> defrag_requested;  // the part of `requested` GPUDefragmentation asked for
  /// Objects the view could not apply, for logging each problem once.
  UnreadableReports unreadable;
  /// PodMigrationJobs that do not decode: a Warning event on each (the
  /// informer does not follow jobs), recorded while leading.
  UnreadableReports job_reports;
  /// Pending jobs that do not decode, to be marked Failed (by name).
  std::map<std::string, UndecodableObject> undecodable_jobs;
  Timestamp last_scavenge{};  // when old jobs were last looked for
};

using Self = caf::stateful_actor<MigrationState>*;

std::string pod_ref_key(const PodMigrationJob& job) {
  return job.spec.pod_ref.namespace_name + "/" + job.spec.pod_ref.name;
}

std::string reservation_name(const PodMigrationJob& job) {
  if (job.spec.reservation_options && job.spec.reservation_options->reservation_ref)
    return job.spec.reservation_options->reservation_ref->name;
  return job.meta.uid.empty() ? job.meta.name : job.meta.uid;
}

std::string trigger_of(const PodMigrationJob& job) {
  const std::string* trigger = job.meta.annotation(kTriggerAnnotation);
  return trigger ? *trigger : kControllerPlugin;
}

std::string job_path(const std::string& name) {
  return watch::object_path(kKoordRoot, "podmigrationjobs", "", name);
}

bool leading(const MigrationState& st) { return !st.deps.leading || st.deps.leading->load(); }

// ---- carrying out a job step (on an I/O thread) ----------------------------

void fail(PodMigrationJobStatus& status, const std::string& reason, const std::string& message) {
  status.phase = ds::kPhaseFailed;
  status.reason = reason;
  status.message = message;
}

/// Koordinator's SoftEvictionSpec: when, which plugin asked and why.
std::string soft_eviction_mark(const PodMigrationJob& job) {
  const std::string* reason = job.meta.annotation(kReasonAnnotation);
  std::string mark = R"({"timestamp":)" + watch::json_quote(format_timestamp(timestamp_now())) +
                     R"(,"initiator":)" + watch::json_quote(trigger_of(job));
  if (reason && !reason->empty()) mark += R"(,"reason":)" + watch::json_quote(*reason);
  return mark + "}";
}

/// Evicts by the configured policy; the metric result says how it went.
watch::ApiResult evict(watch::ApiClient& api, const ds::JobAction& action, const std::string& uid,
                       const PodMigrationJob& job, std::optional<int64_t> grace) {
  auto slash = action.pod_key.find('/');
  const std::string ns = action.pod_key.substr(0, slash), name = action.pod_key.substr(slash + 1);
  if (action.eviction_policy == "Delete") return watch::delete_pod(api, ns, name, {uid, ""}, grace);
  if (action.eviction_policy == "SoftEviction") {
    // The workload's own controller moves the pod; we only mark it.
    return watch::merge_patch_metadata(api, watch::pod_path(ns, name), {{kSoftEvictionAnnotation, soft_eviction_mark(job)}});
  }
  return watch::evict_pod(api, ns, name, grace);
}

const char* eviction_result(const watch::ApiResult& r) {
  if (r.ok || r.code == 404) return "success";
  return r.code == 429 ? "blocked" : "error";
}

/// DELETE `path` (an object of `job`'s); false when it is still there.
bool delete_for_job(watch::ApiClient& api, const std::string& path, const char* what, const PodMigrationJob& job) {
  auto r = watch::delete_object(api, path);
  if (!r.ok && r.code != 404) spdlog::warn("migration: could not delete {} of job {}: {}", what, job.meta.name, r.message);
  return r.ok || r.code == 404;
}

/// Runs the step's actions in order, then writes the status; a failed
/// action fails the job (Koordinator's FailedCreateReservation / FailedEvict).
JobStepOutcomePtr carry_out(watch::ApiClient& api, MetricsRegistry& metrics, const PodMigrationJob& job,
                            ds::JobStep step, const std::string& pod_uid, const std::string& pod_node,
                            std::optional<int64_t> grace) {
  auto outcome = std::make_shared<JobStepOutcome>();
  outcome->job = job.meta.name;
  PodMigrationJobStatus& status = step.status;
  for (const ds::JobAction& action : step.actions) {
    if (action.kind == ds::JobActionKind::create_reservation) {
      auto r = watch::create_object(api, std::string(kKoordRoot) + "/reservations", encode(*action.reservation));
      if (!r.ok && r.code != 409) {
        fail(status, "FailedCreateReservation", r.message);
        break;
      }
      spdlog::info("migration: job {} created reservation {}", job.meta.name, action.reservation->meta.name);
    } else if (action.kind == ds::JobActionKind::delete_reservation) {
      delete_for_job(api, watch::object_path(kKoordRoot, "reservations", "", action.reservation->meta.name),
                     "the reservation", job);
    } else {
      auto r = evict(api, action, pod_uid, job, grace);
      metrics.add(kEvictionsMetric, {trigger_of(job), eviction_result(r)});
      const bool evicted = r.ok || r.code == 404;
      metrics.add(kPodsEvictedMetric, {evicted ? "success" : "error", trigger_of(job),
                                       action.pod_key.substr(0, action.pod_key.find('/')), pod_node});
      if (!r.ok && r.code != 404) {
        fail(status, "FailedEvict", "evicting pod " + action.pod_key + ": " + r.message);
        break;
      }
      spdlog::info("migration: job {} evicted pod {} ({})", job.meta.name, action.pod_key, action.eviction_policy);
    }
  }
  PodMigrationJob with_status = job;
  with_status.status = status;
  auto encoded = to_document(with_status);
  auto write = watch::update_status(api, job_path(job.meta.name), [&](rapidjson::Document& object) {
    auto& alloc = object.GetAllocator();
    object.RemoveMember("status");
    if (auto it = encoded->FindMember("status"); it != encoded->MemberEnd())
      object.AddMember("status", rapidjson::Value(it->value, alloc), alloc);
    return true;
  });
  if (!write.ok) {
    outcome->error = "status write: " + write.message;
    return outcome;
  }
  auto updated = decode_pod_migration_job_json(write.body);
  if (updated) outcome->updated = std::make_shared<const PodMigrationJob>(std::move(*updated));
  outcome->forbidden = status.reason == kReasonForbiddenMigratePod && job.status.reason != kReasonForbiddenMigratePod;
  return outcome;
}

void post_step(Self self, std::shared_ptr<const PodMigrationJob> job, ds::JobStep step, std::string pod_uid,
               std::string pod_node) {
  auto& st = self->state;
  st.busy.insert(job->meta.name);
  auto me = caf::actor_cast<caf::actor>(self);
  auto api = st.deps.api;
  auto metrics = st.deps.metrics;
  const auto grace = ds::delete_grace_period(*job, st.settings.controller);
  bool queued = st.deps.io->post([me, api, metrics, job, step = std::move(step), pod_uid, pod_node, grace]() mutable {
    caf::anon_send(me, atom::done_v, carry_out(*api, *metrics, *job, std::move(step), pod_uid, pod_node, grace));
  });
  if (!queued) st.busy.erase(job->meta.name);
}

// ---- objects that do not decode ---------------------------------------------------

/// Logs an event the view could not apply, once per object and problem (a
/// NodeMetric's bad figure would otherwise be logged at every report). The
/// informer records the events about them; this view only logs.
void note_unreadable(Self self, const ObjectEvent& event, const Status& applied) {
  auto& reports = self->state.unreadable;
  if (applied && reports.empty()) return;
  const std::string name = watch::string_at(*event.object, {"metadata", "name"});
  if (applied || event.type == watch::EventType::deleted) {
    if (event.type == watch::EventType::deleted) reports.deleted(event.resource, name);
    else reports.readable(event.resource, name);
    if (applied) return;
  }
  watch::ObjectReference regarding;
  regarding.kind = event.resource;
  regarding.name = name;
  if (reports.unreadable(regarding, applied.message(), /*leading=*/false, UnreadableReports::Clock::now()).log)
    spdlog::warn("migration: ignoring an event: {}", applied.message());
}

/// A Warning event on the job, once per problem (actors/unreadable_objects.hpp).
void report_undecodable_job(Self self, const rapidjson::Value& object, const std::string& problem) {
  auto& st = self->state;
  const auto regarding = reference_to(object, "PodMigrationJob", "scheduling.koordinator.sh/v1alpha1");
  auto verdict = st.job_reports.unreadable(regarding, problem, leading(st), UnreadableReports::Clock::now());
  if (verdict.event && st.deps.writer) self->send(st.deps.writer, atom::report_v, verdict.event);
}

/// Koordinator's arbitrator's words for a pod it will not migrate, then the rule that said so.
std::string forbidden_message(const PodMigrationJob& job, const std::string& rule) {
  return "Pod \"" + job.spec.pod_ref.namespace_name + "/" + job.spec.pod_ref.name +
         "\" is forbidden to migrate because it does not meet the requirements: " + rule;
}

/// The arbitrator's Warning event on a job it failed (reason ForbiddenMigratePod, action Migrating),
/// sent once the Failed status is written.
void warn_forbidden(Self self, const PodMigrationJob& job, const std::string& message) {
  auto& st = self->state;
  if (!st.deps.writer || !leading(st) || st.deps.scheduler_names.empty()) return;
  auto warning = std::make_shared<ObjectWarning>();
  warning->regarding.kind = "PodMigrationJob";
  warning->regarding.api_version = "scheduling.koordinator.sh/v1alpha1";
  warning->regarding.name = job.meta.name;
  warning->regarding.uid = job.meta.uid;
  warning->regarding.resource_version = job.meta.resource_version;
  warning->profile = *std::min_element(st.deps.scheduler_names.begin(), st.deps.scheduler_names.end());
  warning->reason = kReasonForbiddenMigratePod;
  warning->message = message;
  warning->action = "Migrating";
  self->send(st.deps.writer, atom::report_v, ObjectWarningPtr(std::move(warning)));
}

/// Held back while standing by: recorded once this replica leads.
void record_held_back_job_events(Self self) {
  auto& st = self->state;
  if (st.job_reports.empty() || !st.deps.writer) return;
  for (auto& warning : st.job_reports.take_held_back()) self->send(st.deps.writer, atom::report_v, std::move(warning));
}

/// A Pending job that does not decode is marked Failed by the next
/// reconcile; a started one keeps its last decoded version
/// (actors/undecodable_objects.hpp), and so does one with a step in flight:
/// that step may be starting it (an eviction, a reservation) right now.
void on_undecodable_job(Self self, const watch::ObjectPtr& object) {
  auto& st = self->state;
  auto decoded = decode_pod_migration_job(object);
  if (decoded) return;  // not reached: the view could not decode it
  report_undecodable_job(self, *object, decoded.message());
  UndecodableObject bad = undecodable_object(*object, "the PodMigrationJob is malformed: " + decoded.message());
  if (!raw_pending(*object) || st.busy.count(bad.name)) {
    st.undecodable_jobs.erase(bad.name);
    const bool kept = st.view.job(bad.name) != nullptr;
    spdlog::warn("migration: job {} ({}): {}; {}", bad.name, raw_phase(*object), bad.message,
                 kept ? "its last decoded version is kept" : "left alone");
    return;
  }
  spdlog::warn("migration: job {}: {}; it will be marked Failed", bad.name, bad.message);
  st.view.drop_job(bad.name);
  st.admitted.erase(bad.name);
  st.undecodable_jobs[bad.name] = std::move(bad);
}

/// The write: phase Failed, reason Invalid and the decoding error, edited
/// into the stored job; nothing when it decodes by now or has moved on.
JobStepOutcomePtr fail_undecodable_job(watch::ApiClient& api, const UndecodableObject& bad) {
  auto outcome = std::make_shared<JobStepOutcome>();
  outcome->job = bad.name;
  auto write = watch::update_status(api, job_path(bad.name), [&](rapidjson::Document& object) {
    if (decode_pod_migration_job_json(watch::to_json(object))) return false;
    return mark_invalid(object, bad, nullptr, timestamp_now());
  });
  if (!write.ok && write.code != 404) outcome->error = "marking it Failed: " + write.message;
  return outcome;
}

void fail_undecodable_jobs(Self self) {
  auto& st = self->state;
  for (const auto& [name, bad] : st.undecodable_jobs) {
    if (st.busy.count(name)) continue;
    st.busy.insert(name);
    auto me = caf::actor_cast<caf::actor>(self);
    auto api = st.deps.api;
    bool queued = st.deps.io->post([me, api, bad = bad] {
      caf::anon_send(me, atom::done_v, fail_undecodable_job(*api, bad));
    });
    if (!queued) st.busy.erase(name);
  }
}

// ---- reconciling jobs (arbitration + state machine) -------------------------

std::vector<std::shared_ptr<const PodMigrationJob>> open_jobs(const MigrationView& view) {
  std::vector<std::shared_ptr<const PodMigrationJob>> open;
  for (const auto& [name, job] : view.jobs())
    if (!job_finished(*job)) open.push_back(job);
  std::stable_sort(open.begin(), open.end(), [](const auto& a, const auto& b) {
    return a->meta.creation_timestamp.value_or(Timestamp{}) < b->meta.creation_timestamp.value_or(Timestamp{});
  });
  return open;
}

bool pending(const PodMigrationJob& job) { return job.status.phase.empty() || job.status.phase == ds::kPhasePending; }

/// Arbitrates the Pending jobs; returns the non-admitted verdicts by job name.
std::map<std::string, ds::ArbitrationDecision> arbitrate_pending(
    MigrationState& st, const std::vector<std::shared_ptr<const PodMigrationJob>>& open, Timestamp now) {
  auto rooms = st.view.node_rooms();
  ds::ArbitrationInput input;
  input.now = now;
  input.evictor_context.nodes = &rooms;
  for (const auto& job : open) {
    auto pod = st.view.pod(pod_ref_key(*job));
    const bool candidate = pending(*job) && !st.admitted.count(job->meta.name);
    if (candidate) {
      if (pod && !job->spec.paused) input.candidates.push_back({job->meta.name, job->spec.mode, pod, st.view.workload_of(*pod)});
      continue;
    }
    ds::MigratingPod migrating;
    migrating.pod_key = pod_ref_key(*job);
    migrating.namespace_name = job->spec.pod_ref.namespace_name;
    migrating.node = pod ? pod->spec.node_name : job->status.node_name;
    if (pod) {
      if (auto workload = st.view.workload_of(*pod)) migrating.workload_uid = workload->uid;
    }
    input.in_flight.push_back(std::move(migrating));
  }
  std::map<std::string, ds::ArbitrationDecision> held;
  if (input.candidates.empty()) return held;
  for (auto& decision : ds::arbitrate(input, st.settings.controller, *st.arbiter)) {
    if (decision.verdict == ds::Verdict::admit) {
      st.admitted.insert(decision.job);
      spdlog::info("migration: job {} passed arbitration", decision.job);
    } else {
      held.emplace(decision.job, std::move(decision));
    }
  }
  return held;
}

void record_job_phases(MigrationState& st) {
  std::map<std::string, double> counts = {{ds::kPhasePending, 0}, {ds::kPhaseRunning, 0}, {ds::kPhaseSucceeded, 0},
                                          {ds::kPhaseFailed, 0},  {ds::kPhaseAborted, 0}};
  for (const auto& [name, job] : st.view.jobs()) counts[job->status.phase.empty() ? ds::kPhasePending : job->status.phase] += 1;
  for (const auto& [phase, count] : counts) st.deps.metrics->set(kJobsMetric, {phase}, count);
}

void reconcile(Self self) {
  auto& st = self->state;
  fail_undecodable_jobs(self);
  const Timestamp now = timestamp_now();
  auto open = open_jobs(st.view);
  auto held = arbitrate_pending(st, open, now);
  for (const auto& job : open) {
    const std::string& name = job->meta.name;
    if (st.busy.count(name)) continue;
    ds::JobObservation observed;
    observed.now = now;
    observed.pod = st.view.pod(pod_ref_key(*job));
    observed.reservation = st.view.reservation(reservation_name(*job));
    observed.bound_pod_ready = observed.reservation && st.view.reservation_owner_ready(*observed.reservation);
    observed.passed_arbitration = st.admitted.count(name) > 0;
    ds::JobStep step = ds::step_migration_job(*job, observed, st.settings.controller);
    if (auto it = held.find(name); it != held.end() && step.status.phase == ds::kPhasePending) {
      if (it->second.verdict == ds::Verdict::reject) {
        fail(step.status, kReasonForbiddenMigratePod, forbidden_message(*job, it->second.message));
      } else {
        step.status.message = it->second.message;
      }
      step.changed = step.status.phase != job->status.phase || step.status.message != job->status.message ||
                     step.status.reason != job->status.reason;
    }
    if (!step.changed && step.actions.empty()) continue;
    post_step(self, job, std::move(step), observed.pod ? observed.pod->meta.uid : "",
              observed.pod ? observed.pod->spec.node_name : "");
  }
  // Forget admissions of jobs that are gone or done.
  for (auto it = st.admitted.begin(); it != st.admitted.end();) {
    auto job = st.view.job(*it);
    it = (!job || job_finished(*job)) ? st.admitted.erase(it) : std::next(it);
  }
  record_job_phases(st);
}

// ---- the descheduling cycle -------------------------------------------------

std::string describe(const ds::PlannedEviction& e) {
  return "pod " + e.pod->meta.key() + " from node " + e.node + (e.target.empty() ? "" : " (room on " + e.target + ")") +
         ": " + e.reason;
}

/// What a balance plugin asks of the MigrationController.
struct MigrationRequest {
  const char* plugin;
  const char* name_prefix;  // generateName of the PodMigrationJob
  std::shared_ptr<const Pod> pod;
  std::string reason;       // the evict-reason annotation
  std::string description;  // for the log
};

void create_job(Self self, const MigrationRequest& request) {
  auto& st = self->state;
  PodMigrationJob job;
  job.meta.generate_name = request.name_prefix;
  job.meta.annotations[kTriggerAnnotation] = request.plugin;
  job.meta.annotations[kReasonAnnotation] = request.reason;
  job.meta.labels["app.kubernetes.io/created-by"] = "troupe-descheduler";
  job.spec.pod_ref.kind = "Pod";
  job.spec.pod_ref.namespace_name = request.pod->meta.namespace_name;
  job.spec.pod_ref.name = request.pod->meta.name;
  job.spec.pod_ref.uid = request.pod->meta.uid;
  job.spec.mode = st.settings.controller.default_job_mode;
  // As Koordinator's descheduler: the job carries its TTL (the scavenger reads only the job's own).
  if (st.settings.controller.default_job_ttl.count() > 0) job.spec.ttl = st.settings.controller.default_job_ttl;
  const std::string key = request.pod->meta.key();
  st.requested.emplace(key, std::string());
  auto me = caf::actor_cast<caf::actor>(self);
  auto api = st.deps.api;
  std::string body = encode(job), what = request.description, plugin = request.plugin;
  st.deps.io->post([me, api, body, key, what, plugin] {
    auto r = watch::create_object(*api, std::string(kKoordRoot) + "/podmigrationjobs", body);
    if (r.ok) {
      spdlog::info("descheduler: {} migrates {}", plugin, what);
      auto created = watch::parse_document(r.body);
      caf::anon_send(me, atom::done_v, key, created ? watch::string_at(**created, {"metadata", "name"}) : std::string());
      return;
    }
    spdlog::warn("descheduler: could not create a PodMigrationJob for {}: {}", key, r.message);
    caf::anon_send(me, atom::failed_v, key);
  });
}

/// The reservation the job created itself (not one it was given); "" when none.
std::string own_reservation(const PodMigrationJob& job) {
  const bool given = job.spec.reservation_options && job.spec.reservation_options->reservation_ref;
  return given ? std::string() : reservation_name(job);
}

/// Deletes a job, after the reservation it created, as Koordinator's scavenger.
void delete_job_and_reservation(watch::ApiClient& api, const PodMigrationJob& job) {
  const std::string reservation = own_reservation(job);
  if (!reservation.empty() &&
      !delete_for_job(api, watch::object_path(kKoordRoot, "reservations", "", reservation), "the reservation", job))
    return;  // tried again at the next scavenge, as Koordinator does
  if (delete_for_job(api, job_path(job.meta.name), "the job", job)) spdlog::info("migration: deleted old job {}", job.meta.name);
}

/// A job was deleted: the reservation it created goes too unless a pod is in it
/// already (Koordinator's handler for deleted jobs).
void job_deleted(Self self, const std::shared_ptr<const PodMigrationJob>& job) {
  auto& st = self->state;
  if (!job || !leading(st)) return;
  const std::string name = own_reservation(*job);
  auto reservation = name.empty() ? nullptr : st.view.reservation(name);
  if (!reservation || !reservation->status.current_owners.empty()) return;
  auto api = st.deps.api;
  const std::string path = watch::object_path(kKoordRoot, "reservations", "", name);
  st.deps.io->post([api, job, path] { delete_for_job(*api, path, "the reservation", *job); });
}

/// Koordinator's scavenger, once a minute: jobs older than their TTL and five
/// minutes (30 minutes without one) go, so that they do not pile up.
void scavenge(Self self) {
  auto& st = self->state;
  const Timestamp now = timestamp_now();
  if (now - st.last_scavenge < std::chrono::minutes(1)) return;
  st.last_scavenge = now;
  for (const auto& entry : st.view.jobs()) {
    std::shared_ptr<const PodMigrationJob> job = entry.second;
    if (st.busy.count(entry.first) || !ds::due_for_scavenging(*job, now)) continue;
    auto api = st.deps.api;
    st.deps.io->post([api, job] { delete_job_and_reservation(*api, *job); });
  }
}

/// The evictor rules every balance plugin's candidates pass: not already
/// migrating, the profile's evictor filter, PodDisruptionBudgets.
std::optional<std::string> common_refusal(const MigrationState& st, const ds::EvictorContext& context, const Pod& pod) {
  const std::string key = pod.meta.key();
  if (st.requested.count(key) || st.view.has_active_job(key)) return std::string("pod is already being migrated");
  // What the arbiter would reject outright is not planned: it would fail its job, spend the cycle's
  // limits, and come back every cycle.
  // The workload (a walk over its pods) only matters to the expected-replicas rule.
  const bool replicas_checked = st.settings.controller.evictor.gate_on("ExpectedReplicas");
  const ds::MigrationCandidate candidate{"", "", std::shared_ptr<const Pod>(std::shared_ptr<const Pod>(), &pod),
                                         replicas_checked ? st.view.workload_of(pod) : nullptr};
  if (auto refusal = ds::never_migrates(candidate, st.settings.controller, context)) return refusal;
  return st.view.pdb_refusal(pod);
}

/// LowNodeLoad's part of a cycle; returns the migrations planned.
size_t run_low_node_load(Self self, ds::EvictionLimits& limits, const ds::EvictorContext& context) {
  auto& st = self->state;
  const MigrationSettings& s = st.settings;
  ds::LowNodeLoadInput input;
  for (auto& node : st.view.node_loads(s.node_selector ? &*s.node_selector : nullptr)) {
    if (s.profile_node_selector && !s.profile_node_selector->matches(node.node->meta.labels)) continue;
    input.nodes.push_back(std::move(node));
  }
  input.now = timestamp_now();
  input.descheduling_interval = s.interval;
  // A node that is giving up pods still reports their usage until they are
  // gone and the koordlet's next NodeMetric shows it: planning it again
  // meanwhile would move more than needed, so it waits for its migrations.
  std::set<std::string> migrating_from;
  for (const auto& job : open_jobs(st.view))
    if (auto pod = st.view.pod(pod_ref_key(*job))) migrating_from.insert(pod->spec.node_name);
  for (const auto& [key, job] : st.requested)
    if (auto pod = st.view.pod(key)) migrating_from.insert(pod->spec.node_name);
  input.evictor = [&](const Pod& pod) -> std::optional<std::string> {
    if (st.requested.count(pod.meta.key()) || st.view.has_active_job(pod.meta.key()))
      return std::string("pod is already being migrated");
    if (migrating_from.count(pod.spec.node_name)) return std::string("its node has migrations in flight");
    return common_refusal(st, context, pod);
  };
  auto plan = ds::plan_low_node_load(input, s.low_node_load, st.detectors, limits);
  for (const auto& note : plan.notes) spdlog::debug("descheduler: LowNodeLoad: {}", note);
  for (const auto& skipped : plan.skipped)
    spdlog::debug("descheduler: LowNodeLoad keeps pod {}: {}", skipped.pod->meta.key(), skipped.reason);
  for (const auto& eviction : plan.evictions) {
    if (s.dry_run) {
      spdlog::info("descheduler: dry run: LowNodeLoad would migrate {}", describe(eviction));
      st.deps.metrics->add(kEvictionsMetric, {config::kLowNodeLoadPlugin, "dry-run"});
    } else {
      create_job(self, {config::kLowNodeLoadPlugin, "lownodeload-", eviction.pod, eviction.reason, describe(eviction)});
    }
  }
  spdlog::info("descheduler: LowNodeLoad over {} node(s): {} migration(s) planned{}", input.nodes.size(),
               plan.evictions.size(), s.dry_run ? " (dry run)" : "");
  return plan.evictions.size();
}

std::string describe(const ds::GpuMove& move, const ds::FreedCards& freed) {
  std::string minors;
  for (int32_t minor : freed.minors) minors += (minors.empty() ? "" : ",") + std::to_string(minor);
  return "pod " + move.pod->meta.key() + " from node " + move.from_node + " (room on " + move.to_node + " GPU " +
         std::to_string(move.to_minor) + "): frees GPU " + minors + " on " + freed.node + " for pending pod " +
         freed.for_pod->meta.key();
}

/// GPUDefragmentation's part of a cycle; returns the migrations planned.
size_t run_gpu_defrag(Self self, ds::EvictionLimits& limits, const ds::EvictorContext& context) {
  auto& st = self->state;
  const MigrationSettings& s = st.settings;
  // Freed cards stay free only until the pending pod binds: while earlier
  // migrations are in flight the same pods still look blocked, and planning
  // again would move more than needed.
  for (auto it = st.defrag_requested.begin(); it != st.defrag_requested.end();)
    it = st.requested.count(*it) ? std::next(it) : st.defrag_requested.erase(it);
  size_t in_flight = st.defrag_requested.size();
  for (const auto& job : open_jobs(st.view))
    if (trigger_of(*job) == ds::kGpuDefragPlugin) ++in_flight;
  if (in_flight > 0) {
    spdlog::info("descheduler: GPUDefragmentation waits for {} migration(s) in flight", in_flight);
    return 0;
  }
  auto pending = st.view.pending_whole_gpu_pods(s.controller.scheduler_names);
  if (pending.empty()) return 0;
  auto refusal = [&](const Pod& pod) -> std::optional<std::string> {
    if (!ds::holds_only_gpu_shares(pod)) return std::string("it holds whole GPUs or no GPU share");
    return common_refusal(st, context, pod);
  };
  auto plan = ds::plan_gpu_defrag_round(st.view.gpu_nodes(), pending, s.gpu_defrag_args, refusal, limits);
  for (const auto& [pod, why] : plan.unserved)
    spdlog::info("descheduler: GPUDefragmentation cannot free GPUs for pod {}: {}", pod->meta.key(), why);
  for (const ds::FreedCards& freed : plan.freed) {
    for (const ds::GpuMove& move : freed.moves) {
      const std::string what = describe(move, freed);
      if (s.gpu_defrag_dry_run) {
        spdlog::info("descheduler: dry run: GPUDefragmentation would migrate {}", what);
        st.deps.metrics->add(kEvictionsMetric, {ds::kGpuDefragPlugin, "dry-run"});
        continue;
      }
      const std::string reason = "GPU defragmentation: frees whole GPUs on " + freed.node + " for pending pod " +
                                 freed.for_pod->meta.key();
      create_job(self, {ds::kGpuDefragPlugin, "gpudefrag-", move.pod, reason, what});
      st.defrag_requested.insert(move.pod->meta.key());
    }
  }
  spdlog::info("descheduler: GPUDefragmentation: {} pending whole-GPU pod(s), {} migration(s) planned{}",
               pending.size(), plan.migrations.size(), s.gpu_defrag_dry_run ? " (dry run)" : "");
  return plan.migrations.size();
}

void run_cycle(Self self) {
  auto& st = self->state;
  const auto started = std::chrono::steady_clock::now();
  const MigrationSettings& s = st.settings;
  // A pod whose job appeared, in whatever phase (it may have ended already: refused,
  // evicted, timed out), or that is gone, no longer needs the guard.
  for (auto it = st.requested.begin(); it != st.requested.end();) {
    const auto& [key, job] = *it;
    const bool seen = st.view.has_active_job(key) || (!job.empty() && st.view.job(job) != nullptr);
    it = (seen || !st.view.pod(key)) ? st.requested.erase(it) : std::next(it);
  }
  auto rooms = st.view.node_rooms();
  ds::EvictorContext context;
  context.nodes = &rooms;
  // Every plugin of the cycle shares the maxNoOfPodsToEvict* counters.
  auto limits = s.cycle_limits();
  size_t planned = 0;
  if (s.balance) planned += run_low_node_load(self, limits, context);
  if (s.gpu_defrag) planned += run_gpu_defrag(self, limits, context);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  st.deps.metrics->observe(kCycleMetric, {}, seconds);
  spdlog::info("descheduler: cycle: {} migration(s) planned in {:.1f} ms", planned, seconds * 1e3);
}

std::chrono::milliseconds reconcile_period(const MigrationSettings& s) {
  auto period = std::chrono::duration_cast<std::chrono::milliseconds>(s.controller.arbitration_interval);
  return std::max(period, std::chrono::milliseconds(100));
}

caf::behavior migration_actor_fn(Self self, MigrationDeps deps, MigrationSettings settings,
                                 std::vector<std::string> resources) {
  auto& st = self->state;
  st.deps = std::move(deps);
  st.settings = std::move(settings);
  st.arbiter = std::make_unique<ds::ArbiterState>(st.settings.controller);
  // Events are reported by the alphabetically first profile, as the informer's.
  const auto& names = st.deps.scheduler_names;
  if (!names.empty()) st.job_reports = UnreadableReports(*std::min_element(names.begin(), names.end()));
  st.unsynced.insert(resources.begin(), resources.end());
  return {
      [=](atom::watch_event, const ObjectEventPtr& event) {
        std::shared_ptr<const PodMigrationJob> deleted_job;
        if (event->resource == kViewJobs && event->type == watch::EventType::deleted && event->object)
          deleted_job = self->state.view.job(watch::string_at(*event->object, {"metadata", "name"}));
        // Pods come decoded once for every actor that follows them.
        auto applied = event->resource == kViewPods && event->type != watch::EventType::deleted
                           ? self->state.view.apply_pod(event->object, event->pod())
                           : self->state.view.apply(event->resource, event->type, event->object);
        if (event->resource == kViewJobs && event->object) {
          if (!applied && event->type != watch::EventType::deleted) return on_undecodable_job(self, event->object);
          const std::string name = watch::string_at(*event->object, {"metadata", "name"});
          self->state.undecodable_jobs.erase(name);
          if (event->type == watch::EventType::deleted)
            self->state.job_reports.deleted("PodMigrationJob", name);
          else
            self->state.job_reports.readable("PodMigrationJob", name);
        }
        if (event->object) note_unreadable(self, *event, applied);
        if (deleted_job) job_deleted(self, deleted_job);
      },
      [=](atom::synced, const std::string& resource) {
        auto& st = self->state;
        st.unsynced.erase(resource);
        if (!st.unsynced.empty() || st.started) return;
        st.started = true;
        spdlog::info("migration: view synced ({} nodes, {} pods, {} jobs); balancing {}", st.view.node_count(),
                     st.view.pod_count(), st.view.jobs().size(), st.settings.balance ? "on" : "off");
        if (st.settings.gpu_defrag) spdlog::info("migration: GPU defragmentation on");
        self->send(self, atom::next_v);
        if (st.settings.balance || st.settings.gpu_defrag) self->send(self, atom::tick_v);
      },
      [=](atom::tick) {
        auto& st = self->state;
        if (!leading(st)) {
          self->delayed_send(self, std::chrono::seconds(1), atom::tick_v);
          return;
        }
        run_cycle(self);
        if (st.settings.interval.count() > 0)
          self->delayed_send(self, std::chrono::duration_cast<std::chrono::milliseconds>(st.settings.interval),
                             atom::tick_v);
      },
      [=](atom::next) {
        if (leading(self->state)) {
          record_held_back_job_events(self);
          reconcile(self);
          scavenge(self);
        }
        self->delayed_send(self, reconcile_period(self->state.settings), atom::next_v);
      },
      [=](atom::done, const JobStepOutcomePtr& outcome) {
        auto& st = self->state;
        st.busy.erase(outcome->job);
        // Marked Failed, or found readable again: the watch event follows.
        if (outcome->error.empty()) st.undecodable_jobs.erase(outcome->job);
        if (outcome->updated) {
          // The arbitrator's Warning event, once the Failed status is written (as upstream).
          if (outcome->forbidden) warn_forbidden(self, *outcome->updated, outcome->updated->status.message);
          st.view.put_job(outcome->updated);
        }
        if (!outcome->error.empty()) spdlog::warn("migration: job {}: {}", outcome->job, outcome->error);
      },
      [=](atom::done, const std::string& pod_key, const std::string& job_name) {
        if (auto it = self->state.requested.find(pod_key); it != self->state.requested.end()) it->second = job_name;
      },
      [=](atom::failed, const std::string& pod_key) { self->state.requested.erase(pod_key); },
  };
}

const CollectionSpec kCollections[] = {
    {kViewNodes, "/api/v1/nodes", "", false},
    {kViewPods, "/api/v1/pods", "status.phase!=Succeeded,status.phase!=Failed", false},
    {kViewPdbs, kPdbPath, "", true},  // shared with preemption's PdbStore
    {kViewNodeMetrics, "/apis/slo.koordinator.sh/v1alpha1/nodemetrics", "", true},
    {kViewJobs, "/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs", "", true},
    {kViewReservations, "/apis/scheduling.koordinator.sh/v1alpha1/reservations", "", true},
    {kViewDevices, "/apis/scheduling.koordinator.sh/v1alpha1/devices", "", true},
};

}  // namespace

void declare_migration_metrics(MetricsRegistry& registry) {
  registry.declare(kEvictionsMetric, MetricsRegistry::Type::counter,
                   "Pod evictions by the descheduler, by the plugin that asked for them and the result "
                   "(success, blocked by a PodDisruptionBudget, error, dry-run).",
                   {"plugin", "result"});
  registry.declare(kPodsEvictedMetric, MetricsRegistry::Type::counter,
                   "Number of evicted pods, by the result, by the strategy, by the namespace, by the node name. "
                   "'error' result means a pod could not be evicted",
                   {"result", "strategy", "namespace", "node"});
  registry.declare(kJobsMetric, MetricsRegistry::Type::gauge, "PodMigrationJobs the migration actor sees, by phase.",
                   {"phase"});
  registry.declare(kCycleMetric, MetricsRegistry::Type::histogram, "Duration of one descheduling cycle (plan).", {},
                   exponential_buckets(0.001, 2, 15));
}

Result<std::unique_ptr<MigrationController>> MigrationController::start(MigrationDeps deps) {
  auto settings = migration_settings(deps.configuration.get());
  if (!settings) return Error{"descheduler configuration: " + settings.message()};
  for (const std::string& name : deps.scheduler_names) {
    auto& names = settings->controller.scheduler_names;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  declare_migration_metrics(*deps.metrics);
  std::unique_ptr<MigrationController> controller(new MigrationController());
  if (deps.reflectors == nullptr) return Error{"migration controller: no reflectors to subscribe to"};
  std::vector<std::string> resources;
  for (const CollectionSpec& c : kCollections) resources.push_back(c.resource);
  auto* reflectors = deps.reflectors;
  auto* system = deps.system;
  controller->actor_ = system->spawn(migration_actor_fn, std::move(deps), std::move(*settings), resources);
  for (const CollectionSpec& c : kCollections) {
    if (auto subscribed = reflectors->subscribe(c, controller->actor_); !subscribed) {
      controller->stop();
      return Error{subscribed.message()};
    }
  }
  return controller;
}

MigrationController::~MigrationController() { stop(); }

void MigrationController::stop() {
  if (actor_) caf::anon_send_exit(actor_, caf::exit_reason::user_shutdown);
  actor_ = nullptr;
}

}  // namespace troupe::actors
