#pragma once
// Which label and annotation keys of the pod being placed troupe's Filter and
// Score plugins (and the PreFilter and PreScore state they read) may look up
// by name. A pod's scheduling class keeps only these (and, of labels, those a
// selector names: class_labels.hpp), so that labels and annotations that tell
// one pod of a workload from another (an indexed Job's
// batch.kubernetes.io/job-completion-index, a LeaderWorkerSet's worker index)
// do not give each pod a class of its own.
//
// Every such key troupe reads is of Koordinator's or the scheduler-plugins'
// domains: koordinator.sh and scheduling.sigs.k8s.io, and their subdomains
// (the resource-spec, device and reservation annotations, the gang and
// pod-group labels and annotations, the QoS label, the scheduling hint).
// Two exceptions leave keys out:
//  - the rest of sigs.k8s.io, whose projects label pods one by one (a
//    LeaderWorkerSet's leaderworkerset.sigs.k8s.io/worker-index, a JobSet's
//    jobset.sigs.k8s.io/job-index): troupe reads none of them;
//  - ElasticQuota's quota.scheduling.koordinator.sh: the pod's quota and
//    whether it is preemptible decide PreFilter's verdict on the pod, before
//    any node is evaluated; no Filter or Score reads them, so the pods of one
//    template in many quotas share a class.
// A plugin that comes to read another key of the pending pod per node must
// widen this rule; test/plugins/class_labels_test.cpp lists the keys read
// today and checks each is kept.

#include <string_view>

namespace troupe::plugins {

/// Whether some Filter or Score may read a pod's label or annotation of this
/// key by name (see above); a key with or without a prefix.
bool key_read_by_name(std::string_view key);

}  // namespace troupe::plugins
