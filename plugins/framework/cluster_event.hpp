#pragma once
// Cluster events that can make a rejected pod schedulable (kube-scheduler's
// ClusterEvent / EnqueueExtensions): the queue moves an unschedulable pod
// back when an event one of its rejecting plugins registered happens.

#include <cstdint>
#include <string_view>

namespace troupe::plugins {

/// `storage`: PersistentVolumeClaims, PersistentVolumes and StorageClasses.
enum class EventResource : uint8_t { pod, node, other, storage };

/// Bit flags, as framework.ActionType.
enum ActionType : uint32_t {
  kAdd = 1u << 0,
  kDelete = 1u << 1,
  kUpdateNodeAllocatable = 1u << 2,
  kUpdateNodeLabel = 1u << 3,
  kUpdateNodeTaint = 1u << 4,
  kUpdateNodeCondition = 1u << 5,
  kUpdateNodeAnnotation = 1u << 6,
  kUpdatePodLabel = 1u << 7,
  kUpdatePodScaleDown = 1u << 8,
  kUpdatePodTolerations = 1u << 9,
  kUpdatePodSchedulingGatesEliminated = 1u << 10,
  kUpdatePodGeneratedResourceClaim = 1u << 11,
  kUpdateOther = 1u << 12,  // any other update of the resource
  kUpdate = kUpdateNodeAllocatable | kUpdateNodeLabel | kUpdateNodeTaint | kUpdateNodeCondition |
            kUpdateNodeAnnotation | kUpdatePodLabel | kUpdatePodScaleDown | kUpdatePodTolerations |
            kUpdatePodSchedulingGatesEliminated | kUpdatePodGeneratedResourceClaim | kUpdateOther,
  kAll = kAdd | kDelete | kUpdate,
};

struct ClusterEvent {
  EventResource resource = EventResource::other;
  uint32_t actions = 0;
  std::string_view label;  // for logs and metrics, e.g. "NodeAdd"; static storage

  /// True when `happened` (one concrete event) is covered by this registration.
  bool matches(const ClusterEvent& happened) const {
    return resource == happened.resource && (actions & happened.actions) != 0;
  }
};

}  // namespace troupe::plugins
