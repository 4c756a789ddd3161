// troupe bench: placement throughput, latency and memory of the real
// scheduling path (shared/docs/benchmarks.md §1). A synthetic cluster
// (sim/synthetic: NodeResourceTopology and Device per node) and a pod mix are
// injected into the scheduler's actors in-process (actors/bench_harness.hpp);
// Bindings are confirmed at once, so this measures the scheduler, not HTTP.
#include <malloc.h>
#include <sys/resource.h>

#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "actors/bench_harness.hpp"
#include "cmd/bench_common.hpp"
#include "cmd/bench_reservations.hpp"
#include "cmd/commands.hpp"
#include "cmd/flags.hpp"
#include "plugins/registry.hpp"
#include "plugins/reservation/reservation_names.hpp"
#include "sim/simulated_usage.hpp"
#include "sim/synthetic/pod_mix.hpp"
#include "sim/synthetic/synthetic_cluster.hpp"

namespace troupe::cmd {

namespace {

namespace synthetic = sim::synthetic;
using actors::BenchClock;

const char* kSummary =
    "Schedules a synthetic pod mix on a synthetic cluster through troupe's actors (node partitions, queue,\n"
    "scheduling cycle, every plugin of the default profile), injecting objects in-process and confirming\n"
    "Bindings at once. Reports pods/s from first enqueue to last binding, per-pod latency (enqueue -> binding),\n"
    "peak RSS and RSS per node, and the process's CPU time per pod while scheduling (less sensitive to other load\n"
    "on the machine than pods/s). Mixes: cpu, lsr, gpu-share, gpu-whole, gpu-rdma, mixed, "
    "spread (cpu pods of 50 apps spreading over hosts: topology spread and pod anti-affinity),\n"
    "replicas (cpu pods of 50 ReplicaSets, spread by PodTopologySpread's default constraints).";

std::vector<FlagSpec> bench_specs() {
  return {
      {"nodes", true, "cluster size (default 1000)"},
      {"pods", true, "pods to schedule (default 1000)"},
      {"mix", true, "pod mix: cpu, lsr, gpu-share, gpu-whole, gpu-rdma, mixed, spread, replicas (default cpu)"},
      {"partitions", true, "node actors; 0 = one per thread (default 0)"},
      {"one-node-per-actor", false, "one node actor per node (granularity comparison)"},
      {"no-evaluation-cache", false, "evaluate every node for every pod (troupe.evaluationCache: false)"},
      {"threads", true, "actor scheduler threads; 0 = one per hardware thread (default 0)"},
      {"runs", true, "repetitions, each on a fresh scheduler (default 1)"},
      {"window", true, "at most this many pods queued and unfinished; 0 = all at once (default 0)"},
      {"placed-per-node", true, "cpu-mix pods already bound to every node before measuring (default 0)"},
      {"gpu-node-fraction", true, "share of nodes with GPUs and NICs (default 1)"},
      {"reserved-nodes", true,
       "percent of nodes holding an Available Reservation (8 CPUs, 32Gi, a GPU for GPU mixes) owned by every "
       "other pod (default 0)"},
      {"percentage-of-nodes-to-score", true, "the configuration's; 0 = adaptive (default 0)"},
      {"elastic-quota", true,
       "enable ElasticQuota with this many quota groups (min: the cluster's cpu shared evenly, max: all of it), "
       "every pod, placed ones too, labelled with one of them in turn (default 0: off)"},
      {"label-values", true,
       "label every pod, placed ones too, with one of this many values of the label bench.troupe.io/app in turn "
       "(default 0: none); what --elastic-quota's labels cost without ElasticQuota"},
      {"load-aware", false,
       "enable LoadAwareScheduling and give every node a NodeMetric (base usage 10-49 % of its cpu and memory, "
       "placed pods at half their requests)"},
      {"seed", true, "cluster and pod seed (default 1)"},
      {"sweep", false, "run 1k/5k/10k nodes, each with 0 and --placed-per-node (default 10) pods placed"},
      {"timeout", true, "seconds one run may take (default 600)"},
      {"json", false, "one JSON object per run instead of the table"},
      {"help", false, "show this help"},
  };
}

struct BenchSettings {
  size_t nodes = 1000;
  size_t pods = 1000;
  synthetic::PodMix mix = synthetic::PodMix::cpu;
  size_t partitions = 0;
  bool one_node_per_actor = false;
  bool evaluation_cache = true;
  size_t threads = 0;
  size_t window = 0;
  size_t placed_per_node = 0;
  double gpu_node_fraction = 1.0;
  int reserved_nodes_percent = 0;
  int percentage_of_nodes_to_score = 0;
  bool load_aware = false;
  size_t elastic_quotas = 0;
  size_t label_values = 0;
  uint64_t seed = 1;
  int64_t timeout_seconds = 600;
};

struct BenchResult {
  BenchSettings settings;
  size_t partitions = 0;
  size_t bound = 0;
  size_t failed = 0;
  size_t reservations = 0;           // Available before the pods were queued
  size_t bound_to_reservations = 0;  // bindings carrying reservation-allocated
  double seconds = 0;
  double pods_per_second = 0;
  double latency_p50_ms = 0;
  double latency_p99_ms = 0;
  double load_seconds = 0;
  int64_t peak_rss_bytes = 0;
  int64_t rss_bytes_per_node = 0;
  int64_t heap_bytes_per_node = 0;
  /// CPU time (user + system, all threads) the process spent while the pods
  /// were scheduled: unlike pods/s it hardly depends on other load on the
  /// machine, so it is the figure to compare two variants by.
  double cpu_seconds = 0;
  double cpu_ms_per_pod = 0;
};

/// User + system CPU seconds of the whole process so far.
double process_cpu_seconds() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// The profile's plugins with LoadAwareScheduling enabled (--load-aware).
constexpr const char* kLoadAwareProfile =
    "    plugins:\n"
    "      multiPoint:\n"
    "        enabled:\n"
    "          - name: LoadAwareScheduling\n";

/// The profile's plugins with ElasticQuota enabled (--elastic-quota).
constexpr const char* kElasticQuotaProfile =
    "    plugins:\n"
    "      multiPoint:\n"
    "        enabled:\n"
    "          - name: ElasticQuota\n";

/// --elastic-quota N: quota-0 .. quota-(N-1), each guaranteed an even share
/// of the cluster's cpu and allowed all of it; pods labelled in turn.
std::vector<plugins::elastic_quota::QuotaSpec> bench_quotas(size_t count, const std::vector<Node>& nodes) {
  int64_t cluster_milli = 0;
  for (const auto& node : nodes)
    if (auto it = node.status.allocatable.find("cpu"); it != node.status.allocatable.end())
      cluster_milli += it->second.milli_value();
  std::vector<plugins::elastic_quota::QuotaSpec> quotas;
  for (size_t i = 0; i < count; ++i) {
    plugins::elastic_quota::QuotaSpec q;
    q.name = "quota-" + std::to_string(i);
    q.namespace_name = "default";
    q.min = {{"cpu", cluster_milli / static_cast<int64_t>(count)}};
    q.max = {{"cpu", cluster_milli}};
    q.shared_weight = q.max;
    quotas.push_back(std::move(q));
  }
  return quotas;
}

/// Labels pod i with `key` = `prefix` + (i mod count); nothing when count is 0.
void label_in_turn(std::vector<Pod>& pods, size_t count, const std::string& key, const std::string& prefix) {
  if (count == 0) return;
  for (size_t i = 0; i < pods.size(); ++i) pods[i].meta.labels[key] = prefix + std::to_string(i % count);
}

void label_pods(std::vector<Pod>& pods, const BenchSettings& s) {
  label_in_turn(pods, s.elastic_quotas, plugins::elastic_quota::kLabelQuotaName, "quota-");
  label_in_turn(pods, s.label_values, "bench.troupe.io/app", "app-");
}

/// koordlet's reports for --load-aware: node i runs at a base usage of
/// 10 + (7 i mod 40) percent of its cpu and memory, its placed pods at half
/// their requests (sim/simulated_usage.hpp), all measured now.
std::vector<NodeMetric> bench_node_metrics(const std::vector<Node>& nodes, const std::vector<Pod>& placed) {
  std::unordered_map<std::string, std::vector<const Pod*>> on_node;
  for (const auto& pod : placed) on_node[pod.spec.node_name].push_back(&pod);
  const Timestamp now = timestamp_now();
  std::vector<NodeMetric> out;
  out.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    Node node = nodes[i];
    const int64_t percent = 10 + static_cast<int64_t>(7 * i % 40);
    auto share = [&node, percent](const char* resource, bool milli) {
      auto it = node.status.allocatable.find(resource);
      if (it == node.status.allocatable.end()) return std::string("0");
      return milli ? std::to_string(it->second.milli_value() * percent / 100) + "m"
                   : std::to_string(it->second.value() * percent / 100);
    };
    node.meta.annotations[sim::kBaseUsageAnnotation] =
        R"({"cpu":")" + share("cpu", true) + R"(","memory":")" + share("memory", false) + R"("})";
    out.push_back(sim::simulate_node_metric(node, on_node[node.meta.name], 0.5, now).metric);
  }
  return out;
}

/// Small cpu-mix pods bound round-robin to every node ("pods already placed").
Result<std::vector<Pod>> placed_pods(const BenchSettings& s, const std::vector<synthetic::SyntheticNode>& cluster) {
  synthetic::PodMixOptions options;
  options.count = s.placed_per_node * cluster.size();
  options.seed = s.seed + 1;
  options.name_prefix = "placed-";
  auto pods = synthetic::make_pods(synthetic::PodMix::cpu, options);
  if (!pods) return Error{pods.message()};
  for (size_t i = 0; i < pods->size(); ++i) (*pods)[i].spec.node_name = cluster[i % cluster.size()].node.meta.name;
  return pods;
}

Result<BenchResult> run_once(const BenchSettings& s) {
  BenchResult result;
  result.settings = s;
  synthetic::ClusterSpec spec;
  spec.nodes = s.nodes;
  spec.seed = s.seed;
  spec.gpu_node_fraction = s.gpu_node_fraction;
  auto cluster = synthetic::make_cluster(spec);
  if (!cluster) return Error{cluster.message()};
  synthetic::PodMixOptions mix_options;
  mix_options.count = s.pods;
  mix_options.seed = s.seed;
  auto pods = synthetic::make_pods(s.mix, mix_options);
  if (!pods) return Error{pods.message()};
  auto placed = placed_pods(s, *cluster);
  if (!placed) return Error{placed.message()};
  label_pods(*pods, s);
  label_pods(*placed, s);
  auto reservations = bench_reservations(*cluster, s.reserved_nodes_percent, s.mix);
  if (!reservations.empty()) label_reservation_owners(*pods);

  actors::BenchHarnessOptions options;
  if (s.load_aware && s.elastic_quotas > 0) return Error{"--load-aware and --elastic-quota: choose one"};
  options.config_yaml = bench_config_yaml(s.percentage_of_nodes_to_score,
                                          s.load_aware ? kLoadAwareProfile
                                                       : (s.elastic_quotas > 0 ? kElasticQuotaProfile : ""));
  options.threads = s.threads;
  options.partitions = s.partitions;
  options.one_node_per_actor = s.one_node_per_actor;
  options.evaluation_cache = s.evaluation_cache;
  options.seed = s.seed;
  auto harness = actors::BenchHarness::start(options);
  if (!harness) return Error{harness.message()};
  if ((s.mix == synthetic::PodMix::lsr || s.mix == synthetic::PodMix::mixed) &&
      !(*harness)->has_filter_plugin("NodeNUMAResource"))
    return Error{"--mix " + std::string(synthetic::pod_mix_name(s.mix)) +
                 ": LSR pods need the NodeNUMAResource plugin, which this build's default profile does not run"};

  std::vector<Node> nodes;
  std::vector<Device> devices;
  std::vector<NodeResourceTopology> topologies;
  for (auto& n : *cluster) {
    nodes.push_back(std::move(n.node));
    topologies.push_back(std::move(n.topology));
    if (n.device) devices.push_back(std::move(*n.device));
  }
  (*harness)->spawn_actors(nodes.size());  // their fixed cost is not per node
  // Memory an earlier run freed would otherwise take this load's objects
  // without growing the resident set, and the delta would read low.
  malloc_trim(0);
  const actors::ProcessMemory before_load = actors::process_memory();
  const auto load_start = BenchClock::now();
  (*harness)->load_cluster(nodes, devices, topologies);
  (*harness)->load_workloads(synthetic::mix_replica_sets(s.mix, mix_options));
  if (s.elastic_quotas > 0)
    if (auto loaded = (*harness)->load_quotas(bench_quotas(s.elastic_quotas, nodes)); !loaded) return Error{loaded.message()};
  auto status = (*harness)->place_bound_pods(*placed);
  if (!status) return Error{status.message()};
  if (s.load_aware) (*harness)->load_node_metrics(bench_node_metrics(nodes, *placed));
  auto reserved = (*harness)->place_reservations(reservations, std::chrono::seconds(s.timeout_seconds));
  if (!reserved) return Error{reserved.message()};
  for (const auto& o : *reserved)
    if (!o.bound) return Error{"--reserved-nodes: reservation " + o.key + " was not placed: " + o.message};
  result.reservations = reserved->size();
  result.load_seconds = std::chrono::duration<double>(BenchClock::now() - load_start).count();
  const actors::ProcessMemory loaded = actors::process_memory();
  // The objects now live in the node actors; the copies here are not the scheduler's memory.
  nodes.clear();
  devices.clear();
  topologies.clear();
  placed->clear();
  cluster->clear();
  // Anonymous memory only: the code the first load runs is faulted in once,
  // whatever the number of nodes.
  result.rss_bytes_per_node = (loaded.anon_rss_bytes - before_load.anon_rss_bytes) / static_cast<int64_t>(s.nodes);
  result.heap_bytes_per_node = (loaded.heap_bytes - before_load.heap_bytes) / static_cast<int64_t>(s.nodes);
  result.partitions = (*harness)->partitions();

  const double cpu_before = process_cpu_seconds();
  auto outcomes = (*harness)->schedule(std::move(*pods), s.window, std::chrono::seconds(s.timeout_seconds));
  if (!outcomes) return Error{outcomes.message()};
  result.cpu_seconds = process_cpu_seconds() - cpu_before;
  if (!outcomes->empty()) result.cpu_ms_per_pod = 1000 * result.cpu_seconds / static_cast<double>(outcomes->size());
  std::vector<double> latencies;
  BenchClock::time_point first = BenchClock::time_point::max(), last = BenchClock::time_point::min();
  for (const auto& o : *outcomes) {
    (o.bound ? result.bound : result.failed) += 1;
    if (o.annotations.count(plugins::reservation::kAnnotationReservationAllocated) > 0) ++result.bound_to_reservations;
    latencies.push_back(o.latency_ms());
    first = std::min(first, o.enqueued);
    last = std::max(last, o.finished);
  }
  result.seconds = outcomes->empty() ? 0 : std::chrono::duration<double>(last - first).count();
  result.pods_per_second = result.seconds > 0 ? static_cast<double>(outcomes->size()) / result.seconds : 0;
  result.latency_p50_ms = actors::percentile(latencies, 0.50);
  result.latency_p99_ms = actors::percentile(latencies, 0.99);
  result.peak_rss_bytes = actors::process_memory().peak_rss_bytes;
  return result;
}

std::string json_of(const BenchResult& r) {
  JsonLine j;
  j.add("mix", std::string(synthetic::pod_mix_name(r.settings.mix)))
      .add("nodes", r.settings.nodes)
      .add("pods", r.settings.pods)
      .add("placed_per_node", r.settings.placed_per_node)
      .add("reserved_nodes_percent", r.settings.reserved_nodes_percent)
      .add("reservations", r.reservations)
      .add("partitions", r.partitions)
      .add("one_node_per_actor", r.settings.one_node_per_actor)
      .add("evaluation_cache", r.settings.evaluation_cache)
      .add("load_aware", r.settings.load_aware)
      .add("elastic_quotas", r.settings.elastic_quotas)
      .add("label_values", r.settings.label_values)
      .add("window", r.settings.window)
      .add("bound", r.bound)
      .add("failed", r.failed)
      .add("bound_to_reservations", r.bound_to_reservations)
      .add("seconds", r.seconds)
      .add("pods_per_second", r.pods_per_second)
      .add("latency_p50_ms", r.latency_p50_ms)
      .add("latency_p99_ms", r.latency_p99_ms)
      .add("load_seconds", r.load_seconds)
      .add("peak_rss_bytes", r.peak_rss_bytes)
      .add("rss_bytes_per_node", r.rss_bytes_per_node)
      .add("heap_bytes_per_node", r.heap_bytes_per_node)
      .add("cpu_seconds", r.cpu_seconds)
      .add("cpu_ms_per_pod", r.cpu_ms_per_pod);
  return j.str();
}

void print_table_header() {
  std::printf("%-9s %6s %6s %6s %5s %6s %6s %9s %9s %9s %9s %9s %10s\n", "mix", "nodes", "pods", "placed", "parts",
              "bound", "failed", "pods/s", "p50 ms", "p99 ms", "peak MiB", "B/node", "CPU ms/pod");
}

void print_table_row(const BenchResult& r) {
  std::printf("%-9s %6zu %6zu %6zu %5zu %6zu %6zu %9.0f %9.2f %9.2f %9.1f %9lld %10.3f\n",
              std::string(synthetic::pod_mix_name(r.settings.mix)).c_str(), r.settings.nodes, r.settings.pods,
              r.settings.placed_per_node * r.settings.nodes, r.partitions, r.bound, r.failed, r.pods_per_second,
              r.latency_p50_ms, r.latency_p99_ms, static_cast<double>(r.peak_rss_bytes) / (1 << 20),
              static_cast<long long>(r.rss_bytes_per_node), r.cpu_ms_per_pod);
  std::fflush(stdout);
}

Result<BenchSettings> read_settings(const Flags& flags) {
  BenchSettings s;
  auto nodes = int_flag(flags, "nodes", 1000, 1, 1000000);
  auto pods = int_flag(flags, "pods", 1000, 1, 10000000);
  auto partitions = int_flag(flags, "partitions", 0, 0, 100000);
  auto threads = int_flag(flags, "threads", 0, 0, 1024);
  auto window = int_flag(flags, "window", 0, 0, 10000000);
  auto placed = int_flag(flags, "placed-per-node", 0, 0, 100);
  auto fraction = double_flag(flags, "gpu-node-fraction", 1.0, 0.0, 1.0);
  auto reserved = int_flag(flags, "reserved-nodes", 0, 0, 100);
  auto percentage = int_flag(flags, "percentage-of-nodes-to-score", 0, 0, 100);
  auto seed = int_flag(flags, "seed", 1, 0, INT64_MAX);
  auto quotas = int_flag(flags, "elastic-quota", 0, 0, 100000);
  auto label_values = int_flag(flags, "label-values", 0, 0, 10000000);
  auto timeout = int_flag(flags, "timeout", 600, 1, 86400);
  for (const auto* r :
       {&nodes, &pods, &partitions, &threads, &window, &placed, &reserved, &percentage, &seed, &timeout, &quotas,
        &label_values})
    if (!*r) return Error{r->message()};
  if (!fraction) return Error{fraction.message()};
  auto mix = synthetic::parse_pod_mix(flags.get("mix", "cpu"));
  if (!mix) return Error{"--mix: " + mix.message()};
  s.nodes = static_cast<size_t>(*nodes);
  s.pods = static_cast<size_t>(*pods);
  s.mix = *mix;
  s.partitions = static_cast<size_t>(*partitions);
  s.one_node_per_actor = flags.has("one-node-per-actor");
  s.evaluation_cache = !flags.has("no-evaluation-cache");
  s.load_aware = flags.has("load-aware");
  s.elastic_quotas = static_cast<size_t>(*quotas);
  s.label_values = static_cast<size_t>(*label_values);
  s.threads = static_cast<size_t>(*threads);
  s.window = static_cast<size_t>(*window);
  s.placed_per_node = static_cast<size_t>(*placed);
  s.gpu_node_fraction = *fraction;
  s.reserved_nodes_percent = static_cast<int>(*reserved);
  s.percentage_of_nodes_to_score = static_cast<int>(*percentage);
  s.seed = static_cast<uint64_t>(*seed);
  s.timeout_seconds = *timeout;
  return s;
}

/// The scale sweep: 1k/5k/10k nodes, each empty and with pods already placed.
std::vector<BenchSettings> sweep_of(const BenchSettings& base, bool placed_given) {
  std::vector<BenchSettings> out;
  const size_t placed = placed_given ? base.placed_per_node : 10;
  for (size_t nodes : {1000, 5000, 10000}) {
    for (size_t p : {size_t{0}, placed}) {
      BenchSettings s = base;
      s.nodes = nodes;
      s.placed_per_node = p;
      out.push_back(s);
      if (placed == 0) break;
    }
  }
  return out;
}

}  // namespace

