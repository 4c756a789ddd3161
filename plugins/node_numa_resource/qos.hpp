#pragma once
// Koordinator's QoS and priority classes (apis/extension/qos.go,
// priority.go and their *_utils.go) and who may be given a cpuset.

#include <cstdint>
#include <optional>
#include <string_view>

#include "model/pod.hpp"

namespace troupe::plugins::numa {

inline constexpr const char* kLabelQosClass = "koordinator.sh/qosClass";
inline constexpr const char* kLabelPriorityClass = "koordinator.sh/priority-class";
inline constexpr const char* kLabelPriority = "koordinator.sh/priority";

enum class KoordQos { none, lse, lsr, ls, be, system };
enum class KoordPriorityClass { none, prod, mid, batch, free };

/// The koordinator.sh/qosClass label; any other value (or none) is `none`.
KoordQos pod_qos_raw(const Pod& pod);
/// The label, else from the Kubernetes QoS class: Guaranteed -> LSR,
/// Burstable -> LS, BestEffort -> BE.
KoordQos pod_qos_with_default(const Pod& pod);
std::string_view to_string(KoordQos qos);
KoordQos parse_koord_qos(std::string_view text);

/// koord-prod [9000,9999], koord-mid [7000,7999], koord-batch [5000,5999],
/// koord-free [3000,3999]; anything else none.
KoordPriorityClass priority_class_of(int32_t priority);
/// The koordinator.sh/priority-class label when it names a class, else by
/// spec.priority (none when unset).
KoordPriorityClass pod_priority_class_raw(const Pod& pod);
/// pod_priority_class_raw, defaulting by QoS (with default): SYSTEM, LSE,
/// LSR, LS -> prod; BE -> batch.
KoordPriorityClass pod_priority_class_with_default(const Pod& pod);
std::string_view to_string(KoordPriorityClass priority_class);
/// The class's default priority value (prod 9500, mid 7500, batch 5500,
/// free 3500; 0 for none).
int32_t default_priority_value(KoordPriorityClass priority_class);
/// The koordinator.sh/priority sub-priority label; nullopt when absent or not an integer.
std::optional<int32_t> pod_sub_priority(const Pod& pod);

/// AllowUseCPUSet: only pods *labelled* LSE or LSR whose priority class
/// (with default) is koord-prod may be given a cpuset.
bool allow_use_cpuset(const Pod& pod);

}  // namespace troupe::plugins::numa
