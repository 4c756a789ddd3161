// The SCHEDULING CYCLE's learned GPU task classes (actors/task_learning.hpp):
// which profiles learn, what is counted (first attempts, bound pods only
// while not scheduling), and the snapshot the cycle's plugins get.
#include <catch2/catch.hpp>

#include <functional>

#include "actors/task_learning.hpp"
#include "test/actors/device_share_profile.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::actors;
using namespace troupe::plugins;
using troupe::actors::testing::framework_with;
using troupe::plugins::deviceshare::LearnedTasks;
using troupe::plugins::testing::PodBuilder;

namespace {

QueuedPod queued(const std::shared_ptr<const Framework>& framework, const std::string& name, const std::string& share,
                 int attempts = 0) {
  QueuedPod q;
  q.pod = PodBuilder(name).container({{"cpu", "2"}, {"koordinator.sh/gpu", share}}).info();
  q.framework = framework;
  q.attempts = attempts;
  return q;
}

}  // namespace

TEST_CASE("task learning: only profiles with Fragmentation and no taskClasses learn", "[task-learning]") {
  struct Case {
    const char* args;
    bool learns;
  };
  const std::vector<Case> cases = {
      {"{scoringStrategy: {type: Fragmentation}}", true},
      {"{scoringStrategy: {type: Fragmentation, cardWasteWeight: 0}}", true},
      {"{scoringStrategy: {type: Fragmentation, taskClasses: [{gpuMilli: 500, weight: 1}]}}", false},
      {"{scoringStrategy: {type: LeastAllocated, resources: [{name: koordinator.sh/gpu-memory-ratio, weight: 1}]}}",
       false},
      {"{scoringStrategy: {type: MostAllocated, resources: [{name: koordinator.sh/gpu-memory-ratio, weight: 1}]}}",
       false},
  };
  for (const auto& c : cases) {
    INFO(c.args);
    auto fw = framework_with(c.args);
    CHECK(TaskLearning::learns(*fw) == c.learns);
    TaskLearning learning;
    auto state = fw->new_cycle_state();
    learning.on_attempt(queued(fw, "p", "50"), *state);
    CHECK((state->input<LearnedTasks>() != nullptr) == c.learns);
    CHECK((state->inputs_version() != 0) == c.learns);
    CHECK((learning.learner(*fw) != nullptr) == c.learns);
  }
}

TEST_CASE("task learning: each pod counts once, bound pods only before scheduling", "[task-learning]") {
  auto fw = framework_with("{scoringStrategy: {type: Fragmentation}}");
  auto other = framework_with("{scoringStrategy: {type: Fragmentation}}");
  TaskLearning learning;
  struct Step {
    const char* what;
    std::function<void()> act;
    double observed;  // the profile's counted tasks afterwards
  };
  auto attempt = [&](const QueuedPod& q) {
    auto state = q.framework->new_cycle_state();
    learning.on_attempt(q, *state);
    // The pod's own class is in the snapshot it is scored with.
    REQUIRE(state->input<LearnedTasks>() != nullptr);
    CHECK(state->inputs_version() == state->input<LearnedTasks>()->id);
  };
  const std::vector<Step> steps = {
      {"a bound pod before the cycle schedules (restart, standby)",
       [&] { learning.on_bound(queued(fw, "bound-1", "81"), false); }, 1},
      {"another one", [&] { learning.on_bound(queued(fw, "bound-2", "47"), false); }, 2},
      {"a first attempt", [&] { attempt(queued(fw, "a", "81")); }, 3},
      {"its retry", [&] { attempt(queued(fw, "a", "81", 1)); }, 3},
      {"a pod requeued after a failed binding", [&] { attempt(queued(fw, "b", "16", 3)); }, 3},
      {"a bound pod once scheduling: counted at its attempt already",
       [&] { learning.on_bound(queued(fw, "a", "81"), true); }, 3},
      {"another profile's pod", [&] { attempt(queued(other, "x", "81")); }, 3},
      {"a Reservation's reserve pod: its owners are the tasks", [&] {
         QueuedPod q = queued(fw, "reserve", "81");
         Pod pod = *q.pod->pod;
         pod.meta.annotations["scheduling.koordinator.sh/reserve-pod"] = "true";
         q.pod = PodInfo::make(std::move(pod));
         attempt(q);
       }, 3},
      {"a pod DeviceShare rejects", [&] {
         QueuedPod q = queued(fw, "bad", "150");
         auto state = fw->new_cycle_state();
         learning.on_attempt(q, *state);
       }, 3},
  };
  for (const auto& s : steps) {
    INFO(s.what);
    s.act();
    REQUIRE(learning.learner(*fw) != nullptr);
    CHECK(learning.learner(*fw)->observed() == s.observed);
  }
  CHECK(learning.learner(*other)->observed() == 1);
}

TEST_CASE("task learning: the summary shows each learning profile's classes as configuration", "[task-learning]") {
  auto fw = framework_with("{scoringStrategy: {type: Fragmentation}}");
  auto fixed = framework_with("{scoringStrategy: {type: Fragmentation, taskClasses: [{gpuMilli: 500, weight: 1}]}}");
  TaskLearning learning;
  CHECK(learning.summary_json() == "{}");
  auto state = fw->new_cycle_state();
  learning.on_attempt(queued(fixed, "configured", "50"), *state);  // does not learn: not shown
  CHECK(learning.summary_json() == "{}");
  for (const char* name : {"a", "b", "c"}) learning.on_attempt(queued(fw, name, "50"), *state);
  learning.on_attempt(queued(fw, "d", "25"), *state);
  // 2 CPUs and half a card three times, a quarter once; no memory asked.
  CHECK(learning.summary_json() ==
        "{\"troupe\":{\"observed\":4,\"taskClasses\":["
        "{\"cpuMilli\":2000,\"gpuMilli\":500,\"gpuCount\":1,\"weight\":0.75},"
        "{\"cpuMilli\":2000,\"gpuMilli\":250,\"gpuCount\":1,\"weight\":0.25}]}}");
}
