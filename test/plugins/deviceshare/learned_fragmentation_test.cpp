// DeviceShare's Fragmentation strategy without taskClasses: it scores with
// the learned snapshot the cycle shares in the CycleState, exactly as a
// configured plugin with the same classes would, falls back to the prior
// without one, and never reuses a memo entry of another snapshot.
#include <catch2/catch.hpp>

#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "plugins/deviceshare/fragmentation_scoring.hpp"
#include "plugins/deviceshare/task_learner.hpp"
#include "plugins/node_extensions.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"
#include "test/plugins/deviceshare/place_support.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;
using troupe::plugins::testing::NodeBuilder;

namespace {

using Snapshot = std::shared_ptr<const LearnedTasks>;

std::shared_ptr<const DeviceShare> plugin_of(DeviceShareArgs args) {
  auto plugin = std::make_shared<DeviceShare>(std::move(args), [] { return int64_t{1700000000000000000}; });
  plugin->set_state_slot(0);
  return plugin;
}

DeviceShareArgs learned_args() { return DeviceShareArgs::from_yaml(YAML::Load("scoringStrategy: {type: Fragmentation, tieBreakSeed: 3}")); }

/// The same args with `tasks` configured, as taskClasses would give them.
DeviceShareArgs configured_args(const TaskDistribution& tasks) {
  DeviceShareArgs args = learned_args();
  args.fragmentation.tasks = std::make_shared<const TaskDistribution>(tasks);
  return args;
}

Snapshot learned_from(const std::vector<std::pair<ObservedTask, int>>& mix) {
  TaskLearner learner;
  for (const auto& [task, times] : mix)
    for (int i = 0; i < times; ++i) REQUIRE(learner.observe(task));
  REQUIRE(learner.snapshot());
  return learner.snapshot();
}

NodeInfo gpu_node(const std::string& name, int cards, const std::string& cpu = "32") {
  NodeInfo info = NodeBuilder(name).allocatable({{"cpu", cpu}, {"memory", "64Gi"}, {"pods", "110"}}).info();
  attach_node_extensions(info);
  std::vector<DeviceInfo> infos;
  for (int i = 0; i < cards; ++i) infos.push_back(gpu(i));
  info.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices)->apply_device(device(infos));
  return info;
}

std::shared_ptr<const PodInfo> share_pod(const std::string& name, const std::string& percent, const std::string& cpu = "2") {
  return PodInfo::make(
      PodSpecBuilder(name).requests({{"cpu", cpu}, {"memory", "1Gi"}, {"koordinator.sh/gpu", percent}}).pod());
}

CycleState cycle_with(const Snapshot& snapshot) {
  CycleState state;
  if (snapshot) state.share_input(snapshot, snapshot->id);
  return state;
}

// raw_score and place (place_support.hpp) in a cycle holding `snapshot`;
// without one, the testing:: versions run in an empty cycle.
int64_t raw_score(const DeviceShare& plugin, const NodeInfo& node, const std::shared_ptr<const PodInfo>& pod,
                  const Snapshot& snapshot) {
  return deviceshare::testing::raw_score(plugin, node, pod, cycle_with(snapshot));
}

std::vector<int32_t> place(const DeviceShare& plugin, NodeInfo& node, const std::shared_ptr<const PodInfo>& pod,
                           const Snapshot& snapshot) {
  return deviceshare::testing::place(plugin, node, pod, cycle_with(snapshot));
}

// Mostly 810 shares, some 160 and 470: the mix the openb traces have.
const std::vector<std::pair<ObservedTask, int>> kMix = {
    {ObservedTask{4000, 1024, 810, 1, {}}, 6}, {ObservedTask{2000, 1024, 160, 1, {}}, 2},
    {ObservedTask{2000, 1024, 470, 1, {}}, 2}};

}  // namespace

