#pragma once
// Carrying out a preemption against the API server (kube-scheduler's
// prepareCandidate and the nomination update of handleSchedulingFailure), on
// an I/O thread:
//   1. the preemptor's status.nominatedNodeName (status patch; "" clears it);
//   2. each victim: condition DisruptionTarget=True, reason
//      PreemptionByScheduler, message "<scheduler>: preempting to accommodate
//      a higher priority pod"; then DELETE (uid precondition); a Normal
//      "Preempted" event "Preempted by pod <uid> on node <node>";
//      a victim that was waiting at Permit was rejected by the scheduling
//      cycle instead (upstream's waitingPod.Reject): its event alone;
//   3. lower-priority pods nominated to that node: nominatedNodeName cleared.
// A victim already gone (404) is not an error; other failures are logged and
// the rest carried on (the next attempt of the preemptor sees what is left).

#include <string>

#include "actors/preemption_messages.hpp"
#include "watch/api_client.hpp"
#include "watch/event_writer.hpp"

namespace troupe::actors {

inline constexpr const char* kDisruptionTarget = "DisruptionTarget";
inline constexpr const char* kPreemptionByScheduler = "PreemptionByScheduler";

/// "<scheduler>: preempting to accommodate a higher priority pod".
std::string disruption_message(const std::string& scheduler);
/// "Preempted by pod <uid> on node <node>".
std::string preempted_event_note(const std::string& preemptor_uid, const std::string& node);

/// Blocking; returns how many victims were deleted (or already gone).
size_t carry_out_preemption(watch::ApiClient& api, watch::EventWriter& events, const PreemptionPlan& plan);

}  // namespace troupe::actors
