#pragma once
// NominationBook: the pods nominated to a node after preempting, kept by the
// scheduling cycle (upstream: the scheduling queue's nominator). Each
// nomination is held on its node as a placeholder pod (the preemptor with
// spec.nodeName set), so that the freed room is not given away while the
// victims terminate.
//
//   nominate   after a successful preemption: remember (node, victims) and
//              hand back the placeholder to account on the node
//   take       at the start of the pod's next attempt: the placeholder is
//              released (the pod must not compete with itself) and the
//              nomination returned, to restore if the pod is still waiting
//   take_lower_priority   the nominations a pod of higher priority does not
//              see while it is tried (upstream's addNominatedPods adds only
//              those of at least the pod's priority); the cycle sets them
//              aside for the attempt and restores those still standing

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::preemption {

struct Nomination {
  std::string node;
  /// The nominated pod accounted on `node` (its uid is the pod's).
  std::shared_ptr<const PodInfo> placeholder;
  /// uids of the victims evicted for it on `node`.
  std::set<std::string> victims;
};

class NominationBook {
 public:
  /// Records the nomination (replacing any earlier one of the pod) and
  /// returns the placeholder to account on `node`.
  std::shared_ptr<const PodInfo> nominate(const PodInfo& pod, const std::string& node, std::set<std::string> victims);
  /// Puts back a nomination `take` returned.
  void restore(const std::string& uid, Nomination nomination);
  /// Removes and returns the pod's nomination.
  std::optional<Nomination> take(const std::string& uid);
  /// Removes and returns the nominations, on every node, of pods of lower priority than `priority`.
  std::vector<Nomination> take_lower_priority(int32_t priority);

  /// uid -> priority of every held nomination (what partitions must recognise).
  std::map<std::string, int32_t> priorities() const;
  const Nomination* find(const std::string& uid) const;
  size_t size() const { return by_uid_.size(); }
  bool empty() const { return by_uid_.empty(); }

 private:
  std::map<std::string, Nomination> by_uid_;
};

/// The placeholder: `pod` with spec.nodeName = node.
std::shared_ptr<const PodInfo> nominated_placeholder(const PodInfo& pod, const std::string& node);

}  // namespace troupe::plugins::preemption
