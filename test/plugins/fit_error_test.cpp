#include <catch2/catch.hpp>

#include "plugins/framework/fit_error.hpp"
#include "plugins/framework/normalize_score.hpp"

using namespace troupe::plugins;

TEST_CASE("FitError message lists the reasons sorted as strings", "[fit_error]") {
  struct Case {
    int64_t total;
    std::map<std::string, int64_t> counts;
    std::string post_filter;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {5,
       {{"Insufficient cpu", 3}, {"node(s) had untolerated taint {k: v}", 2}},
       "",
       "0/5 nodes are available: 2 node(s) had untolerated taint {k: v}, 3 Insufficient cpu."},
      {5,
       {{"node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }", 1},
        {"Insufficient cpu", 2},
        {"Insufficient nvidia.com/gpu", 2}},
       "preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.",
       "0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 "
       "Insufficient cpu, 2 Insufficient nvidia.com/gpu. preemption: 0/5 nodes are available: 5 Preemption is not "
       "helpful for scheduling.."},
      // Go's sort.Strings: "10 ..." sorts before "9 ...".
      {19, {{"Too many pods", 9}, {"Insufficient memory", 10}}, "",
       "0/19 nodes are available: 10 Insufficient memory, 9 Too many pods."},
      {0, {}, "", "0/0 nodes are available:"},
      {3, {{"node(s) were unschedulable", 3}}, "", "0/3 nodes are available: 3 node(s) were unschedulable."},
  };
  for (const auto& c : cases) CHECK(fit_error_message(c.total, c.counts, c.post_filter) == c.expected);
}

TEST_CASE("a PreFilter rejection replaces the histogram", "[fit_error]") {
  CHECK(pre_filter_fit_error_message(4, "pod affinity terms conflict") ==
        "0/4 nodes are available: pod affinity terms conflict.");
  CHECK(pre_filter_fit_error_message(4, "x", "preemption: not eligible") ==
        "0/4 nodes are available: x. preemption: not eligible.");
}

TEST_CASE("FailureHistogram counts every reason of every node and merges partitions", "[fit_error]") {
  FailureHistogram a, b;
  PluginStatus fit(Code::unschedulable, std::vector<std::string>{"Insufficient cpu", "Insufficient memory"});
  fit.plugin = "NodeResourcesFit";
  PluginStatus taint = PluginStatus::unresolvable("node(s) had untolerated taint {k: v}");
  taint.plugin = "TaintToleration";
  a.add(fit);
  a.add(taint);
  b.add(fit);
  b.add_reason("node(s) didn't satisfy plugin NodeAffinity", 2, "NodeAffinity");
  a.merge(b);
  CHECK(a.rejected_nodes() == 5);
  CHECK(a.counts().at("Insufficient cpu") == 2);
  CHECK(a.counts().at("Insufficient memory") == 2);
  CHECK(a.counts().at("node(s) had untolerated taint {k: v}") == 1);
  CHECK(a.plugins() == std::set<std::string>{"NodeAffinity", "NodeResourcesFit", "TaintToleration"});
  CHECK(fit_error_message(5, a.counts()) ==
        "0/5 nodes are available: 1 node(s) had untolerated taint {k: v}, 2 Insufficient cpu, 2 Insufficient memory, "
        "2 node(s) didn't satisfy plugin NodeAffinity.");
}

TEST_CASE("FailureHistogram copies and moves count on their own", "[fit_error]") {
  PluginStatus fit = PluginStatus::unschedulable("Insufficient cpu");
  fit.plugin = "NodeResourcesFit";
  PluginStatus taint = PluginStatus::unresolvable("node(s) had untolerated taint {k: v}");
  taint.plugin = "TaintToleration";
  // Runs of one reason, then another, then the first again.
  FailureHistogram a;
  for (const auto* status : {&fit, &fit, &taint, &taint, &taint, &fit}) a.add(*status);
  CHECK(a.counts() == std::map<std::string, int64_t>{{"Insufficient cpu", 3}, {"node(s) had untolerated taint {k: v}", 3}});
  CHECK(a.plugins() == std::set<std::string>{"NodeResourcesFit", "TaintToleration"});

  // A copy counts into its own map; the source keeps counting into its own.
  FailureHistogram copy = a;
  copy.add(fit);
  a.add(taint);
  CHECK(copy.counts().at("Insufficient cpu") == 4);
  CHECK(copy.counts().at("node(s) had untolerated taint {k: v}") == 3);
  CHECK(a.counts().at("Insufficient cpu") == 3);
  CHECK(a.counts().at("node(s) had untolerated taint {k: v}") == 4);

  // A moved-from histogram that counts again does not touch the one it moved into.
  FailureHistogram moved = std::move(a);
  a = FailureHistogram{};
  a.add(taint);
  moved.add(taint);
  CHECK(a.counts() == std::map<std::string, int64_t>{{"node(s) had untolerated taint {k: v}", 1}});
  CHECK(moved.counts().at("node(s) had untolerated taint {k: v}") == 5);
  FailureHistogram assigned;
  assigned.add(fit);
  assigned = copy;
  assigned.add(fit);
  CHECK(assigned.counts().at("Insufficient cpu") == 5);
  CHECK(copy.counts().at("Insufficient cpu") == 4);
  assigned = std::move(moved);
  assigned.add_reason("Insufficient cpu", 2, "NodeResourcesFit");
  CHECK(assigned.counts().at("Insufficient cpu") == 5);
  CHECK(assigned.rejected_nodes() == 10);
}

TEST_CASE("numFeasibleNodesToFind follows kube-scheduler's adaptive rule", "[fit_error]") {
  struct Case {
    int32_t percentage;
    int64_t nodes;
    int64_t expected;
  };
  const std::vector<Case> cases = {
      {0, 0, 0},        {0, 10, 10},      {0, 99, 99},       {0, 100, 100},  // 50% of 100 = 50 -> at least 100
      {0, 500, 230},    // 50 - 500/125 = 46% -> 230
      {0, 1000, 420},   // 42%
      {0, 5000, 500},   // 50 - 40 = 10% -> 500
      {0, 6000, 300},   // 50 - 48 = 2% -> floor 5% -> 300
      {0, 10000, 500},  // 5%
      {10, 50, 50},     {10, 500, 100},   // 50 -> at least 100
      {10, 5000, 500},  {30, 1000, 300},  {100, 5000, 5000}, {1, 100000, 1000},
  };
  for (const auto& c : cases) {
    INFO("percentage " << c.percentage << ", nodes " << c.nodes);
    CHECK(num_feasible_nodes_to_find(c.percentage, c.nodes) == c.expected);
  }
}

TEST_CASE("DefaultNormalizeScore scales to 100 and reverses", "[normalize]") {
  struct Case {
    std::vector<int64_t> in;
    bool reverse;
    std::vector<int64_t> out;
  };
  const std::vector<Case> cases = {
      {{1, 2, 3, 4}, false, {25, 50, 75, 100}},
      {{1, 2, 3, 4}, true, {75, 50, 25, 0}},
      {{1000, 10, 20, 30}, false, {100, 1, 2, 3}},
      {{1000, 10, 20, 30}, true, {0, 99, 98, 97}},
      {{1, 1, 1, 1}, false, {100, 100, 100, 100}},
      {{0, 0, 0}, false, {0, 0, 0}},
      {{0, 0, 0}, true, {100, 100, 100}},
      {{0, 2, 3}, false, {0, 66, 100}},
      {{}, false, {}},
  };
  for (auto c : cases) {
    default_normalize_score(100, c.reverse, c.in);
    CHECK(c.in == c.out);
  }
}
