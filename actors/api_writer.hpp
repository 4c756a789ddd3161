#pragma once
// The API WRITER (kube-scheduler's binding cycle, as an actor): POSTs
// Bindings, patches PodScheduled=False onto pods that could not be placed, and
// records the Scheduled / FailedScheduling events. Every write runs on the
// watch layer's TaskPool threads, whose size bounds the writes in flight; the
// actor itself never blocks — the I/O thread reports back by message.
//
// A Binding with claims to bind (VolumeBinding's PreBind) writes them first,
// then looks once a second, in the VolumeStore's observed objects, whether
// the PV controller has bound them; only then is the pod bound. The wait
// holds no thread: it is a self-message per second.
//
// PreBind's annotations ride on the Binding, unless the profile runs
// DefaultPreBind: then they are patched onto the pod first, as Koordinator
// writes them (plugins/default_prebind/).
//
// Events ride the pool's background lane (watch/lane_queue.hpp): they are
// written when no Binding or status patch waits, so that a burst of bindings
// gets the API server to itself and its events follow right after. The lane
// is bounded (troupe.eventQueueSize); an event that finds it full is dropped,
// logged and counted in troupe_events_dropped_total, as kube-scheduler's
// recorder drops under pressure.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <caf/all.hpp>

#include "actors/atoms.hpp"
#include "actors/actor_metrics.hpp"
#include "actors/extenders.hpp"
#include "actors/messages.hpp"
#include "actors/metrics_registry.hpp"
#include "actors/preemption_messages.hpp"
#include "actors/volume_store.hpp"
#include "watch/api_client.hpp"
#include "watch/cancel_token.hpp"
#include "watch/event_writer.hpp"
#include "watch/task_pool.hpp"

namespace troupe::actors {

using api_writer_actor = caf::typed_actor<
    // POST the Binding; replies once the API server has answered.
    caf::replies_to<atom::bind, BindJobPtr>::with<WriteOutcome>,
    // Bind through the extender that binds this pod (its bindVerb) instead.
    caf::replies_to<atom::bind, BindJobPtr, ExtenderBinderPtr>::with<WriteOutcome>,
    // Patch PodScheduled=False (reason, message) and record FailedScheduling.
    caf::reacts_to<atom::report, FailureReportPtr>,
    // Preemption: nominate, mark and delete the victims (actors/preemption_actions.hpp).
    caf::reacts_to<atom::report, PreemptionPlanPtr>,
    // Record a Warning event on an object troupe cannot read.
    caf::reacts_to<atom::report, ObjectWarningPtr>,
    // INTERNAL: an I/O thread finished the Binding with this id.
    caf::reacts_to<atom::bind_result, uint64_t, WriteOutcome>,
    // INTERNAL: an I/O thread wrote the claim bindings of the Binding with this id.
    caf::reacts_to<atom::claims_written, uint64_t, WriteOutcome>,
    // INTERNAL: time to look whether those claims are bound.
    caf::reacts_to<atom::check_claims, uint64_t>,
    // The pending pod "namespace/name" was deleted (INFORMER): a wait for its claims ends.
    caf::reacts_to<atom::pod_gone, std::string>,
    // The node was deleted (INFORMER): the waits of the pods bound for it end.
    caf::reacts_to<atom::delete_node, std::string>>;

/// What the writer needs from the process: the client, the I/O threads, the
/// metrics, and who this replica is (for events' reportingInstance).
struct ApiWriterDeps {
  std::shared_ptr<watch::ApiClient> api;
  std::shared_ptr<watch::TaskPool> io;
  std::shared_ptr<MetricsRegistry> metrics;
  std::string instance;  // "<hostname>"
  /// The claims and volumes as observed, to follow the claim bindings a
  /// Binding waits for; null when no profile schedules volumes.
  std::shared_ptr<const VolumeStore> volumes;
};

/// The event lane: queues events on the I/O pool's background lane and
/// accounts for those it cannot take. Shared with the I/O threads (a
/// Binding's Scheduled event is queued by the thread that bound it).
class EventLane {
 public:
  EventLane(std::shared_ptr<watch::TaskPool> io, std::shared_ptr<MetricsRegistry> metrics)
      : io_(std::move(io)), metrics_(std::move(metrics)) {}
  /// Records `event` through `writer` once no foreground write waits.
  void record(std::shared_ptr<watch::EventWriter> writer, watch::EventSpec event);
  uint64_t dropped() const { return dropped_.load(); }

 private:
  std::shared_ptr<watch::TaskPool> io_;
  std::shared_ptr<MetricsRegistry> metrics_;
  std::atomic<uint64_t> dropped_{0};
};

/// How a Binding is made once its claims are bound (API or extender).
using BindCall = std::function<WriteOutcome(watch::ApiClient&)>;

/// A Binding waiting for its claims to be bound (VolumeBinding's PreBind):
/// written first, then checked every second until bound or the deadline.
struct ClaimBindingRun {
  BindJobPtr job;
  BindCall bind;
  std::vector<std::string> written;  // the resourceVersion each claim's write answered with
  std::chrono::steady_clock::time_point deadline;
};

struct api_writer_state {
  ApiWriterDeps deps;
  std::shared_ptr<EventLane> events;
  uint64_t next_id = 1;
  std::map<uint64_t, caf::typed_response_promise<WriteOutcome>> pending;
  std::map<uint64_t, std::shared_ptr<ClaimBindingRun>> claim_runs;  // by the Binding's id
  std::map<std::string, std::shared_ptr<watch::EventWriter>> event_writers;  // by profile
  /// The PodScheduled=False report in flight per pod ("namespace/name"): a
  /// newer report, the pod's Binding or its deletion cancels it, so an older
  /// message never lands after a newer one or after the Binding.
  std::unordered_map<std::string, std::shared_ptr<watch::CancelToken>> reports_in_flight;
  ActorMetricsHandle actor_metrics;

  std::shared_ptr<watch::EventWriter> events_for(const std::string& profile);
  /// Cancels the pod's report in flight, if any; a token for a new one when `replace`.
  std::shared_ptr<watch::CancelToken> supersede_report(const std::string& pod_key, bool replace);

  static inline const char* name = "api-writer";
};

api_writer_actor::behavior_type api_writer(api_writer_actor::stateful_pointer<api_writer_state> self,
                                           ApiWriterDeps deps);

}  // namespace troupe::actors
