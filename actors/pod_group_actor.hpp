#pragma once
// The POD GROUP actor: Koordinator's PodGroup controller
// (coscheduling/controller/podgroup.go) inside `troupe scheduler`, which
// keeps a PodGroup's status following its pods.
//
//   shared reflectors: podgroups, and the pods labelled
//   pod-group.scheduling.sigs.k8s.io (a list and watch of their own: the
//   scheduler's pods collection leaves Succeeded and Failed pods out, and
//   their count is what Finished and Failed are decided by) --watch_event-->
//   POD GROUP actor: per PodGroup, its members (the pods of our Coscheduling
//   profiles that name it by that label), the status they give
//   (plugins/coscheduling/pod_group_status.hpp) and, when it differs from our
//   copy of the PodGroup here, a write on the I/O TaskPool that decides the
//   status again on the object it reads (watch/pod_group_writes.hpp: our
//   copy may lag our own last write) — one write per PodGroup in flight,
//   only while this replica leads and once both lists are complete; what
//   could not be written is tried again every `retry`.
//
// A PodGroup none of whose pods is ours is left alone once it has a phase:
// another scheduler's controller keeps it (a new one gets Pending, as every
// Koordinator scheduler writes).

#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <string>

#include <caf/all.hpp>

#include "actors/shared_reflectors.hpp"
#include "model/result.hpp"
#include "watch/api_client.hpp"
#include "watch/task_pool.hpp"

namespace troupe::actors {

struct PodGroupControllerDeps {
  caf::actor_system* system = nullptr;
  std::shared_ptr<watch::ApiClient> api;
  std::shared_ptr<watch::TaskPool> io;
  /// The scheduler leads (leader election): writes only then.
  std::shared_ptr<std::atomic<bool>> leading;
  /// The schedulerNames of the profiles that run Coscheduling: their pods are members.
  std::set<std::string> scheduler_names;
  /// Where the actor subscribes to podgroups and their pods (started by the
  /// caller once everyone subscribed, stopped before stop()).
  SharedReflectors* reflectors = nullptr;
  std::chrono::milliseconds retry{1000};
};

/// The collection of the pods that name a PodGroup by its label, finished ones included.
CollectionSpec pod_group_pods_collection();

/// Owns the pod group actor.
class PodGroupController {
 public:
  static Result<std::unique_ptr<PodGroupController>> start(PodGroupControllerDeps deps);
  ~PodGroupController();  // stop()
  /// Stops the actor. Idempotent; call before the actor system goes.
  void stop();

 private:
  PodGroupController() = default;
  caf::actor actor_;
};

}  // namespace troupe::actors
