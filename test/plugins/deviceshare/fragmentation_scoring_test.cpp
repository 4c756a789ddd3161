// DeviceShare's Fragmentation strategy on real NodeInfo/NodeDevices state:
// args, the node score (CPU-only pods included), normalisation, the shared
// card Reserve takes, and the score memo.
#include <catch2/catch.hpp>

#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "plugins/deviceshare/fragmentation_scoring.hpp"
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

// Most tasks take 810 of a card, some 160, a few a whole card.
const char* kFragmentationArgs = R"(
scoringStrategy:
  type: Fragmentation
  tieBreakSeed: 7
  taskClasses:
    - {cpu: "4", gpuMilli: 810, weight: 6}
    - {cpu: "2", gpuMilli: 160, weight: 2}
    - {cpu: "8", memory: 16Gi, gpuMilli: 1000, weight: 2}
)";

std::shared_ptr<const DeviceShare> make_plugin(const std::string& yaml) {
  auto plugin = std::make_shared<DeviceShare>(DeviceShareArgs::from_yaml(YAML::Load(yaml)),
                                              [] { return int64_t{1700000000000000000}; });
  plugin->set_state_slot(0);
  return plugin;
}

std::string args_error(const std::string& yaml) {
  auto plugin = DeviceShare::make(YAML::Load(yaml));
  if (plugin) FAIL("expected an error for " << yaml);
  return plugin.message();
}

NodeInfo gpu_node(const std::string& name, int cards, const std::string& cpu = "32", const std::string& memory = "64Gi") {
  NodeInfo info = NodeBuilder(name).allocatable({{"cpu", cpu}, {"memory", memory}, {"pods", "110"}}).info();
  attach_node_extensions(info);
  std::vector<DeviceInfo> infos;
  for (int i = 0; i < cards; ++i) infos.push_back(gpu(i));
  info.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices)->apply_device(device(infos));
  return info;
}

std::shared_ptr<const PodInfo> share_pod(const std::string& name, const std::string& percent,
                                         const std::string& cpu = "2") {
  return PodInfo::make(
      PodSpecBuilder(name).requests({{"cpu", cpu}, {"memory", "1Gi"}, {"koordinator.sh/gpu", percent}}).pod());
}

}  // namespace

