#pragma once
// The learned GPU task classes of the extender endpoint
// (actors/extender_service.hpp). A stock kube-scheduler asks troupe's
// /deviceshare verbs about its own pods, which troupe's SCHEDULING CYCLE
// never sees, so the endpoint learns their distribution itself, with the
// cycle's rule and learner (actors/task_learning.hpp): the Fragmentation
// strategy's prioritize scores and bind's card choice then keep room for the
// tasks that cluster really runs, instead of a fixed prior.
//
// Each pod counts once, at the first filter or prioritize naming it:
// kube-scheduler asks again on every attempt of the same pod. The pods
// remembered are bounded (the oldest forgotten first); one retried after
// kRememberedPods others counts again, a small error in a mix of thousands.
// Not thread-safe: the endpoint calls its handlers on one I/O thread.

#include <deque>
#include <memory>
#include <string>
#include <unordered_set>

#include "actors/task_learning.hpp"

namespace troupe::actors {

class ExtenderLearning {
 public:
  static constexpr size_t kRememberedPods = 16384;  // about 2 MB of uids

  explicit ExtenderLearning(std::shared_ptr<const plugins::Framework> framework,
                            size_t remembered_pods = kRememberedPods);

  /// Counts `pod` if `count` and it was not counted before, then shares the
  /// learned snapshot with `state` (nothing when the framework's DeviceShare
  /// does not learn, or before the first pod).
  void on_request(const PodInfoPtr& pod, bool count, plugins::CycleState& state);

  /// The learner, or null (not learning, or no request yet).
  const plugins::deviceshare::TaskLearner* learner() const { return learning_.learner(*framework_); }

 private:
  /// True the first time `key` is seen (while remembered).
  bool first_time(const std::string& key);

  std::shared_ptr<const plugins::Framework> framework_;
  bool learns_;  // TaskLearning::learns(*framework_)
  size_t remembered_pods_;
  TaskLearning learning_;
  std::deque<std::string> remembered_;  // oldest first
  std::unordered_set<std::string> seen_;
};

}  // namespace troupe::actors
