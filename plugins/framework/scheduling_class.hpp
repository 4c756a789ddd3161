#pragma once
// SchedulingClass: the part of a pod that Filter and Score may read, as one
// canonical key. Two pods of one ReplicaSet or Job differ only in name, uid
// and timestamps, so they share a class, and on a node whose results do not
// depend on the pod's identity (NodeInfo::results_depend_on_pod_identity) they
// get the same verdict and the same raw scores. The node partitions use this
// to reuse a node's evaluation for the next pod of the class while the node
// has not changed (actors/evaluation_cache.hpp).
//
// What the key keeps: namespace, labels, annotations, owner references,
// deletion timestamp, the whole spec except nodeName (with the names of the
// claims its volumes use), and status phase, nominatedNodeName and qosClass. What it drops: name, generateName, uid,
// resourceVersion, generation, creationTimestamp, finalizers, status
// conditions and startTime — none of which a Filter or Score plugin reads
// (plugins read the decoded view only, never the raw JSON).

#include <cstdint>
#include <memory>
#include <string>

#include "model/pod.hpp"

namespace troupe::plugins {

struct SchedulingClass {
  uint64_t hash = 0;
  /// The canonical text, shared by the classes of one pod under other inputs.
  std::shared_ptr<const std::string> key;
  /// CycleState::inputs_version of the cycle: plugins read those inputs too
  /// (e.g. DeviceShare's learned task classes), so a pod scored under other
  /// inputs is of another class.
  uint64_t inputs_version = 0;
  /// CycleState::filter_inputs_version of the cycle: the part of the inputs
  /// Filter plugins read.
  uint64_t filter_inputs_version = 0;

  bool operator==(const SchedulingClass& other) const {
    return hash == other.hash && inputs_version == other.inputs_version &&
           filter_inputs_version == other.filter_inputs_version && same_key(other);
  }
  /// The same pod under inputs that differ at most where no Filter reads:
  /// Filter's verdicts for one are the other's.
  bool same_filter_inputs(const SchedulingClass& other) const {
    return filter_inputs_version == other.filter_inputs_version && same_key(other);
  }
  bool same_key(const SchedulingClass& other) const {
    return key == other.key || (key && other.key && *key == *other.key);
  }
};

/// The class of `pod` (a copy of the fields above, encoded as JSON) in a
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

}  // namespace troupe::plugins