TEST_CASE("Fragmentation args", "[deviceshare][fragmentation]") {
  const auto args = DeviceShareArgs::from_yaml(YAML::Load(kFragmentationArgs));
  CHECK(args.strategy == ScoringStrategy::fragmentation);
  REQUIRE(args.fragmentation.tasks);
  REQUIRE(args.fragmentation.tasks->size() == 3);
  CHECK(args.fragmentation.tasks->classes()[0].weight == Approx(0.6));
  CHECK(args.fragmentation.tasks->classes()[2].memory_mib == 16384);
  CHECK(args.fragmentation.tie_break_seed == 7);
  CHECK(args.fragmentation.spread_weight == 0);
  CHECK(args.fragmentation.tasks->card_waste_weight() == kDefaultCardWasteWeight);
  CHECK(DeviceShareArgs::from_yaml(YAML::Load("scoringStrategy: {type: Fragmentation, cardWasteWeight: 0, "
                                              "taskClasses: [{gpuMilli: 500, weight: 1}]}"))
            .fragmentation.tasks->card_waste_weight() == 0);
  CHECK(args.fragmentation.id != 0);
  CHECK(DeviceShareArgs::from_yaml(YAML::Load(kFragmentationArgs)).fragmentation.id != args.fragmentation.id);
  CHECK_FALSE(args.fragmentation.learned());

  // Without taskClasses the distribution is learned; the card waste weight is kept for the learner.
  const auto learned = DeviceShareArgs::from_yaml(YAML::Load("scoringStrategy: {type: Fragmentation}"));
  CHECK(learned.strategy == ScoringStrategy::fragmentation);
  CHECK(learned.fragmentation.learned());
  CHECK(learned.fragmentation.card_waste_weight == kDefaultCardWasteWeight);
  CHECK(learned.fragmentation.id != 0);
  CHECK(DeviceShareArgs::from_yaml(YAML::Load("scoringStrategy: {type: Fragmentation, cardWasteWeight: 0.1}"))
            .fragmentation.card_waste_weight == 0.1);

  struct Case {
    const char* yaml;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"scoringStrategy: {type: Fragmentation, cardWasteWeight: -0.5}",
       "scoringStrategy.cardWasteWeight: must be a number in [0, 1], got -0.5"},
      {"scoringStrategy: {type: MostAllocated, taskClasses: []}", "scoringStrategy.taskClasses: only valid with type Fragmentation"},
      {"scoringStrategy: {type: LeastAllocated, tieBreakSeed: 1}", "scoringStrategy.tieBreakSeed: only valid with type Fragmentation"},
      {"scoringStrategy: {type: Fragmentation, taskClasses: []}", "scoringStrategy.taskClasses: task distribution: no task classes"},
      {"scoringStrategy: {type: Fragmentation, taskClasses: [{gpuMilli: 1200, weight: 1}]}",
       "scoringStrategy.taskClasses: task class 0: gpu_milli must be in [0, 1000], got 1200"},
      {"scoringStrategy: {type: Fragmentation, taskClasses: [{gpuMilli: 500, memory: lots, weight: 1}]}",
       "scoringStrategy.taskClasses[0].memory"},
      {"scoringStrategy: {type: Fragmentation, taskClasses: [{gpuMilli: 500, memory: -1Gi, weight: 1}]}",
       "scoringStrategy.taskClasses[0].memory: must be >= 0"},
      {"scoringStrategy: {type: Fragmentation, spreadWeight: 2, taskClasses: [{gpuMilli: 500, weight: 1}]}",
       "scoringStrategy.spreadWeight: must be a number in [0, 1], got 2"},
      {"scoringStrategy: {type: Fragmentation, cardWasteWeight: 1.5, taskClasses: [{gpuMilli: 500, weight: 1}]}",
       "scoringStrategy.cardWasteWeight: must be a number in [0, 1], got 1.5"},
      {"scoringStrategy: {type: MostAllocated, cardWasteWeight: 0}",
       "scoringStrategy.cardWasteWeight: only valid with type Fragmentation"},
      {"scoringStrategy: {type: Fragmentation, tieBreakSeed: -3, taskClasses: [{gpuMilli: 500, weight: 1}]}",
       "scoringStrategy.tieBreakSeed: must be >= 0, got -3"},
      {"scoringStrategy: {type: Fragmentation, taskClasses: [{gpuMilli: 500, weight: 1}], extra: 1}",
       "scoringStrategy"},
  };
  for (const auto& c : cases) {
    INFO(c.yaml);
    CHECK_THAT(args_error(c.yaml), Catch::StartsWith(c.error));
  }
}

