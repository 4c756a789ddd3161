#include "test/plugins/descheduler/helpers.hpp"

#include "plugins/descheduler/gpu_defrag.hpp"

namespace troupe::plugins::descheduler {
namespace {

using testing::TestPod;

constexpr int64_t kGi = 1024LL * 1024 * 1024;

std::shared_ptr<const Pod> pod(const std::string& name) { return TestPod(name).ptr(); }

/// A card of 16Gi with these shared users ({pod, core%, memory Gi}).
GpuCard card(int32_t minor, std::vector<std::tuple<std::shared_ptr<const Pod>, int64_t, int64_t>> users = {}) {
  GpuCard c;
  c.minor = minor;
  c.memory_total = 16 * kGi;
  for (auto& [p, core, gi] : users) c.users.push_back({p, core, gi * kGi});
  return c;
}

std::vector<std::string> moved(const GpuDefragPlan& plan) {
  std::vector<std::string> names;
  for (const auto& m : plan.migrations) names.push_back(m.pod->meta.name + "->" + m.to_node);
  return names;
}

TEST_CASE("gpu defrag: a free card needs no migration", "[descheduler][defrag]") {
  const std::vector<GpuNode> nodes = {{"a", {card(0, {{pod("s"), 50, 8}}), card(1)}}};
  const auto plan = plan_gpu_defrag(nodes, {{pod("whole"), 1}}, {});
  CHECK(plan.migrations.empty());
  REQUIRE(plan.already_fit.size() == 1);
  // The free card is now reserved: a second whole-card pod must free another.
  const auto two = plan_gpu_defrag(nodes, {{pod("w1"), 1}, {pod("w2"), 1}}, {});
  CHECK(two.already_fit.size() == 1);
  CHECK(two.unserved.size() == 1);  // s has nowhere else to go (single node)
}

TEST_CASE("gpu defrag: moves the fewest shared pods", "[descheduler][defrag]") {
  auto s1 = pod("s1"), s2 = pod("s2"), s3 = pod("s3");
  const std::vector<GpuNode> nodes = {
      {"a", {card(0, {{s1, 30, 4}, {s2, 30, 4}}), card(1, {{s3, 50, 1}})}},
      {"b", {card(0, {{pod("x"), 20, 2}})}},
  };
  const auto plan = plan_gpu_defrag(nodes, {{pod("whole"), 1}}, {});
  REQUIRE(plan.freed.size() == 1);
  CHECK(plan.freed[0].node == "a");
  CHECK(plan.freed[0].minors == std::vector<int32_t>{1});
  CHECK(moved(plan) == std::vector<std::string>{"s3->b"});  // one move of 1Gi beats b's one move of 2Gi
  CHECK(plan.unserved.empty());
}

TEST_CASE("gpu defrag: picks the node needing the fewest migrations", "[descheduler][defrag]") {
  const std::vector<GpuNode> nodes = {
      {"a", {card(0, {{pod("a1"), 10, 1}, {pod("a2"), 10, 1}})}},
      {"b", {card(0, {{pod("b1"), 10, 1}})}},
      {"c", {card(0, {{pod("c1"), 10, 1}, {pod("c2"), 10, 1}, {pod("c3"), 10, 1}})}},
  };
  const auto plan = plan_gpu_defrag(nodes, {{pod("whole"), 1}}, {});
  REQUIRE(plan.freed.size() == 1);
  CHECK(plan.freed[0].node == "b");
  CHECK(moved(plan) == std::vector<std::string>{"b1->c"});  // best fit: c has the least room left after
}

TEST_CASE("gpu defrag: refusals, room, limits", "[descheduler][defrag]") {
  struct Case {
    const char* name;
    std::vector<GpuNode> nodes;
    GpuDefragArgs args;
    size_t migrations;
    const char* unserved;
  };
  auto refuse_all = [](const Pod&) -> std::optional<std::string> { return std::string("pod is a DaemonSet pod"); };
  const std::vector<Case> cases = {
      {"pod may not migrate",
       {{"a", {card(0, {{pod("s"), 50, 8}})}}, {"b", {card(0, {{pod("t"), 10, 1}})}}},
       {std::nullopt, std::nullopt, refuse_all}, 0, "may not migrate: pod is a DaemonSet pod"},
      {"no room elsewhere",
       {{"a", {card(0, {{pod("s"), 50, 8}})}}, {"b", {card(0, {{pod("t"), 60, 1}})}}},
       {}, 0, "no other node has room"},
      {"per-node limit",
       {{"a", {card(0, {{pod("s1"), 10, 1}, {pod("s2"), 10, 1}})}}, {"b", {card(0)}}},
       {std::nullopt, 1, nullptr}, 0, ""},  // b's card is free: the pod fits as is
      {"per-node limit blocks",
       {{"b", {card(0, {{pod("t"), 95, 1}}), card(1, {{pod("u"), 50, 1}})}}, {"a", {card(0, {{pod("s1"), 10, 1}, {pod("s2"), 10, 1}})}}},
       {std::nullopt, 1, nullptr}, 0, "above the per-node limit"},
      {"total limit blocks",
       {{"a", {card(0, {{pod("s1"), 10, 1}})}}, {"b", {card(0, {{pod("t"), 10, 1}})}}},
       {0, std::nullopt, nullptr}, 0, "above what is left of the total limit"},
      {"unhealthy cards do not count",
       {{"a", {[] { auto c = card(0); c.healthy = false; return c; }()}}},
       {}, 0, "fewer than 1 healthy cards"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const auto plan = plan_gpu_defrag(c.nodes, {{pod("whole"), 1}}, c.args);
    CHECK(plan.migrations.size() == c.migrations);
    if (*c.unserved) {
      REQUIRE(plan.unserved.size() == 1);
      CHECK_THAT(plan.unserved[0].second, Catch::Contains(c.unserved));
    } else {
      CHECK(plan.unserved.empty());
    }
  }
}

TEST_CASE("gpu defrag: a pod the plan moves already is not moved again", "[descheduler][defrag]") {
  auto s = pod("s"), t = pod("t"), u = pod("u");
  const std::vector<GpuNode> nodes = {
      {"a", {card(0, {{s, 10, 1}})}},
      {"b", {card(0, {{t, 10, 1}})}},
      {"c", {card(0, {{u, 10, 1}})}},
  };
  GpuDefragArgs args;
  args.migration_refusal = [](const Pod& p) -> std::optional<std::string> {
    if (p.meta.name == "u") return std::string("pod is a DaemonSet pod");
    return std::nullopt;
  };
  // w1 frees a's card by moving s onto b's. w2 could only free b's card, where s now is in the
  // plan but not yet in the cluster: moving s a second time would make two jobs for one pod.
  const auto plan = plan_gpu_defrag(nodes, {{pod("w1"), 1}, {pod("w2"), 1}}, args);
  CHECK(moved(plan) == std::vector<std::string>{"s->b"});
  REQUIRE(plan.unserved.size() == 1);
  CHECK(plan.unserved[0].first->meta.name == "w2");
}

TEST_CASE("gpu defrag: the per-node limit counts every migration the plan takes from the node",
          "[descheduler][defrag]") {
  // Two pending pods each need one card of a (b's pod may not move); each card needs one move:
  // two moves from a.
  const std::vector<GpuNode> nodes = {
      {"b", {card(0, {{pod("t"), 10, 1}})}},
      {"a", {card(0, {{pod("s1"), 10, 1}}), card(1, {{pod("s2"), 10, 1}})}},
  };
  GpuDefragArgs args;
  args.max_migrations_per_node = 1;
  args.migration_refusal = [](const Pod& p) -> std::optional<std::string> {
    if (p.meta.name == "t") return std::string("pod is a DaemonSet pod");
    return std::nullopt;
  };
  const auto plan = plan_gpu_defrag(nodes, {{pod("w1"), 1}, {pod("w2"), 1}}, args);
  CHECK(plan.migrations.size() == 1);
  REQUIRE(plan.unserved.size() == 1);
  CHECK_THAT(plan.unserved[0].second, Catch::Contains("above the per-node limit"));
}

TEST_CASE("gpu defrag: multi-card requests and pods spanning cards", "[descheduler][defrag]") {
  auto span = pod("span");
  const std::vector<GpuNode> nodes = {
      {"a", {card(0, {{span, 50, 4}}), card(1, {{span, 50, 4}}), card(2, {{pod("x"), 10, 5}})}},
      {"b", {card(0), card(1, {{pod("y"), 90, 15}})}},
  };
  // Two cards: a's cards 0 and 1 share one pod (one migration, 100% core / 8Gi together).
  const auto plan = plan_gpu_defrag(nodes, {{pod("two"), 2}}, {});
  REQUIRE(plan.freed.size() == 1);
  CHECK(plan.freed[0].node == "a");
  CHECK(plan.freed[0].minors.size() == 2);
  CHECK(moved(plan) == std::vector<std::string>{"span->b"});
  // Equal proposals (one move of 1Gi each): the node name decides.
  const std::vector<GpuNode> partial = {
      {"a", {card(0, {{span, 50, 4}}), card(1, {{span, 50, 4}, {pod("p"), 10, 1}}), card(2, {{pod("q"), 10, 1}})}},
      {"b", {card(0, {{pod("z"), 10, 1}})}},
  };
  const auto one = plan_gpu_defrag(partial, {{pod("one"), 1}}, {});
  REQUIRE(one.freed.size() == 1);
  CHECK(moved(one) == std::vector<std::string>{"q->b"});
  CHECK(plan_gpu_defrag(nodes, {{pod("none"), 0}}, {}).unserved.size() == 1);
}

}  // namespace
}  // namespace troupe::plugins::descheduler
