#include "actors/api_writer.hpp"

#include <spdlog/spdlog.h>

#include "watch/pod_writes.hpp"

namespace troupe::actors {

namespace {

WriteOutcome outcome_of(const watch::ApiResult& r) { return {r.ok, r.code, r.message}; }

watch::ObjectReference pod_reference(const std::string& ns, const std::string& name, const std::string& uid) {
  watch::ObjectReference ref;
  ref.kind = "Pod";
  ref.api_version = "v1";
  ref.ns = ns;
  ref.name = name;
  ref.uid = uid;
  return ref;
}

void record_event(const std::shared_ptr<watch::EventWriter>& writer, watch::EventSpec event) {
  auto result = writer->create(event);
  if (!result.ok)
    spdlog::warn("api-writer could not record {} event for {}/{}: {}", event.reason, event.regarding.ns,
                 event.regarding.name, result.message);
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
  return {
      [=](atom::bind, BindJobPtr job) -> caf::result<WriteOutcome> {
        auto& st = self->state;
        uint64_t id = st.next_id++;
        auto promise = self->make_response_promise<WriteOutcome>();
        st.pending.emplace(id, promise);
        auto api = st.deps.api;
        auto events = st.events_for(job->profile);
        auto me = caf::actor_cast<api_writer_actor>(self);
        bool queued = st.deps.io->post([=] {
          watch::BindRequest request{job->ns, job->name, job->uid, job->node, job->annotations};
          auto result = watch::bind_pod(*api, request);
          caf::anon_send(me, atom::bind_result_v, id, outcome_of(result));
          if (result.ok)
            record_event(events, {pod_reference(job->ns, job->name, job->uid), "Normal", "Scheduled", "Binding",
                                  "Successfully assigned " + job->ns + "/" + job->name + " to " + job->node});
        });
        if (!queued) {
          st.pending.erase(id);
          return WriteOutcome{false, 0, "the scheduler is shutting down"};
        }
        return promise;
      },
      [=](atom::report, FailureReportPtr report) {
        auto api = self->state.deps.api;
        auto events = self->state.events_for(report->profile);
        self->state.deps.io->post([=] {
          if (report->patch_condition) {
            watch::PodCondition condition;
            condition.reason = report->reason;
            condition.message = report->message;
            auto patched = watch::patch_pod_status(*api, report->ns, report->name, condition, std::nullopt);
            if (!patched.ok && patched.code != 404)
              spdlog::warn("api-writer could not set PodScheduled=False on {}/{}: {}", report->ns, report->name,
                           patched.message);
          }
          record_event(events, {pod_reference(report->ns, report->name, report->uid), "Warning", "FailedScheduling",
                                "Scheduling", report->message});
        });
      },
      [=](atom::bind_result, uint64_t id, WriteOutcome& outcome) {
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
