// troupe replay: the FGD paper's trace experiment (shared/docs/fgd-method.md)
// through troupe's real scheduling path. The openb GPU nodes become Node and
// Device objects (sim/trace/trace_objects.hpp), the seeded, inflated arrival
// sequence (sim/trace/arrival.hpp) is scheduled one pod at a time by the
// scheduler's actors (actors/bench_harness.hpp) with the policy's scoring
// strategy, and every attempt is logged as the method logs it: cumulative
// arrived GPU request, allocated GPU milli, cluster fragmentation. Reports the
// allocation ratio at 100% arrival (median over seeds) and the curves, next
// to the reference simulator's figure for the same seed and policy.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "actors/bench_harness.hpp"
#include "cmd/bench_common.hpp"
#include "cmd/commands.hpp"
#include "cmd/flags.hpp"
#include "plugins/deviceshare/device_allocated.hpp"
#include "plugins/deviceshare/fragmentation.hpp"
#include "sim/trace/arrival.hpp"
#include "sim/trace/openb_trace.hpp"
#include "sim/trace/reference_simulator.hpp"
#include "sim/trace/replay_summary.hpp"
#include "sim/trace/trace_objects.hpp"
#include "sim/trace/typical_tasks.hpp"

namespace troupe::cmd {

namespace {

namespace trace = sim::trace;
namespace ds = plugins::deviceshare;

const char* kSummary =
    "Replays an openb GPU trace (fgd-method.md) through troupe's scheduler: GPU nodes become Node + Device objects,\n"
    "the seeded arrival sequence (inflated to 130% of GPU capacity) is scheduled one pod at a time by the real\n"
    "actors and plugins with the policy's scoring strategy, and the GPU allocation ratio at 100% arrival and the\n"
    "fragmentation curve are reported (medians over the seeds), beside the reference simulator's figures.\n"
    "Policies: least-allocated, most-allocated (DeviceShare and NodeResourcesFit scoring strategy);\n"
    "fragmentation (DeviceShare's Fragmentation strategy with troupe's task distribution: memory-aware, rare\n"
    "multi-GPU classes kept) and fgd (the same strategy with the FGD paper's typical tasks), which score with\n"
    "DeviceShare alone and take the task sizes from the trace's original pods, as the method does;\n"
    "fragmentation-learned (the same strategy without taskClasses: the distribution is learned online from the\n"
    "pods as they arrive, as a scheduler in production learns it).";

std::vector<FlagSpec> replay_specs() {
  return {
      {"nodes", true, "node list CSV (openb_node_list_gpu_node.csv; CPU-only rows are dropped)"},
      {"pods", true, "pod list CSV (openb_pod_list_<trace>.csv)"},
      {"policy", true,
       "least-allocated, most-allocated, fragmentation, fragmentation-learned or fgd (default least-allocated)"},
      {"seeds", true, "seeds: 42-51, 42,45 or 42 (default 42-51)"},
      {"all-scorers", false,
       "keep every scorer of the default profile (default: only NodeResourcesFit and DeviceShare, or DeviceShare "
       "alone for the fragmentation policies)"},
      {"no-reference", false, "do not run the reference simulator beside each seed"},
      {"threads", true, "actor scheduler threads; 0 = one per hardware thread (default 0)"},
      {"timeout", true, "seconds one seed may take (default 600)"},
      {"json", false, "print one JSON object instead of the table"},
      {"help", false, "show this help"},
  };
}

/// A policy as the replay runs it: the scoring strategy and, for the
/// fragmentation-aware ones, which task distribution it is given.
struct PolicyChoice {
  std::string strategy;          // DeviceShare scoringStrategy.type
  trace::ReplayPolicy reference;  // the reference simulator's twin
  bool fragmentation = false;    // Fragmentation strategy (DeviceShare scores alone)
  bool learned = false;          // ... with no taskClasses: learned from the pods seen
};

Result<PolicyChoice> policy_of(const std::string& policy) {
  if (policy == "least-allocated" || policy == "LeastAllocated" || policy == "spreading")
    return PolicyChoice{"LeastAllocated", trace::ReplayPolicy::least_allocated, false};
  if (policy == "most-allocated" || policy == "MostAllocated")
    return PolicyChoice{"MostAllocated", trace::ReplayPolicy::most_allocated, false};
  if (policy == "fragmentation" || policy == "Fragmentation")
    return PolicyChoice{"Fragmentation", trace::ReplayPolicy::fragmentation, true};
  if (policy == "fragmentation-learned")
    return PolicyChoice{"Fragmentation", trace::ReplayPolicy::fragmentation_learned, true, true};
  if (policy == "fgd") return PolicyChoice{"Fragmentation", trace::ReplayPolicy::fgd, true};
  return Error{"--policy: expected least-allocated, most-allocated, fragmentation, fragmentation-learned or fgd, got '" +
               policy + "'"};
}

std::string yaml_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

/// taskClasses for DeviceShare's args, one flow-style item per class.
std::string task_classes_yaml(const ds::TaskDistribution& tasks, const std::string& indent) {
  std::string out;
  for (const auto& c : tasks.classes()) {
    out += indent + "- {cpuMilli: " + std::to_string(c.cpu_milli);
    if (c.memory_mib > 0) out += ", memory: " + std::to_string(c.memory_mib) + "Mi";
    out += ", gpuMilli: " + std::to_string(c.gpu_milli) + ", gpuCount: " + std::to_string(c.gpu_count);
    if (!c.gpu_models.empty()) {
      out += ", gpuModels: [";
      for (size_t i = 0; i < c.gpu_models.size(); ++i) out += (i > 0 ? ", '" : "'") + c.gpu_models[i] + "'";
      out += "]";
    }
    out += ", weight: " + yaml_number(c.weight) + "}\n";
  }
  return out;
}

/// The fragmentation-aware profile: DeviceShare alone scores (the method
/// runs exactly one scorer; `all_scorers` keeps the default profile's) with
/// the Fragmentation strategy, the replay's seed ordering equal scores;
/// `tasks` null = no taskClasses (learned, with the strategy's default card
/// waste weight).
std::string fragmentation_config_yaml(const ds::TaskDistribution* tasks, uint64_t seed, bool all_scorers) {
  std::string plugin_config =
      std::string(all_scorers ? ""
                              : "    plugins:\n"
                                "      score:\n"
                                "        disabled: [{name: '*'}]\n"
                                "        enabled: [{name: DeviceShare, weight: 1}]\n") +
      "    pluginConfig:\n"
      "      - name: DeviceShare\n"
      "        args:\n"
      "          scoringStrategy:\n"
      "            type: Fragmentation\n"
      "            tieBreakSeed: " + std::to_string(seed) + "\n";
  if (tasks == nullptr) return bench_config_yaml(100, plugin_config);
  // fgd's typical tasks carry 0 (FGD's measure), the strategy's own 0.3.
  plugin_config += "            cardWasteWeight: " + yaml_number(tasks->card_waste_weight()) + "\n"
                   "            taskClasses:\n" + task_classes_yaml(*tasks, "              ");
  return bench_config_yaml(100, plugin_config);
}

/// The default profile with the strategy on DeviceShare and NodeResourcesFit,
/// scoring every feasible node as the method does. Unless `all_scorers`, only
/// those two score (the method runs exactly one scoring policy): the default
/// profile's other scorers (BalancedAllocation above all) pull against packing.
std::string replay_config_yaml(const std::string& strategy, bool all_scorers) {
  const std::string scorers =
      all_scorers ? std::string()
                  : "    plugins:\n"
                    "      score:\n"
                    "        disabled: [{name: '*'}]\n"
                    "        enabled: [{name: NodeResourcesFit, weight: 1}, {name: DeviceShare, weight: 1}]\n";
  const std::string plugin_config =
      scorers +
      "    pluginConfig:\n"
      "      - name: NodeResourcesFit\n"
      "        args:\n"
      "          scoringStrategy:\n"
      "            type: " + strategy + "\n"
      "            resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]\n"
      "      - name: DeviceShare\n"
      "        args:\n"
      "          scoringStrategy:\n"
      "            type: " + strategy + "\n"
      "            resources:\n"
      "              - {name: koordinator.sh/gpu-memory-ratio, weight: 1}\n"
      "              - {name: koordinator.sh/gpu-memory, weight: 1}\n"
      "              - {name: koordinator.sh/rdma, weight: 1}\n"
      "              - {name: koordinator.sh/fpga, weight: 1}\n";
  return bench_config_yaml(100, plugin_config);
}

/// "42-51", "42,45,47" or "42".
Result<std::vector<uint64_t>> parse_seeds(const std::string& text) {
  std::vector<uint64_t> seeds;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t dash = part.find('-');
    try {
      size_t used = 0;
      if (dash == std::string::npos) {
        uint64_t one = std::stoull(part, &used);
        if (used != part.size()) throw std::invalid_argument(part);
        seeds.push_back(one);
      } else {
        std::string a = part.substr(0, dash), b = part.substr(dash + 1);
        size_t used_b = 0;
        uint64_t lo = std::stoull(a, &used), hi = std::stoull(b, &used_b);
        if (used != a.size() || used_b != b.size() || hi < lo || hi - lo > 10000) throw std::invalid_argument(part);
        for (uint64_t s = lo; s <= hi; ++s) seeds.push_back(s);
      }
    } catch (const std::exception&) {
      return Error{"--seeds: expected N, N-M (M >= N) or a comma list of those, got '" + text + "'"};
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (seeds.empty()) return Error{"--seeds: no seed given"};
  return seeds;
}

/// The cluster's GPU state as the scheduler's Bindings leave it: what the
/// method's metrics read after every attempt.
class ClusterMirror {
 public:
  ClusterMirror(const std::vector<trace::TraceNode>& nodes, const ds::TaskDistribution& tasks) : tasks_(tasks) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      index_[nodes[i].name] = i;
      free_.push_back(ds::NodeGpuFree{nodes[i].cpu_milli, std::vector<int32_t>(static_cast<size_t>(nodes[i].gpu_count),
                                                                                ds::kMilliPerGpu)});
      access_.push_back(tasks.access_for_model(nodes[i].model));
      fragmentation_.push_back(ds::node_fragmentation(free_.back(), tasks_, access_.back()));
      total_fragmentation_ += fragmentation_.back();
      idle_ += free_.back().idle_gpu_milli();
    }
  }

