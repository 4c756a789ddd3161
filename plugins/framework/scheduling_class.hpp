#pragma once
// SchedulingClass: the part of a pod that Filter and Score may read, as one
// canonical key. Two pods of one ReplicaSet or Job differ only in name, uid
// and timestamps, so they share a class, and on a node whose results do not
// depend on the pod's identity (NodeInfo::results_depend_on_pod_identity) they
// get the same verdict and the same raw scores. The node partitions use this
// to reuse a node's evaluation for the next pod of the class while the node
// has not changed (actors/evaluation_cache.hpp).
//
// What the key keeps: namespace, the annotations some Filter or Score may
// read (plugins/framework/keys_read_by_name.hpp), the owner references some
// plugin reads (a DaemonSet's, a controller's that default spreading looks
// up; without uids), deletion timestamp, the whole spec except nodeName
// (with the names of the claims its volumes use), and status phase,
// nominatedNodeName and qosClass. What it drops: name, generateName, uid,
// resourceVersion, generation, creationTimestamp, finalizers, other
// annotations and owner references, status conditions and startTime — none
// of which a Filter or Score plugin reads (plugins read the decoded view
// only, never the raw JSON). The labels are kept apart (`labels`): all of
// them in the queue's class, and in the cycle's only those something may
// read (plugins/framework/class_labels.hpp).

#include <cstdint>
#include <memory>
#include <string>

#include "model/pod.hpp"

namespace troupe::plugins {

struct SchedulingClass {
  uint64_t hash = 0;
  /// The canonical text but the labels, shared by the classes of one pod
  /// under other inputs or other labels kept.
  std::shared_ptr<const std::string> key;
  uint64_t key_hash = 0;
  /// The labels kept, as text.
  std::string labels;
  /// Of key and labels; `hash` mixes the inputs version in.
  uint64_t content_hash = 0;
  /// CycleState::inputs_version of the cycle: plugins read those inputs too
  /// (e.g. DeviceShare's learned task classes), so a pod scored under other
  /// inputs is of another class.
  uint64_t inputs_version = 0;
  /// CycleState::filter_inputs_version of the cycle: the part of the inputs
  /// Filter plugins read.
  uint64_t filter_inputs_version = 0;

  bool operator==(const SchedulingClass& other) const {
    return hash == other.hash && inputs_version == other.inputs_version &&
           filter_inputs_version == other.filter_inputs_version && same_text(other);
  }
  /// The same pod under inputs that differ at most where no Filter reads:
  /// Filter's verdicts for one are the other's.
  bool same_filter_inputs(const SchedulingClass& other) const {
    return filter_inputs_version == other.filter_inputs_version && content_hash == other.content_hash &&
           same_text(other);
  }
  bool same_text(const SchedulingClass& other) const {
    return labels == other.labels && (key == other.key || (key && other.key && *key == *other.key));
  }
};

/// The class of `pod` (a copy of the fields above, encoded as JSON, and all its labels) in a
/// cycle whose CycleState::inputs_version is `inputs_version` and whose
/// filter_inputs_version is `filter_inputs_version` (the same by default:
/// every input read by Filter).
std::shared_ptr<const SchedulingClass> scheduling_class_of(const Pod& pod, uint64_t inputs_version = 0);
std::shared_ptr<const SchedulingClass> scheduling_class_of(const Pod& pod, uint64_t inputs_version,
                                                           uint64_t filter_inputs_version);

/// The same pod's class in a cycle whose inputs_version is `inputs_version`:
/// `base` itself when the version is the same, else a class sharing its key
/// text. The QUEUE computes a pod's class once (version 0); the cycle learns
/// the version only when it attempts the pod.
std::shared_ptr<const SchedulingClass> with_inputs_version(std::shared_ptr<const SchedulingClass> base,
                                                           uint64_t inputs_version);
std::shared_ptr<const SchedulingClass> with_inputs_version(std::shared_ptr<const SchedulingClass> base,
                                                           uint64_t inputs_version, uint64_t filter_inputs_version);

/// `base` with `labels` (text) as the labels it keeps.
std::shared_ptr<const SchedulingClass> with_labels(std::shared_ptr<const SchedulingClass> base, std::string labels);

}  // namespace troupe::plugins
