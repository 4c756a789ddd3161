#include "plugins/framework/cluster_pods.hpp"

#include <algorithm>

#include "plugins/framework/node_info.hpp"

namespace troupe::plugins {

void ClusterPods::upsert_node(std::shared_ptr<const Node> node) {
  const std::string name = node->meta.name;
  auto& entry = nodes_[name];
  if (entry.node) {
    domains_.remove_node(entry.node->meta.labels);
  } else {
    ++known_nodes_;
  }
  domains_.add_node(node->meta.labels);
  entry.node = std::move(node);
  ++generation_;
  ++terms_generation_;
}

void ClusterPods::remove_node(const std::string& name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end()) return;
  if (it->second.node) {
    domains_.remove_node(it->second.node->meta.labels);
    --known_nodes_;
  }
  it->second.node = nullptr;
  // Pods that still name the node stay until they are deleted (as a node
  // deleted before its pods): they count for no domain meanwhile.
  forget_empty(name);
  ++generation_;
  ++terms_generation_;
}

void ClusterPods::add_pod(std::shared_ptr<const PodInfo> pod, const std::string& node) {
  remove_pod(pod_identity(*pod));
  place(std::move(pod), node, false);
}

void ClusterPods::assume_pod(std::shared_ptr<const PodInfo> pod, const std::string& node) {
  assume(std::move(pod), node, false);
}

void ClusterPods::assume_nominated(std::shared_ptr<const PodInfo> placeholder, const std::string& node) {
  assume(std::move(placeholder), node, true);
}

void ClusterPods::assume(std::shared_ptr<const PodInfo> pod, const std::string& node, bool nominated) {
  auto known = placed_.find(std::string(pod_identity(*pod)));
  if (known != placed_.end() && !known->second.assumed) return;
  remove_pod(pod_identity(*pod));
  if (nominated) nominated_.insert(pod.get());
  place(std::move(pod), node, true);
}

void ClusterPods::forget_assumed(std::string_view uid) {
  auto known = placed_.find(std::string(uid));
  if (known != placed_.end() && known->second.assumed) remove_pod(uid);
}

void ClusterPods::place(std::shared_ptr<const PodInfo> pod, const std::string& node, bool assumed) {
  placed_.emplace(std::string(pod_identity(*pod)), Placement{node, assumed});
  auto& entry = nodes_[node];
  if (has_pod_affinity_terms(*pod->pod)) {
    ++with_terms_;
    ++terms_generation_;
    entry.pods_with_terms.push_back(pod);
  }
  by_label_.add(*pod, entry);
  terms_by_label_.add(*pod, entry);
  if (!is_nominated(*pod)) count_claims(*pod, true);
  entry.pods.push_back(std::move(pod));
  ++generation_;
}

void ClusterPods::count_claims(const PodInfo& pod, bool placed) {
  for (const PodVolumeClaim& claim : pod.spec().volume_claims) {
    if (claim.ephemeral) continue;
    const std::string key = pod.meta().namespace_name + "/" + claim.claim_name;
    if (placed) {
      ++claim_users_[key];
    } else if (auto it = claim_users_.find(key); it != claim_users_.end() && --it->second == 0) {
      claim_users_.erase(it);
    }
  }
}

size_t ClusterPods::claim_users(const std::string& claim_key) const {
  auto it = claim_users_.find(claim_key);
  return it == claim_users_.end() ? 0 : it->second;
}

bool ClusterPods::has_pod_on(std::string_view uid, const std::string& node) const {
  auto at = placed_.find(std::string(uid));
  return at != placed_.end() && at->second.node == node;
}

bool ClusterPods::remove_pod(std::string_view uid) {
  auto at = placed_.find(std::string(uid));
  if (at == placed_.end()) return false;
  const std::string node = at->second.node;
  placed_.erase(at);
  auto& entry = nodes_[node];
  auto same = [&](const auto& p) { return pod_identity(*p) == uid; };
  if (auto it = std::find_if(entry.pods_with_terms.begin(), entry.pods_with_terms.end(), same);
      it != entry.pods_with_terms.end()) {
    entry.pods_with_terms.erase(it);
    --with_terms_;
    ++terms_generation_;
  }
  // Last: `uid` may view the uid of the pod erased here.
  if (auto it = std::find_if(entry.pods.begin(), entry.pods.end(), same); it != entry.pods.end()) {
    by_label_.remove(**it);
    terms_by_label_.remove(**it);
    if (!is_nominated(**it)) count_claims(**it, false);
    nominated_.erase(it->get());
    entry.pods.erase(it);
  }
  forget_empty(node);
  ++generation_;
  return true;
}

void ClusterPods::track_topology_key(const std::string& key) {
  domains_.track(key, [&](const auto& visit) {
    for (const auto& [name, entry] : nodes_)
      if (entry.node) visit(entry.node->meta.labels);
  });
}

void ClusterPods::forget_empty(const std::string& name) {
  auto it = nodes_.find(name);
  if (it != nodes_.end() && it->second.node == nullptr && it->second.pods.empty()) nodes_.erase(it);
}

bool has_pod_affinity_terms(const Pod& pod) {
  const auto& affinity = pod.spec.affinity;
  if (!affinity) return false;
  auto any = [](const std::optional<PodAffinity>& a) {
    return a && (!a->required.empty() || !a->preferred.empty());
  };
  return any(affinity->pod_affinity) || any(affinity->pod_anti_affinity);
}

bool places_by_other_pods(const Pod& pod) {
  return !pod.spec.topology_spread_constraints.empty() || has_pod_affinity_terms(pod);
}

bool placement_reads_other_pods(const Pod& pod, const ClusterPods& cluster) {
  return places_by_other_pods(pod) || cluster.pods_with_affinity_terms() > 0;
}

uint64_t version_seen_by(const Pod& pod, const ClusterPods& cluster) {
  return 1 + (places_by_other_pods(pod) ? cluster.generation() : cluster.terms_generation());
}

}  // namespace troupe::plugins
