#include "plugins/deviceshare/fragmentation.hpp"

#include <yaml-cpp/yaml.h>

#include "config/yaml_fields.hpp"
#include "model/quantity.hpp"

namespace troupe::plugins::deviceshare {

namespace {

using config::child_path;
using config::FieldError;

// cpu is a Kubernetes quantity ("3152m", "4"); cpuMilli an integer.
int64_t read_cpu_milli(const YAML::Node& item, const std::string& path) {
  const bool has_cpu = !config::is_absent(item["cpu"]);
  const bool has_milli = !config::is_absent(item["cpuMilli"]);
  if (has_cpu && has_milli) throw FieldError(path, "set cpu or cpuMilli, not both");
  if (has_milli) return config::read_int(item["cpuMilli"], child_path(path, "cpuMilli"));
  if (!has_cpu) return 0;
  const std::string text = config::read_string(item["cpu"], child_path(path, "cpu"));
  auto quantity = Quantity::parse(text);
  if (!quantity) throw FieldError(child_path(path, "cpu"), quantity.message());
  return quantity->milli_value();
}

// memory is a Kubernetes quantity ("16Gi"), kept in MiB rounded up.
int64_t read_memory_mib(const YAML::Node& item, const std::string& path) {
  if (config::is_absent(item["memory"])) return 0;
  const std::string field = child_path(path, "memory");
  auto quantity = Quantity::parse(config::read_string(item["memory"], field));
  if (!quantity) throw FieldError(field, quantity.message());
  const int64_t bytes = quantity->value();
  if (bytes < 0) throw FieldError(field, "must be >= 0");
  constexpr int64_t kMiB = 1024 * 1024;
  return bytes / kMiB + (bytes % kMiB != 0 ? 1 : 0);
}

GpuTaskClass read_task_class(const YAML::Node& item, const std::string& path) {
  config::expect_map(item, path);
  config::reject_unknown_fields(item, path, {"cpu", "cpuMilli", "memory", "gpuMilli", "gpuCount", "gpuModels", "weight"});
  GpuTaskClass task;
  task.cpu_milli = read_cpu_milli(item, path);
  task.memory_mib = read_memory_mib(item, path);
  config::read_optional(item, path, "gpuMilli", task.gpu_milli);
  config::read_optional(item, path, "gpuCount", task.gpu_count);
  // A GPU class with no count asks for one card.
  if (task.gpu_milli > 0 && config::is_absent(item["gpuCount"])) task.gpu_count = 1;
  if (!config::is_absent(item["gpuModels"])) {
    const std::string models_path = child_path(path, "gpuModels");
    config::expect_sequence(item["gpuModels"], models_path);
    for (size_t i = 0; i < item["gpuModels"].size(); ++i)
      task.gpu_models.push_back(config::read_string(item["gpuModels"][i], config::index_path(models_path, i)));
  }
  if (config::is_absent(item["weight"])) throw FieldError(child_path(path, "weight"), "required");
  task.weight = config::read_number(item["weight"], child_path(path, "weight"));
  return task;
}

}  // namespace

Result<TaskDistribution> parse_task_distribution(const YAML::Node& list, const std::string& field) {
  std::vector<GpuTaskClass> classes;
  Status read = config::catch_field_errors([&] {
    config::expect_sequence(list, field);
    for (size_t i = 0; i < list.size(); ++i) classes.push_back(read_task_class(list[i], config::index_path(field, i)));
  });
  if (!read) return Error{read.message()};
  auto made = TaskDistribution::make(std::move(classes));
  if (!made) return Error{field + ": " + made.message()};
  return made;
}

}  // namespace troupe::plugins::deviceshare