  /// Applies one Binding: the pod's CPU, and its milli on each allocated card.
  Status bind(const trace::TracePod& pod, const actors::PodOutcome& outcome) {
    auto it = index_.find(outcome.node);
    if (it == index_.end()) return Error{"pod " + outcome.key + " was bound to unknown node " + outcome.node};
    std::vector<int32_t> minors;
    if (!pod.cpu_only()) {
      auto allocations = ds::device_allocations_from(outcome.annotations);
      if (!allocations) return Error{"pod " + outcome.key + ": " + allocations.message()};
      if (!*allocations || (*allocations)->count("gpu") == 0)
        return Error{"pod " + outcome.key + " asks for GPUs but its Binding carries no GPU allocation"};
      for (const auto& entry : (*allocations)->at("gpu")) minors.push_back(entry.minor);
      if (static_cast<int32_t>(minors.size()) != pod.num_gpu)
        return Error{"pod " + outcome.key + " got " + std::to_string(minors.size()) + " GPUs, asked " +
                     std::to_string(pod.num_gpu)};
    }
    const size_t i = it->second;
    auto& node = free_[i];
    for (int32_t minor : minors) {
      if (minor < 0 || static_cast<size_t>(minor) >= node.card_free_milli.size() ||
          node.card_free_milli[static_cast<size_t>(minor)] < pod.gpu_milli)
        return Error{"pod " + outcome.key + " was given GPU " + std::to_string(minor) + " of " + outcome.node +
                     " which does not have " + std::to_string(pod.gpu_milli) + " milli free"};
      node.card_free_milli[static_cast<size_t>(minor)] -= pod.gpu_milli;
    }
    node.cpu_free_milli -= pod.cpu_milli;
    const int64_t gpu = static_cast<int64_t>(minors.size()) * pod.gpu_milli;
    allocated_ += gpu;
    idle_ -= gpu;
    const double fragmentation = ds::node_fragmentation(node, tasks_, access_[i]);
    total_fragmentation_ += fragmentation - fragmentation_[i];
    fragmentation_[i] = fragmentation;
    return {};
  }

