#include "plugins/deviceshare/deviceshare_args.hpp"

#include <atomic>
#include <cmath>

#include "config/yaml_fields.hpp"
#include "model/resource_names.hpp"

namespace troupe::plugins::deviceshare {

using config::FieldError;
namespace rn = resource_names;

namespace {

ScoringStrategy read_strategy(const YAML::Node& strategy, const std::string& path) {
  std::string type;
  config::read_optional(strategy, path, "type", type);
  if (type == "LeastAllocated") return ScoringStrategy::least_allocated;
  if (type == "MostAllocated") return ScoringStrategy::most_allocated;
  if (type == "Fragmentation") return ScoringStrategy::fragmentation;
  // Koordinator: "scoring strategy <type> is not supported".
  throw FieldError(config::child_path(path, "type"), "Unsupported value: \"" + type +
                                                         "\": supported values: \"LeastAllocated\", \"MostAllocated\", "
                                                         "\"Fragmentation\"");
}

// Unique per decoded args, never reused in the process (FragmentationArgs::id).
uint64_t next_fragmentation_args_id() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1);
}

// taskClasses, spreadWeight, cardWasteWeight and tieBreakSeed belong to Fragmentation alone.
FragmentationArgs read_fragmentation(const YAML::Node& strategy, const std::string& path, bool fragmentation) {
  FragmentationArgs out;
  const YAML::Node classes = strategy["taskClasses"];
  if (!fragmentation) {
    for (const char* field : {"taskClasses", "spreadWeight", "cardWasteWeight", "tieBreakSeed"})
      if (!config::is_absent(strategy[field]))
        throw FieldError(config::child_path(path, field), "only valid with type Fragmentation");
    return out;
  }
  if (!config::is_absent(strategy["cardWasteWeight"])) {
    const double weight = config::read_number(strategy["cardWasteWeight"], config::child_path(path, "cardWasteWeight"));
    if (!std::isfinite(weight) || weight < 0 || weight > 1)
      throw FieldError(config::child_path(path, "cardWasteWeight"),
                       "must be a number in [0, 1], got " + std::to_string(weight));
    out.card_waste_weight = weight;
  }
  // No taskClasses: the distribution is learned from the pods seen.
  if (!config::is_absent(classes)) {
    auto tasks = parse_task_distribution(classes, config::child_path(path, "taskClasses"));
    // The message already names the field (scoringStrategy.taskClasses[i]...).
    if (!tasks) throw FieldError("", tasks.message());
    if (auto set = tasks->set_card_waste_weight(out.card_waste_weight); !set)
      throw FieldError(config::child_path(path, "cardWasteWeight"), set.message());
    out.tasks = std::make_shared<const TaskDistribution>(std::move(*tasks));
  }
  out.id = next_fragmentation_args_id();
  if (!config::is_absent(strategy["spreadWeight"])) {
    out.spread_weight = config::read_number(strategy["spreadWeight"], config::child_path(path, "spreadWeight"));
    if (!std::isfinite(out.spread_weight) || out.spread_weight < 0 || out.spread_weight > 1)
      throw FieldError(config::child_path(path, "spreadWeight"),
                       "must be a number in [0, 1], got " + std::to_string(out.spread_weight));
  }
  if (!config::is_absent(strategy["tieBreakSeed"])) {
    const int64_t seed = config::read_int(strategy["tieBreakSeed"], config::child_path(path, "tieBreakSeed"));
    if (seed < 0) throw FieldError(config::child_path(path, "tieBreakSeed"), "must be >= 0, got " + std::to_string(seed));
    out.tie_break_seed = static_cast<uint64_t>(seed);
  }
  return out;
}

