#include "actors/migration_settings.hpp"

namespace troupe::actors {

namespace ds = plugins::descheduler;

Result<MigrationSettings> migration_settings(const config::DeschedulerConfiguration* configuration) {
  MigrationSettings settings;
  if (!configuration) return settings;
  settings.interval = configuration->descheduling_interval;
  settings.dry_run = configuration->dry_run;
  settings.node_selector = configuration->node_selector;
  settings.max_per_node = configuration->max_pods_to_evict_per_node;
  settings.max_per_namespace = configuration->max_pods_to_evict_per_namespace;
  settings.max_total = configuration->max_pods_to_evict_total;
  if (configuration->profiles.empty()) return settings;
  // koord-descheduler runs every profile; one is what troupe supports, and
  // a second would be silently ignored, so it is refused instead.
  if (configuration->profiles.size() > 1) {
    return Error{"profiles: troupe runs one descheduler profile, " + std::to_string(configuration->profiles.size()) +
                 " are given"};
  }
  const config::DeschedulerProfile& profile = configuration->profiles.front();
  settings.profile = profile.name;
  settings.profile_node_selector = profile.node_selector;
  for (const std::string& plugin : profile.enabled_at(config::DeschedulerPoint::balance)) {
    if (plugin == config::kLowNodeLoadPlugin) {
      settings.balance = true;
    } else if (plugin == ds::kGpuDefragPlugin) {
      settings.gpu_defrag = true;
    } else {
      return Error{"profiles[0].plugins.balance: troupe has no balance plugin " + plugin + " (it has " +
                   config::kLowNodeLoadPlugin + " and " + ds::kGpuDefragPlugin + ")"};
    }
  }
  for (const std::string& plugin : profile.enabled_at(config::DeschedulerPoint::deschedule)) {
    return Error{"profiles[0].plugins.deschedule: troupe has no deschedule plugin " + plugin};
  }
  auto controller = ds::decode_migration_controller_args(profile.args_for(config::kMigrationControllerPlugin));
  if (!controller) return Error{"pluginConfig MigrationController: " + controller.message()};
  settings.controller = std::move(*controller);
  if (settings.balance) {
    auto low = ds::decode_low_node_load_args(profile.args_for(config::kLowNodeLoadPlugin));
    if (!low) return Error{"pluginConfig LowNodeLoad: " + low.message()};
    settings.low_node_load = std::move(*low);
  }
  if (settings.gpu_defrag) {
    auto defrag = ds::decode_gpu_defrag_args(profile.args_for(ds::kGpuDefragPlugin));
    if (!defrag) return Error{std::string("pluginConfig ") + ds::kGpuDefragPlugin + ": " + defrag.message()};
    settings.gpu_defrag_args = std::move(*defrag);
  }
  const bool everything_dry = settings.dry_run || settings.controller.dry_run;
  settings.dry_run = everything_dry || settings.low_node_load.dry_run;
  settings.gpu_defrag_dry_run = everything_dry || settings.gpu_defrag_args.dry_run;
  return settings;
}

}  // namespace troupe::actors
