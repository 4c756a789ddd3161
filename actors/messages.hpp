#pragma once
// The data that travels between troupe's actors. Large or shared objects go
// as shared_ptr<const T>: they never leave the process, and sharing immutable
// data between actors is safe (CAF's rule), so they are whitelisted below.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "model/pod.hpp"
#include "model/result.hpp"
#include "model/timestamp.hpp"
#include "plugins/framework/claim_binding.hpp"
#include "watch/event_writer.hpp"
#include "watch/object_store.hpp"
#include "watch/watch_event.hpp"

namespace troupe::actors {

/// A Binding to POST: the pod, its node, and the allocation annotations that
/// ride on the Binding (device-allocated, resource-status, ...).
struct BindJob {
  std::string ns;
  std::string name;
  std::string uid;
  std::string node;
  std::string profile;  // scheduler name, the Scheduled event's reporting controller
  std::map<std::string, std::string> annotations;
  /// Strategic-merge patches to the pod (labels such as hami.io/vgpu-node),
  /// applied before the Binding is posted.
  std::vector<std::string> pod_patches;
  /// Claims to bind first, then wait for (VolumeBinding's PreBind).
  plugins::ClaimBindings claim_bindings;
  /// DefaultPreBind: `annotations` are patched onto the pod before the
  /// Binding, which carries none (plugins/default_prebind/).
  bool patch_before_binding = false;
  /// Set for a Reservation's reserve pod: the Reservation's name. Binding it
  /// writes the Reservation's status instead of posting a Binding.
  std::string reservation;
};
using BindJobPtr = std::shared_ptr<const BindJob>;

/// What the API server said to a write.
struct WriteOutcome {
  bool ok = false;
  int code = 0;          // HTTP status, 0 = no answer
  std::string message;   // the Status message or transport error
  /// Set when the write a PreBind plugin asked for failed, before the
  /// Binding: that plugin, and `message` is already its PreBind error.
  std::string pre_bind_plugin;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, WriteOutcome& x) {
  return f(caf::meta::type_name("WriteOutcome"), x.ok, x.code, x.message, x.pre_bind_plugin);
}

/// A pod that could not be placed: its PodScheduled=False condition and the
/// FailedScheduling event (kube-scheduler's handleSchedulingFailure).
struct FailureReport {
  std::string ns;
  std::string name;
  std::string uid;
  std::string resource_version;
  std::string profile;
  std::string reason = "Unschedulable";  // or "SchedulerError"
  std::string message;                   // "0/5 nodes are available: ..."
  /// False when the pod already carries this exact condition: kube-scheduler
  /// skips the patch then (and so keeps lastTransitionTime).
  bool patch_condition = true;
  /// Set when the pod was already PodScheduled=False (another reason or
  /// message): the condition keeps the time it became False.
  std::optional<Timestamp> transition_time;
  /// Set for a Reservation's reserve pod: the Reservation's name (its
  /// Scheduled condition is written instead of the pod's).
  std::string reservation;
};
using FailureReportPtr = std::shared_ptr<const FailureReport>;

/// An object the INFORMER follows but cannot read (a Node, Device,
/// NodeResourceTopology or NodeMetric that does not decode): a Warning event
/// on it, so that `kubectl describe` and `kubectl get events` show why troupe
/// does not use it, not only the scheduler's log.
struct ObjectWarning {
  watch::ObjectReference regarding;
  std::string profile;  // the reporting controller (a profile's name)
  std::string reason;
  std::string message;
  std::string action = "Reading";  // the event's action: what was being done
};
using ObjectWarningPtr = std::shared_ptr<const ObjectWarning>;

/// A watch event as the INFORMER, the MIGRATION and the RESERVATION actors
/// receive it from a reflector thread (actors/shared_reflectors.hpp): one
/// ObjectEvent per change, shared by every actor that follows the collection.
struct ObjectEvent {
  ObjectEvent(std::string resource_name, const watch::Change& change)
      : resource(std::move(resource_name)),
        type(change.type),
        object(change.object),
        final_state_unknown(change.final_state_unknown) {}
  ObjectEvent(const ObjectEvent&) = delete;
  ObjectEvent& operator=(const ObjectEvent&) = delete;

  std::string resource;  // "pods", "nodes", ...
  watch::EventType type = watch::EventType::added;
  watch::ObjectPtr object;
  /// A deletion a re-list found: `object` is the last state seen, maybe stale
  /// (watch::Change::final_state_unknown).
  bool final_state_unknown = false;

  /// `object` decoded as a Pod (decode_pod), once: the first actor that asks
  /// decodes it, the others get the same immutable Pod (thread-safe). The
  /// Pod's `raw` is `object` itself.
  const Result<std::shared_ptr<const Pod>>& pod() const;

 private:
  mutable std::once_flag pod_once_;
  mutable std::optional<Result<std::shared_ptr<const Pod>>> pod_;
};
using ObjectEventPtr = std::shared_ptr<const ObjectEvent>;

}  // namespace troupe::actors

// In-process only: shared immutable data, never serialized.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::BindJobPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::FailureReportPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::ObjectWarningPtr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::ObjectEventPtr)