TEST_CASE("Fragmentation normalisation keeps the single best node first", "[deviceshare][fragmentation]") {
  auto raw = [](int64_t policy, uint32_t order) { return (policy << 32) | order; };
  struct Case {
    const char* name;
    std::vector<int64_t> in;
    std::vector<int64_t> want;
  };
  const std::vector<Case> cases = {
      {"empty", {}, {}},
      {"one node", {raw(50, 3)}, {51}},
      {"equal policy scores: the order decides", {raw(50, 3), raw(50, 9), raw(50, 1)}, {50, 51, 50}},
      {"higher policy wins over order", {raw(56, 0), raw(48, 99)}, {57, 48}},
      {"100 stays in range, the rest capped at 99", {raw(100, 1), raw(100, 2), raw(99, 5)}, {99, 100, 99}},
      {"zero scores", {0, raw(0, 4)}, {0, 1}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto scores = c.in;
    normalize_fragmentation_scores(scores);
    CHECK(scores == c.want);
  }
}

TEST_CASE("Fragmentation reads free CPU, memory and cards from the node", "[deviceshare][fragmentation]") {
  auto plugin = make_plugin(kFragmentationArgs);
  NodeInfo node = gpu_node("n1", 2, "32", "64Gi");
  place(*plugin, node, share_pod("a", "81", "4"));
  const FragmentationNode view = fragmentation_node(node, node.extension<NodeDevices>(NodeExtensionSlot::kDevices));
  CHECK(view.free.cpu_free_milli == 28000);
  CHECK(view.free.memory_free_mib == 63 * 1024);
  CHECK(view.free.card_free_milli == std::vector<int32_t>{190, 1000});
  CHECK(view.slots == std::vector<uint32_t>{0, 1});

  const auto pod = share_pod("b", "16", "3");
  CycleState state;
  PreFilterResult pre;
  REQUIRE(plugin->pre_filter(state, *pod, pre).ok());
  const GpuRequest request = fragmentation_request(*pod, plugin->read_state(state)->request.get());
  CHECK(request.cpu_milli == 3000);
  CHECK(request.memory_mib == 1024);
  CHECK(request.gpu_milli == 160);
  CHECK(request.gpu_count == 1);
  const GpuRequest cpu_only = fragmentation_request(*pod, nullptr);
  CHECK(cpu_only.gpu_count == 0);
  CHECK(cpu_only.gpu_milli == 0);
}

TEST_CASE("Fragmentation puts a small share into the leftover of a big one", "[deviceshare][fragmentation]") {
  // Card 0 holds an 810 share (190 left). A 160 share fits both cards; the
  // measure prefers closing card 0's leftover (190 -> 30) to breaking card 1,
  // while LeastAllocated takes the emptiest card.
  auto fragmentation = make_plugin(kFragmentationArgs);
  NodeInfo node = gpu_node("n1", 2);
  CHECK(place(*fragmentation, node, share_pod("big", "81")) == std::vector<int32_t>{0});
  CHECK(place(*fragmentation, node, share_pod("small", "16")) == std::vector<int32_t>{0});

  auto spreading = make_plugin(
      "scoringStrategy: {type: LeastAllocated, resources: [{name: koordinator.sh/gpu-memory-ratio, weight: 1}]}");
  NodeInfo other = gpu_node("n1", 2);
  CHECK(place(*spreading, other, share_pod("big", "81")) == std::vector<int32_t>{0});
  CHECK(place(*spreading, other, share_pod("small", "16")) == std::vector<int32_t>{1});
}

TEST_CASE("Fragmentation scores nodes by fragmentation growth, CPU-only pods too", "[deviceshare][fragmentation]") {
  auto plugin = make_plugin(kFragmentationArgs);
  NodeInfo leftover = gpu_node("leftover", 2);
  place(*plugin, leftover, share_pod("big", "81"));
  NodeInfo fresh = gpu_node("fresh", 2);
  const auto small = share_pod("small", "16");
  // Closing a leftover lowers fragmentation; breaking a fresh card raises it.
  CHECK(policy_score_of(raw_score(*plugin, leftover, small)) > 50);
  CHECK(policy_score_of(raw_score(*plugin, fresh, small)) < 50);

  // A CPU-only pod that would leave too little CPU for the GPU tasks strands
  // the node's idle cards; on a big node it changes nothing (score 50).
  const auto cpu_pod = PodInfo::make(PodSpecBuilder("cpu").requests({{"cpu", "30"}, {"memory", "1Gi"}}).pod());
  NodeInfo small_host = gpu_node("small-host", 2, "32");
  NodeInfo big_host = gpu_node("big-host", 2, "96");
  CHECK(policy_score_of(raw_score(*plugin, small_host, cpu_pod)) < 50);
  CHECK(policy_score_of(raw_score(*plugin, big_host, cpu_pod)) == 50);

  // A node with no memory left for the whole-card class counts its cards as
  // fragment too: using memory there costs more than on a roomy node.
  const auto mem_pod = PodInfo::make(PodSpecBuilder("mem").requests({{"cpu", "1"}, {"memory", "50Gi"}}).pod());
  NodeInfo tight = gpu_node("tight", 2, "32", "64Gi");
  NodeInfo roomy = gpu_node("roomy", 2, "32", "256Gi");
  CHECK(policy_score_of(raw_score(*plugin, tight, mem_pod)) < policy_score_of(raw_score(*plugin, roomy, mem_pod)));
}

TEST_CASE("Fragmentation tie-break follows the seeded node order", "[deviceshare][fragmentation]") {
  auto plugin = make_plugin(kFragmentationArgs);
  const auto pod = share_pod("p", "81");
  std::vector<NodeInfo> nodes;
  for (int i = 0; i < 20; ++i) nodes.push_back(gpu_node("node-" + std::to_string(i), 2));
  std::vector<int64_t> scores;
  for (const auto& n : nodes) scores.push_back(raw_score(*plugin, n, pod));
  // Same state everywhere: one policy score, and the order part is the rank.
  size_t best = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    CHECK(policy_score_of(scores[i]) == policy_score_of(scores[0]));
    if (tie_break_rank(nodes[i].node()->meta.name, 7) < tie_break_rank(nodes[best].node()->meta.name, 7)) best = i;
  }
  const int64_t policy = policy_score_of(scores[0]);
  normalize_fragmentation_scores(scores);
  for (size_t i = 0; i < scores.size(); ++i) CHECK(scores[i] == policy + (i == best ? 1 : 0));
  // Another seed orders the nodes differently.
  size_t best_other = 0;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (tie_break_rank(nodes[i].node()->meta.name, 8) < tie_break_rank(nodes[best_other].node()->meta.name, 8))
      best_other = i;
  CHECK(best_other != best);
}

