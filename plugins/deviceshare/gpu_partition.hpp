#pragma once
// GPU partitions: the sets of GPUs that may be given together (NVLink /
// HCCS islands), from the Device annotation scheduling.koordinator.sh/gpu-partitions
// (GPUPartitionTable, keyed by the number of GPUs) or, for NVIDIA Hopper nodes
// without one, Koordinator's built-in table (allocator_gpu_helper.go).
//
// The indexer groups each size's partitions by allocationScore, groups in
// ascending score order, partitions in table order — the order Koordinator
// scans them in.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/label_selector.hpp"
#include "model/quantity.hpp"
#include "model/result.hpp"
#include "plugins/deviceshare/device_types.hpp"

namespace troupe::plugins::deviceshare {

struct GpuPartition {
  std::vector<int32_t> minors;
  MinorMask mask = 0;  // hashMinors(minors)
  std::string link_type;
  std::optional<Quantity> ring_bus_bandwidth;
  int64_t allocation_score = 0;
};

struct PartitionGroup {
  int64_t allocation_score = 0;
  std::vector<GpuPartition> partitions;
};

/// Number of GPUs -> groups in ascending allocationScore.
using GpuPartitionIndexer = std::map<int64_t, std::vector<PartitionGroup>>;

/// Builds the indexer from the table JSON. Errors (bad JSON, non-integer
/// keys, wrong field types, a `null` table) name the problem; Koordinator logs
/// them and ignores the table.
Result<GpuPartitionIndexer> parse_gpu_partition_table(std::string_view json);

/// The table for NVIDIA H100/H800/H20 (8 GPUs, NVLink): {0}..{7};
/// {0,1},{2,3},{4,5},{6,7}; {0-3},{4-7}; {0-7}; every score 1.
const GpuPartitionIndexer& hopper_partition_indexer();

/// The built-in table for a node, by its labels: vendor "" or "nvidia" and
/// model H100, H800 or H20; nullptr otherwise.
const GpuPartitionIndexer* builtin_partition_indexer(const Labels& node_labels);

/// The partition policy label (node or Device) says "Honor".
bool honors_gpu_partitions(const Labels& labels);

}  // namespace troupe::plugins::deviceshare
