// GPUDefragmentation's args, the GPU inventory read from Devices and pod
// annotations, and one round bounded by the cycle's eviction limits.
#include "test/plugins/descheduler/helpers.hpp"

#include "plugins/descheduler/gpu_defrag_args.hpp"
#include "plugins/descheduler/gpu_defrag_round.hpp"
#include "plugins/descheduler/gpu_inventory.hpp"

namespace troupe::plugins::descheduler {
namespace {

using testing::TestPod;

constexpr int64_t kGi = 1024LL * 1024 * 1024;

// ---- args -------------------------------------------------------------------

TEST_CASE("gpu defrag args: table", "[descheduler][defrag][args]") {
  struct Case {
    const char* yaml;
    std::optional<int32_t> per_cycle, per_node;
    bool dry_run;
    const char* error;  // substring, or nullptr
  };
  const Case cases[] = {
      {"", std::nullopt, std::nullopt, false, nullptr},
      {"{}", std::nullopt, std::nullopt, false, nullptr},
      {"maxMigrationsPerCycle: 3", 3, std::nullopt, false, nullptr},
      {"maxMigrationsPerNode: 2\ndryRun: true", std::nullopt, 2, true, nullptr},
      {"maxMigrationsPerCycle: 0", {}, {}, false, "maxMigrationsPerCycle: must be at least 1, got 0"},
      {"maxMigrationsPerNode: -1", {}, {}, false, "maxMigrationsPerNode: must be at least 1, got -1"},
      {"maxMigrationsPerCycle: many", {}, {}, false, "maxMigrationsPerCycle"},
      {"maxMigrationsPerCycle: 99999999999", {}, {}, false, "maxMigrationsPerCycle: is too large"},
      {"dryRun: maybe", {}, {}, false, "dryRun"},
      {"maxMigrations: 1", {}, {}, false, "maxMigrations"},
      {"[1, 2]", {}, {}, false, ""},
  };
  for (const Case& c : cases) {
    INFO(c.yaml);
    const YAML::Node node = std::string(c.yaml).empty() ? YAML::Node() : YAML::Load(c.yaml);
    auto args = decode_gpu_defrag_args(node);
    if (c.error) {
      REQUIRE_FALSE(args);
      CHECK_THAT(args.message(), Catch::Matchers::Contains(c.error));
      continue;
    }
    REQUIRE(args);
    CHECK(args->max_migrations_per_cycle == c.per_cycle);
    CHECK(args->max_migrations_per_node == c.per_node);
    CHECK(args->dry_run == c.dry_run);
  }
}

// ---- inventory --------------------------------------------------------------

DeviceInfo gpu(int32_t minor, bool healthy = true, const char* memory = "16Gi") {
  DeviceInfo info;
  info.type = "gpu";
  info.minor = minor;
  info.health = healthy;
  info.resources = testing::rl({{"koordinator.sh/gpu-core", "100"},
                                {"koordinator.sh/gpu-memory", memory},
                                {"koordinator.sh/gpu-memory-ratio", "100"}});
  return info;
}

Device device_of(std::vector<DeviceInfo> devices) {
  Device d;
  d.meta.name = "n";
  d.devices = std::move(devices);
  return d;
}

std::shared_ptr<const Pod> on_gpus(const std::string& name, const std::string& allocated) {
  return TestPod(name).node("n").annotate("scheduling.koordinator.sh/device-allocated", allocated).ptr();
}

TEST_CASE("gpu inventory: cards from the Device, users from annotations", "[descheduler][defrag]") {
  DeviceInfo rdma;
  rdma.type = "rdma";
  rdma.minor = 0;
  rdma.health = true;
  const Device device = device_of({gpu(0), gpu(1, false), rdma, gpu(2, true, "8Gi")});
  const auto shared = on_gpus("shared", R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"50","koordinator.sh/gpu-memory":"4Gi","koordinator.sh/gpu-memory-ratio":"25"}}]})");
  const auto ratio = on_gpus("ratio", R"({"gpu":[{"minor":2,"resources":{"koordinator.sh/gpu-core":"30","koordinator.sh/gpu-memory-ratio":"50"}}]})");
  const auto gone_card = on_gpus("gone", R"({"gpu":[{"minor":7,"resources":{"koordinator.sh/gpu-core":"100"}}]})");
  const auto broken = on_gpus("broken", "{not json");
  const auto plain = TestPod("plain").node("n").ptr();
  const GpuNode node = gpu_node_from("n", device, {shared, ratio, gone_card, broken, plain});
  CHECK(node.name == "n");
  REQUIRE(node.cards.size() == 3);  // the RDMA NIC is not a card
  CHECK(node.cards[0].minor == 0);
  CHECK(node.cards[0].memory_total == 16 * kGi);
  REQUIRE(node.cards[0].users.size() == 1);
  CHECK(node.cards[0].users[0].pod == shared);
  CHECK(node.cards[0].users[0].core == 50);
  CHECK(node.cards[0].users[0].memory == 4 * kGi);
  CHECK_FALSE(node.cards[1].healthy);
  CHECK(node.cards[1].users.empty());
  REQUIRE(node.cards[2].users.size() == 1);
  CHECK(node.cards[2].users[0].memory == 4 * kGi);  // 50% of an 8Gi card
}

