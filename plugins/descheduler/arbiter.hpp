#pragma once
// The MigrationController's arbitration (Koordinator controllers/migration
// arbitrator/filter.go), pure: given the migrations in flight and the
// candidate jobs in priority order, which may start now, which must wait
// (retryable limits) and which may never run (non-retryable rules), each
// with a message for the job's status.
//
// Never (reject): ReservationFirst for a pod of a scheduler not in
// schedulerNames; the evictor rules (evictor_filter.hpp); expected replicas
// (a workload of 1 replica, or whose replicas equal maxMigrating or
// maxUnavailable, unless skipCheckExpectedReplicas).
// Wait: maxMigratingGlobally, maxMigratingPerNode, maxMigratingPerNamespace,
// maxMigratingPerWorkload, maxUnavailablePerWorkload (unavailable pods plus
// migrating ones), the workload objectLimiter window, the eviction token
// bucket. Each limit has its skipEvictionGates name. A pod annotated
// descheduler.alpha.kubernetes.io/evict skips every rule but the token bucket.
// Admitted jobs count as in flight for the candidates after them.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/pod.hpp"
#include "model/timestamp.hpp"
#include "plugins/descheduler/evictor_filter.hpp"
#include "plugins/descheduler/migration_controller_args.hpp"
#include "plugins/descheduler/rate_limiters.hpp"

namespace troupe::plugins::descheduler {

/// A workload (the pods' controller) as the controller finder sees it.
struct Workload {
  std::string uid;
  std::string description;  // "Deployment default/web", for messages
  int32_t expected_replicas = 0;
  /// Keys ("ns/name") of the workload's pods that are not active and ready.
  std::vector<std::string> unavailable_pods;
};

/// A pod being migrated: a Running job, or a Pending one that passed arbitration.
struct MigratingPod {
  std::string pod_key;  // "ns/name"
  std::string namespace_name;
  std::string node;
  std::string workload_uid;  // "" for bare pods
};

struct MigrationCandidate {
  std::string job;  // the PodMigrationJob's name
  std::string mode;  // the job's spec.mode; "" = defaultJobMode
  std::shared_ptr<const Pod> pod;
  /// The pod's controller; nullptr for bare pods.
  std::shared_ptr<const Workload> workload;
};

enum class Verdict { admit, wait, reject };
const char* to_string(Verdict verdict);

struct ArbitrationDecision {
  std::string job;
  Verdict verdict = Verdict::wait;
  std::string message;  // why it waits or is rejected; empty when admitted
};

/// What the arbiter remembers between rounds.
struct ArbiterState {
  explicit ArbiterState(const MigrationControllerArgs& args) : evictions(args.evict_qps, args.evict_burst) {}
  TokenBucket evictions;
  WorkloadWindow workloads;
};

struct ArbitrationInput {
  std::vector<MigrationCandidate> candidates;  // highest priority first
  std::vector<MigratingPod> in_flight;
  Timestamp now{};
  EvictorContext evictor_context;
};

/// Why the candidate may never migrate (the rules rejecting a job outright:
/// ReservationFirst's scheduler names, the evictor rules, expected replicas),
/// or nullopt. The balance plugins ask it too, so as not to plan what the
/// arbiter would only reject (Koordinator's Reconciler.Filter).
std::optional<std::string> never_migrates(const MigrationCandidate& candidate, const MigrationControllerArgs& args,
                                          const EvictorContext& context);

/// One decision per candidate, in input order.
std::vector<ArbitrationDecision> arbitrate(const ArbitrationInput& input, const MigrationControllerArgs& args,
                                           ArbiterState& state);

}  // namespace troupe::plugins::descheduler
