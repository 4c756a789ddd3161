// The online learner of the Fragmentation strategy's task distribution
// (plugins/deviceshare/task_learner.hpp): what makes a class, the median
// memory, the 95 % cut and the rare multi-GPU classes (the shared rule),
// decay, caps, odd tasks, and when a new snapshot is published.
#include <catch2/catch.hpp>

#include <set>

#include "plugins/deviceshare/task_learner.hpp"

using namespace troupe::plugins::deviceshare;

namespace {

ObservedTask task(int64_t cpu, int32_t milli, int32_t cards, int64_t memory = 0, std::vector<std::string> models = {}) {
  return ObservedTask{cpu, memory, milli, cards, std::move(models)};
}

/// Feeds `times` copies of `t`.
void feed(TaskLearner& learner, const ObservedTask& t, int times) {
  for (int i = 0; i < times; ++i) REQUIRE(learner.observe(t));
}

const GpuTaskClass* find_class(const TaskDistribution& tasks, int64_t cpu, int32_t milli, int32_t cards) {
  for (const auto& c : tasks.classes())
    if (c.cpu_milli == cpu && c.gpu_milli == milli && c.gpu_count == cards) return &c;
  return nullptr;
}

/// Limits that publish on any change and never decay within a test, so a
/// test sees the learner's counts as fed.
TaskLearnerLimits eager() {
  TaskLearnerLimits limits;
  limits.republish_distance = 0;
  limits.decay_every = 1000000;
  return limits;
}

}  // namespace

TEST_CASE("learner: what makes a class", "[deviceshare][task-learner]") {
  struct Case {
    const char* what;
    ObservedTask a, b;
    bool same_class;
  };
  const std::vector<Case> cases = {
      {"identical", task(1000, 500, 1), task(1000, 500, 1), true},
      {"memory is not part of the key", task(1000, 500, 1, 100), task(1000, 500, 1, 900), true},
      {"cpu", task(1000, 500, 1), task(1001, 500, 1), false},
      {"per-card milli", task(1000, 500, 1), task(1000, 510, 1), false},
      {"card count", task(1000, 1000, 1), task(1000, 1000, 2), false},
      {"models", task(1000, 500, 1, 0, {"T4"}), task(1000, 500, 1), false},
      {"models in another order", task(1000, 500, 1, 0, {"T4", "A10"}), task(1000, 500, 1, 0, {"A10", "T4"}), true},
      {"repeated and empty models", task(1000, 500, 1, 0, {"T4", "", "T4"}), task(1000, 500, 1, 0, {"T4"}), true},
      {"only an empty model is none", task(1000, 500, 1, 0, {""}), task(1000, 500, 1), true},
      {"a CPU-only task has no models", task(1000, 0, 0, 0, {"T4"}), task(1000, 0, 0), true},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    TaskLearner learner(0.3, eager());
    REQUIRE(learner.observe(c.a));
    REQUIRE(learner.observe(c.b));
    CHECK(learner.classes() == (c.same_class ? 1u : 2u));
    CHECK(learner.observed() == 2);
  }
  // The models a class keeps are the normalised ones.
  TaskLearner learner(0.3, eager());
  REQUIRE(learner.observe(task(1000, 500, 1, 0, {"T4", "A10", "T4"})));
  CHECK(learner.snapshot()->tasks.classes()[0].gpu_models == std::vector<std::string>{"A10", "T4"});
}

TEST_CASE("learner: a class's memory is the lower median of its last tasks", "[deviceshare][task-learner]") {
  struct Case {
    std::vector<int64_t> memory;  // fed in this order
    size_t samples;
    int64_t median;
  };
  const std::vector<Case> cases = {
      {{512}, 31, 512},
      {{100, 300, 200}, 31, 200},
      {{100, 400, 300, 200}, 31, 200},       // lower median of an even count
      {{0, 0, 4096}, 31, 0},                 // tasks without a memory request
      {{10, 20, 30, 40}, 3, 30},             // the window keeps 40, 20, 30
      {{10, 20, 30, 40, 50, 60}, 3, 50},     // 40, 50, 60
      {{900, 900, 900, 1, 1}, 2, 1},         // a workload whose memory changed
  };
  for (const auto& c : cases) {
    INFO(c.memory.size() << " tasks, window " << c.samples);
    TaskLearnerLimits limits = eager();
    limits.memory_samples = c.samples;
    TaskLearner learner(0.3, limits);
    for (int64_t m : c.memory) REQUIRE(learner.observe(task(2000, 500, 1, m)));
    REQUIRE(learner.snapshot());
    CHECK(learner.snapshot()->tasks.classes()[0].memory_mib == c.median);
  }
}

