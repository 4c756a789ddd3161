#pragma once
// Random ClusterPods built by random changes, for the tests that compare two
// ways of counting placed pods (the walk and the indexes) on many clusters.
// The changes are those the cycle makes: pods are placed (bound, assumed or
// held for a nomination, on a ghost node now and then), go, move; nodes
// change labels or go.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "plugins/framework/cluster_pods.hpp"

namespace troupe::plugins::testing {

struct Random {
  std::mt19937 engine;
  explicit Random(uint32_t seed) : engine(seed) {}
  size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(engine); }
  bool chance(double p) { return std::bernoulli_distribution(p)(engine); }
  template <class T>
  const T& pick(const std::vector<T>& from) { return from[below(from.size())]; }
};

/// A cluster built by random changes, with the placed pods it holds.
struct RandomCluster {
  ClusterPods cluster;
  std::vector<std::shared_ptr<const PodInfo>> placed;
};

/// Up to `max_nodes` nodes made by `make_node(rng, name)`, then fewer than
/// `max_changes` random changes; `make_pod(rng, serial)` makes a pod to place.
template <class MakeNode, class MakePod>
void build_random_cluster(Random& rng, RandomCluster& out, size_t max_nodes, size_t max_changes,
                          MakeNode make_node, MakePod make_pod) {
  std::vector<std::string> names;
  for (size_t i = 0, n = 1 + rng.below(max_nodes); i < n; ++i) names.push_back("n" + std::to_string(i));
  for (const auto& name : names) out.cluster.upsert_node(std::make_shared<const Node>(make_node(rng, name)));
  for (size_t i = 0, changes = rng.below(max_changes); i < changes; ++i) {
    const size_t what = rng.below(10);
    if (what < 6 || out.placed.empty()) {  // a pod is placed (on a ghost node now and then)
      auto pod = PodInfo::make(make_pod(rng, static_cast<int>(i)));
      const std::string node = rng.chance(0.05) ? "ghost" : rng.pick(names);
      const size_t how = rng.below(10);
      if (how == 0) out.cluster.assume_nominated(pod, node);
      else if (how == 1) out.cluster.assume_pod(pod, node);
      else out.cluster.add_pod(pod, node);
      out.placed.push_back(pod);
    } else if (what < 8) {  // a pod goes
      const size_t at = rng.below(out.placed.size());
      out.cluster.remove_pod(pod_identity(*out.placed[at]));
      out.placed.erase(out.placed.begin() + static_cast<std::ptrdiff_t>(at));
    } else if (what < 9) {  // a pod moves to another node
      out.cluster.add_pod(rng.pick(out.placed), rng.pick(names));
    } else if (rng.chance(0.5)) {  // a node changes its labels
      out.cluster.upsert_node(std::make_shared<const Node>(make_node(rng, rng.pick(names))));
    } else {  // a node goes (and may come back later)
      out.cluster.remove_node(rng.pick(names));
    }
  }
}

}  // namespace troupe::plugins::testing
