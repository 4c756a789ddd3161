#pragma once
// The learned GPU task classes of the SCHEDULING CYCLE (issue 7): profiles
// whose DeviceShare scores with Fragmentation and configures no taskClasses
// learn the task-size distribution from the pods they see
// (plugins/deviceshare/task_learner.hpp) and hand its snapshot to their
// plugins in every cycle. The cycle actor owns this state (plugins stay pure);
// it calls on_attempt for every attempt and on_bound for the bound pods the
// INFORMER reports.
//
// What is counted, once per pod:
//  - a pod at its first scheduling attempt (QueuedPod::attempts == 0): a
//    retry or a requeue after a failed binding is the same pod again. Pods
//    that find no node count too: the big tasks that fail are what the
//    measure must keep room for;
//  - a pod of the profile found bound while the cycle is not scheduling yet:
//    the informer's initial list after a restart, or, on a standby replica,
//    whatever the leader places. A restarted scheduler thus starts from the
//    cluster's current workload, not from nothing. Once the cycle schedules,
//    the bound pods are mostly its own, already counted at their attempt;
//    not counted are pods of the profile that someone else binds then (a
//    leader that lost its lease binding its last pods, a manual nodeName),
//    and bound pods still in flight when `start` overtakes them at failover.
// Pods of other schedulers (DaemonSets, system pods) are not counted: they
// are not tasks this profile places, and would swamp the mix with tiny
// CPU-only classes. Nor are a Reservation's reserve pods: their owners are
// the tasks, counted when they come.
//
// One learner per profile: each keeps room for the tasks it is asked to
// place, with its own args (cardWasteWeight). Profiles that share GPU nodes
// and want one mix can configure taskClasses.
//
// The snapshot goes into the CycleState (share_input) with its id as the
// version, so the evaluation cache and DeviceShare's score memo never reuse
// a score computed under another snapshot; the learner publishes a new one
// only when the mix moved materially, so those caches keep working.

#include <memory>
#include <string>
#include <unordered_map>

#include "actors/queue_actor.hpp"
#include "plugins/deviceshare/task_learner.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/framework.hpp"

namespace troupe::plugins::deviceshare {
class DeviceShare;
}

namespace troupe::actors {

class TaskLearning {
 public:
  /// Counts the pod if this is its first attempt, then shares the profile's
  /// snapshot with the cycle's plugins. Nothing for profiles that do not learn.
  void on_attempt(const QueuedPod& queued, plugins::CycleState& state);

  /// A bound pod of one of our profiles (the INFORMER's report): counted
  /// unless the cycle is `scheduling` (see the header comment).
  void on_bound(const QueuedPod& pod, bool scheduling);

  /// Whether pods of this profile are counted: its DeviceShare scores with
  /// Fragmentation and has no taskClasses.
  static bool learns(const plugins::Framework& framework);

  /// The profile's learner, or null (not learning, or never seen).
  const plugins::deviceshare::TaskLearner* learner(const plugins::Framework& framework) const;

  /// What every learning profile has learned, as the learnedTaskClasses
  /// debug service shows it: {"<profile>":{"observed":N,"taskClasses":[...]}}
  /// (plugins/deviceshare/task_classes_json.hpp; [] before the first pod).
  std::string summary_json() const;

 private:
  struct Profile {
    std::shared_ptr<const plugins::Framework> framework;  // keeps the key's address unique
    const plugins::deviceshare::DeviceShare* plugin = nullptr;
    std::unique_ptr<plugins::deviceshare::TaskLearner> learner;  // null: the profile does not learn
  };

  Profile& profile_of(const std::shared_ptr<const plugins::Framework>& framework);
  static void count(Profile& profile, const plugins::PodInfo& pod);

  std::unordered_map<const plugins::Framework*, Profile> profiles_;
};

}  // namespace troupe::actors
