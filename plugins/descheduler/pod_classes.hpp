#pragma once
// How the descheduler ranks a pod (Koordinator apis/extension priority.go,
// qos.go, constants.go): the Koordinator priority class and QoS class with
// their defaults, and the two cost annotations victims are ordered by.

#include <cstdint>

#include "model/pod.hpp"
#include "model/pod_requests.hpp"

namespace troupe::plugins::descheduler {

/// Declared in eviction order: free pods go first, unclassified pods last.
enum class KoordPriorityClass { free, batch, mid, prod, none };
/// BE < LS < LSR < LSE = SYSTEM < none, as the victim sorter ranks them.
enum class KoordQos { be, ls, lsr, lse, system, none };

inline constexpr const char* kPriorityClassLabel = "koordinator.sh/priority-class";
inline constexpr const char* kQosClassLabel = "koordinator.sh/qosClass";
inline constexpr const char* kEvictionCostAnnotation = "scheduling.koordinator.sh/eviction-cost";
inline constexpr const char* kDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost";

/// GetPodQoSClassWithDefault: the qosClass label (LSE, LSR, LS, BE, SYSTEM;
/// anything else is none); unlabelled pods map Guaranteed->LSR,
/// Burstable->LS, BestEffort->BE.
KoordQos koord_qos(const Pod& pod);
/// The same, given the pod's Kubernetes QoS (pod_qos) already worked out:
/// the victim sorter needs both and pod_qos walks every container.
KoordQos koord_qos(const Pod& pod, QosClass k8s_qos);

/// GetPodPriorityClassWithDefault: the priority-class label
/// (koord-prod/mid/batch/free), else spec.priority's band
/// ([9000,9999] prod, [7000,7999] mid, [5000,5999] batch, [3000,3999] free),
/// else from the QoS: SYSTEM/LSE/LSR/LS -> prod, BE -> batch.
KoordPriorityClass koord_priority_class(const Pod& pod);
/// The same, given the pod's koord_qos already worked out.
KoordPriorityClass koord_priority_class(const Pod& pod, KoordQos qos);

/// The QoS's rank in eviction order (LSE and SYSTEM share one rank).
int qos_rank(KoordQos qos);

/// The annotation as an int32; absent or malformed reads as 0, as
/// Koordinator and the ReplicaSet controller read them.
int32_t eviction_cost(const Pod& pod);
int32_t deletion_cost(const Pod& pod);

const char* to_string(KoordPriorityClass priority_class);

}  // namespace troupe::plugins::descheduler
