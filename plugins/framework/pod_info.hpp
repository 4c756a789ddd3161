#pragma once
// PodInfo: a decoded pod plus what every cycle would otherwise recompute
// (effective and non-zero requests, host ports, priority), built once when
// the pod is queued and shared read-only between actors afterwards.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/pod.hpp"
#include "plugins/framework/affinity_term.hpp"
#include "plugins/framework/host_ports.hpp"
#include "plugins/framework/resource_vector.hpp"

namespace troupe::plugins {

struct PodInfo {
  std::shared_ptr<const Pod> pod;
  std::string key;  // "namespace/name"
  int32_t priority = 0;
  /// PodRequests (with the status of a pod resized in place): what
  /// NodeResourcesFit checks and NodeInfo accounts.
  ResourceVector requests;
  /// Requests with cpu 100m / memory 200Mi for containers that request none:
  /// what the resource scorers add to a node's non-zero requested.
  ResourceVector non_zero_requests;
  std::vector<HostPort> host_ports;
  /// Its pod (anti-)affinity terms, resolved once as a placed pod's are
  /// (leniently, affinity_term.hpp), as upstream's PodInfo keeps them: what
  /// InterPodAffinity reads of every placed pod with terms. Null without terms.
  std::shared_ptr<const affinity::PodTerms> placed_terms;

  static std::shared_ptr<const PodInfo> make(std::shared_ptr<const Pod> pod);
  static std::shared_ptr<const PodInfo> make(Pod pod) { return make(std::make_shared<const Pod>(std::move(pod))); }

  const PodSpec& spec() const { return pod->spec; }
  const ObjectMeta& meta() const { return pod->meta; }
};

/// A pod waiting in the queue, as QueueSort compares them.
struct QueuedPodInfo {
  const PodInfo* pod_info = nullptr;
  std::chrono::steady_clock::time_point timestamp;  // when the pod was first queued
  int attempts = 0;
};

}  // namespace troupe::plugins
