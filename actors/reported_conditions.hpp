#pragma once
// The PodScheduled=False conditions this scheduler reported, by pod uid.
//
// kube-scheduler writes the condition only when it changes
// (podutil.UpdatePodCondition), and keeps the time it became False while
// only its reason or message changes. The queue's copy of a pod never sees
// the condition troupe wrote (status-only updates do not requeue a pod), so
// the cycle remembers what it reported: without that, every failed attempt
// of an unschedulable pod would patch it again and move lastTransitionTime.

#include <chrono>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "model/pod.hpp"
#include "model/timestamp.hpp"

namespace troupe::actors {

class ReportedConditions {
 public:
  struct Decision {
    bool write = true;
    /// When the pod was already False: the time it became so, to keep.
    std::optional<Timestamp> since;
  };

  /// An unchanged condition is written again after this long: a write that
  /// failed (the reports go out on I/O threads, unanswered) heals.
  static constexpr std::chrono::minutes kRewriteAfter{5};

  /// A failed attempt of `pod` with `reason` and `message` at `now`: whether
  /// to write the condition, and from when. A pod not reported yet (after a
  /// restart, say) is judged by the conditions its object carries; a pod
  /// deleted meanwhile is not written (nor remembered).
  Decision report(const Pod& pod, const std::string& reason, const std::string& message, Timestamp now);

  /// The pod was placed or left the queue.
  void forget(const std::string& uid) { reported_.erase(uid); }
  /// The pod was deleted: forgotten, and a failure of an attempt still under
  /// way (its Binding, its claims' wait) reports nothing for it.
  void gone(const std::string& uid);
  size_t size() const { return reported_.size(); }

 private:
  /// How many deleted pods are remembered: far more than attempts in flight.
  static constexpr size_t kGoneRemembered = 1024;
  struct Reported {
    std::string reason;
    std::string message;
    Timestamp since;    // when it became False
    Timestamp written;  // last asked to be written
  };
  std::unordered_map<std::string, Reported> reported_;
  std::deque<std::string> gone_order_;
  std::unordered_set<std::string> gone_;
};

}  // namespace troupe::actors
