#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "model/node_metric.hpp"
#include "sim/simulated_usage.hpp"

using namespace troupe;
using namespace troupe::sim;

namespace {

Node node(const std::string& base_usage = "") {
  std::string annotations =
      base_usage.empty() ? "{}" : R"({"sim.troupe.dev/base-usage":)" + std::string("\"") + base_usage + "\"}";
  auto decoded = decode_node_json(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","annotations":)" +
                                  annotations + R"(},"status":{"allocatable":{"cpu":"10","memory":"40Gi"}}})");
  REQUIRE(decoded.ok());
  return *decoded;
}

struct PodCase {
  std::string name;
  std::string node_name = "n1";
  std::string cpu = "1";
  std::string memory = "1Gi";
  std::string ratio = "";  // empty: no annotation
  std::string phase = "Running";
};

Pod pod(const PodCase& c) {
  std::string annotations = c.ratio.empty() ? "{}" : R"({"sim.troupe.dev/usage-ratio":")" + c.ratio + "\"}";
  std::string requests = c.cpu.empty() ? "{}" : R"({"cpu":")" + c.cpu + R"(","memory":")" + c.memory + "\"}";
  auto decoded = decode_pod_json(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + c.name +
                                 R"(","namespace":"default","annotations":)" + annotations +
                                 R"(},"spec":{"nodeName":")" + c.node_name +
                                 R"(","containers":[{"name":"c","image":"i","resources":{"requests":)" + requests +
                                 R"(}}]},"status":{"phase":")" + c.phase + "\"}}");
  REQUIRE(decoded.ok());
  return *decoded;
}

std::string text(const ResourceList& list, const char* name) { return list.get(name).to_string(); }

}  // namespace

TEST_CASE("usage ratios are finite numbers from 0 to 100", "[koordlet]") {
  struct Case {
    const char* text;
    double ratio;  // < 0: an error
    const char* error;
  };
  const Case cases[] = {
      {"1", 1, ""},          {"0.9", 0.9, ""},     {"0", 0, ""},           {"100", 100, ""},
      {"2.5", 2.5, ""},      {"1e-1", 0.1, ""},    {"", -1, "is not a number"},
      {"abc", -1, "\"abc\" is not a number"},      {"0.9x", -1, "is not a number"},
      {" 1", -1, ""},        {"nan", -1, "is not a number"},               {"inf", -1, "is not a number"},
      {"-0.5", -1, "\"-0.5\" must be from 0 to 100"},                       {"100.5", -1, "must be from 0 to 100"},
  };
  for (const Case& c : cases) {
    INFO("ratio text \"" << c.text << "\"");
    auto parsed = parse_usage_ratio(c.text);
    if (c.ratio >= 0) {
      REQUIRE(parsed.ok());
      CHECK(*parsed == Approx(c.ratio));
    } else if (std::string(c.text) == " 1") {
      // strtod skips leading blanks; the ratio is still read (as "1").
      CHECK((parsed.ok() && *parsed == 1.0));
    } else {
      REQUIRE_FALSE(parsed.ok());
      CHECK_THAT(parsed.message(), Catch::Contains(c.error));
    }
  }
}