TEST_CASE("Fragmentation puts CPU-only pods on nodes without cards when the measure ties",
          "[deviceshare][fragmentation]") {
  auto plugin = make_plugin(kFragmentationArgs);
  auto cpu_node = [](const std::string& name) {
    NodeInfo info = NodeBuilder(name).allocatable({{"cpu", "32"}, {"memory", "64Gi"}, {"pods", "110"}}).info();
    attach_node_extensions(info);
    return info;
  };
  const auto pod = PodInfo::make(PodSpecBuilder("cpu").requests({{"cpu", "1"}, {"memory", "1Gi"}}).pod());
  struct Case {
    const char* what;
    std::vector<NodeInfo> nodes;
    std::vector<size_t> best;  // the nodes that get the top normalised score
  };
  const std::vector<Case> cases = {
      // A big GPU node is as good to the measure (50) as a CPU node: the CPU nodes win.
      {"a GPU node and CPU nodes", {gpu_node("gpu", 2, "96"), cpu_node("cpu-a"), cpu_node("cpu-b")}, {1, 2}},
      // No GPU anywhere: every node ties, the strategy prefers none.
      {"CPU nodes only", {cpu_node("a"), cpu_node("b"), cpu_node("c")}, {0, 1, 2}},
      // GPU nodes only: the seeded order picks one.
      {"GPU nodes only", {gpu_node("g1", 2, "96"), gpu_node("g2", 2, "96")},
       {tie_break_rank("g1", 7) < tie_break_rank("g2", 7) ? size_t{0} : size_t{1}}},
      // A GPU node whose cards the pod would strand scores below a CPU node.
      {"a small GPU node", {gpu_node("gpu", 2, "2"), cpu_node("cpu")}, {1}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    std::vector<int64_t> scores;
    for (const auto& n : c.nodes) scores.push_back(raw_score(*plugin, n, pod));
    normalize_fragmentation_scores(scores);
    const int64_t top = *std::max_element(scores.begin(), scores.end());
    std::vector<size_t> best;
    for (size_t i = 0; i < scores.size(); ++i)
      if (scores[i] == top) best.push_back(i);
    CHECK(best == c.best);
    CHECK(top == 51);
  }
}

TEST_CASE("Fragmentation's card choice yields to the allocator when the card lacks what else the pod asks",
          "[deviceshare][fragmentation]") {
  // The measure reads gpu-core alone. Card 0 keeps half its core but only 8Gi
  // of its 80Gi memory: it is the card the measure prefers for a small share,
  // but a share that also asks 16Gi of memory cannot have it. Reserve then
  // takes what the allocator chooses instead of failing the pod.
  auto plugin = make_plugin(kFragmentationArgs);
  NodeInfo node = gpu_node("n", 2);
  auto pod_of = [](const std::string& name, const std::string& core, const std::string& memory) {
    return PodInfo::make(PodSpecBuilder(name)
                             .requests({{"cpu", "2"}, {"memory", "1Gi"}, {"koordinator.sh/gpu-core", core},
                                        {"koordinator.sh/gpu-memory", memory}})
                             .pod());
  };
  CHECK(place(*plugin, node, pod_of("memory-heavy", "50", "72Gi")) == std::vector<int32_t>{0});
  CHECK(place(*plugin, node, pod_of("fits-card-0", "10", "4Gi")) == std::vector<int32_t>{0});  // the measure's card
  CHECK(place(*plugin, node, pod_of("needs-memory", "10", "16Gi")) == std::vector<int32_t>{1});
}

TEST_CASE("Fragmentation scores CPU-only pods exactly as the full measure does", "[deviceshare][fragmentation]") {
  // A CPU-only pod that takes no class's CPU or memory scores 50 without
  // evaluating the measure: compare with the measure itself on node states
  // where classes do and do not lose their host (4 / 2 / 8 CPUs, 16Gi).
  auto plugin = make_plugin(kFragmentationArgs);
  const auto args = DeviceShareArgs::from_yaml(YAML::Load(kFragmentationArgs));
  const char* node_cpus[] = {"3", "5", "9", "12", "40"};
  const char* node_memory[] = {"10Gi", "17Gi", "64Gi"};
  const char* pod_cpus[] = {"500m", "1", "2", "4", "7"};
  const char* pod_memory[] = {"512Mi", "2Gi", "8Gi"};
  for (const char* nc : node_cpus)
    for (const char* nm : node_memory)
      for (const char* pc : pod_cpus)
        for (const char* pm : pod_memory) {
          INFO("node " << nc << "/" << nm << " pod " << pc << "/" << pm);
          NodeInfo node = gpu_node("n", 2, nc, nm);
          place(*plugin, node, share_pod("big", "81", "500m"));
          const auto pod = PodInfo::make(PodSpecBuilder("cpu").requests({{"cpu", pc}, {"memory", pm}}).pod());
          const FragmentationNode view = fragmentation_node(node, node.extension<NodeDevices>(NodeExtensionSlot::kDevices));
          const GpuRequest request = fragmentation_request(*pod, nullptr);
          if (view.free.cpu_free_milli < request.cpu_milli) continue;  // Filter rejects the node
          auto placement = best_fragmentation_placement(view.free, request, *args.fragmentation.tasks,
                                                        args.fragmentation.tasks->access_for_model(""));
          REQUIRE(placement);
          CHECK(policy_score_of(raw_score(*plugin, node, pod)) ==
                fragmentation_policy_score(*placement, view.free, request, 0));
        }
}

TEST_CASE("Fragmentation score memo gives the same decisions as scoring afresh", "[deviceshare][fragmentation]") {
  // A random sequence of shares placed by one plugin; every score is checked
  // against a node copy whose memo was cleared (apply_device clears it).
  auto plugin = make_plugin(kFragmentationArgs);
  std::vector<NodeInfo> nodes;
  for (int i = 0; i < 6; ++i) nodes.push_back(gpu_node("n" + std::to_string(i), 1 + i % 4, i % 2 ? "16" : "64"));
  const char* shares[] = {"81", "16", "47", "32", "100", "23"};
  uint64_t x = 12345;
  for (int step = 0; step < 120; ++step) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto pod = share_pod("p" + std::to_string(step), shares[(x >> 33) % 6], (x >> 40) % 2 ? "1" : "3");
    int64_t best_score = -1;
    size_t best = 0;
    for (size_t i = 0; i < nodes.size(); ++i) {
      CycleState state;
      PreFilterResult pre;
      REQUIRE(plugin->pre_filter(state, *pod, pre).ok());
      if (!plugin->filter(state, *pod, nodes[i]).ok()) continue;
      const int64_t memo = raw_score(*plugin, nodes[i], pod);
      CHECK(raw_score(*plugin, nodes[i], pod) == memo);  // a hit now
      NodeInfo fresh = nodes[i];
      auto* devices = fresh.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices);
      devices->fragmentation_cache().clear();
      CHECK(raw_score(*plugin, fresh, pod) == memo);
      if (memo > best_score) best_score = memo, best = i;
    }
    if (best_score >= 0) place(*plugin, nodes[best], pod);
  }
}