TEST_CASE("learner: the 95 % cut and the rare multi-GPU classes", "[deviceshare][task-learner]") {
  struct Share {
    ObservedTask t;
    int count;
  };
  struct Case {
    const char* what;
    std::vector<Share> shares;
    std::vector<std::pair<ObservedTask, double>> expected;  // class and its probability; others absent
  };
  const std::vector<Case> cases = {
      {"one class", {{task(1000, 500, 1), 10}}, {{task(1000, 500, 1), 1.0}}},
      {"the last 5 % are cut",
       {{task(1000, 500, 1), 60}, {task(2000, 1000, 1), 35}, {task(500, 160, 1), 5}},
       {{task(1000, 500, 1), 60.0 / 95}, {task(2000, 1000, 1), 35.0 / 95}}},
      {"a class that completes 95 % is kept",
       {{task(1000, 500, 1), 60}, {task(2000, 1000, 1), 34}, {task(500, 160, 1), 6}},
       {{task(1000, 500, 1), 0.6}, {task(2000, 1000, 1), 0.34}, {task(500, 160, 1), 0.06}}},
      {"a rare 8-card class at half its frequency",
       {{task(1000, 500, 1), 96}, {task(64000, 1000, 8), 2}, {task(500, 160, 1), 2}},
       {{task(1000, 500, 1), 1 / 1.01}, {task(64000, 1000, 8), 0.01 / 1.01}}},
      {"CPU-only tasks are a class like any other",
       {{task(1000, 500, 1), 50}, {task(12500, 0, 0), 50}},
       {{task(1000, 500, 1), 0.5}, {task(12500, 0, 0), 0.5}}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    TaskLearner learner(0.3, eager());
    for (const auto& s : c.shares) feed(learner, s.t, s.count);
    REQUIRE(learner.snapshot());
    const TaskDistribution& tasks = learner.snapshot()->tasks;
    CHECK(tasks.size() == c.expected.size());
    for (const auto& [t, p] : c.expected) {
      const GpuTaskClass* k = find_class(tasks, t.cpu_milli, t.gpu_milli, t.gpu_count);
      REQUIRE(k != nullptr);
      CHECK(k->weight == Approx(p));
    }
    CHECK(tasks.card_waste_weight() == 0.3);
  }
}

TEST_CASE("learner: decay follows a changing workload", "[deviceshare][task-learner]") {
  TaskLearnerLimits limits = eager();
  limits.half_life = 10;
  limits.decay_every = 10;  // every 10 tasks all counts halve
  limits.forget_below = 0.2;
  struct Step {
    ObservedTask t;
    int times;
    double observed;    // decayed total after the step
    double old_share;   // probability of the first class in the snapshot (0 = gone)
  };
  const ObservedTask old_task = task(1000, 500, 1), new_task = task(2000, 250, 1);
  const std::vector<Step> steps = {
      {old_task, 9, 9, 1.0},
      {old_task, 1, 5, 1.0},           // the 10th task: 10 halved
      {new_task, 10, 7.5, 2.5 / 7.5},  // (5 + 0) / 2 = 2.5 old, 10 / 2 = 5 new
      {new_task, 10, 8.75, 1.25 / 8.75},
      // The old class keeps halving: 0.625, 0.3125, then 0.156 < 0.2 is forgotten.
      {new_task, 30, 0, 0},
  };
  TaskLearner learner(0.3, limits);
  for (size_t i = 0; i < steps.size(); ++i) {
    INFO("step " << i);
    feed(learner, steps[i].t, steps[i].times);
    if (steps[i].observed > 0) CHECK(learner.observed() == Approx(steps[i].observed));
    const GpuTaskClass* old_class = find_class(learner.snapshot()->tasks, 1000, 500, 1);
    if (steps[i].old_share == 0) {
      CHECK(old_class == nullptr);
      CHECK(learner.classes() == 1);
    } else {
      REQUIRE(old_class != nullptr);
      CHECK(old_class->weight == Approx(steps[i].old_share));
    }
  }
}

TEST_CASE("learner: the class cap evicts the least counted class", "[deviceshare][task-learner]") {
  TaskLearnerLimits limits = eager();
  limits.max_classes = 3;
  TaskLearner learner(0.3, limits);
  feed(learner, task(1000, 500, 1), 5);
  feed(learner, task(2000, 500, 1), 1);
  feed(learner, task(3000, 500, 1), 3);
  CHECK(learner.classes() == 3);
  feed(learner, task(4000, 500, 1), 2);  // evicts the 2000 class (count 1)
  CHECK(learner.classes() == 3);
  CHECK(learner.observed() == Approx(10));
  const auto& tasks = learner.snapshot()->tasks;
  CHECK(find_class(tasks, 2000, 500, 1) == nullptr);
  REQUIRE(find_class(tasks, 4000, 500, 1) != nullptr);
  CHECK(find_class(tasks, 1000, 500, 1)->weight == Approx(0.5));
  // Many distinct classes never grow the learner past its cap.
  for (int i = 0; i < 200; ++i) REQUIRE(learner.observe(task(10000 + i, 500, 1)));
  CHECK(learner.classes() == 3);
}

TEST_CASE("learner: odd tasks are refused without effect", "[deviceshare][task-learner]") {
  struct Case {
    const char* what;
    ObservedTask t;
    bool counted;
  };
  const std::vector<Case> cases = {
      {"a CPU-only task", task(500, 0, 0), true},
      {"no requests at all", task(0, 0, 0), true},
      {"a whole 8-card task", task(96000, 1000, 8), true},
      {"negative cpu", task(-1, 500, 1), false},
      {"negative memory", task(1000, 500, 1, -5), false},
      {"milli above a card", task(1000, 1200, 1), false},
      {"negative milli", task(1000, -10, 1), false},
      {"milli without a card count", task(1000, 500, 0), false},
      {"a card count without milli", task(1000, 0, 2), false},
      {"a negative card count", task(1000, 500, -1), false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    TaskLearner learner(0.3, eager());
    feed(learner, task(1000, 500, 1), 3);
    const auto before = learner.snapshot();
    CHECK(learner.observe(c.t) == c.counted);
    CHECK(learner.observed() == (c.counted ? 4 : 3));
    CHECK(learner.classes() == (c.counted ? 2u : 1u));
    if (!c.counted) CHECK(learner.snapshot() == before);
  }
  TaskLearner empty;
  CHECK_FALSE(empty.observe(task(-1, 0, 0)));
  CHECK(empty.snapshot() == nullptr);  // nothing counted, nothing published
}

TEST_CASE("learner: a snapshot is published only when the mix moved", "[deviceshare][task-learner]") {
  TaskLearnerLimits limits;
  limits.republish_distance = 0.1;
  TaskLearner learner(0.3, limits);
  REQUIRE(learner.snapshot() == nullptr);
  REQUIRE(learner.observe(task(1000, 500, 1)));
  const auto first = learner.snapshot();
  REQUIRE(first);
  CHECK(first->observed == 1);

  struct Step {
    const char* what;
    ObservedTask t;
    int times;
    bool new_snapshot;
  };
  // Distances are half the L1 distance between the class shares now and at the last publication.
  const std::vector<Step> steps = {
      {"more of the same class: no change in the mix", task(1000, 500, 1), 9, false},
      {"one new task of 11: 1/11 < 0.1", task(2000, 1000, 1), 1, false},
      {"a second one: 2/12 >= 0.1", task(2000, 1000, 1), 1, true},
      {"one more: 3/13 vs 2/12 moved 0.064", task(2000, 1000, 1), 1, false},
      {"a third class: (0.119 + 0.048 + 0.071) / 2 >= 0.1", task(500, 0, 0), 1, true},
  };
  auto last = first;
  std::set<uint64_t> ids{first->id};
  for (const auto& s : steps) {
    INFO(s.what);
    feed(learner, s.t, s.times);
    CHECK((learner.snapshot() != last) == s.new_snapshot);
    if (learner.snapshot() != last) {
      CHECK(ids.insert(learner.snapshot()->id).second);  // never reused
      last = learner.snapshot();
    }
  }
  CHECK(last->observed == 14);
  CHECK(last->tasks.size() == 3);
  // Another learner's ids differ too: they are process-wide.
  TaskLearner other;
  REQUIRE(other.observe(task(1000, 500, 1)));
  CHECK(ids.count(other.snapshot()->id) == 0);
}

TEST_CASE("learner: the prior has one share of each size and no host needs", "[deviceshare][task-learner]") {
  auto prior = TaskDistribution::make(prior_task_classes());
  REQUIRE(prior.ok());
  CHECK(prior->size() == 6);
  for (const auto& c : prior->classes()) {
    CHECK(c.weight == Approx(1.0 / 6));
    CHECK(c.cpu_milli == 0);
    CHECK(c.memory_mib == 0);
    CHECK(c.gpu_models.empty());
  }
}
