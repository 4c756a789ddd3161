#pragma once
// A small heterogeneous sample cluster for the demo and tests: CPU-only nodes
// (one tainted), an A100 node with RDMA and NUMA topology, a T4 node with a
// taint, their Koordinator Device and NodeResourceTopology objects, a team
// namespace with a PodGroup and an ElasticQuota, and a few pods (running and pending).

#include <string>

#include "model/result.hpp"
#include "sim/api_handler.hpp"

namespace troupe::sim {

/// The sample cluster as multi-document YAML.
const std::string& sample_cluster_yaml();

/// Creates the sample cluster's objects; returns how many.
Result<size_t> load_sample_cluster(ApiHandler& handler);

}  // namespace troupe::sim
