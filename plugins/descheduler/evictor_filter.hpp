#pragma once
// Which pods may be evicted: the upstream descheduler's DefaultEvictor
// Filter with Koordinator's additions (evictAllBarePods, the eviction-cost
// veto), as one pure function that names the rule refusing a pod.
//
// Order of checks (the first failing one is reported):
//  1. annotation descheduler.alpha.kubernetes.io/evict: always evictable;
//  2. never: DaemonSet pods, mirror pods, static pods, terminating pods,
//     pods whose scheduling.koordinator.sh/eviction-cost is MaxInt32;
//  3. configurable (each skippable by its gate): bare pods, system-critical
//     priority and the priority threshold, local storage, PVCs, the label
//     selector, namespaces, nodeFit.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/pod.hpp"
#include "plugins/descheduler/evictor_args.hpp"
#include "plugins/descheduler/node_fit.hpp"

namespace troupe::plugins::descheduler {

inline constexpr const char* kEvictAnnotation = "descheduler.alpha.kubernetes.io/evict";
inline constexpr const char* kMirrorPodAnnotation = "kubernetes.io/config.mirror";
inline constexpr const char* kConfigSourceAnnotation = "kubernetes.io/config.source";
/// scheduling.SystemCriticalPriority.
inline constexpr int32_t kSystemCriticalPriority = 2000000000;

/// What the rules need besides the pod.
struct EvictorContext {
  /// PriorityClass name -> value, to resolve priorityThreshold.name.
  const std::map<std::string, int32_t>* priority_classes = nullptr;
  /// The cluster's nodes, for nodeFit; nullptr with nodeFit on refuses
  /// every pod (nothing is known to fit).
  const std::vector<NodeRoom>* nodes = nullptr;
};

/// nullopt when the pod may be evicted, else the reason it may not
/// ("pod is a DaemonSet pod", "pod has system critical priority", ...).
std::optional<std::string> eviction_refusal(const Pod& pod, const EvictorArgs& args, const EvictorContext& context);

/// The pod carries descheduler.alpha.kubernetes.io/evict.
bool has_evict_annotation(const Pod& pod);

/// namespaces include/exclude only (also used by LowNodeLoad's
/// evictableNamespaces); nullopt when allowed.
std::optional<std::string> namespace_refusal(const std::string& ns, const Namespaces& namespaces);

}  // namespace troupe::plugins::descheduler
