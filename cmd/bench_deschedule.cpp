// `troupe bench-deschedule`: times one LowNodeLoad plan (the descheduling
// cycle's work without the API calls) on a synthetic cluster of N nodes,
// as the migration actor runs it: node loads from NodeMetrics, thresholds,
// hot-node victim selection with target checks. Prints the median of R runs.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "cmd/commands.hpp"
#include "cmd/flags.hpp"
#include "model/pod_requests.hpp"
#include "plugins/descheduler/low_node_load.hpp"

namespace troupe::cmd {

namespace {

namespace ds = plugins::descheduler;

const char* kSummary =
    "Times one LowNodeLoad descheduling plan on N synthetic nodes (P pods each, NodeMetrics with a spread of\n"
    "usage: some nodes hot, many low) and prints the median over R runs.";

std::vector<FlagSpec> specs() {
  return {
      {"nodes", true, "nodes in the synthetic cluster (default 5000)"},
      {"pods-per-node", true, "pods bound to every node (default 20)"},
      {"runs", true, "timed runs; the median is reported (default 7)"},
      {"seed", true, "random seed of the usage spread (default 1)"},
      {"digest", false, "also print a digest of the last plan (evictions, targets, reasons, skipped pods, node\n"
                        "classes), to check that a change for speed plans the same"},
      {"help", false, "show this help"},
  };
}

ResourceList resources(int64_t milli_cpu, int64_t memory_bytes) {
  ResourceList list;
  list["cpu"] = Quantity::from_milli(milli_cpu);
  list["memory"] = Quantity::from_milli(memory_bytes * 1000, Quantity::Format::binary_si);
  return list;
}

/// 32-core, 128 GiB nodes; each node's pods share a usage level drawn so
/// that about 10% are hot (> 75% cpu), 40% low (< 45%), the rest between.
ds::LowNodeLoadInput synthetic_cluster(size_t nodes, size_t pods_per_node, uint64_t seed, Timestamp now) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int64_t node_cpu = 32000, node_memory = int64_t(128) << 30;
  ds::LowNodeLoadInput input;
  input.now = now;
  input.nodes.reserve(nodes);
  for (size_t n = 0; n < nodes; ++n) {
    const double draw = unit(rng);
    const double level = draw < 0.1 ? 0.8 + 0.15 * unit(rng) : draw < 0.5 ? 0.1 + 0.3 * unit(rng) : 0.5 + 0.2 * unit(rng);
    auto node = std::make_shared<Node>();
    node->meta.name = "node-" + std::to_string(n);
    node->status.allocatable = resources(node_cpu, node_memory);
    node->status.capacity = node->status.allocatable;
    auto metric = std::make_shared<NodeMetric>();
    metric->meta.name = node->meta.name;
    metric->update_time = now;
    metric->node_metric = NodeMetricInfo{};
    ds::NodeLoadInput load;
    load.node = node;
    for (size_t p = 0; p < pods_per_node; ++p) {
      auto pod = std::make_shared<Pod>();
      pod->meta.name = node->meta.name + "-pod-" + std::to_string(p);
      pod->meta.namespace_name = "default";
      pod->meta.uid = pod->meta.name;
      pod->meta.creation_timestamp = now - std::chrono::seconds(p);
      OwnerReference owner;
      owner.kind = "ReplicaSet";
      owner.name = "rs-" + std::to_string(p);
      owner.uid = owner.name;
      owner.controller = true;
      pod->meta.owner_references.push_back(owner);
      pod->spec.node_name = node->meta.name;
      pod->status.phase = "Running";
      Container c;
      c.name = "main";
      c.resources.requests = resources(node_cpu / int64_t(pods_per_node) / 2, node_memory / int64_t(pods_per_node) / 2);
      pod->spec.containers.push_back(c);
      PodMetricInfo usage;
      usage.name = pod->meta.name;
      usage.namespace_name = "default";
      const double share = level / double(pods_per_node) * (0.5 + unit(rng));
      usage.pod_usage.resources = resources(int64_t(share * node_cpu), int64_t(share * node_memory * 0.8));
      metric->pods_metric.push_back(usage);
      load.pods.push_back(pod);
    }
    load.metric = metric;
    input.nodes.push_back(std::move(load));
  }
  return input;
}

/// FNV-1a over everything a plan says, in order.
uint64_t plan_digest(const ds::LowNodeLoadPlan& plan) {
  uint64_t hash = 1469598103934665603ull;
  auto mix = [&hash](const std::string& text) {
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    hash = (hash ^ 0xff) * 1099511628211ull;  // field separator
  };
  for (const auto& e : plan.evictions) {
    for (const std::string* field : {&e.pod->meta.name, &e.node, &e.pool, &e.target, &e.reason}) mix(*field);
    mix(e.prod ? "prod" : "node");
  }
  for (const auto& s : plan.skipped) {
    mix(s.pod->meta.name);
    mix(s.reason);
  }
  for (const auto& v : plan.nodes) {
    mix(v.node);
    mix(ds::to_string(v.node_class));
    mix(v.anomalous ? "anomalous" : "-");
  }
  for (const auto& note : plan.notes) mix(note);
  return hash;
}

double thread_cpu_millis() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

ds::LowNodeLoadArgs bench_args() {
  ds::LowNodeLoadArgs args;
  args.thresholds.low = {{"cpu", 45}, {"memory", 55}};
  args.thresholds.high = {{"cpu", 75}, {"memory", 80}};
  args.thresholds.anomaly.consecutive_abnormalities = 1;
  return args;
}

}  // namespace

