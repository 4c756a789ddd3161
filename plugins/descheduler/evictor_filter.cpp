#include "plugins/descheduler/evictor_filter.hpp"

#include <algorithm>
#include <cstdint>

#include "model/pod_requests.hpp"
#include "plugins/descheduler/pod_classes.hpp"

namespace troupe::plugins::descheduler {

using Refusal = std::optional<std::string>;

bool has_evict_annotation(const Pod& pod) { return pod.meta.annotation(kEvictAnnotation) != nullptr; }

namespace {

bool is_static_pod(const Pod& pod) {
  const std::string* source = pod.meta.annotation(kConfigSourceAnnotation);
  return source != nullptr && *source != "api";
}

/// Rules no configuration can lift.
Refusal fixed_refusal(const Pod& pod) {
  if (owned_by_daemon_set(pod)) return "pod is a DaemonSet pod";
  if (pod.meta.annotation(kMirrorPodAnnotation)) return "pod is a mirror pod";
  if (is_static_pod(pod)) return "pod is a static pod";
  if (pod.meta.is_terminating()) return "pod is terminating";
  if (eviction_cost(pod) == INT32_MAX) return "pod has the maximum eviction cost (scheduling.koordinator.sh/eviction-cost)";
  return std::nullopt;
}

Refusal bare_pod_refusal(const Pod& pod, const EvictorArgs& args) {
  if (!args.gate_on("BarePods") || !pod.meta.owner_references.empty() || args.evict_all_bare_pods) return std::nullopt;
  if (args.evict_failed_bare_pods) {
    if (pod.status.phase == "Failed") return std::nullopt;
    return "pod does not have any ownerRefs and is not in failed phase";
  }
  return "pod does not have any ownerRefs";
}

Refusal priority_refusal(const Pod& pod, const EvictorArgs& args, const EvictorContext& context) {
  // As upstream, the threshold only applies while system-critical pods are protected.
  if (args.evict_system_critical_pods) return std::nullopt;
  const int32_t priority = pod_priority(pod.spec);
  if (args.gate_on("SystemCritical") && priority >= kSystemCriticalPriority) return "pod has system critical priority";
  if (!args.gate_on("PriorityThreshold") || !args.priority_threshold) return std::nullopt;
  const PriorityThreshold& threshold = *args.priority_threshold;
  int32_t limit = kSystemCriticalPriority;
  if (threshold.value) {
    limit = *threshold.value;
  } else if (!threshold.name.empty()) {
    const auto* classes = context.priority_classes;
    auto found = classes ? classes->find(threshold.name) : decltype(classes->find(threshold.name)){};
    if (!classes || found == classes->end()) {
      return "priority class \"" + threshold.name + "\" of priorityThreshold not found";
    }
    limit = found->second;
  }
  if (priority >= limit) return "pod has higher priority than specified priority class threshold";
  return std::nullopt;
}

Refusal volume_refusal(const Pod& pod, const EvictorArgs& args) {
  if (args.gate_on("LocalStorage") && !args.evict_local_storage_pods && pod.spec.has_local_storage) {
    return "pod has local storage and descheduler is not configured with evictLocalStoragePods";
  }
  if (args.gate_on("PVC") && args.ignore_pvc_pods && pod.spec.has_pvc) {
    return "pod has a PVC and descheduler is configured to ignore PVC pods";
  }
  return std::nullopt;
}

Refusal selection_refusal(const Pod& pod, const EvictorArgs& args) {
  if (args.gate_on("LabelSelector") && args.label_selector && !args.label_selector->matches(pod.meta.labels)) {
    return "pod labels do not match the labelSelector filter in the policy parameter";
  }
  if (args.gate_on("Namespaces") && args.namespaces) return namespace_refusal(pod.meta.namespace_name, *args.namespaces);
  return std::nullopt;
}

Refusal node_fit_refusal(const Pod& pod, const EvictorArgs& args, const EvictorContext& context) {
  if (!args.node_fit || !args.gate_on("NodeFit")) return std::nullopt;
  if (context.nodes && fits_any_other_node(pod, *context.nodes)) return std::nullopt;
  return "pod does not fit on any other node because of nodeSelector(s), Taint(s), or nodes marked as unschedulable";
}

}  // namespace

Refusal namespace_refusal(const std::string& ns, const Namespaces& namespaces) {
  auto listed = [&](const std::vector<std::string>& list) { return std::find(list.begin(), list.end(), ns) != list.end(); };
  if (!namespaces.include.empty() && !listed(namespaces.include)) return "pod's namespace " + ns + " is not included";
  if (listed(namespaces.exclude)) return "pod's namespace " + ns + " is excluded";
  return std::nullopt;
}

Refusal eviction_refusal(const Pod& pod, const EvictorArgs& args, const EvictorContext& context) {
  if (has_evict_annotation(pod)) return std::nullopt;
  if (auto refusal = fixed_refusal(pod)) return refusal;
  if (auto refusal = bare_pod_refusal(pod, args)) return refusal;
  if (auto refusal = priority_refusal(pod, args, context)) return refusal;
  if (auto refusal = volume_refusal(pod, args)) return refusal;
  if (auto refusal = selection_refusal(pod, args)) return refusal;
  return node_fit_refusal(pod, args, context);
}

}  // namespace troupe::plugins::descheduler
