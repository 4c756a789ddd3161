#pragma once
// Koordinator's default load estimator (loadaware/estimator/default_estimator.go):
// what a pod is expected to use once it runs, before koordlet has measured it.
// For each resource with a scaling factor f:
//   q = max(limit, request) of the resource its priority class uses
//       (koord-batch: kubernetes.io/batch-cpu / batch-memory, koord-mid:
//       kubernetes.io/mid-cpu / mid-memory, koord-free: none, so 0);
//   q = 0: cpu and batch-cpu 250m, memory and batch-memory 200 MiB, others 0;
//   else round(q × f / 100) (cpu in millicores), capped at the limit when
//   there is one.
// With allowCustomizeEstimation the pod's annotations may set its own factors
// and estimation windows.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/pod.hpp"
#include "model/resources.hpp"
#include "model/timestamp.hpp"
#include "plugins/load_aware/load_aware_args.hpp"
#include "plugins/load_aware/load_vector.hpp"
#include "plugins/node_numa_resource/qos.hpp"

namespace troupe::plugins::load_aware {

inline constexpr const char* kAnnotationEstimatedScalingFactors =
    "scheduling.koordinator.sh/load-estimated-scaling-factors";
inline constexpr const char* kAnnotationEstimatedSecondsAfterPodScheduled =
    "scheduling.koordinator.sh/load-estimated-seconds-after-pod-scheduled";
inline constexpr const char* kAnnotationEstimatedSecondsAfterInitialized =
    "scheduling.koordinator.sh/load-estimated-seconds-after-initialized";

inline constexpr int64_t kDefaultEstimatedMilliCpu = 250;
inline constexpr int64_t kDefaultEstimatedMemory = 200 * 1024 * 1024;

/// What the estimate reads of a pod, taken once (the args decide the rest).
struct PodEstimateInputs {
  numa::KoordPriorityClass priority_class = numa::KoordPriorityClass::none;
  ResourceList requests;  // PodRequests
  ResourceList limits;    // PodLimits
  /// The scaling-factors annotation; empty when absent or not a JSON object of integers.
  ResourceInts custom_factors;
  /// The seconds annotations; nullopt when absent or not an integer.
  std::optional<int64_t> custom_seconds_after_scheduled;
  std::optional<int64_t> custom_seconds_after_initialized;
};

PodEstimateInputs estimate_inputs_of(const Pod& pod);

/// The resource a pod of this class uses for `resource` (TranslateResourceNameByPriorityClass):
/// unchanged for koord-prod and none, "" when the class has no such resource.
std::string_view translated_resource(numa::KoordPriorityClass priority_class, std::string_view resource);

/// The default estimator as one profile's args configure it.
class LoadEstimator {
 public:
  LoadEstimator(const LoadAwareSchedulingArgs& args, LoadAxes axes);

  /// The pod's estimated usage on the axes (resources without a factor: 0).
  /// `present` is false when every amount is 0 (Koordinator keeps no vector then).
  LoadVector estimate(const PodEstimateInputs& pod) const;
  const LoadAxes& axes() const { return axes_; }

 private:
  LoadAxes axes_;
  ResourceInts factors_;
  bool allow_customize_ = false;
};

}  // namespace troupe::plugins::load_aware
