#pragma once
// The labels a pod's scheduling class keeps in the scheduling cycle: only
// those some Filter or Score may read.
//
// Why: the pods of a StatefulSet or an indexed Job each carry a label of their
// own (statefulset.kubernetes.io/pod-name, batch.kubernetes.io/job-completion-index,
// a training job's replica index), and the pods of one template under several
// workloads carry the workloads' names; with every label in the class, each is
// a class of its own and the evaluation cache never serves them
// (docs/benchmarks.md, Session 31: ten label values cost 0.41 CPU ms per pod
// against 0.26).
//
// What may read a pod's label while it is placed:
//  - a selector that may select the pod: the placed pods' affinity terms
//    (TermsByLabel::selected_keys), the Services' and controllers' selectors
//    behind default spreading (WorkloadSelectors::selected_keys), and the
//    pod's own affinity terms and spread constraints, which select the pod
//    itself and take their matchLabelKeys' and mismatchLabelKeys' values from
//    its labels;
//  - a plugin that reads a label by name (keys_read_by_name.hpp).
// Reservations' owner selectors read labels too, but never where the cache
// serves: a node holding reservations is never cached
// (NodeInfo::results_depend_on_pod_identity), and what the reservations a pod
// may use change elsewhere reaches the class as versioned inputs (the reserve
// pods put aside from ClusterPods, the reservation-affinity nodes).
//
// The text names the two key sets' generations, so classes narrowed under
// other key sets are other classes.

#include <memory>
#include <string>

#include "model/pod.hpp"
#include "plugins/framework/label_key_counts.hpp"
#include "plugins/framework/scheduling_class.hpp"

namespace troupe::plugins {

/// The label keys selectors of the cluster name.
struct SelectedLabelKeys {
  const LabelKeyCounts& placed_terms;
  const LabelKeyCounts& workloads;
};

/// The labels of `pod` some Filter or Score may read (see above), as
/// SchedulingClass::labels text.
std::string labels_read(const Pod& pod, const SelectedLabelKeys& selected);

/// `base`, a class of `pod`, keeping only labels_read(pod, selected).
std::shared_ptr<const SchedulingClass> with_labels_read(std::shared_ptr<const SchedulingClass> base, const Pod& pod,
                                                        const SelectedLabelKeys& selected);

}  // namespace troupe::plugins