std::vector<WeightedResource> read_resources(const YAML::Node& list, const std::string& path) {
  std::vector<WeightedResource> out;
  if (config::is_absent(list)) return out;
  config::expect_sequence(list, path);
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string entry = config::index_path(path, i);
    config::expect_map(list[i], entry);
    config::reject_unknown_fields(list[i], entry, {"name", "weight"});
    WeightedResource r;
    r.weight = 0;
    config::read_optional(list[i], entry, "name", r.name);
    config::read_optional(list[i], entry, "weight", r.weight);
    if (r.weight <= 0 || r.weight > 100)
      throw FieldError(config::child_path(entry, "weight"), "Invalid value: " + std::to_string(r.weight) +
                                                                 ": resource weight of " + r.name +
                                                                 " not in valid range (0, 100]");
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<std::string> read_names(const YAML::Node& list, const std::string& path) {
  std::vector<std::string> out;
  if (config::is_absent(list)) return out;
  config::expect_sequence(list, path);
  for (size_t i = 0; i < list.size(); ++i) out.push_back(config::read_string(list[i], config::index_path(path, i)));
  return out;
}

void read_templates(const YAML::Node& node, const std::string& path, DeviceShareArgs& out) {
  if (config::is_absent(node)) return;
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"configMapNamespace", "configMapName", "matchedResources"});
  config::read_optional(node, path, "configMapNamespace", out.templates_namespace);
  config::read_optional(node, path, "configMapName", out.templates_name);
  if (!config::is_absent(node["matchedResources"]))
    out.template_matched_resources = read_names(node["matchedResources"], config::child_path(path, "matchedResources"));
}

std::vector<GpuModel> read_models(const YAML::Node& list, const std::string& path) {
  std::vector<GpuModel> out;
  if (config::is_absent(list)) return out;
  config::expect_sequence(list, path);
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string entry = config::index_path(path, i);
    config::expect_map(list[i], entry);
    config::reject_unknown_fields(list[i], entry, {"vendor", "model"});
    GpuModel m;
    config::read_optional(list[i], entry, "vendor", m.vendor);
    config::read_optional(list[i], entry, "model", m.model);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

std::vector<WeightedResource> DeviceShareArgs::default_scoring_resources() {
  return {{std::string(rn::kGpuMemoryRatio), 1},
          {std::string(rn::kGpuMemory), 1},
          {std::string(rn::kRdma), 1},
          {std::string(rn::kFpga), 1}};
}

DeviceShareArgs DeviceShareArgs::from_yaml(const YAML::Node& args) {
  DeviceShareArgs out;
  out.fragmentation.id = next_fragmentation_args_id();  // the default strategy's
  if (config::is_absent(args)) return out;
  config::expect_map(args, "");
  config::reject_unknown_fields(args, "",
                                {"allocator", "scoringStrategy",
                                 "disableDeviceNUMATopologyAlignment", "gpuSharedResourceTemplatesConfig",
                                 "gpuShareUnsupportedModels", "devicePluginAdaption"});
  std::string deprecated_allocator;
  config::read_optional(args, "", "allocator", deprecated_allocator);
  const YAML::Node strategy = args["scoringStrategy"];
  if (!config::is_absent(strategy)) {
    const std::string path = "scoringStrategy";
    config::expect_map(strategy, path);
    config::reject_unknown_fields(strategy, path, {"type", "resources", "taskClasses", "spreadWeight", "cardWasteWeight", "tieBreakSeed"});
    out.strategy = read_strategy(strategy, path);
    out.resources = read_resources(strategy["resources"], config::child_path(path, "resources"));
    out.fragmentation = read_fragmentation(strategy, path, out.strategy == ScoringStrategy::fragmentation);
  }
  config::read_optional(args, "", "disableDeviceNUMATopologyAlignment", out.disable_numa_alignment);
  read_templates(args["gpuSharedResourceTemplatesConfig"], "gpuSharedResourceTemplatesConfig", out);
  out.gpu_share_unsupported_models = read_models(args["gpuShareUnsupportedModels"], "gpuShareUnsupportedModels");
  config::read_optional(args, "", "devicePluginAdaption", out.device_plugin_adaption);
  return out;
}

}  // namespace troupe::plugins::deviceshare
