#include "plugins/descheduler/migration_job.hpp"

#include <algorithm>

namespace troupe::plugins::descheduler {

const char* to_string(JobActionKind kind) {
  switch (kind) {
    case JobActionKind::create_reservation: return "create-reservation";
    case JobActionKind::evict_pod: return "evict-pod";
    case JobActionKind::delete_reservation: return "delete-reservation";
  }
  return "?";
}

namespace {

const Condition* find_condition(const PodMigrationJobStatus& status, const std::string& type) {
  auto it = std::find_if(status.conditions.begin(), status.conditions.end(),
                         [&](const Condition& c) { return c.type == type; });
  return it == status.conditions.end() ? nullptr : &*it;
}

bool condition_is(const PodMigrationJobStatus& status, const std::string& type, const char* value) {
  const Condition* c = find_condition(status, type);
  return c && c->status == value;
}

/// UpdateCondition: a new status moves lastTransitionTime; the same keeps it.
void set_condition(PodMigrationJobStatus& status, const std::string& type, const char* value,
                   const std::string& reason, const std::string& message, Timestamp now) {
  auto it = std::find_if(status.conditions.begin(), status.conditions.end(),
                         [&](const Condition& c) { return c.type == type; });
  if (it == status.conditions.end()) {
    Condition c;
    c.type = type;
    status.conditions.push_back(c);
    it = std::prev(status.conditions.end());
    it->last_transition_time = now;
  } else if (it->status != value) {
    it->last_transition_time = now;
  }
  it->status = value;
  it->reason = reason;
  it->message = message;
}

bool same_status(const PodMigrationJobStatus& a, const PodMigrationJobStatus& b) {
  if (a.phase != b.phase || a.reason != b.reason || a.message != b.message || a.node_name != b.node_name ||
      a.conditions.size() != b.conditions.size()) {
    return false;
  }
  for (size_t i = 0; i < a.conditions.size(); ++i) {
    const Condition& x = a.conditions[i];
    const Condition& y = b.conditions[i];
    if (x.type != y.type || x.status != y.status || x.reason != y.reason || x.message != y.message) return false;
  }
  return true;
}

bool is_terminal(const std::string& phase) {
  return phase == kPhaseSucceeded || phase == kPhaseFailed || phase == kPhaseAborted;
}

bool reservation_bound(const Reservation& r) { return r.status.phase == "Succeeded" || !r.status.current_owners.empty(); }

bool reservation_unschedulable(const Reservation& r, std::string& message) {
  for (const Condition& c : r.status.conditions) {
    if (c.type == "Scheduled" && c.status == "False" && c.reason == "Unschedulable") {
      message = c.message;
      return true;
    }
  }
  return false;
}

std::string pod_key_of(const PodMigrationJob& job) {
  return job.spec.pod_ref.namespace_name + "/" + job.spec.pod_ref.name;
}

/// Builds one step; the phase functions fill it in.
class Stepper {
 public:
  Stepper(const PodMigrationJob& job, const JobObservation& observed, const MigrationControllerArgs& args)
      : job_(job), seen_(observed), args_(args) {
    step_.status = job.status;
  }

  JobStep run();

 private:
  void finish(const char* phase, const std::string& reason, const std::string& message);
  void fail(const std::string& reason, const std::string& message) { finish(kPhaseFailed, reason, message); }
  void clean_up_reservation();
  bool timed_out() const;
  void evict();
  void run_evict_directly();
  void run_reservation_first();
  void wait_for_replacement();
  void cond(const std::string& type, const char* value, const std::string& reason, const std::string& message) {
    set_condition(step_.status, type, value, reason, message, seen_.now);
  }
  std::string mode() const { return job_.spec.mode.empty() ? args_.default_job_mode : job_.spec.mode; }
  std::chrono::nanoseconds ttl() const { return job_.spec.ttl ? *job_.spec.ttl : args_.default_job_ttl; }

