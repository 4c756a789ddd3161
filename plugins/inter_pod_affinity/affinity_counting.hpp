#pragma once
// How InterPodAffinity counts the placed pods its terms select, per topology
// domain, over ClusterPods. Two ways that give the same counts:
//  - by walk: every node and every pod placed there (upstream's way);
//  - by index: for the pod's own terms, only the pods labelled as a term
//    requires (ClusterPods::pods_by_label); for the placed pods' terms, only
//    those filed under one of the pod's labels or under none
//    (ClusterPods::terms_by_label). It applies when each of the pod's own
//    terms that counts looks in listed namespaces (not every namespace) and
//    requires some label values (matchLabels or an In expression).
// count_for_filter and score_topologies (inter_pod_affinity.hpp) take the
// index when it applies and walk otherwise;
// test/plugins/inter_pod_affinity/affinity_counting_test.cpp compares the two
// on random clusters.

#include <optional>
#include <string>

#include "plugins/framework/cluster_pods.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"

namespace troupe::plugins::affinity {

AffinityFilterCounts count_for_filter_by_walk(const Pod& pod, PodTerms terms, const ClusterPods& cluster,
                                              const Labels& namespace_labels);
std::optional<AffinityFilterCounts> count_for_filter_by_index(const Pod& pod, const PodTerms& terms,
                                                              const ClusterPods& cluster,
                                                              const Labels& namespace_labels);

TopologyScores score_topologies_by_walk(const Pod& pod, const PodTerms& terms, const ClusterPods& cluster,
                                        const InterPodAffinityArgs& args, const Labels& namespace_labels);
std::optional<TopologyScores> score_topologies_by_index(const Pod& pod, const PodTerms& terms,
                                                        const ClusterPods& cluster, const InterPodAffinityArgs& args,
                                                        const Labels& namespace_labels);

/// The node label's value; nullptr when the node lacks the key.
const std::string* label_of(const Labels& labels, const std::string& key);
/// A placed pod's terms, resolved leniently when its PodInfo was made (pod_info.hpp).
const PodTerms& terms_of_placed(const PodInfo& pod);

}  // namespace troupe::plugins::affinity