  trace::ReplayEvent event(int64_t arrived, bool placed) const {
    return trace::ReplayEvent{arrived, allocated_, total_fragmentation_, idle_, placed};
  }

 private:
  const ds::TaskDistribution& tasks_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<ds::NodeGpuFree> free_;
  std::vector<std::vector<uint8_t>> access_;
  std::vector<double> fragmentation_;
  double total_fragmentation_ = 0;
  int64_t allocated_ = 0;
  int64_t idle_ = 0;
};

struct SeedResult {
  uint64_t seed = 0;
  size_t pods = 0;
  size_t failed = 0;
  double seconds = 0;
  trace::ReplayCurves curves;
  std::optional<double> reference_at_100;
  std::optional<double> reference_at_130;
};

struct ReplayInputs {
  std::vector<trace::TraceNode> nodes;  // GPU nodes only
  std::vector<trace::TracePod> pods;
  PolicyChoice policy;
  /// The Fragmentation strategy's configured task classes (fragmentation and fgd).
  std::optional<ds::TaskDistribution> scoring_tasks;
  size_t threads = 0;
  int64_t timeout_seconds = 600;
  bool reference = true;
  bool all_scorers = false;
};

Result<SeedResult> replay_seed(const ReplayInputs& in, const ds::TaskDistribution& tasks, uint64_t seed) {
  SeedResult result;
  result.seed = seed;
  auto arrival = trace::build_arrival(in.pods, in.nodes, seed);
  if (!arrival) return Error{arrival.message()};
  result.pods = arrival->pods.size();

  actors::BenchHarnessOptions options;
  const ds::TaskDistribution* configured = in.scoring_tasks ? &*in.scoring_tasks : nullptr;
  options.config_yaml = in.policy.fragmentation ? fragmentation_config_yaml(configured, seed, in.all_scorers)
                                               : replay_config_yaml(in.policy.strategy, in.all_scorers);
  options.threads = in.threads;
  options.seed = seed;
  auto harness = actors::BenchHarness::start(options);
  if (!harness) return Error{harness.message()};
  std::vector<Node> nodes;
  std::vector<Device> devices;
  for (const auto& n : in.nodes) {
    auto node = trace::build_node(n);
    if (!node) return Error{node.message()};
    nodes.push_back(std::move(*node));
    auto device = trace::build_device(n);
    if (!device) return Error{device.message()};
    if (*device) devices.push_back(std::move(**device));
  }
  (*harness)->load_cluster(nodes, devices, {});

  std::vector<Pod> pods;
  std::unordered_map<std::string, size_t> arrival_index;  // pod key -> position in the arrival sequence
  trace::PodBuildOptions pod_options;
  pod_options.scheduler_name = (*harness)->profile_name();
  for (size_t i = 0; i < arrival->pods.size(); ++i) {
    pods.push_back(trace::build_pod(arrival->pods[i], pod_options));
    arrival_index[pod_options.namespace_name + "/" + arrival->pods[i].name] = i;
  }
  const auto started = actors::BenchClock::now();
  // Every pod queued at once, in arrival order: the queue hands them out in
  // that order (one priority, FIFO) and the cycle places them one at a time,
  // each seeing every placement before it, as the method does. (Waiting for
  // each Binding before queueing the next would give the same placements,
  // only slower.)
  auto outcomes = (*harness)->schedule(std::move(pods), 0, std::chrono::seconds(in.timeout_seconds));
  if (!outcomes) return Error{"seed " + std::to_string(seed) + ": " + outcomes.message()};
  result.seconds = std::chrono::duration<double>(actors::BenchClock::now() - started).count();

  // Outcomes come in the order the Bindings and failures were reported; the
  // method logs them in arrival order.
  std::vector<std::pair<size_t, const actors::PodOutcome*>> in_order;
  for (const auto& o : *outcomes) {
    auto it = arrival_index.find(o.key);
    if (it == arrival_index.end()) return Error{"an outcome for unknown pod " + o.key};
    in_order.emplace_back(it->second, &o);
  }
  std::sort(in_order.begin(), in_order.end());
  ClusterMirror mirror(in.nodes, tasks);
  std::vector<trace::ReplayEvent> events;
  int64_t arrived = 0;
  for (const auto& [index, o] : in_order) {
    const trace::TracePod& pod = arrival->pods[index];
    arrived += pod.total_gpu_milli();
    if (o->bound) {
      auto applied = mirror.bind(pod, *o);
      if (!applied) return Error{applied.message()};
    } else {
      ++result.failed;
    }
    events.push_back(mirror.event(arrived, o->bound));
  }
  result.curves = trace::replay_curves(events, trace::cluster_gpu_milli(in.nodes));

  if (in.reference) {
    trace::ReplayOptions ref;
    ref.policy = in.policy.reference;
    ref.seed = seed;
    auto reference = trace::run_reference_replay(in.nodes, in.pods, ref);
    if (!reference) return Error{"reference simulator: " + reference.message()};
    result.reference_at_100 = reference->allocation_at(100);
    result.reference_at_130 = reference->allocation_at(130);
  }
  return result;
}

std::optional<double> curve_at(const std::vector<std::optional<double>>& curve, int k) {
  return k >= 0 && static_cast<size_t>(k) < curve.size() ? curve[static_cast<size_t>(k)] : std::nullopt;
}

/// Median over seeds of one curve point (seeds without a value are skipped).
std::optional<double> median_at(const std::vector<SeedResult>& seeds,
                                std::vector<std::optional<double>> trace::ReplayCurves::*curve, int k) {
  std::vector<double> values;
  for (const auto& s : seeds)
    if (auto v = curve_at(s.curves.*curve, k)) values.push_back(*v);
  return trace::median(values);
}

std::optional<double> median_of(const std::vector<SeedResult>& seeds, std::optional<double> SeedResult::*field) {
  std::vector<double> values;
  for (const auto& s : seeds)
    if (auto v = s.*field) values.push_back(*v);
  return trace::median(values);
}

std::string json_number(std::optional<double> v) {
  if (!v) return "null";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4f", *v);
  return buf;
}

std::string json_curve(const std::vector<SeedResult>& seeds,
                       std::vector<std::optional<double>> trace::ReplayCurves::*curve) {
  std::string out = "[";
  for (int k = 0; k < trace::kCurvePoints; ++k) {
    if (k > 0) out += ',';
    out += json_number(median_at(seeds, curve, k));
  }
  return out + "]";
}

std::string text_of(std::optional<double> v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", *v);
  return buf;
}

void print_table(const std::vector<SeedResult>& seeds) {
  std::printf("%-6s %7s %7s %9s %9s %9s %9s %8s\n", "seed", "pods", "failed", "alloc@100", "alloc@130", "ref@100",
              "ref@130", "seconds");
  for (const auto& s : seeds)
    std::printf("%-6llu %7zu %7zu %9s %9s %9s %9s %8.2f\n", static_cast<unsigned long long>(s.seed), s.pods, s.failed,
                text_of(curve_at(s.curves.allocation, 100)).c_str(), text_of(curve_at(s.curves.allocation, 130)).c_str(),
                text_of(s.reference_at_100).c_str(), text_of(s.reference_at_130).c_str(), s.seconds);
  std::printf("%-6s %7s %7s %9s %9s %9s %9s\n", "median", "", "",
              text_of(median_at(seeds, &trace::ReplayCurves::allocation, 100)).c_str(),
              text_of(median_at(seeds, &trace::ReplayCurves::allocation, 130)).c_str(),
              text_of(median_of(seeds, &SeedResult::reference_at_100)).c_str(),
              text_of(median_of(seeds, &SeedResult::reference_at_130)).c_str());
  std::printf("\nCurves (medians over seeds) by arrived GPU request, %% of capacity:\n");
  std::printf("%8s %10s %10s %10s\n", "arrived", "alloc %", "frag %cap", "frag %idle");
  for (int k = 0; k < trace::kCurvePoints; k += 10)
    std::printf("%8d %10s %10s %10s\n", k, text_of(median_at(seeds, &trace::ReplayCurves::allocation, k)).c_str(),
                text_of(median_at(seeds, &trace::ReplayCurves::fragmentation_amount, k)).c_str(),
                text_of(median_at(seeds, &trace::ReplayCurves::fragmentation_ratio, k)).c_str());
}

std::string json_of(const std::vector<SeedResult>& seeds, const std::string& policy, const std::string& pods_path) {
  std::string per_seed = "[";
  double seconds = 0;
  for (size_t i = 0; i < seeds.size(); ++i) {
    const auto& s = seeds[i];
    seconds += s.seconds;
    JsonLine j;
    j.add("seed", static_cast<int64_t>(s.seed))
        .add("pods", s.pods)
        .add("failed", s.failed)
        .add_raw("gpu_allocation_ratio_at_100", json_number(curve_at(s.curves.allocation, 100)))
        .add_raw("gpu_allocation_ratio_at_130", json_number(curve_at(s.curves.allocation, 130)))
        .add_raw("reference_at_100", json_number(s.reference_at_100))
        .add_raw("reference_at_130", json_number(s.reference_at_130))
        .add("seconds", s.seconds);
    per_seed += (i > 0 ? "," : "") + j.str();
  }
  per_seed += "]";
  JsonLine out;
  out.add("pods_csv", pods_path)
      .add("policy", policy)
      .add_raw("gpu_allocation_ratio_at_100", json_number(median_at(seeds, &trace::ReplayCurves::allocation, 100)))
      .add_raw("gpu_allocation_ratio_at_130", json_number(median_at(seeds, &trace::ReplayCurves::allocation, 130)))
      .add_raw("reference_at_100", json_number(median_of(seeds, &SeedResult::reference_at_100)))
      .add_raw("reference_at_130", json_number(median_of(seeds, &SeedResult::reference_at_130)))
      .add("seconds_per_replay", seeds.empty() ? 0.0 : seconds / static_cast<double>(seeds.size()))
      .add_raw("seeds", per_seed)
      .add_raw("allocation_curve", json_curve(seeds, &trace::ReplayCurves::allocation))
      .add_raw("fragmentation_amount_curve", json_curve(seeds, &trace::ReplayCurves::fragmentation_amount))
      .add_raw("fragmentation_ratio_curve", json_curve(seeds, &trace::ReplayCurves::fragmentation_ratio));
  return out.str();
}

Result<ReplayInputs> read_inputs(const Flags& flags) {
  ReplayInputs in;
  if (!flags.has("nodes")) return Error{"--nodes is required (the node list CSV)"};
  if (!flags.has("pods")) return Error{"--pods is required (the pod list CSV)"};
  auto policy = policy_of(flags.get("policy", "least-allocated"));
  if (!policy) return Error{policy.message()};
  in.policy = *policy;
  auto threads = int_flag(flags, "threads", 0, 0, 1024);
  auto timeout = int_flag(flags, "timeout", 600, 1, 86400);
  if (!threads) return Error{threads.message()};
  if (!timeout) return Error{timeout.message()};
  in.threads = static_cast<size_t>(*threads);
  in.timeout_seconds = *timeout;
  in.reference = !flags.has("no-reference");
  in.all_scorers = flags.has("all-scorers");
  auto nodes = trace::load_trace_nodes(flags.get("nodes"));
  if (!nodes) return Error{nodes.message()};
  in.nodes = trace::gpu_nodes_only(*nodes);
  if (in.nodes.empty()) return Error{flags.get("nodes") + ": no node has a GPU"};
  auto pods = trace::load_trace_pods(flags.get("pods"));
  if (!pods) return Error{pods.message()};
  in.pods = std::move(*pods);
  if (in.policy.fragmentation && !in.policy.learned) {
    // From the trace's original pods (before the replay's shuffle and
    // inflation), as the FGD method builds its typical tasks.
    auto tasks = in.policy.reference == trace::ReplayPolicy::fgd ? trace::typical_tasks(in.pods)
                                                                 : trace::fragmentation_tasks(in.pods);
    if (!tasks) return Error{tasks.message()};
    in.scoring_tasks = std::move(*tasks);
  }
  return in;
}

}  // namespace

