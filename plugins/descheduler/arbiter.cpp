#include "plugins/descheduler/arbiter.hpp"

#include <algorithm>
#include <set>

#include "plugins/descheduler/workload_limits.hpp"

namespace troupe::plugins::descheduler {

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::admit: return "admit";
    case Verdict::wait: return "wait";
    case Verdict::reject: return "reject";
  }
  return "?";
}

namespace {

using Message = std::optional<std::string>;

std::string key_of(const Pod& pod) { return pod.meta.namespace_name + "/" + pod.meta.name; }

/// maxMigrating and maxUnavailable of a workload, or the error.
struct WorkloadLimits {
  int32_t max_migrating = 0;
  int32_t max_unavailable = 0;
  std::string error;
};

WorkloadLimits workload_limits(const Workload& workload, const MigrationControllerArgs& args) {
  WorkloadLimits out;
  auto migrating = max_migrating(workload.expected_replicas, args.max_migrating_per_workload);
  if (!migrating) return {0, 0, "maxMigratingPerWorkload: " + migrating.message()};
  auto unavailable = max_unavailable(workload.expected_replicas, args.max_unavailable_per_workload);
  if (!unavailable) return {0, 0, "maxUnavailablePerWorkload: " + unavailable.message()};
  out.max_migrating = *migrating;
  out.max_unavailable = *unavailable;
  return out;
}

class Arbiter {
 public:
  Arbiter(const ArbitrationInput& input, const MigrationControllerArgs& args, ArbiterState& state)
      : input_(input), args_(args), state_(state), in_flight_(input.in_flight) {}

  ArbitrationDecision decide(const MigrationCandidate& candidate);

 private:
  Message never(const MigrationCandidate& candidate) const;
  Message not_now(const MigrationCandidate& candidate) const;
  Message workload_busy(const MigrationCandidate& candidate) const;
  Message limiter_busy(const MigrationCandidate& candidate) const;
  void admit(const MigrationCandidate& candidate);
  bool gate(const char* name) const { return args_.evictor.gate_on(name); }

  template <class Pred>
  int32_t count_in_flight(const Pod& pod, Pred pred) const {
    const std::string key = key_of(pod);
    return static_cast<int32_t>(std::count_if(in_flight_.begin(), in_flight_.end(), [&](const MigratingPod& m) {
      return m.pod_key != key && pred(m);
    }));
  }