TEST_CASE("the fake koordlet's NodeMetric: pods' requests x their ratio plus the node's base usage", "[koordlet]") {
  struct Case {
    const char* what;
    std::string base_usage;
    std::vector<PodCase> pods;
    double default_ratio;
    std::map<std::string, std::pair<std::string, std::string>> pod_usage;  // name -> (cpu, memory)
    std::string node_cpu, node_memory, system_cpu;
    std::string warning;  // a substring of the only warning; empty: none
  };
  const std::vector<Case> cases = {
      {"no annotation: usage = requests", "", {{"a"}}, 1.0, {{"a", {"1", "1Gi"}}}, "1", "1Gi", "0", ""},
      {"annotated ratio scales cpu and memory", "", {{"a", "n1", "2", "2Gi", "0.9"}}, 1.0,
       {{"a", {"1800m", "1932735283"}}}, "1800m", "1932735283", "0", ""},
      {"ratio above 1 (over-use)", "", {{"a", "n1", "1", "1Gi", "1.5"}}, 1.0, {{"a", {"1500m", "1536Mi"}}},
       "1500m", "1536Mi", "0", ""},
      {"ratio 0: idle", "", {{"a", "n1", "1", "1Gi", "0"}}, 1.0, {{"a", {"0", "0"}}}, "0", "0", "0", ""},
      {"default ratio from the flag; the annotation wins", "",
       {{"a"}, {"b", "n1", "1", "1Gi", "0.5"}}, 0.25, {{"a", {"250m", "256Mi"}}, {"b", {"500m", "512Mi"}}},
       "750m", "768Mi", "0", ""},
      {"unbound pods and other nodes' pods are left out", "",
       {{"a"}, {"pending", ""}, {"elsewhere", "n2"}}, 1.0, {{"a", {"1", "1Gi"}}}, "1", "1Gi", "0", ""},
      {"finished pods are left out, pending-phase bound pods count", "",
       {{"done", "n1", "1", "1Gi", "", "Succeeded"}, {"crashed", "n1", "1", "1Gi", "", "Failed"},
        {"starting", "n1", "1", "1Gi", "", "Pending"}},
       1.0, {{"starting", {"1", "1Gi"}}}, "1", "1Gi", "0", ""},
      {"a pod without requests is listed with zero usage", "", {{"bare", "n1", ""}}, 1.0, {{"bare", {"0", "0"}}},
       "0", "0", "0", ""},
      {"node base usage is systemUsage and part of nodeUsage", R"({\"cpu\":\"500m\",\"memory\":\"1Gi\"})",
       {{"a"}}, 1.0, {{"a", {"1", "1Gi"}}}, "1500m", "2Gi", "500m", ""},
      {"base usage alone (no pods)", R"({\"cpu\":\"2\"})", {}, 1.0, {}, "2", "0", "2", ""},
      {"malformed ratio: counted at the default ratio, with a warning naming pod and annotation", "",
       {{"bad", "n1", "1", "1Gi", "lots"}}, 1.0, {{"bad", {"1", "1Gi"}}}, "1", "1Gi", "0",
       "pod default/bad: annotation sim.troupe.dev/usage-ratio: \"lots\" is not a number, e.g. \"0.9\"; using the "
       "default ratio 1"},
      {"negative ratio: the default ratio of the flag, with a warning", "",
       {{"neg", "n1", "1", "1Gi", "-1"}}, 0.5, {{"neg", {"500m", "512Mi"}}}, "500m", "512Mi", "0",
       "pod default/neg: annotation sim.troupe.dev/usage-ratio: \"-1\" must be from 0 to 100; using the default "
       "ratio 0.5"},
      {"malformed base usage: no base, with a warning", "not json", {{"a"}}, 1.0, {{"a", {"1", "1Gi"}}}, "1",
       "1Gi", "0", "node n1: annotation sim.troupe.dev/base-usage: \"not json\" is not a JSON object of quantities"},
      {"base usage with a bad quantity names the resource", R"({\"cpu\":\"fast\"})", {}, 1.0, {}, "0", "0", "0",
       "node n1: annotation sim.troupe.dev/base-usage: cpu: "},
      {"base usage with a number instead of a string", R"({\"memory\":5})", {}, 1.0, {}, "0", "0", "0",
       "memory: the quantity must be a string"},
  };
  const Timestamp now = *parse_timestamp("2026-11-25T12:00:00Z");
  for (const Case& c : cases) {
    INFO(c.what);
    std::vector<Pod> pods;
    for (const PodCase& p : c.pods) pods.push_back(pod(p));
    std::vector<const Pod*> pointers;
    for (const Pod& p : pods) pointers.push_back(&p);
    SimulatedMetric out = simulate_node_metric(node(c.base_usage), pointers, c.default_ratio, now);

    // What LowNodeLoad reads, after the round trip through JSON it makes.
    auto metric = decode_node_metric_json(encode(out.metric));
    REQUIRE(metric.ok());
    CHECK(metric->meta.name == "n1");
    REQUIRE(metric->update_time);
    CHECK(*metric->update_time == now);
    REQUIRE(metric->node_metric);
    CHECK(text(metric->node_metric->node_usage.resources, "cpu") == c.node_cpu);
    CHECK(text(metric->node_metric->node_usage.resources, "memory") == c.node_memory);
    CHECK(text(metric->node_metric->system_usage.resources, "cpu") == c.system_cpu);
    std::map<std::string, std::pair<std::string, std::string>> reported;
    for (const PodMetricInfo& p : metric->pods_metric) {
      CHECK(p.namespace_name == "default");
      reported[p.name] = {text(p.pod_usage.resources, "cpu"), text(p.pod_usage.resources, "memory")};
    }
    CHECK(reported == c.pod_usage);
    if (c.warning.empty()) {
      CHECK(out.warnings.empty());
    } else {
      REQUIRE(out.warnings.size() == 1);
      CHECK_THAT(out.warnings[0], Catch::Contains(c.warning));
    }
  }
}
