// Experiment drivers for troupe's Fragmentation strategy (not regression
// tests): the reference simulator's 10-seed medians at 100 % arrival on every
// trace in shared/data, against the published FGD medians. Hidden; about a
// minute (configured) and two (learned, with the baselines) on one core:
//   troupe_test_sim "[.experiment]"
//   troupe_test_sim "[.experiment-learned]"
//   TROUPE_EXPERIMENT_TRACES=default,gpuspec33 troupe_test_sim "[.experiment-learned-quick]"
// (the last: learned and configured only, with the per-seed figures and
// their mean, on the traces named in the variable, or on all of them when it
// is unset; TROUPE_EXPERIMENT_SEEDS=30 runs seeds 42-71 instead of the
// published 42-51: the 10-seed median moves by 0.1 when one placement early
// in the run changes, so a variant is judged by the mean over more seeds
// first, then by the published median).
// Each prints one line per trace and a last line with the default median and
// the worst trace against FGD, the two figures issue 7 asks for. Change the
// policy (fragmentation_policy.hpp, distribution_rule.hpp, task_learner.hpp),
// rebuild, run, compare.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "sim/trace/replay_summary.hpp"

using namespace troupe::sim::trace;

namespace {

struct PublishedFgd {
  const char* trace;
  double fgd;  // median @100 over seeds 42-51, fgd-method.md §10
};

const PublishedFgd kTraces[] = {
    {"default", 95.23},    {"cpu050", 95.00},      {"cpu250", 93.20},
    {"gpushare40", 93.95}, {"gpushare80", 89.09},  {"gpushare100", 86.64},
    {"gpuspec33", 87.88},  {"multigpu30", 96.39},  {"multigpu50", 97.09},
};

std::string trace_file(const std::string& name) {
  return std::string(TROUPE_SOURCE_DIR) + "/../shared/data/openb-gpu-2023/" + name;
}

/// The method's cluster: the trace's GPU nodes.
std::vector<TraceNode> gpu_nodes() {
  auto nodes = load_trace_nodes(trace_file("openb_node_list_gpu_node.csv"));
  REQUIRE(nodes.ok());
  return std::move(*nodes);
}

std::vector<TracePod> trace_pods(const std::string& trace) {
  auto pods = load_trace_pods(trace_file("openb_pod_list_" + trace + ".csv"));
  REQUIRE(pods.ok());
  return std::move(*pods);
}

/// Whether `trace` is among the comma-separated names in
/// TROUPE_EXPERIMENT_TRACES (every trace when it is unset).
bool trace_selected(const std::string& trace) {
  const char* only = std::getenv("TROUPE_EXPERIMENT_TRACES");
  if (!only) return true;
  const std::string list = std::string(",") + only + ",";
  return list.find("," + trace + ",") != std::string::npos;
}

/// The published seeds 42-51, or 42 onwards as many as
/// TROUPE_EXPERIMENT_SEEDS says.
std::vector<uint64_t> experiment_seeds() {
  const char* count = std::getenv("TROUPE_EXPERIMENT_SEEDS");
  if (!count) return published_seeds();
  const unsigned long n = std::strtoul(count, nullptr, 10);
  REQUIRE(n > 0);
  std::vector<uint64_t> seeds;
  for (uint64_t s = 42; s < 42 + n; ++s) seeds.push_back(s);
  return seeds;
}

ReplaySummary medians(const std::vector<TraceNode>& nodes, const std::vector<TracePod>& pods, ReplayPolicy policy,
                      const std::vector<uint64_t>& seeds = published_seeds()) {
  auto summary = summarize_reference_replays(nodes, pods, policy, seeds);
  REQUIRE(summary.ok());
  return *summary;
}

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

}  // namespace

TEST_CASE("Fragmentation strategy: 10-seed medians on every trace", "[.experiment]") {
  const auto nodes = gpu_nodes();
  double default_median = 0, worst_margin = std::numeric_limits<double>::infinity();
  std::string worst_trace;
  for (const auto& row : kTraces) {
    const auto pods = trace_pods(row.trace);
    const ReplaySummary summary = medians(nodes, pods, ReplayPolicy::fragmentation);
    const double margin = summary.median_at_100 - row.fgd;
    std::printf("%-12s median@100 %6.2f  @130 %6.2f  published FGD %6.2f  %+5.2f\n", row.trace,
                summary.median_at_100, summary.median_at_130, row.fgd, margin);
    std::fflush(stdout);
    if (std::string(row.trace) == "default") default_median = summary.median_at_100;
    if (margin < worst_margin) {
      worst_margin = margin;
      worst_trace = row.trace;
    }
  }
  std::printf("default %.2f (bar 95.50), worst vs FGD %s %+.2f\n", default_median, worst_trace.c_str(), worst_margin);
  CHECK(default_median > 0);
}

TEST_CASE("learned Fragmentation strategy against the configured one and the baselines", "[.experiment-learned]") {
  const auto nodes = gpu_nodes();
  double default_median = 0, worst_margin = std::numeric_limits<double>::infinity();
  std::string worst_trace;
  std::printf("medians @100 (@130): learned, configured, LeastAllocated, MostAllocated, published FGD @100\n");
  for (const auto& row : kTraces) {
    const auto pods = trace_pods(row.trace);
    const ReplaySummary learned = medians(nodes, pods, ReplayPolicy::fragmentation_learned);
    const ReplaySummary configured = medians(nodes, pods, ReplayPolicy::fragmentation);
    const ReplaySummary least = medians(nodes, pods, ReplayPolicy::least_allocated);
    const ReplaySummary most = medians(nodes, pods, ReplayPolicy::most_allocated);
    const double margin = learned.median_at_100 - row.fgd;
    std::printf("%-12s %6.2f (%6.2f)  %6.2f (%6.2f)  %6.2f (%6.2f)  %6.2f (%6.2f)  %6.2f  %+5.2f\n", row.trace,
                learned.median_at_100, learned.median_at_130, configured.median_at_100, configured.median_at_130,
                least.median_at_100, least.median_at_130, most.median_at_100, most.median_at_130, row.fgd, margin);
    std::fflush(stdout);
    if (std::string(row.trace) == "default") default_median = learned.median_at_100;
    if (margin < worst_margin) {
      worst_margin = margin;
      worst_trace = row.trace;
    }
  }
  std::printf("learned: default %.2f (bar 95.50), worst vs FGD %s %+.2f\n", default_median, worst_trace.c_str(),
              worst_margin);
  CHECK(default_median > 0);
}

TEST_CASE("learned and configured Fragmentation only, per seed", "[.experiment-learned-quick]") {
  const auto nodes = gpu_nodes();
  const auto seeds = experiment_seeds();
  std::printf("median @100 (@130), median - published FGD, mean @100 | per seed from 42\n");
  for (const auto& row : kTraces) {
    if (!trace_selected(row.trace)) continue;
    const auto pods = trace_pods(row.trace);
    for (auto policy : {ReplayPolicy::fragmentation_learned, ReplayPolicy::fragmentation}) {
      const ReplaySummary s = medians(nodes, pods, policy, seeds);
      std::printf("%-12s %-10s %6.2f (%6.2f) %+5.2f  mean %6.3f |", row.trace,
                  policy == ReplayPolicy::fragmentation ? "configured" : "learned", s.median_at_100, s.median_at_130,
                  s.median_at_100 - row.fgd, mean(s.allocation_at_100));
      for (double v : s.allocation_at_100) std::printf(" %.2f", v);
      std::printf("\n");
      std::fflush(stdout);
    }
  }
}
