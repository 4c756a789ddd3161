#pragma once
// The PodScheduled=False conditions this scheduler reported, by pod uid.
//
// kube-scheduler writes the condition only when it changes
// (podutil.UpdatePodCondition), and keeps the time it became False while
// only its reason or message changes. The queue's copy of a pod never sees
// the condition troupe wrote (status-only updates do not requeue a pod), so
// the cycle remembers what it reported: without that, every failed attempt
// of an unschedulable pod would patch it again and move lastTransitionTime.

#include <optional>
#include <string>
#include <unordered_map>

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

  /// A failed attempt of `pod` with `reason` and `message` at `now`: whether
  /// to write the condition, and from when. A pod not reported yet (after a
  /// restart, say) is judged by the conditions its object carries.
  Decision report(const Pod& pod, const std::string& reason, const std::string& message, Timestamp now);

  /// The pod was placed, deleted or left the queue.
  void forget(const std::string& uid) { reported_.erase(uid); }
  size_t size() const { return reported_.size(); }

 private:
  struct Reported {
    std::string reason;
    std::string message;
    Timestamp since;
  };
  std::unordered_map<std::string, Reported> reported_;
};

}  // namespace troupe::actors
