// The extender endpoint's learned GPU task classes (actors/extender_learning.hpp):
// each pod a stock kube-scheduler asks about counts once, bind only shares
// the snapshot, and a profile that does not learn gets none.
#include <catch2/catch.hpp>

#include "actors/extender_learning.hpp"
#include "test/actors/device_share_profile.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::actors;
using namespace troupe::plugins;
using troupe::actors::testing::framework_with;
using troupe::plugins::deviceshare::LearnedTasks;
using troupe::plugins::testing::PodBuilder;

namespace {

PodInfoPtr gpu_pod(const std::string& name, const std::string& uid, const std::string& share = "50") {
  Pod pod = *PodBuilder(name).container({{"cpu", "2"}, {"koordinator.sh/gpu", share}}).info()->pod;
  pod.meta.uid = uid;
  return PodInfo::make(std::move(pod));
}

}  // namespace

TEST_CASE("extender learning: each pod asked about counts once; bind shares without counting", "[extender-learning]") {
  auto fw = framework_with("{scoringStrategy: {type: Fragmentation}}");
  ExtenderLearning learning(fw, /*remembered_pods=*/3);
  struct Step {
    const char* what;
    PodInfoPtr pod;
    bool count;     // filter/prioritize: true; bind: false
    double observed;  // counted tasks afterwards
  };
  const std::vector<Step> steps = {
      {"bind of a pod never asked about: nothing counted yet, nothing to share", gpu_pod("z", "uid-z"), false, 0},
      {"filter of a new pod", gpu_pod("a", "uid-a"), true, 1},
      {"its prioritize", gpu_pod("a", "uid-a"), true, 1},
      {"its bind", gpu_pod("a", "uid-a"), false, 1},
      {"its filter on a later attempt", gpu_pod("a", "uid-a"), true, 1},
      {"a pod without a uid, by namespace/name", gpu_pod("b", ""), true, 2},
      {"the same again", gpu_pod("b", ""), true, 2},
      {"a third pod", gpu_pod("c", "uid-c"), true, 3},
      {"a fourth: the oldest remembered (a) is forgotten", gpu_pod("d", "uid-d"), true, 4},
      {"a again: counted again after 3 others", gpu_pod("a", "uid-a"), true, 5},
      {"d is still remembered", gpu_pod("d", "uid-d"), true, 5},
      {"a pod DeviceShare rejects (a share over 100) is no task", gpu_pod("bad", "uid-bad", "150"), true, 5},
  };
  for (const auto& s : steps) {
    INFO(s.what);
    auto state = fw->new_cycle_state();
    learning.on_request(s.pod, s.count, *state);
    REQUIRE(learning.learner() != nullptr);
    CHECK(learning.learner()->observed() == s.observed);
    if (s.observed == 0) {  // no snapshot before the first pod
      CHECK(state->input<LearnedTasks>() == nullptr);
      continue;
    }
    // Every request's cycle scores with the latest snapshot, keyed by its id.
    REQUIRE(state->input<LearnedTasks>() != nullptr);
    CHECK(state->input<LearnedTasks>() == learning.learner()->snapshot().get());
    CHECK(state->inputs_version() == learning.learner()->snapshot()->id);
  }
}

TEST_CASE("extender learning: nothing for a DeviceShare that does not learn", "[extender-learning]") {
  const std::vector<const char*> args = {
      "{scoringStrategy: {type: Fragmentation, taskClasses: [{gpuMilli: 500, weight: 1}]}}",
      "{scoringStrategy: {type: LeastAllocated, resources: [{name: koordinator.sh/gpu-memory-ratio, weight: 1}]}}",
  };
  for (const char* a : args) {
    INFO(a);
    auto fw = framework_with(a);
    ExtenderLearning learning(fw);
    auto state = fw->new_cycle_state();
    learning.on_request(gpu_pod("a", "uid-a"), true, *state);
    CHECK(learning.learner() == nullptr);
    CHECK(state->input<LearnedTasks>() == nullptr);
    CHECK(state->inputs_version() == 0);
  }
}