TEST_CASE("gpu inventory: whole-GPU requests", "[descheduler][defrag]") {
  struct Case {
    testing::Amounts requests;
    std::optional<int32_t> cards;
  };
  const Case cases[] = {
      {{{"nvidia.com/gpu", "1"}}, 1},
      {{{"nvidia.com/gpu", "4"}}, 4},
      {{{"koordinator.sh/gpu", "200"}}, 2},
      {{{"koordinator.sh/gpu", "100"}}, 1},
      {{{"koordinator.sh/gpu", "50"}}, std::nullopt},  // a share
      {{{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory-ratio", "50"}}, std::nullopt},
      {{{"koordinator.sh/gpu-memory", "4Gi"}}, std::nullopt},
      {{{"cpu", "1"}}, std::nullopt},
      {{{"koordinator.sh/gpu", "150"}}, std::nullopt},  // DeviceShare rejects it
  };
  for (const Case& c : cases) {
    INFO(c.requests.front().first << "=" << c.requests.front().second);
    CHECK(whole_gpu_request(*TestPod("p").requests(c.requests).ptr()) == c.cards);
  }
}

TEST_CASE("gpu inventory: which pods hold only shares", "[descheduler][defrag]") {
  struct Case {
    const char* annotation;  // nullptr: none
    bool only_shares;
  };
  const Case cases[] = {
      {nullptr, false},
      {"{not json", false},
      {R"({"rdma":[{"minor":0,"resources":{"koordinator.sh/rdma":"1"}}]})", false},
      {R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"50"}}]})", true},
      {R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"50"}},{"minor":1,"resources":{"koordinator.sh/gpu-core":"50"}}]})", true},
      {R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100"}}]})", false},
      {R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100"}},{"minor":1,"resources":{"koordinator.sh/gpu-core":"40"}}]})", false},
  };
  for (const Case& c : cases) {
    INFO((c.annotation ? c.annotation : "(none)"));
    TestPod pod("p");
    if (c.annotation) pod.annotate("scheduling.koordinator.sh/device-allocated", c.annotation);
    CHECK(holds_only_gpu_shares(*pod.ptr()) == c.only_shares);
  }
}

// ---- one round under the cycle's limits ---------------------------------------

GpuCard card(int32_t minor, std::vector<std::pair<std::shared_ptr<const Pod>, int64_t>> users = {}) {
  GpuCard c;
  c.minor = minor;
  c.memory_total = 16 * kGi;
  for (auto& [p, core] : users) c.users.push_back({p, core, kGi});
  return c;
}

std::shared_ptr<const Pod> in_ns(const std::string& name, const std::string& ns) { return TestPod(name, ns).ptr(); }