TEST_CASE("learned Fragmentation scores with the cycle's snapshot as configured classes would",
          "[deviceshare][fragmentation][learned]") {
  const Snapshot snapshot = learned_from(kMix);
  auto learned = plugin_of(learned_args());
  auto configured = plugin_of(configured_args(snapshot->tasks));
  const char* shares[] = {"81", "16", "47", "100", "16", "81", "47"};
  std::vector<NodeInfo> a, b;
  for (int i = 0; i < 4; ++i) {
    a.push_back(gpu_node("n" + std::to_string(i), 1 + i % 3));
    b.push_back(gpu_node("n" + std::to_string(i), 1 + i % 3));
  }
  for (int step = 0; step < 14; ++step) {
    const auto pod = share_pod("p" + std::to_string(step), shares[step % 7]);
    size_t best = 0;
    int64_t best_score = -1;
    for (size_t i = 0; i < a.size(); ++i) {
      const int64_t score = raw_score(*learned, a[i], pod, snapshot);
      CHECK(score == raw_score(*configured, b[i], pod));
      if (score > best_score) best_score = score, best = i;
    }
    if (best_score <= 0) continue;
    CHECK(place(*learned, a[best], pod, snapshot) == place(*configured, b[best], pod));
  }
}

TEST_CASE("learned Fragmentation without a snapshot scores with the prior", "[deviceshare][fragmentation][learned]") {
  auto prior = TaskDistribution::make(prior_task_classes());
  REQUIRE(prior.ok());
  REQUIRE(prior->set_card_waste_weight(kDefaultCardWasteWeight));
  auto learned = plugin_of(learned_args());
  auto configured = plugin_of(configured_args(*prior));
  NodeInfo a = gpu_node("n", 2), b = gpu_node("n", 2);
  place(*learned, a, share_pod("big", "81"));
  place(*configured, b, share_pod("big", "81"));
  for (const char* percent : {"16", "50", "100"}) {
    INFO(percent);
    CHECK(raw_score(*learned, a, share_pod("p", percent)) == raw_score(*configured, b, share_pod("p", percent)));
  }
  CycleState empty;
  CHECK(learned->fragmentation_tasks(empty).tasks != nullptr);
  CHECK(learned->fragmentation_tasks(empty).id == 0);
  // The default args learn (troupe's default strategy); Koordinator's strategies have no distribution.
  const DeviceShareArgs defaults = DeviceShareArgs::from_yaml(YAML::Node());
  CHECK(defaults.strategy == ScoringStrategy::fragmentation);
  CHECK(defaults.fragmentation.learned());
  CHECK(defaults.fragmentation.id != 0);
  CHECK(plugin_of(defaults)->fragmentation_tasks(empty).tasks != nullptr);
  DeviceShareArgs least;
  least.strategy = ScoringStrategy::least_allocated;
  CHECK(plugin_of(least)->fragmentation_tasks(empty).tasks == nullptr);
}

TEST_CASE("learned Fragmentation never reuses a score memoised under another snapshot",
          "[deviceshare][fragmentation][learned]") {
  // Card 0 holds an 810 share (190 left). Under a mix of 810 shares, a 160
  // share closes that leftover; under a mix of 160 shares it had better take
  // the fresh card, where five more fit.
  const Snapshot big = learned_from({{ObservedTask{4000, 0, 810, 1, {}}, 10}});
  const Snapshot small = learned_from({{ObservedTask{2000, 0, 160, 1, {}}, 10}});
  REQUIRE(big->id != small->id);
  auto plugin = plugin_of(learned_args());
  NodeInfo node = gpu_node("n", 2);
  place(*plugin, node, share_pod("big", "81"), big);
  const auto pod = share_pod("p", "16");

  const int64_t under_big = raw_score(*plugin, node, pod, big);  // memoised on the node
  const int64_t under_small = raw_score(*plugin, node, pod, small);
  NodeInfo fresh = node;
  fresh.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices)->fragmentation_cache().clear();
  CHECK(under_small == raw_score(*plugin, fresh, pod, small));
  CHECK(policy_score_of(under_big) != policy_score_of(under_small));  // the case means something
  CHECK(raw_score(*plugin, node, pod, big) == under_big);
  // And Reserve takes the card the snapshot's measure chose.
  NodeInfo copy_big = node, copy_small = node;
  CHECK(place(*plugin, copy_big, pod, big) == std::vector<int32_t>{0});
  CHECK(place(*plugin, copy_small, pod, small) == std::vector<int32_t>{1});
}