int run_bench_deschedule(int argc, char** argv) {
  auto parsed = Flags::parse(argc, argv, 1, specs());
  if (!parsed.ok()) {
    std::fprintf(stderr, "troupe bench-deschedule: %s\n\n%s", parsed.message().c_str(),
                 Flags::usage("bench-deschedule", kSummary, specs()).c_str());
    return 2;
  }
  const Flags& flags = parsed.value();
  if (flags.has("help")) {
    std::printf("%s", Flags::usage("bench-deschedule", kSummary, specs()).c_str());
    return 0;
  }
  auto nodes = flags.get_count("nodes", 5000, 1);
  auto pods = flags.get_count("pods-per-node", 20, 1);
  auto runs = flags.get_count("runs", 7, 1);
  auto seed = flags.get_count("seed", 1, 0);
  for (const auto* r : {&nodes, &pods, &runs, &seed}) {
    if (!r->ok()) {
      std::fprintf(stderr, "troupe bench-deschedule: %s\n", r->message().c_str());
      return 2;
    }
  }
  const Timestamp now = timestamp_now();
  ds::LowNodeLoadInput input = synthetic_cluster(*nodes, *pods, *seed, now);
  // The migration view sums each NodeMetric's pod usage when the metric
  // arrives, and each node's pod requests as pods come and go; timed here
  // once for all nodes, apart from the plan.
  const auto sum_start = std::chrono::steady_clock::now();
  std::vector<ResourceList> requested(input.nodes.size());
  for (size_t i = 0; i < input.nodes.size(); ++i) {
    ds::NodeLoadInput& node = input.nodes[i];
    node.pod_totals = std::make_shared<const ds::UsageTotals>(ds::pod_usage_totals(*node.metric));
    for (const auto& pod : node.pods) requested[i] += pod_requests(pod->spec);
    node.requested = &requested[i];
  }
  const double sum_millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sum_start).count();
  const ds::LowNodeLoadArgs args = bench_args();
  ds::AnomalyDetectors detectors;
  // Hot nodes act after more than consecutiveAbnormalities hot rounds: two
  // untimed rounds make them anomalous, so every timed round does the full work.
  for (int warm = 0; warm < 2; ++warm) {
    ds::EvictionLimits limits;
    ds::plan_low_node_load(input, args, detectors, limits);
  }
  std::vector<double> millis, cpu_millis;
  size_t evictions = 0, hot = 0;
  uint64_t digest = 0;
  for (size_t r = 0; r < *runs; ++r) {
    ds::EvictionLimits limits;
    const double cpu_start = thread_cpu_millis();
    const auto start = std::chrono::steady_clock::now();
    auto plan = ds::plan_low_node_load(input, args, detectors, limits);
    millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    cpu_millis.push_back(thread_cpu_millis() - cpu_start);
    evictions = plan.evictions.size();
    if (flags.has("digest")) digest = plan_digest(plan);
    hot = static_cast<size_t>(std::count_if(plan.nodes.begin(), plan.nodes.end(), [](const ds::NodeVerdict& v) {
      return v.node_class == ds::NodeClass::high;
    }));
  }
  std::sort(millis.begin(), millis.end());
  std::sort(cpu_millis.begin(), cpu_millis.end());
  std::printf("LowNodeLoad plan: %zu nodes, %zu pods/node, %zu hot: %zu evictions planned; median %.2f ms "
              "(min %.2f, max %.2f, %zu runs)\n",
              *nodes, *pods, hot, evictions, millis[millis.size() / 2], millis.front(), millis.back(), *runs);
  // On a shared machine wall time includes waiting for a core; CPU time does not.
  std::printf("  thread CPU time: median %.2f ms (min %.2f, max %.2f)\n", cpu_millis[cpu_millis.size() / 2],
              cpu_millis.front(), cpu_millis.back());
  std::printf("NodeMetric pod-usage and pod-request sums (kept by the migration view as objects arrive): %.2f ms "
              "for all nodes\n",
              sum_millis);
  if (flags.has("digest")) std::printf("plan digest: %016llx\n", static_cast<unsigned long long>(digest));
  return 0;
}

}  // namespace troupe::cmd
