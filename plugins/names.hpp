#pragma once
// Plugin names as they appear in KubeSchedulerConfiguration (kube-scheduler's
// plugins/names/names.go, Koordinator's plugin constants).

namespace troupe::plugins::names {

inline constexpr const char* kSchedulingGates = "SchedulingGates";
inline constexpr const char* kPrioritySort = "PrioritySort";
inline constexpr const char* kNodeName = "NodeName";
inline constexpr const char* kNodeUnschedulable = "NodeUnschedulable";
inline constexpr const char* kNodePorts = "NodePorts";
inline constexpr const char* kVolumeBinding = "VolumeBinding";
inline constexpr const char* kNodeVolumeLimits = "NodeVolumeLimits";
inline constexpr const char* kVolumeZone = "VolumeZone";
inline constexpr const char* kVolumeRestrictions = "VolumeRestrictions";
inline constexpr const char* kNodeAffinity = "NodeAffinity";
inline constexpr const char* kTaintToleration = "TaintToleration";
inline constexpr const char* kNodeResourcesFit = "NodeResourcesFit";
inline constexpr const char* kNodeResourcesBalancedAllocation = "NodeResourcesBalancedAllocation";
inline constexpr const char* kImageLocality = "ImageLocality";
inline constexpr const char* kDefaultBinder = "DefaultBinder";
// Koordinator v1.6.
inline constexpr const char* kNodeResourcesFitPlus = "NodeResourcesFitPlus";
inline constexpr const char* kScarceResourceAvoidance = "ScarceResourceAvoidance";
inline constexpr const char* kLoadAwareScheduling = "LoadAwareScheduling";
inline constexpr const char* kDefaultPreBind = "DefaultPreBind";

}  // namespace troupe::plugins::names
