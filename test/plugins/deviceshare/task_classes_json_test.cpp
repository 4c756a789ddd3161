// A task distribution written as taskClasses configuration
// (plugins/deviceshare/task_classes_json.hpp): the text, and that
// parse_task_distribution reads back the same classes and weights.
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>

#include "plugins/deviceshare/task_classes_json.hpp"
#include "test/plugins/deviceshare/distribution_support.hpp"

using namespace troupe::plugins::deviceshare;
using troupe::plugins::deviceshare::testing::distribution;

namespace {

GpuTaskClass task(int64_t cpu_milli, int32_t gpu_milli, int32_t gpu_count, std::vector<std::string> models,
                  double weight, int64_t memory_mib) {
  GpuTaskClass c;
  c.cpu_milli = cpu_milli;
  c.gpu_milli = gpu_milli;
  c.gpu_count = gpu_count;
  c.gpu_models = std::move(models);
  c.weight = weight;
  c.memory_mib = memory_mib;
  return c;
}

}  // namespace

TEST_CASE("task classes as configuration: the text", "[deviceshare][fragmentation]") {
  CHECK(task_classes_json(distribution({task(3152, 810, 1, {}, 3, 16384), task(12500, 0, 0, {}, 1, 0)})) ==
        "[{\"cpuMilli\":3152,\"memory\":\"16384Mi\",\"gpuMilli\":810,\"gpuCount\":1,\"weight\":0.75},"
        "{\"cpuMilli\":12500,\"weight\":0.25}]");
  CHECK(task_classes_json(distribution({task(4000, 500, 1, {"T4", "V100\"x"}, 1, 0)})) ==
        "[{\"cpuMilli\":4000,\"gpuMilli\":500,\"gpuCount\":1,\"gpuModels\":[\"T4\",\"V100\\\"x\"],\"weight\":1}]");
}

TEST_CASE("task classes as configuration: read back unchanged", "[deviceshare][fragmentation]") {
  const std::vector<std::vector<GpuTaskClass>> cases = {
      {task(0, 1000, 1, {}, 1, 0)},
      {task(3152, 810, 1, {}, 1047, 16384), task(11300, 1000, 1, {}, 874, 0), task(12500, 0, 0, {}, 366, 2048),
       task(88000, 1000, 8, {}, 9, 0), task(4000, 500, 1, {"T4"}, 20, 0)},
      {task(1, 1, 1, {"G1", "G2"}, 1, 1), task(2, 0, 0, {}, 2, 3)},  // weights 1/3 and 2/3 are not exact decimals
  };
  for (const auto& classes : cases) {
    const TaskDistribution written = distribution(classes);
    const std::string text = task_classes_json(written);
    INFO(text);
    auto read = parse_task_distribution(YAML::Load(text), "taskClasses");
    REQUIRE(read);
    REQUIRE(read->classes().size() == written.classes().size());
    for (size_t i = 0; i < written.classes().size(); ++i) {
      const auto& a = written.classes()[i];
      const auto& b = read->classes()[i];
      CHECK(b.cpu_milli == a.cpu_milli);
      CHECK(b.memory_mib == a.memory_mib);
      CHECK(b.gpu_milli == a.gpu_milli);
      CHECK(b.gpu_count == a.gpu_count);
      CHECK(b.gpu_models == a.gpu_models);
      CHECK(b.weight == a.weight);
    }
  }
}
