#pragma once
// The label and annotation keys of Koordinator's reservation API
// (apis/extension/reservation.go, pkg/util/reservation/reservation.go), and
// the status strings of the Reservation CRD.

namespace troupe::plugins::reservation {

// --- the reserve pod (a Reservation seen as a pod) ---
inline constexpr const char* kAnnotationReservePod = "scheduling.koordinator.sh/reserve-pod";
inline constexpr const char* kAnnotationReservationName = "scheduling.koordinator.sh/reservation-name";
inline constexpr const char* kAnnotationReservationNode = "scheduling.koordinator.sh/reservation-node";
inline constexpr const char* kAnnotationIsPreAllocation = "scheduling.koordinator.sh/is-pre-allocation";
/// troupe's own: the reservation's spec.allocatePolicy carried on its reserve
/// pod, so Filter can check policy conflicts without a Reservation lister.
inline constexpr const char* kAnnotationReserveAllocatePolicy =
    "internal.scheduling.koordinator.sh/reservation-allocate-policy";
/// The fake container whose requests carry status.allocatable once Available.
inline constexpr const char* kFakeContainerName = "__internal_fake_container__";
/// Label read for the reserve pod's priority when the template sets none.
inline constexpr const char* kLabelPodPriority = "koordinator.sh/priority";

// --- the pod-side API ---
inline constexpr const char* kAnnotationReservationAffinity = "scheduling.koordinator.sh/reservation-affinity";
inline constexpr const char* kAnnotationExactMatchReservation = "scheduling.koordinator.sh/exact-match-reservation";
inline constexpr const char* kAnnotationReservationAllocated = "scheduling.koordinator.sh/reservation-allocated";
inline constexpr const char* kLabelReservationIgnored = "scheduling.koordinator.sh/reservation-ignored";
inline constexpr const char* kLabelReservationOrder = "scheduling.koordinator.sh/reservation-order";
inline constexpr const char* kLabelDisablePreemptible = "scheduling.koordinator.sh/disable-preemptible";

// --- Reservation status ---
inline constexpr const char* kPhasePending = "Pending";
inline constexpr const char* kPhaseWaiting = "Waiting";
inline constexpr const char* kPhaseAvailable = "Available";
inline constexpr const char* kPhaseSucceeded = "Succeeded";
inline constexpr const char* kPhaseFailed = "Failed";
inline constexpr const char* kConditionScheduled = "Scheduled";
inline constexpr const char* kConditionReady = "Ready";
inline constexpr const char* kReasonExpired = "Expired";
inline constexpr const char* kReasonSucceeded = "Succeeded";
inline constexpr const char* kReasonAvailable = "Available";

// --- spec.allocatePolicy ---
inline constexpr const char* kAllocatePolicyDefault = "";
inline constexpr const char* kAllocatePolicyAligned = "Aligned";
inline constexpr const char* kAllocatePolicyRestricted = "Restricted";

/// The unschedulable taint a pod's reservation affinity must tolerate to use
/// a reservation with spec.unschedulable.
inline constexpr const char* kTaintUnschedulable = "node.kubernetes.io/unschedulable";

}  // namespace troupe::plugins::reservation
