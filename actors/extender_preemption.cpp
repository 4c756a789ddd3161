#include "actors/extender_preemption.hpp"

#include <spdlog/spdlog.h>

#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::actors {

namespace {

namespace pre = plugins::preemption;

std::shared_ptr<const plugins::PodInfo> find_pod(const std::vector<std::shared_ptr<const plugins::PodInfo>>& pods,
                                                 const std::string& uid) {
  for (const auto& pod : pods)
    if (plugins::pod_identity(*pod) == uid) return pod;
  return nullptr;
}

/// The map an extender receives: uids always, whole pods for one that is not nodeCacheCapable.
std::map<std::string, watch::PreemptionVictims> wire_victims(const VictimsByNode& victims, bool with_pods) {
  std::map<std::string, watch::PreemptionVictims> out;
  for (const auto& [node, node_victims] : victims) {
    auto& wire = out[node];
    wire.num_pdb_violations = node_victims.num_pdb_violations;
    for (const auto& pod : node_victims.pods) {
      wire.pod_uids.emplace_back(plugins::pod_identity(*pod));
      if (with_pods) wire.pod_jsons.push_back(encode(*pod->pod));
    }
  }
  return out;
}

/// One extender's ProcessPreemption: its answer resolved to pods, or its error.
Result<VictimsByNode> ask(const Extenders::Entry& extender, const std::string& pod_json, const VictimsByNode& victims,
                          const CandidateNodePods& pods) {
  const auto& config = extender.config;
  auto body = watch::extender_preemption_args_json(pod_json, wire_victims(victims, !config.node_cache_capable),
                                                   config.node_cache_capable);
  auto answer = extender.client->preempt(config.preempt_verb, body);
  if (!answer) return Error{answer.message()};
  return victims_from_answer(*answer, victims, pods, config.url_prefix);
}

}  // namespace

CandidateNodePods pods_on_candidates(const plugins::ClusterPods& cluster, const std::vector<pre::Candidate>& candidates) {
  CandidateNodePods out;
  for (const auto& candidate : candidates) {
    auto& pods = out[candidate.node];
    if (auto it = cluster.nodes().find(candidate.node); it != cluster.nodes().end())
      for (const auto& pod : it->second.pods)
        if (!cluster.is_nominated(*pod) && !plugins::reservation::is_reserve_pod(pod->meta())) pods.push_back(pod);
    for (const auto& victim : candidate.victims.pods)
      if (!find_pod(pods, std::string(plugins::pod_identity(*victim)))) pods.push_back(victim);
  }
  return out;
}

Result<VictimsByNode> victims_from_answer(const std::map<std::string, watch::MetaVictims>& answer,
                                          const VictimsByNode& asked, const CandidateNodePods& pods,
                                          const std::string& extender_url) {
  VictimsByNode out;
  for (const auto& [node, meta] : answer) {
    auto on_node = pods.find(node);
    if (asked.count(node) == 0 || on_node == pods.end())
      return Error{"extender: " + extender_url + " claims node \"" + node +
                   "\", which is not one of the nodes it was given for preemption"};
    auto& victims = out[node];
    victims.num_pdb_violations = meta.num_pdb_violations;
    for (const auto& uid : meta.pod_uids) {
      auto pod = find_pod(on_node->second, uid);
      if (!pod)
        return Error{"extender: " + extender_url + " claims to preempt pod (UID: " + uid + ") on node: " + node +
                     ", but the pod is not found on that node"};
      victims.pods.push_back(std::move(pod));
    }
  }
  return out;
}

Status check_victims_present(VictimsByNode& victims, bool ignorable) {
  for (auto it = victims.begin(); it != victims.end();) {
    if (!it->second.pods.empty()) {
      ++it;
      continue;
    }
    if (!ignorable) return Error{"expected at least one victim pod on node \"" + it->first + "\""};
    it = victims.erase(it);
  }
  return Status::success();
}

Result<std::vector<pre::Candidate>> call_preemption_extenders(const Extenders& extenders, const Pod& pod,
                                                              std::vector<pre::Candidate> candidates,
                                                              const CandidateNodePods& pods) {
  VictimsByNode victims;
  for (const auto& candidate : candidates) victims.emplace(candidate.node, candidate.victims);
  if (victims.empty()) return candidates;
  const std::string pod_json = encode(pod);
  bool answered = false;
  for (const auto& extender : extenders.entries()) {
    const auto& config = extender.config;
    if (config.preempt_verb.empty() || !extender_interested(config, pod)) continue;
    auto narrowed = ask(extender, pod_json, victims, pods);
    if (!narrowed) {
      if (!config.ignorable) return Error{narrowed.message()};
      spdlog::info("skipping extender {} as it returned an error and is ignorable: {}", config.url_prefix,
                   narrowed.message());
      continue;
    }
    if (auto present = check_victims_present(*narrowed, config.ignorable); !present.ok())
      return Error{present.message()};
    victims = std::move(narrowed).value();
    answered = true;
    if (victims.empty()) break;  // no preemption can happen, whatever the others say
  }
  if (!answered) return candidates;
  std::vector<pre::Candidate> out;
  out.reserve(victims.size());
  for (auto& [node, node_victims] : victims) out.push_back(pre::Candidate{node, std::move(node_victims)});
  return out;
}

}  // namespace troupe::actors
