#pragma once
// ClusterPods: every pod assigned to a node (bound, or assumed by this
// scheduler's Reserve), grouped by node, beside the node objects. It is the
// cluster-wide view that InterPodAffinity and PodTopologySpread read at
// PreFilter and PreScore: they count pods per topology domain (a zone, a
// rack), and a domain spans many node partitions, which no single partition
// can see.
//
// The cycle actor owns the one instance and changes it between attempts
// (watch events, its own Reserve and Unreserve). It hands it to a cycle as a
// shared input only when the pod's placement depends on other pods
// (placement_reads_other_pods), so the other pods' classes stay cacheable
// (actors/evaluation_cache.hpp). Filter and Score never read it: PreFilter
// and PreScore copy what they need into the CycleState, which stays
// immutable while the partitions filter.
//
// Indexes spare PodTopologySpread and InterPodAffinity a walk over every
// node per pod: the placed pods by label (PodsByLabel), their affinity terms
// by the label values they select (TermsByLabel) and, for the topology keys
// asked for, the nodes per label value (NodeDomains).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/node.hpp"
#include "plugins/framework/node_domains.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/framework/pods_by_label.hpp"
#include "plugins/framework/terms_by_label.hpp"

namespace troupe::plugins {

class ClusterPods {
 public:
  struct NodeEntry {
    std::shared_ptr<const Node> node;  // nullptr while pods name a node not seen yet
    std::vector<std::shared_ptr<const PodInfo>> pods;
    /// The pods here with pod (anti-)affinity terms: all that a pod without
    /// terms of its own needs to look at (upstream's PodsWithAffinity).
    std::vector<std::shared_ptr<const PodInfo>> pods_with_terms;
  };

  ClusterPods() = default;
  // The label index points into nodes_: a copy would point into the original's.
  ClusterPods(const ClusterPods&) = delete;
  ClusterPods& operator=(const ClusterPods&) = delete;
  ClusterPods(ClusterPods&&) = default;
  ClusterPods& operator=(ClusterPods&&) = default;

  void upsert_node(std::shared_ptr<const Node> node);
  void remove_node(const std::string& name);
  /// A pod the API server shows bound (the informer): replaces any copy,
  /// assumed or not, with the same uid.
  void add_pod(std::shared_ptr<const PodInfo> pod, const std::string& node);
  /// A pod this scheduler reserved and has not seen bound yet (upstream's
  /// AssumePod). Nothing changes when the pod is already known bound.
  void assume_pod(std::shared_ptr<const PodInfo> pod, const std::string& node);
  /// The placeholder of a nominated pod, which holds its room on the
  /// nominated node: assumed as assume_pod, and marked so that Score leaves
  /// it out (upstream adds nominated pods in Filter only).
  void assume_nominated(std::shared_ptr<const PodInfo> placeholder, const std::string& node);
  /// Undoes assume_pod after a failure; a pod known bound stays (upstream's
  /// ForgetPod): the API server, not the failed request, says where it is.
  void forget_assumed(std::string_view uid);
  /// The pod is deleted or finished. False when no pod with this uid is known.
  bool remove_pod(std::string_view uid);

  const std::unordered_map<std::string, NodeEntry>& nodes() const { return nodes_; }
  /// The nodes whose object is known (entries with a node).
  size_t known_nodes() const { return known_nodes_; }
  /// The placed pods by namespace and label, each with its entry in nodes().
  const PodsByLabel<NodeEntry>& pods_by_label() const { return by_label_; }
  /// The placed pods' affinity terms by the label values they select.
  const TermsByLabel<NodeEntry>& terms_by_label() const { return terms_by_label_; }
  /// The known nodes per value of the topology keys kept (track_topology_key).
  const NodeDomains& domains() const { return domains_; }
  /// Keeps `key`'s values in domains() from now on. Changes nothing a pod
  /// can see, so no generation moves.
  void track_topology_key(const std::string& key);
  /// Whether the pod with this uid is counted on `node` (bound or assumed there).
  bool has_pod_on(std::string_view uid, const std::string& node) const;
  /// The pod is placed, assumed or held as a nomination placeholder somewhere.
  bool has_pod(std::string_view uid) const { return placed_.count(std::string(uid)) > 0; }
  size_t pod_count() const { return placed_.size(); }
  /// How many placed pods use the claim "<namespace>/<name>" through a
  /// persistentVolumeClaim volume (upstream's PVCRefCounts, cluster-wide;
  /// nominations' placeholders are not counted): what VolumeRestrictions'
  /// ReadWriteOncePod check reads.
  size_t claim_users(const std::string& claim_key) const;
  /// Whether the pod is a nomination's placeholder (assume_nominated).
  bool is_nominated(const PodInfo& pod) const { return !nominated_.empty() && nominated_.count(&pod) > 0; }
  /// Pods with any pod (anti-)affinity term, required or preferred: while
  /// there are none, a pod without terms of its own needs no InterPodAffinity.
  size_t pods_with_affinity_terms() const { return with_terms_; }
  /// Bumped on every change: a cycle shares the view under this version.
  uint64_t generation() const { return generation_; }
  /// Bumped when a pod with affinity terms comes or goes, or a node changes:
  /// all a pod without terms or constraints of its own can see of the view,
  /// so its pods keep one class (and cached verdicts) while plain pods come and go.
  uint64_t terms_generation() const { return terms_generation_; }

 private:
  struct Placement {
    std::string node;
    bool assumed = false;
  };
  std::unordered_map<std::string, NodeEntry> nodes_;
  std::unordered_map<std::string, Placement> placed_;  // by uid
  PodsByLabel<NodeEntry> by_label_;
  TermsByLabel<NodeEntry> terms_by_label_;
  std::unordered_set<const PodInfo*> nominated_;  // placeholders, among the placed pods
  std::unordered_map<std::string, size_t> claim_users_;  // "ns/claim" → placed pods using it
  NodeDomains domains_;
  size_t known_nodes_ = 0;
  size_t with_terms_ = 0;
  uint64_t generation_ = 0;
  uint64_t terms_generation_ = 0;
  void place(std::shared_ptr<const PodInfo> pod, const std::string& node, bool assumed);
  void assume(std::shared_ptr<const PodInfo> pod, const std::string& node, bool nominated);
  void forget_empty(const std::string& name);
  void count_claims(const PodInfo& pod, bool placed);
};

/// The pod has podAffinity or podAntiAffinity terms (required or preferred).
bool has_pod_affinity_terms(const Pod& pod);

/// The pod has spread constraints or pod (anti-)affinity terms of its own.
bool places_by_other_pods(const Pod& pod);

/// Whether InterPodAffinity or PodTopologySpread may need the cluster's pods
/// to place `pod`: it has constraints or terms of its own, or some placed pod
/// has terms that may point at it.
bool placement_reads_other_pods(const Pod& pod, const ClusterPods& cluster);

/// The version of `cluster` as `pod` sees it: the whole generation for a pod
/// that places by other pods, else terms_generation. Never 0 (0 = no input).
uint64_t version_seen_by(const Pod& pod, const ClusterPods& cluster);

}  // namespace troupe::plugins
