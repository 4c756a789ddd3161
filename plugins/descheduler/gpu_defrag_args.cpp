#include "plugins/descheduler/gpu_defrag_args.hpp"

#include "config/yaml_fields.hpp"

namespace troupe::plugins::descheduler {

namespace {

std::optional<int32_t> read_positive(const YAML::Node& args, const char* key) {
  const YAML::Node value = args[key];
  if (config::is_absent(value)) return std::nullopt;
  const int64_t number = config::read_int(value, key);
  // Zero would silently turn the plugin off; disabling it is the way to do that.
  if (number <= 0) throw config::FieldError(key, "must be at least 1, got " + std::to_string(number));
  if (number > INT32_MAX) throw config::FieldError(key, "is too large");
  return static_cast<int32_t>(number);
}

GpuDefragPluginArgs read_args(const YAML::Node& args) {
  GpuDefragPluginArgs out;
  if (config::is_absent(args)) return out;
  const std::string path;
  config::expect_map(args, path);
  config::reject_unknown_fields(args, path, {"maxMigrationsPerCycle", "maxMigrationsPerNode", "dryRun"});
  out.max_migrations_per_cycle = read_positive(args, "maxMigrationsPerCycle");
  out.max_migrations_per_node = read_positive(args, "maxMigrationsPerNode");
  config::read_optional(args, path, "dryRun", out.dry_run);
  return out;
}

}  // namespace

Result<GpuDefragPluginArgs> decode_gpu_defrag_args(const YAML::Node& args) {
  GpuDefragPluginArgs out;
  Status status = config::catch_field_errors([&] { out = read_args(args); });
  if (!status) return Error{status.message()};
  return out;
}

}  // namespace troupe::plugins::descheduler
