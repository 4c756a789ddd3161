#pragma once
// GPUDefragmentation's plugin args (troupe's own descheduler plugin, enabled
// at the balance point of the descheduler profile):
//
//   pluginConfig:
//   - name: GPUDefragmentation
//     args:
//       maxMigrationsPerCycle: 4   # unset = only the cycle's maxNoOfPodsToEvict* limits
//       maxMigrationsPerNode: 2    # migrations one plan may take from one node
//       dryRun: false              # plan and report only
//
// Every migration still goes through the evictor rules, the PDB check and
// the MigrationController's arbiter, as LowNodeLoad's do.

#include <cstdint>
#include <optional>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"

namespace troupe::plugins::descheduler {

inline constexpr const char* kGpuDefragPlugin = "GPUDefragmentation";

struct GpuDefragPluginArgs {
  std::optional<int32_t> max_migrations_per_cycle;
  std::optional<int32_t> max_migrations_per_node;
  bool dry_run = false;
};

/// A Null node gives the defaults. Unknown fields and negative or zero
/// limits are errors naming the field.
Result<GpuDefragPluginArgs> decode_gpu_defrag_args(const YAML::Node& args);

}  // namespace troupe::plugins::descheduler