  const ArbitrationInput& input_;
  const MigrationControllerArgs& args_;
  ArbiterState& state_;
  std::vector<MigratingPod> in_flight_;
};

Message expected_replicas_rule(const MigrationCandidate& candidate, const MigrationControllerArgs& args) {
  if (!candidate.workload || !args.evictor.gate_on("ExpectedReplicas")) return std::nullopt;
  const Workload& workload = *candidate.workload;
  const WorkloadLimits limits = workload_limits(workload, args);
  if (!limits.error.empty()) return limits.error;
  if (args.skip_check_expected_replicas) return std::nullopt;
  const int32_t replicas = workload.expected_replicas;
  if (replicas == 1 || replicas == limits.max_migrating || replicas == limits.max_unavailable) {
    return "maxMigrating(" + std::to_string(limits.max_migrating) + ") or maxUnavailable(" +
           std::to_string(limits.max_unavailable) + ") equals the replicas(" + std::to_string(replicas) + ") of " +
           workload.description + ", or the replicas equal 1";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> never_migrates(const MigrationCandidate& candidate, const MigrationControllerArgs& args,
                                          const EvictorContext& context) {
  const Pod& pod = *candidate.pod;
  const std::string& mode = candidate.mode.empty() ? args.default_job_mode : candidate.mode;
  if (mode == kModeReservationFirst) {
    const auto& names = args.scheduler_names;
    if (std::find(names.begin(), names.end(), pod.spec.scheduler_name) == names.end()) {
      return "pod's schedulerName " + pod.spec.scheduler_name + " cannot migrate in ReservationFirst mode";
    }
  }
  if (has_evict_annotation(pod)) return std::nullopt;
  if (auto refusal = eviction_refusal(pod, args.evictor, context)) return refusal;
  return expected_replicas_rule(candidate, args);
}

namespace {

Message Arbiter::never(const MigrationCandidate& candidate) const {
  return never_migrates(candidate, args_, input_.evictor_context);
}

Message Arbiter::workload_busy(const MigrationCandidate& candidate) const {
  if (!candidate.workload) return std::nullopt;
  const Workload& workload = *candidate.workload;
  const WorkloadLimits limits = workload_limits(workload, args_);
  if (!limits.error.empty()) return limits.error;
  std::set<std::string> migrating;
  const std::string self = key_of(*candidate.pod);
  for (const MigratingPod& m : in_flight_) {
    if (m.workload_uid == workload.uid && m.pod_key != self) migrating.insert(m.pod_key);
  }
  if (gate("MaxMigratingPerWorkload") && !migrating.empty() &&
      static_cast<int32_t>(migrating.size()) >= limits.max_migrating) {
    return workload.description + " has " + std::to_string(migrating.size()) +
           " migrating pod(s), reaching maxMigratingPerWorkload " + std::to_string(limits.max_migrating);
  }
  std::set<std::string> unavailable(workload.unavailable_pods.begin(), workload.unavailable_pods.end());
  unavailable.insert(migrating.begin(), migrating.end());
  if (gate("MaxUnavailablePerWorkload") && static_cast<int32_t>(unavailable.size()) >= limits.max_unavailable) {
    return workload.description + " has " + std::to_string(unavailable.size()) +
           " unavailable pod(s), reaching maxUnavailablePerWorkload " + std::to_string(limits.max_unavailable);
  }
  return std::nullopt;
}

Message Arbiter::limiter_busy(const MigrationCandidate& candidate) const {
  if (!candidate.workload || !gate("ObjectLimiter")) return std::nullopt;
  auto it = args_.object_limiters.find(kWorkloadLimiter);
  if (it == args_.object_limiters.end() || it->second.duration.count() == 0) return std::nullopt;
  const ObjectLimiterArgs& limiter = it->second;
  auto max = max_migrating(candidate.workload->expected_replicas,
                           limiter.max_migrating ? limiter.max_migrating : args_.max_migrating_per_workload);
  if (!max) return "objectLimiters.workload.maxMigrating: " + max.message();
  std::string refusal = state_.workloads.refusal(candidate.workload->uid, *max, limiter.burst, limiter.duration, input_.now);
  if (refusal.empty()) return std::nullopt;
  return refusal;
}

Message Arbiter::not_now(const MigrationCandidate& candidate) const {
  const Pod& pod = *candidate.pod;
  if (!has_evict_annotation(pod)) {
    if (args_.max_migrating_globally && *args_.max_migrating_globally > 0 && gate("MaxMigratingGlobally")) {
      const int32_t count = count_in_flight(pod, [](const MigratingPod&) { return true; });
      if (count >= *args_.max_migrating_globally) {
        return std::to_string(count) + " pod(s) migrating, reaching maxMigratingGlobally " +
               std::to_string(*args_.max_migrating_globally);
      }
    }
    const auto& per_node = args_.max_migrating_per_node;
    if (per_node && *per_node > 0 && !pod.spec.node_name.empty() && gate("MaxMigratingPerNode")) {
      const int32_t count = count_in_flight(pod, [&](const MigratingPod& m) { return m.node == pod.spec.node_name; });
      if (count >= *per_node) {
        return "node " + pod.spec.node_name + " has " + std::to_string(count) +
               " migrating pod(s), reaching maxMigratingPerNode " + std::to_string(*per_node);
      }
    }
    const auto& per_namespace = args_.max_migrating_per_namespace;
    if (per_namespace && *per_namespace > 0 && gate("MaxMigratingPerNamespace")) {
      const int32_t count =
          count_in_flight(pod, [&](const MigratingPod& m) { return m.namespace_name == pod.meta.namespace_name; });
      if (count >= *per_namespace) {
        return "namespace " + pod.meta.namespace_name + " has " + std::to_string(count) +
               " migrating pod(s), reaching maxMigratingPerNamespace " + std::to_string(*per_namespace);
      }
    }
    if (auto busy = workload_busy(candidate)) return busy;
    if (auto busy = limiter_busy(candidate)) return busy;
  }
  if (!state_.evictions.available(input_.now)) return "eviction rate limit (evictQPS/evictBurst) reached";
  return std::nullopt;
}

void Arbiter::admit(const MigrationCandidate& candidate) {
  const Pod& pod = *candidate.pod;
  in_flight_.push_back({key_of(pod), pod.meta.namespace_name, pod.spec.node_name,
                        candidate.workload ? candidate.workload->uid : std::string()});
  state_.evictions.try_take(input_.now);
  if (candidate.workload) state_.workloads.record(candidate.workload->uid, input_.now);
}

ArbitrationDecision Arbiter::decide(const MigrationCandidate& candidate) {
  if (!candidate.pod) return {candidate.job, Verdict::reject, "pod not found"};
  if (auto message = never(candidate)) return {candidate.job, Verdict::reject, *message};
  if (auto message = not_now(candidate)) return {candidate.job, Verdict::wait, *message};
  admit(candidate);
  return {candidate.job, Verdict::admit, ""};
}

}  // namespace

std::vector<ArbitrationDecision> arbitrate(const ArbitrationInput& input, const MigrationControllerArgs& args,
                                           ArbiterState& state) {
  auto it = args.object_limiters.find(kWorkloadLimiter);
  if (it != args.object_limiters.end()) state.workloads.prune(input.now, it->second.duration);
  Arbiter arbiter(input, args, state);
  std::vector<ArbitrationDecision> decisions;
  decisions.reserve(input.candidates.size());
  for (const MigrationCandidate& candidate : input.candidates) decisions.push_back(arbiter.decide(candidate));
  return decisions;
}

}  // namespace troupe::plugins::descheduler