int run_bench(int argc, char** argv) {
  auto specs = bench_specs();
  auto flags = Flags::parse(argc, argv, 1, specs);
  if (!flags) {
    std::fprintf(stderr, "troupe bench: %s\n", flags.message().c_str());
    return 2;
  }
  if (flags->has("help")) {
    std::printf("%s\n\n%s", kSummary, Flags::usage("bench", "", specs).c_str());
    return 0;
  }
  auto settings = read_settings(*flags);
  auto runs = int_flag(*flags, "runs", 1, 1, 1000);
  if (!settings || !runs) {
    std::fprintf(stderr, "troupe bench: %s\n", (!settings ? settings.message() : runs.message()).c_str());
    return 2;
  }
  std::vector<BenchSettings> plan =
      flags->has("sweep") ? sweep_of(*settings, flags->has("placed-per-node")) : std::vector<BenchSettings>{*settings};
  const bool json = flags->has("json");
  if (!json) print_table_header();
  for (const auto& s : plan) {
    for (int64_t run = 0; run < *runs; ++run) {
      auto result = run_once(s);
      if (!result) {
        std::fprintf(stderr, "troupe bench: %s\n", result.message().c_str());
        return 1;
      }
      if (json) {
        std::printf("%s\n", json_of(*result).c_str());
        std::fflush(stdout);
      } else {
        print_table_row(*result);
      }
      malloc_trim(0);  // give the finished run's memory back so the next run's RSS delta is its own
    }
  }
  return 0;
}

}  // namespace troupe::cmd
