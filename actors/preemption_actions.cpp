#include "actors/preemption_actions.hpp"

#include <spdlog/spdlog.h>

#include "watch/pod_writes.hpp"

namespace troupe::actors {

namespace {

watch::ObjectReference reference(const PodRef& pod) {
  watch::ObjectReference ref;
  ref.kind = "Pod";
  ref.api_version = "v1";
  ref.ns = pod.ns;
  ref.name = pod.name;
  ref.uid = pod.uid;
  return ref;
}

void set_nomination(watch::ApiClient& api, const PodRef& pod, const std::string& node) {
  if (pod.reserve_pod) return;  // a Reservation: nominated in memory only
  auto result = watch::patch_pod_status(api, pod.ns, pod.name, std::nullopt, node);
  if (!result.ok && result.code != 404)
    spdlog::warn("preemption could not set nominatedNodeName=\"{}\" on {}/{}: {}", node, pod.ns, pod.name,
                 result.message);
}

void record_preempted(watch::EventWriter& events, const PreemptionPlan& plan, const PodRef& victim) {
  auto recorded = events.record({reference(victim), "Normal", "Preempted", "Preempting",
                                 preempted_event_note(plan.preemptor.uid, plan.node)});
  if (!recorded.ok)
    spdlog::warn("preemption could not record the Preempted event of {}/{}: {}", victim.ns, victim.name,
                 recorded.message);
}

/// PreemptPod: mark the victim, then delete it.
bool evict_victim(watch::ApiClient& api, watch::EventWriter& events, const PreemptionPlan& plan,
                  const PodRef& victim) {
  watch::PodCondition condition;
  condition.type = kDisruptionTarget;
  condition.status = "True";
  condition.reason = kPreemptionByScheduler;
  condition.message = disruption_message(plan.profile);
  auto marked = watch::patch_pod_status(api, victim.ns, victim.name, condition, std::nullopt);
  if (marked.code == 404) return true;
  if (!marked.ok)
    spdlog::warn("preemption could not mark victim {}/{}: {}", victim.ns, victim.name, marked.message);
  auto deleted = watch::delete_pod(api, victim.ns, victim.name, {victim.uid, ""});
  if (!deleted.ok && deleted.code != 404) {
    spdlog::warn("preemption could not delete victim {}/{}: {}", victim.ns, victim.name, deleted.message);
    return false;
  }
  record_preempted(events, plan, victim);
  return true;
}

}  // namespace

std::string disruption_message(const std::string& scheduler) {
  return scheduler + ": preempting to accommodate a higher priority pod";
}

std::string preempted_event_note(const std::string& preemptor_uid, const std::string& node) {
  return "Preempted by pod " + preemptor_uid + " on node " + node;
}

size_t carry_out_preemption(watch::ApiClient& api, watch::EventWriter& events, const PreemptionPlan& plan) {
  set_nomination(api, plan.preemptor, plan.node);
  if (plan.node.empty()) return 0;  // only the preemptor's old nomination to clear
  size_t evicted = 0;
  for (const auto& victim : plan.victims)
    if (evict_victim(api, events, plan, victim)) ++evicted;
  for (const auto& victim : plan.rejected) record_preempted(events, plan, victim);
  for (const auto& pod : plan.cleared) set_nomination(api, pod, "");
  spdlog::info("preemption: {}/{} nominated to \"{}\", {} of {} victim(s) evicted, {} rejected at Permit",
               plan.preemptor.ns, plan.preemptor.name, plan.node, evicted, plan.victims.size(), plan.rejected.size());
  return evicted;
}

}  // namespace troupe::actors
