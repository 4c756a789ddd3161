// A pod as the learned task distribution counts it
// (plugins/deviceshare/observed_task.hpp): requests, the GPU shape the
// Fragmentation score reads, card models, and pods it cannot count.
#include <catch2/catch.hpp>

#include "plugins/deviceshare/observed_task.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using troupe::plugins::testing::PodBuilder;
using troupe::plugins::testing::requirement;

namespace {

const std::string kModel = "node.koordinator.sh/gpu-model";

}  // namespace

TEST_CASE("observed task: a pod's requests and GPU shape", "[deviceshare][task-learner]") {
  struct Case {
    const char* what;
    Pod pod;
    std::optional<ObservedTask> expected;
  };
  const std::vector<Case> cases = {
      {"CPU only", PodBuilder("a").container({{"cpu", "3152m"}, {"memory", "16Gi"}}).pod(),
       ObservedTask{3152, 16384, 0, 0, {}}},
      {"no requests at all", PodBuilder("b").container({}).pod(), ObservedTask{0, 0, 0, 0, {}}},
      {"memory rounded up to MiB", PodBuilder("c").container({{"cpu", "1"}, {"memory", "1000Ki"}}).pod(),
       ObservedTask{1000, 1, 0, 0, {}}},
      {"a share of one card", PodBuilder("d").container({{"cpu", "4"}, {"koordinator.sh/gpu", "81"}}).pod(),
       ObservedTask{4000, 0, 810, 1, {}}},
      {"whole cards", PodBuilder("e").container({{"cpu", "88"}, {"nvidia.com/gpu", "8"}}).pod(),
       ObservedTask{88000, 0, 1000, 8, {}}},
      {"a share by gpu-core and memory ratio",
       PodBuilder("f").container({{"cpu", "1"}, {"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory-ratio", "50"}}).pod(),
       ObservedTask{1000, 0, 500, 1, {}}},
      {"models from the node selector",
       PodBuilder("g").container({{"cpu", "1"}, {"nvidia.com/gpu", "1"}}).node_selector({{kModel, "T4"}}).pod(),
       ObservedTask{1000, 0, 1000, 1, {"T4"}}},
      {"models from every required term",
       PodBuilder("h")
           .container({{"cpu", "1"}, {"nvidia.com/gpu", "1"}})
           .required_terms({NodeSelectorTerm{{requirement(kModel, LabelRequirement::Op::in, {"V100M16", "V100M32"})}, {}},
                            NodeSelectorTerm{{requirement(kModel, LabelRequirement::Op::in, {"A10"})}, {}}})
           .pod(),
       ObservedTask{1000, 0, 1000, 1, {"V100M16", "V100M32", "A10"}}},
      {"a required term without the model leaves the pod free",
       PodBuilder("i")
           .container({{"cpu", "1"}, {"nvidia.com/gpu", "1"}})
           .required_terms({NodeSelectorTerm{{requirement(kModel, LabelRequirement::Op::in, {"T4"})}, {}},
                            NodeSelectorTerm{{requirement("zone", LabelRequirement::Op::in, {"a"})}, {}}})
           .pod(),
       ObservedTask{1000, 0, 1000, 1, {}}},
      {"NotIn on the model is no restriction the measure can use",
       PodBuilder("j")
           .container({{"cpu", "1"}, {"nvidia.com/gpu", "1"}})
           .required_terms({NodeSelectorTerm{{requirement(kModel, LabelRequirement::Op::not_in, {"T4"})}, {}}})
           .pod(),
       ObservedTask{1000, 0, 1000, 1, {}}},
      {"a CPU-only pod's model selector is ignored",
       PodBuilder("k").container({{"cpu", "1"}}).node_selector({{kModel, "T4"}}).pod(), ObservedTask{1000, 0, 0, 0, {}}},
      // DeviceShare's PreFilter rejects these: no task to keep room for.
      {"more than a card as a percentage", PodBuilder("l").container({{"cpu", "1"}, {"koordinator.sh/gpu", "150"}}).pod(),
       std::nullopt},
      {"gpu-core alone", PodBuilder("m").container({{"cpu", "1"}, {"koordinator.sh/gpu-core", "50"}}).pod(), std::nullopt},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const auto info = PodInfo::make(c.pod);
    const auto task = observed_task(*info, TemplatePolicy{});
    REQUIRE(task.has_value() == c.expected.has_value());
    if (!task) continue;
    CHECK(task->cpu_milli == c.expected->cpu_milli);
    CHECK(task->memory_mib == c.expected->memory_mib);
    CHECK(task->gpu_milli == c.expected->gpu_milli);
    CHECK(task->gpu_count == c.expected->gpu_count);
    CHECK(task->gpu_models == c.expected->gpu_models);
  }
  // A PodInfo without its Pod (never built by the informer) is no task either.
  CHECK_FALSE(observed_task(PodInfo{}, TemplatePolicy{}).has_value());
}
