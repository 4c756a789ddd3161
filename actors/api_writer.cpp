#include "actors/api_writer.hpp"

#include <spdlog/spdlog.h>

#include "actors/reservation_writes.hpp"
#include "actors/preemption_actions.hpp"
#include "watch/object_writes.hpp"
#include "watch/pod_writes.hpp"

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

WriteOutcome outcome_of(const watch::ApiResult& r) { return {r.ok, r.code, r.message}; }

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

/// The Binding API call: PreBind's pod patches, then the Binding (which carries the annotations).
watch::ApiResult bind_through_api(watch::ApiClient& api, const BindJob& job) {
  auto result = apply_pod_patches(api, job);
  if (!result.ok) return result;
  watch::BindRequest request{job.ns, job.name, job.uid, job.node, job.annotations};
  return watch::bind_pod(api, request);
}

/// An extender's bindVerb binds the pod; PreBind's patches and annotations go
/// onto the pod first, since the extender's binding will not carry them.
watch::ApiResult bind_through_extender(watch::ApiClient& api, const BindJob& job, const Extenders::Entry& binder) {
  auto result = apply_pod_patches(api, job);
  if (!result.ok) return result;
  if (!job.annotations.empty()) {
    watch::StringUpdates annotations(job.annotations.begin(), job.annotations.end());
    result = watch::merge_patch_metadata(api, watch::pod_path(job.ns, job.name), annotations);
    if (!result.ok) return result;
  }
  auto bound = binder.client->bind(binder.config.bind_verb, {job.name, job.ns, job.uid, job.node});
  watch::ApiResult out;
  out.ok = bound.ok();
  out.code = bound.ok() ? 200 : 0;
  if (!bound.ok()) out.message = "extender " + binder.config.url_prefix + ": " + bound.message();
  return out;
}

/// Runs `bind` on an I/O thread; the reply goes out when it reports back.
caf::result<WriteOutcome> start_binding(Self self, const BindJobPtr& job,
                                        std::function<watch::ApiResult(watch::ApiClient&)> bind) {
  auto& st = self->state;
  uint64_t id = st.next_id++;
  auto promise = self->make_response_promise<WriteOutcome>();
  st.pending.emplace(id, promise);
  auto api = st.deps.api;
  auto writer = st.events_for(job->profile);
  auto lane = st.events;
  auto me = caf::actor_cast<api_writer_actor>(self);
  bool queued = st.deps.io->post([=] {
    auto result = bind(*api);
    caf::anon_send(me, atom::bind_result_v, id, outcome_of(result));
    if (result.ok && !job->reservation.empty())
      lane->record(writer, {reservation_reference(job->reservation, job->uid), "Normal", "Scheduled", "Binding",
                            "Successfully assigned reservation " + job->reservation + " to " + job->node});
    else if (result.ok)
      lane->record(writer, {pod_reference(job->ns, job->name, job->uid), "Normal", "Scheduled", "Binding",
                            "Successfully assigned " + job->ns + "/" + job->name + " to " + job->node});
  });
  if (!queued) {
    st.pending.erase(id);
    return WriteOutcome{false, 0, "the scheduler is shutting down"};
  }
  return promise;
}

}  // namespace

std::shared_ptr<watch::EventWriter> api_writer_state::events_for(const std::string& profile) {
  auto& writer = event_writers[profile];
  if (!writer) writer = std::make_shared<watch::EventWriter>(deps.api, profile, profile + "-" + deps.instance);
  return writer;
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
          return start_binding(self, job, [job](watch::ApiClient& api) { return bind_reservation(api, *job); });
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
            auto patched = watch::patch_pod_status(*api, report->ns, report->name, condition, std::nullopt);
            if (!patched.ok && patched.code != 404)
              spdlog::warn("api-writer could not set PodScheduled=False on {}/{}: {}", report->ns, report->name,
                           patched.message);
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
      [=](atom::bind_result, uint64_t id, WriteOutcome& outcome) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto& st = self->state;
        auto it = st.pending.find(id);
        if (it == st.pending.end()) return;
        if (st.deps.metrics) st.deps.metrics->add("troupe_bindings_total", {outcome.ok ? "ok" : "error"});
        it->second.deliver(std::move(outcome));
        st.pending.erase(it);
      },
  };
}

}  // namespace troupe::actors