/// Two nodes, one card each half used by a shared pod, and a third node
/// with an empty-enough card: a whole-GPU pod needs one migration.
std::vector<GpuNode> one_per_card(const std::string& ns_a = "default", const std::string& ns_b = "default") {
  return {{"a", {card(0, {{in_ns("sa", ns_a), 40}})}},
          {"b", {card(0, {{in_ns("sb", ns_b), 30}})}},
          {"c", {card(0, {{in_ns("sc", "default"), 20}})}}};
}

TEST_CASE("gpu defrag round: limits", "[descheduler][defrag]") {
  struct Case {
    const char* name;
    GpuDefragPluginArgs args;
    EvictionLimits limits;
    int pending;
    size_t migrations;
    size_t unserved;
  };
  const Case cases[] = {
      {"no limits: each pending pod gets a card", {}, {}, 2, 2, 0},
      {"maxMigrationsPerCycle", {1, std::nullopt, false}, {}, 2, 1, 1},
      {"maxNoOfPodsToEvictTotal", {}, {std::nullopt, std::nullopt, 1}, 2, 1, 1},
      {"the tighter of both", {3, std::nullopt, false}, {std::nullopt, std::nullopt, 1}, 2, 1, 1},
      {"total already spent by an earlier plugin", {}, {std::nullopt, std::nullopt, 0}, 1, 0, 1},
      {"maxNoOfPodsToEvictPerNamespace", {}, {std::nullopt, 1, std::nullopt}, 2, 1, 1},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    std::vector<PendingGpuPod> pending;
    for (int i = 0; i < c.pending; ++i) pending.push_back({TestPod("whole" + std::to_string(i)).ptr(), 1});
    EvictionLimits limits = c.limits;
    const auto plan = plan_gpu_defrag_round(one_per_card(), pending, c.args, nullptr, limits);
    CHECK(plan.migrations.size() == c.migrations);
    CHECK(plan.unserved.size() == c.unserved);
    CHECK(limits.evicted() == c.migrations);  // every kept migration is charged
  }
}

TEST_CASE("gpu defrag round: a group a limit refuses is dropped whole", "[descheduler][defrag]") {
  // Freeing node a's card needs both its pods moved; one namespace may lose one pod.
  const std::vector<GpuNode> nodes = {{"a", {card(0, {{in_ns("x1", "team"), 20}, {in_ns("x2", "team"), 20}})}},
                                      {"b", {card(0, {{in_ns("y", "other"), 10}})}}};
  EvictionLimits limits(std::nullopt, 1, std::nullopt);
  // b's card holds one pod, but it has nowhere to go except a, which is being freed... so
  // restrict to a single pending pod and a refusal on b's pod: only a's card can be freed.
  auto refusal = [](const Pod& pod) -> std::optional<std::string> {
    if (pod.meta.name == "y") return std::string("protected");
    return std::nullopt;
  };
  const auto plan = plan_gpu_defrag_round(nodes, {{TestPod("whole").ptr(), 1}}, {}, refusal, limits);
  CHECK(plan.migrations.empty());
  REQUIRE(plan.unserved.size() == 1);
  CHECK_THAT(plan.unserved[0].second, Catch::Matchers::Contains("maxNoOfPodsToEvictPerNamespace"));
  CHECK(limits.evicted() == 0);
}

TEST_CASE("gpu defrag round: the refusal keeps pods in place", "[descheduler][defrag]") {
  EvictionLimits limits;
  auto refuse_all = [](const Pod&) -> std::optional<std::string> { return std::string("PodDisruptionBudget pdb allows no disruption"); };
  const auto plan = plan_gpu_defrag_round(one_per_card(), {{TestPod("whole").ptr(), 1}}, {}, refuse_all, limits);
  CHECK(plan.migrations.empty());
  REQUIRE(plan.unserved.size() == 1);
  CHECK_THAT(plan.unserved[0].second, Catch::Matchers::Contains("PodDisruptionBudget"));
}

}  // namespace
}  // namespace troupe::plugins::descheduler
