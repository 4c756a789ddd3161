#include "actors/api_writer.hpp"

#include <spdlog/spdlog.h>

#include "actors/reservation_writes.hpp"
#include "actors/preemption_actions.hpp"
#include "watch/object_writes.hpp"
#include "plugins/names.hpp"
#include "plugins/volumes/binding_progress.hpp"
#include "watch/pod_writes.hpp"
#include "watch/volume_writes.hpp"

namespace troupe::actors {

void EventLane::record(std::shared_ptr<watch::EventWriter> writer, watch::EventSpec event) {
  auto write = [writer, event] {
    auto result = writer->record(event);
    if (!result.ok)
      spdlog::warn("api-writer could not record {} event for {}/{}: {}", event.reason, event.regarding.ns,
                   event.regarding.name, result.message);
  };
  const auto posted = io_->post_background(std::move(write));
  if (posted == watch::TaskPool::Posted::queued) return;
  const char* reason = posted == watch::TaskPool::Posted::full ? "queue_full" : "shutting_down";
  const uint64_t n = ++dropped_;
  if (metrics_) metrics_->add("troupe_events_dropped_total", {reason});
  // One line for the first drop and then one per thousand: a full lane means
  // thousands of them, and the counter has the exact figure.
  if (n == 1 || n % 1000 == 0)
    spdlog::warn("api-writer dropped the {} event for {}/{} ({}; {} dropped so far, see troupe_events_dropped_total)",
                 event.reason, event.regarding.ns, event.regarding.name, reason, n);
}

namespace {

WriteOutcome outcome_of(const watch::ApiResult& r) { return {r.ok, r.code, r.message, {}}; }

// PreBind's pod patches (strategic merge), in order; the first failure stops
// the binding, which then fails as a whole.
watch::ApiResult apply_pod_patches(watch::ApiClient& api, const BindJob& job) {
  watch::ApiResult result;
  result.ok = true;
  const std::string path = "/api/v1/namespaces/" + job.ns + "/pods/" + job.name;
  for (const auto& patch : job.pod_patches) {
    result = watch::patch_object(api, path, patch, watch::PatchType::strategic_merge);
    if (!result.ok) return result;
  }
  return result;
}

watch::ObjectReference pod_reference(const std::string& ns, const std::string& name, const std::string& uid) {
  watch::ObjectReference ref;
  ref.kind = "Pod";
  ref.api_version = "v1";
  ref.ns = ns;
  ref.name = name;
  ref.uid = uid;
  return ref;
}


using Self = api_writer_actor::stateful_pointer<api_writer_state>;

/// DefaultPreBind's write: the annotations onto the pod; a failure is its
/// PreBind error, worded as Koordinator's framework words a PreBindExtension's.
WriteOutcome default_pre_bind(watch::ApiClient& api, const BindJob& job) {
  auto annotated = watch::annotate_pod_before_binding(api, job.ns, job.name, job.uid, job.annotations);
  if (annotated.ok) return outcome_of(annotated);
  const std::string plugin = plugins::names::kDefaultPreBind;
  return {false, annotated.code, "running PreBindExtension plugin \"" + plugin + "\": " + annotated.message, plugin};
}

/// PreBind's writes ahead of any binding: the pod patches, then, with
/// DefaultPreBind, the annotations.
WriteOutcome pre_bind_writes(watch::ApiClient& api, const BindJob& job) {
  auto patched = apply_pod_patches(api, job);
  if (!patched.ok || !job.patch_before_binding) return outcome_of(patched);
  return default_pre_bind(api, job);
}

/// The Binding API call: PreBind's writes, then the Binding (which carries
/// the annotations unless DefaultPreBind wrote them).
WriteOutcome bind_through_api(watch::ApiClient& api, const BindJob& job) {
  auto written = pre_bind_writes(api, job);
  if (!written.ok) return written;
  watch::BindRequest request{job.ns, job.name, job.uid, job.node, {}};
  if (!job.patch_before_binding) request.annotations = job.annotations;
  return outcome_of(watch::bind_pod(api, request));
}

/// An extender's bindVerb binds the pod; PreBind's patches and annotations go
/// onto the pod first, since the extender's binding will not carry them.
WriteOutcome bind_through_extender(watch::ApiClient& api, const BindJob& job, const Extenders::Entry& binder) {
  auto written = pre_bind_writes(api, job);
  if (!written.ok) return written;
  if (!job.patch_before_binding && !job.annotations.empty()) {
    watch::StringUpdates annotations(job.annotations.begin(), job.annotations.end());
    auto annotated = watch::merge_patch_metadata(api, watch::pod_path(job.ns, job.name), annotations);
    if (!annotated.ok) return outcome_of(annotated);
  }
  auto bound = binder.client->bind(binder.config.bind_verb, {job.name, job.ns, job.uid, job.node});
  if (bound.ok()) return {true, 200, "", {}};
  return {false, 0, "extender " + binder.config.url_prefix + ": " + bound.message(), {}};
}

/// A reply promise for the Binding, under a new id.
uint64_t await_binding(Self self) {
  auto& st = self->state;
  uint64_t id = st.next_id++;
  st.pending.emplace(id, self->make_response_promise<WriteOutcome>());
  return id;
}

/// Answers the Binding with this id.
void deliver_binding(Self self, uint64_t id, WriteOutcome outcome) {
  auto& st = self->state;
  auto it = st.pending.find(id);
  if (it == st.pending.end()) return;
  if (st.deps.metrics) st.deps.metrics->add("troupe_bindings_total", {outcome.ok ? "ok" : "error"});
  it->second.deliver(std::move(outcome));
  st.pending.erase(it);
}

/// Runs `bind` on an I/O thread for the Binding with this id; the reply goes out when it reports back.
void post_binding(Self self, uint64_t id, const BindJobPtr& job, BindCall bind) {
  auto& st = self->state;
  auto api = st.deps.api;
  auto writer = st.events_for(job->profile);
  auto lane = st.events;
  auto me = caf::actor_cast<api_writer_actor>(self);
  bool queued = st.deps.io->post([=] {
    auto result = bind(*api);
    caf::anon_send(me, atom::bind_result_v, id, result);
    if (result.ok && !job->reservation.empty())
      lane->record(writer, {reservation_reference(job->reservation, job->uid), "Normal", "Scheduled", "Binding",
                            "Successfully assigned reservation " + job->reservation + " to " + job->node});
    else if (result.ok)
      lane->record(writer, {pod_reference(job->ns, job->name, job->uid), "Normal", "Scheduled", "Binding",
                            "Successfully assigned " + job->ns + "/" + job->name + " to " + job->node});
  });
  if (!queued) deliver_binding(self, id, WriteOutcome{false, 0, "the scheduler is shutting down", {}});
}

/// binder.go bindAPIUpdate: each claim's write, in order; the first failure
/// stops them (what was written stays: the PV controller finishes it or the
/// next attempt's plan sees it). `written` gets each write's resourceVersion.
watch::ApiResult write_claim_bindings(watch::ApiClient& api, const BindJob& job, std::vector<std::string>& written) {
  watch::ApiResult result;
  result.ok = true;
  for (const auto& claim : job.claim_bindings.claims) {
    const watch::ClaimIdentity identity{claim.namespace_name, claim.name, claim.uid, claim.resource_version};
    result = claim.provisions() ? watch::select_node_for_claim(api, identity, job.node)
                                : watch::bind_volume_to_claim(api, claim.volume, claim.volume_resource_version,
                                                              claim.volume_prebound, identity);
    if (!result.ok) return result;
    written.push_back(watch::written_resource_version(result));
  }
  return result;
}

/// The claims' part failed: VolumeBinding's PreBind error, as the framework words one.
WriteOutcome volume_binding_failed(int code, const std::string& message) {
  WriteOutcome out{false, code, "running PreBind plugin \"VolumeBinding\": " + message, "VolumeBinding"};
  return out;
}

/// The Binding of a pod whose claims are bound first: writes them on an I/O
/// thread, then follows them (check_claims) before binding the pod. The
/// wait's deadline counts from now, so that the cycle, which waits for the
/// answer bindTimeoutSeconds longer than for a plain Binding, always gets it.
void bind_after_claims(Self self, uint64_t id, const BindJobPtr& job, BindCall bind) {
  auto& st = self->state;
  if (!st.deps.volumes)
    return deliver_binding(self, id, volume_binding_failed(0, "the scheduler does not follow volumes"));
  auto run = std::make_shared<ClaimBindingRun>();
  run->job = job;
  run->bind = std::move(bind);
  run->deadline = std::chrono::steady_clock::now() + job->claim_bindings.timeout;
  st.claim_runs.emplace(id, run);
  auto api = st.deps.api;
  auto me = caf::actor_cast<api_writer_actor>(self);
  bool queued = st.deps.io->post([api, run, me, id] {
    auto result = write_claim_bindings(*api, *run->job, run->written);
    caf::anon_send(me, atom::claims_written_v, id, outcome_of(result));
  });
  if (!queued) {
    st.claim_runs.erase(id);
    deliver_binding(self, id, WriteOutcome{false, 0, "the scheduler is shutting down", {}});
  }
}

/// binder.go checkBindings, once a second (the first a second after the
/// writes, as upstream's poll) until the claims are bound (then the pod is),
/// one fails, or bindTimeoutSeconds have passed.
void check_claims(Self self, uint64_t id) {
  auto& st = self->state;
  auto it = st.claim_runs.find(id);
  if (it == st.claim_runs.end()) return;
  auto run = it->second;
  const bool expired = std::chrono::steady_clock::now() >= run->deadline;
  auto progress = expired ? plugins::volumes::BindingProgress{}
                          : plugins::volumes::check_claim_bindings(*st.deps.volumes->observed(),
                                                                   run->job->claim_bindings.claims, run->written,
                                                                   run->job->node);
  if (progress.progress == plugins::volumes::Progress::waiting && !expired) {
    self->delayed_send(self, std::chrono::seconds(1), atom::check_claims_v, id);
    return;
  }
  st.claim_runs.erase(it);
  if (progress.progress == plugins::volumes::Progress::bound) return post_binding(self, id, run->job, run->bind);
  const std::string why =
      progress.progress == plugins::volumes::Progress::failed ? progress.message : "context deadline exceeded";
  deliver_binding(self, id, volume_binding_failed(0, "binding volumes: " + why));
}

/// checkBindings' first check: the pod was deleted, so its binding fails now
/// rather than at the deadline (its volumes' assumption goes with it).
void stop_claim_wait(Self self, const std::string& pod_key) {
  auto& runs = self->state.claim_runs;
  for (auto it = runs.begin(); it != runs.end(); ++it) {
    const BindJobPtr job = it->second->job;
    if (job->ns + "/" + job->name != pod_key) continue;
    const uint64_t id = it->first;
    runs.erase(it);
    const std::string why = "pod does not exist any more: pod \"" + job->name + "\" not found";
    deliver_binding(self, id, volume_binding_failed(404, "binding volumes: " + why));
    return;
  }
}

/// checkBindings reads the chosen node first: a node deleted while its pods
/// wait for their claims fails their bindings now (the pods are tried again).
void stop_claim_waits_on(Self self, const std::string& node) {
  auto& runs = self->state.claim_runs;
  for (auto it = runs.begin(); it != runs.end();) {
    const BindJobPtr job = it->second->job;
    if (job->node != node) {
      ++it;
      continue;
    }
    const uint64_t id = it->first;
    it = runs.erase(it);
    const std::string why = "failed to get node \"" + node + "\": node \"" + node + "\" not found";
    deliver_binding(self, id, volume_binding_failed(0, "binding volumes: " + why));
  }
}

/// Binds the pod, after its claims when it has claims to bind.
caf::result<WriteOutcome> start_binding(Self self, const BindJobPtr& job, BindCall bind) {
  self->state.supersede_report(job->ns + "/" + job->name, false);  // an older failure must not land after it
  const uint64_t id = await_binding(self);
  auto promise = self->state.pending.at(id);
  if (!job->claim_bindings.claims.empty()) {
    bind_after_claims(self, id, job, std::move(bind));
  } else {
    post_binding(self, id, job, std::move(bind));
  }
  return promise;
}

}  // namespace

std::shared_ptr<watch::EventWriter> api_writer_state::events_for(const std::string& profile) {
  auto& writer = event_writers[profile];
  if (!writer) writer = std::make_shared<watch::EventWriter>(deps.api, profile, profile + "-" + deps.instance);
  return writer;
}

std::shared_ptr<watch::CancelToken> api_writer_state::supersede_report(const std::string& pod_key, bool replace) {
  auto it = reports_in_flight.find(pod_key);
  if (it != reports_in_flight.end()) {
    it->second->cancel();
    if (!replace) reports_in_flight.erase(it);
  }
  if (!replace) return nullptr;
  auto token = std::make_shared<watch::CancelToken>();
  reports_in_flight[pod_key] = token;
  return token;
}

api_writer_actor::behavior_type api_writer(api_writer_actor::stateful_pointer<api_writer_state> self,
                                           ApiWriterDeps deps) {
  self->state.deps = std::move(deps);
  self->state.events = std::make_shared<EventLane>(self->state.deps.io, self->state.deps.metrics);
  self->state.actor_metrics = actor_metrics(self->state.deps.metrics, "writer");
  return {
      [=](atom::bind, BindJobPtr job) -> caf::result<WriteOutcome> {
        MessageTimer timer(self->state.actor_metrics, self);
        if (!job->reservation.empty())
          return start_binding(self, job,
                               [job](watch::ApiClient& api) { return outcome_of(bind_reservation(api, *job)); });
        return start_binding(self, job, [job](watch::ApiClient& api) { return bind_through_api(api, *job); });
      },
      [=](atom::bind, BindJobPtr job, ExtenderBinderPtr binder) -> caf::result<WriteOutcome> {
        MessageTimer timer(self->state.actor_metrics, self);
        return start_binding(self, job,
                             [job, binder](watch::ApiClient& api) { return bind_through_extender(api, *job, *binder); });
      },
      [=](atom::report, FailureReportPtr report) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto api = self->state.deps.api;
        auto events = self->state.events_for(report->profile);
        auto lane = self->state.events;
        std::shared_ptr<watch::CancelToken> superseded;
        if (report->reservation.empty() && report->patch_condition)
          superseded = self->state.supersede_report(report->ns + "/" + report->name, true);
        self->state.deps.io->post([=] {
          if (!report->reservation.empty()) {
            auto written = report_reservation_unschedulable(*api, *report);
            if (!written.ok && written.code != 404)
              spdlog::warn("api-writer could not set Scheduled=False on reservation {}: {}", report->reservation,
                           written.message);
            lane->record(events, {reservation_reference(report->reservation, report->uid), "Warning",
                                  "FailedScheduling", "Scheduling", report->message});
            return;
          }
          if (report->patch_condition) {
            watch::PodCondition condition;
            condition.reason = report->reason;
            condition.message = report->message;
            if (report->transition_time) condition.last_transition_time = *report->transition_time;
            auto patched = watch::report_unschedulable(
                *api, {report->ns, report->name, report->uid, report->resource_version}, condition, superseded.get());
            if (!patched.result.ok && patched.result.code != 404 && !superseded->cancelled())
              spdlog::warn("api-writer could not set PodScheduled=False on {}/{}: {}", report->ns, report->name,
                           patched.result.message);
          }
          lane->record(events, {pod_reference(report->ns, report->name, report->uid), "Warning", "FailedScheduling",
                                "Scheduling", report->message});
        });
      },
      [=](atom::report, PreemptionPlanPtr plan) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto api = self->state.deps.api;
        auto events = self->state.events_for(plan->profile);
        self->state.deps.io->post([api, events, plan] { carry_out_preemption(*api, *events, *plan); });
      },
      [=](atom::report, ObjectWarningPtr warning) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.events->record(self->state.events_for(warning->profile),
                                   {warning->regarding, "Warning", warning->reason, warning->action, warning->message});
      },
      [=](atom::bind_result, uint64_t id, WriteOutcome& outcome) {
        MessageTimer timer(self->state.actor_metrics, self);
        deliver_binding(self, id, std::move(outcome));
      },
      [=](atom::claims_written, uint64_t id, WriteOutcome& outcome) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto& st = self->state;
        auto it = st.claim_runs.find(id);
        if (it == st.claim_runs.end()) return;
        if (!outcome.ok) {
          st.claim_runs.erase(it);
          return deliver_binding(self, id, volume_binding_failed(outcome.code, outcome.message));
        }
        self->delayed_send(self, std::chrono::seconds(1), atom::check_claims_v, id);
      },
      [=](atom::check_claims, uint64_t id) {
        MessageTimer timer(self->state.actor_metrics, self);
        check_claims(self, id);
      },
      [=](atom::pod_gone, const std::string& key) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.supersede_report(key, false);
        stop_claim_wait(self, key);
      },
      [=](atom::delete_node, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        stop_claim_waits_on(self, name);
      },
  };
}

}  // namespace troupe::actors