int run_replay(int argc, char** argv) {
  auto specs = replay_specs();
  auto flags = Flags::parse(argc, argv, 1, specs);
  if (!flags) {
    std::fprintf(stderr, "troupe replay: %s\n", flags.message().c_str());
    return 2;
  }
  if (flags->has("help")) {
    std::printf("%s\n\n%s", kSummary, Flags::usage("replay", "", specs).c_str());
    return 0;
  }
  auto seeds = parse_seeds(flags->get("seeds", "42-51"));
  if (!seeds) {
    std::fprintf(stderr, "troupe replay: %s\n", seeds.message().c_str());
    return 2;
  }
  auto inputs = read_inputs(*flags);
  if (!inputs) {
    std::fprintf(stderr, "troupe replay: %s\n", inputs.message().c_str());
    return 2;
  }
  auto tasks = trace::typical_tasks(inputs->pods);
  if (!tasks) {
    std::fprintf(stderr, "troupe replay: %s\n", tasks.message().c_str());
    return 1;
  }
  std::vector<SeedResult> results;
  for (uint64_t seed : *seeds) {
    auto result = replay_seed(*inputs, *tasks, seed);
    if (!result) {
      std::fprintf(stderr, "troupe replay: %s\n", result.message().c_str());
      return 1;
    }
    if (!flags->has("json"))
      std::fprintf(stderr, "seed %llu: %zu pods in %.1f s\n", static_cast<unsigned long long>(seed), result->pods,
                   result->seconds);
    results.push_back(std::move(*result));
  }
  if (flags->has("json"))
    std::printf("%s\n", json_of(results, flags->get("policy", "least-allocated"), flags->get("pods")).c_str());
  else
    print_table(results);
  return 0;
}

}  // namespace troupe::cmd
