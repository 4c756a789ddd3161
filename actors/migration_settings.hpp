#pragma once
// What the migration actor runs, resolved from an optional
// DeschedulerConfiguration (`troupe scheduler --descheduler-config`):
// without one, only the MigrationController runs (user PodMigrationJobs are
// executed with default args, as koord-descheduler's controller does) and
// nothing is balanced. With one, its first profile decides: LowNodeLoad and
// GPUDefragmentation run when enabled at the balance point, every
// deschedulingInterval; their args and MigrationController's come from
// pluginConfig.

#include <chrono>
#include <optional>
#include <string>

#include "config/descheduler_config.hpp"
#include "model/label_selector.hpp"
#include "model/result.hpp"
#include "plugins/descheduler/eviction_limits.hpp"
#include "plugins/descheduler/gpu_defrag_args.hpp"
#include "plugins/descheduler/low_node_load_args.hpp"
#include "plugins/descheduler/migration_controller_args.hpp"

namespace troupe::actors {

struct MigrationSettings {
  std::string profile = config::kDefaultDeschedulerProfile;
  /// LowNodeLoad enabled at the balance point.
  bool balance = false;
  plugins::descheduler::LowNodeLoadArgs low_node_load;
  /// GPUDefragmentation enabled at the balance point (troupe's own plugin).
  bool gpu_defrag = false;
  plugins::descheduler::GpuDefragPluginArgs gpu_defrag_args;
  plugins::descheduler::MigrationControllerArgs controller;
  /// 0: one descheduling cycle once the view has synced.
  std::chrono::nanoseconds interval{0};
  /// Plan and report, create no PodMigrationJob (the configuration's dryRun,
  /// LowNodeLoad's or the MigrationController's).
  bool dry_run = false;
  /// GPUDefragmentation plans and reports only (dry_run or its own dryRun).
  bool gpu_defrag_dry_run = false;
  std::optional<LabelSelector> node_selector;  // the configuration's and the profile's
  std::optional<LabelSelector> profile_node_selector;
  std::optional<uint32_t> max_per_node, max_per_namespace, max_total;

  /// Fresh per-cycle counters (maxNoOfPodsToEvict*).
  plugins::descheduler::EvictionLimits cycle_limits() const { return {max_per_node, max_per_namespace, max_total}; }
};

/// nullptr: MigrationController only. Plugin args that do not decode are
/// errors naming the plugin and field; so is an enabled balance plugin
/// troupe does not have.
Result<MigrationSettings> migration_settings(const config::DeschedulerConfiguration* configuration);

}  // namespace troupe::actors