  const PodMigrationJob& job_;
  const JobObservation& seen_;
  const MigrationControllerArgs& args_;
  JobStep step_;
};

void Stepper::finish(const char* phase, const std::string& reason, const std::string& message) {
  step_.status.phase = phase;
  step_.status.reason = reason;
  step_.status.message = message;
  if (std::string(phase) != kPhaseSucceeded) clean_up_reservation();
}

void Stepper::clean_up_reservation() {
  if (!seen_.reservation || reservation_bound(*seen_.reservation)) return;
  if (seen_.reservation->meta.is_terminating()) return;
  step_.actions.push_back({JobActionKind::delete_reservation, seen_.reservation, "", ""});
}

bool Stepper::timed_out() const {
  const auto limit = ttl();
  if (limit.count() <= 0 || !job_.meta.creation_timestamp) return false;
  return seen_.now - *job_.meta.creation_timestamp > std::chrono::duration_cast<std::chrono::microseconds>(limit);
}

void Stepper::evict() {
  if (condition_is(step_.status, "Eviction", "False")) return;  // already asked; wait for it to take effect
  cond("Eviction", "False", "Evicting", "evicting pod " + pod_key_of(job_));
  step_.status.reason = "Evicting";
  step_.actions.push_back({JobActionKind::evict_pod, nullptr, pod_key_of(job_), args_.eviction_policy});
}

void Stepper::run_evict_directly() {
  if (!seen_.pod || seen_.pod->meta.is_terminating()) {
    cond("Eviction", "True", "EvictComplete", "");
    return finish(kPhaseSucceeded, "EvictComplete", "");
  }
  evict();
}

void Stepper::wait_for_replacement() {
  const Reservation& r = *seen_.reservation;
  if (!reservation_bound(r)) {
    cond("PodBoundReservation", "False", "WaitForPodBindReservation", "waiting for a pod to bind the reservation");
    step_.status.reason = "WaitForPodBindReservation";
    return;
  }
  cond("PodBoundReservation", "True", "", "");
  if (!seen_.bound_pod_ready) {
    cond("BoundPodReady", "False", "WaitForBoundPodReady", "waiting for the pod bound to the reservation to be ready");
    step_.status.reason = "WaitForBoundPodReady";
    return;
  }
  cond("BoundPodReady", "True", "", "");
  finish(kPhaseSucceeded, "", "");
}

void Stepper::run_reservation_first() {
  const bool evicted = condition_is(step_.status, "Eviction", "True");
  if (!seen_.reservation) {
    if (condition_is(step_.status, "ReservationCreated", "True")) {
      return fail("MissingReservation", "the reservation of the job no longer exists");
    }
    if (!seen_.pod) return fail("MissingPod", "pod " + pod_key_of(job_) + " not found");
    auto reservation = std::make_shared<const Reservation>(reservation_for(job_, *seen_.pod, ttl(), seen_.now));
    step_.actions.push_back({JobActionKind::create_reservation, reservation, "", ""});
    cond("ReservationCreated", "True", "", "");
    return;
  }
  const Reservation& r = *seen_.reservation;
  std::string why;
  if (r.status.phase == "Failed") return fail("ReservationExpired", "the reservation failed or expired");
  if (reservation_unschedulable(r, why)) {
    cond("ReservationScheduled", "False", "Unschedulable", why);
    return fail("Unschedulable", why.empty() ? "the reservation cannot be scheduled" : why);
  }
  if (r.status.node_name.empty() || (r.status.phase != "Available" && !reservation_bound(r))) {
    cond("ReservationScheduled", "False", "Pending", "waiting for the reservation to be scheduled");
    return;
  }
  cond("ReservationScheduled", "True", "", "");
  step_.status.node_name = r.status.node_name;
  if (!evicted) {
    if (seen_.pod && !seen_.pod->meta.is_terminating()) return evict();
    cond("Eviction", "True", "EvictComplete", "");
  }
  wait_for_replacement();
}

JobStep Stepper::run() {
  const std::string phase = step_.status.phase.empty() ? kPhasePending : step_.status.phase;
  if (is_terminal(phase)) {
    if (phase != kPhaseSucceeded) clean_up_reservation();
    return std::move(step_);
  }
  step_.status.phase = phase;
  if (job_.spec.paused) {
    // Paused jobs do nothing, not even time out.
  } else if (timed_out()) {
    fail("Timeout", "the job exceeded its TTL");
  } else if (!seen_.pod && !condition_is(step_.status, "Eviction", "True") &&
             !condition_is(step_.status, "Eviction", "False")) {
    fail("MissingPod", "pod " + pod_key_of(job_) + " not found");
  } else if (phase == kPhasePending && !seen_.passed_arbitration) {
    step_.status.message = "waiting for arbitration";
  } else {
    step_.status.phase = kPhaseRunning;
    if (step_.status.message == "waiting for arbitration") step_.status.message.clear();
    if (mode() == kModeEvictDirectly) {
      run_evict_directly();
    } else {
      run_reservation_first();
    }
  }
  step_.changed = !same_status(step_.status, job_.status);
  return std::move(step_);
}

}  // namespace

JobStep step_migration_job(const PodMigrationJob& job, const JobObservation& observed,
                           const MigrationControllerArgs& args) {
  return Stepper(job, observed, args).run();
}

Reservation reservation_for(const PodMigrationJob& job, const Pod& pod, std::chrono::nanoseconds ttl, Timestamp now) {
  Reservation r;
  r.meta.name = job.meta.uid.empty() ? job.meta.name : job.meta.uid;
  r.meta.labels["app.kubernetes.io/created-by"] = "koord-descheduler";
  const auto unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  r.meta.labels["scheduling.koordinator.sh/reservation-order"] = std::to_string(unix_ms);
  PodTemplate tmpl;
  tmpl.meta.labels = pod.meta.labels;
  tmpl.meta.annotations = pod.meta.annotations;
  tmpl.meta.namespace_name = pod.meta.namespace_name;
  tmpl.spec = pod.spec;
  tmpl.spec.node_name.clear();
  if (!pod.spec.node_name.empty()) {
    // Keep the replacement off the node it is leaving.
    LabelRequirement not_here;
    not_here.key = "metadata.name";
    not_here.op = LabelRequirement::Op::not_in;
    not_here.values = {pod.spec.node_name};
    if (!tmpl.spec.affinity) tmpl.spec.affinity = Affinity{};
    if (!tmpl.spec.affinity->node_affinity) tmpl.spec.affinity->node_affinity = NodeAffinity{};
    auto& required = tmpl.spec.affinity->node_affinity->required;
    if (!required || required->terms.empty()) required = NodeSelector{{NodeSelectorTerm{}}};
    for (NodeSelectorTerm& term : required->terms) term.match_fields.push_back(not_here);
  }
  r.spec.pod_template = std::move(tmpl);
  // The replacement is a new pod of the same controller (a ReplicaSet makes
  // one with another name), so the reservation is owned by the controller;
  // only a bare pod is named itself (Koordinator's reservation owners).
  ReservationOwner owner;
  if (const OwnerReference* controller = pod.meta.controller_ref()) {
    ReservationControllerReference ref;
    ref.api_version = controller->api_version;
    ref.kind = controller->kind;
    ref.name = controller->name;
    ref.uid = controller->uid;
    ref.controller = controller->controller;
    ref.namespace_name = pod.meta.namespace_name;
    owner.controller = ref;
  } else {
    ObjectReference ref;
    ref.kind = "Pod";
    ref.namespace_name = pod.meta.namespace_name;
    ref.name = pod.meta.name;
    ref.uid = pod.meta.uid;
    owner.object = ref;
  }
  r.spec.owners.push_back(owner);
  r.spec.allocate_once = true;
  if (ttl.count() > 0) r.spec.ttl = ttl;
  return r;
}

namespace {

std::optional<int64_t> job_grace_period(const PodMigrationJob& job) {
  if (!job.raw || !job.raw->IsObject()) return std::nullopt;
  auto spec = job.raw->FindMember("spec");
  if (spec == job.raw->MemberEnd() || !spec->value.IsObject()) return std::nullopt;
  auto options = spec->value.FindMember("deleteOptions");
  if (options == spec->value.MemberEnd() || !options->value.IsObject()) return std::nullopt;
  auto grace = options->value.FindMember("gracePeriodSeconds");
  if (grace == options->value.MemberEnd() || !grace->value.IsInt64()) return std::nullopt;
  return grace->value.GetInt64();
}

std::optional<int64_t> default_grace_period(const YAML::Node& defaults) {
  if (!defaults || !defaults.IsMap() || !defaults["gracePeriodSeconds"]) return std::nullopt;
  try {
    return defaults["gracePeriodSeconds"].as<int64_t>();
  } catch (const YAML::Exception&) {
    return std::nullopt;  // not a number: as if unset
  }
}

}  // namespace

std::optional<int64_t> delete_grace_period(const PodMigrationJob& job, const MigrationControllerArgs& args) {
  if (auto grace = job_grace_period(job)) return grace;
  return default_grace_period(args.default_delete_options);
}

}  // namespace troupe::plugins::descheduler
