#include "sim/synthetic/pod_mix.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "model/resource_names.hpp"
#include "sim/trace/trace_rng.hpp"

namespace troupe::sim::synthetic {

namespace rn = resource_names;

namespace {

constexpr std::pair<PodKind, std::string_view> kKindNames[] = {
    {PodKind::cpu, "cpu"},           {PodKind::lsr, "lsr"},           {PodKind::gpu_share, "gpu-share"},
    {PodKind::gpu_whole, "gpu-whole"}, {PodKind::gpu_rdma, "gpu-rdma"}, {PodKind::spread, "spread"},
    {PodKind::replica, "replica"},
};
constexpr std::pair<PodMix, std::string_view> kMixNames[] = {
    {PodMix::cpu, "cpu"},           {PodMix::lsr, "lsr"},           {PodMix::gpu_share, "gpu-share"},
    {PodMix::gpu_whole, "gpu-whole"}, {PodMix::gpu_rdma, "gpu-rdma"}, {PodMix::mixed, "mixed"},
    {PodMix::spread, "spread"},     {PodMix::replicas, "replicas"},
};

constexpr const char* kResourceSpec = "scheduling.koordinator.sh/resource-spec";
constexpr const char* kAllocateHint = "scheduling.koordinator.sh/device-allocate-hint";
constexpr const char* kJointAllocate = "scheduling.koordinator.sh/device-joint-allocate";
constexpr const char* kQosLabel = "koordinator.sh/qosClass";
constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kGiB = int64_t{1} << 30;

Quantity bytes(int64_t n) { return Quantity::from_value(n, Quantity::Format::binary_si); }

template <class T>
T pick(trace::TraceRng& rng, const std::vector<T>& choices) {
  return choices[rng.below(choices.size())];
}

// How many pods of each kind: largest remainder, so counts sum to `total`
// and each is within one of share x total.
std::vector<size_t> kind_counts(const std::vector<KindShare>& shares, size_t total) {
  std::vector<size_t> counts(shares.size());
  std::vector<std::pair<double, size_t>> remainders;
  size_t assigned = 0;
  for (size_t i = 0; i < shares.size(); ++i) {
    const double exact = shares[i].share * static_cast<double>(total);
    counts[i] = static_cast<size_t>(std::floor(exact));
    assigned += counts[i];
    remainders.emplace_back(exact - std::floor(exact), i);
  }
  std::stable_sort(remainders.begin(), remainders.end(), [](auto& a, auto& b) { return a.first > b.first; });
  for (size_t j = 0; assigned < total; ++j, ++assigned) ++counts[remainders[j % remainders.size()].second];
  return counts;
}

Container container(ResourceList requests, bool limits_too) {
  Container c;
  c.name = "main";
  c.resources.requests = std::move(requests);
  if (limits_too) c.resources.limits = c.resources.requests;
  return c;
}

void shape_cpu(Pod& pod, trace::TraceRng& rng) {
  ResourceList r;
  r[std::string(rn::kCpu)] = Quantity::from_milli(pick<int64_t>(rng, {100, 250, 500, 1000, 2000}));
  r[std::string(rn::kMemory)] = bytes(pick<int64_t>(rng, {128, 256, 512, 1024, 2048}) * kMiB);
  pod.spec.containers.push_back(container(std::move(r), false));
}

void shape_lsr(Pod& pod, trace::TraceRng& rng) {
  const int64_t cpus = pick<int64_t>(rng, {2, 4, 8});
  ResourceList r;
  r[std::string(rn::kCpu)] = Quantity::from_value(cpus);
  r[std::string(rn::kMemory)] = bytes(cpus * 2 * kGiB);
  pod.spec.containers.push_back(container(std::move(r), true));
  pod.meta.labels[kQosLabel] = "LSR";
  pod.meta.annotations[kResourceSpec] = R"({"requiredCPUBindPolicy":"FullPCPUs"})";
}

void shape_gpu_share(Pod& pod, trace::TraceRng& rng) {
  ResourceList r;
  r[std::string(rn::kCpu)] = Quantity::from_value(1);
  r[std::string(rn::kMemory)] = bytes(4 * kGiB);
  r[std::string(rn::kKoordGpu)] = Quantity::from_value(pick<int64_t>(rng, {25, 50}));
  pod.spec.containers.push_back(container(std::move(r), true));
}

ResourceList whole_gpu_requests(int64_t gpus) {
  ResourceList r;
  r[std::string(rn::kCpu)] = Quantity::from_value(4 * gpus);
  r[std::string(rn::kMemory)] = bytes(16 * gpus * kGiB);
  r[std::string(rn::kNvidiaGpu)] = Quantity::from_value(gpus);
  return r;
}

void shape_gpu_whole(Pod& pod, trace::TraceRng& rng) {
  const int64_t gpus = pick<int64_t>(rng, {1, 2, 4, 8});
  pod.spec.containers.push_back(container(whole_gpu_requests(gpus), true));
  if (gpus == 2) pod.meta.annotations[kAllocateHint] = R"({"gpu":{"requiredTopologyScope":"PCIe"}})";
  if (gpus == 4) pod.meta.annotations[kAllocateHint] = R"({"gpu":{"requiredTopologyScope":"NUMANode"}})";
}

void shape_gpu_rdma(Pod& pod, trace::TraceRng& rng) {
  ResourceList r = whole_gpu_requests(pick<int64_t>(rng, {1, 2, 4, 8}));
  r[std::string(rn::kRdma)] = Quantity::from_value(1);
  pod.spec.containers.push_back(container(std::move(r), true));
  pod.meta.annotations[kAllocateHint] = R"({"rdma":{"vfSelector":{}}})";
  pod.meta.annotations[kJointAllocate] = R"({"deviceTypes":["gpu","rdma"]})";
}

void shape_spread(Pod& pod, trace::TraceRng& rng) {
  shape_cpu(pod, rng);
  const std::string app = "app-" + std::to_string(rng.below(kSpreadApps));
  pod.meta.labels["app"] = app;
  const LabelSelector same_app({LabelRequirement{"app", LabelRequirement::Op::in, {app}}});
  TopologySpreadConstraint spread;
  spread.max_skew = 1;
  spread.topology_key = "kubernetes.io/hostname";
  spread.when_unsatisfiable = UnsatisfiableAction::do_not_schedule;
  spread.label_selector = same_app;
  pod.spec.topology_spread_constraints.push_back(std::move(spread));
  WeightedPodAffinityTerm apart;
  apart.weight = 50;
  apart.term.label_selector = same_app;
  apart.term.topology_key = "kubernetes.io/hostname";
  pod.spec.affinity = Affinity{};
  pod.spec.affinity->pod_anti_affinity = PodAffinity{};
  pod.spec.affinity->pod_anti_affinity->preferred.push_back(std::move(apart));
}

std::string replica_set_name(int app) { return "app-" + std::to_string(app); }

void shape_replica(Pod& pod, trace::TraceRng& rng) {
  shape_cpu(pod, rng);
  const std::string app = replica_set_name(static_cast<int>(rng.below(kSpreadApps)));
  pod.meta.labels["app"] = app;
  OwnerReference owner;
  owner.api_version = "apps/v1";
  owner.kind = "ReplicaSet";
  owner.name = app;
  owner.uid = "uid-" + app;
  owner.controller = true;
  pod.meta.owner_references.push_back(std::move(owner));
}

Pod make_pod(PodKind kind, const std::string& name, const PodMixOptions& options, trace::TraceRng& rng) {
  Pod pod;
  pod.meta.name = name;
  pod.meta.namespace_name = options.namespace_name;
  pod.meta.labels[kBenchKindLabel] = std::string(pod_kind_name(kind));
  pod.spec.scheduler_name = options.scheduler_name;
  pod.status.phase = "Pending";
  switch (kind) {
    case PodKind::cpu: shape_cpu(pod, rng); break;
    case PodKind::lsr: shape_lsr(pod, rng); break;
    case PodKind::gpu_share: shape_gpu_share(pod, rng); break;
    case PodKind::gpu_whole: shape_gpu_whole(pod, rng); break;
    case PodKind::gpu_rdma: shape_gpu_rdma(pod, rng); break;
    case PodKind::spread: shape_spread(pod, rng); break;
    case PodKind::replica: shape_replica(pod, rng); break;
  }
  return pod;
}

}  // namespace

std::string_view pod_kind_name(PodKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "unknown";
}

std::string_view pod_mix_name(PodMix mix) {
  for (const auto& [m, name] : kMixNames)
    if (m == mix) return name;
  return "unknown";
}

Result<PodMix> parse_pod_mix(std::string_view name) {
  std::string known;
  for (const auto& [m, n] : kMixNames) {
    if (n == name) return m;
    known += (known.empty() ? "" : ", ") + std::string(n);
  }
  return Error{"unknown pod mix '" + std::string(name) + "' (known: " + known + ")"};
}

const std::vector<KindShare>& mix_composition(PodMix mix) {
  static const std::vector<KindShare> cpu = {{PodKind::cpu, 1.0}};
  static const std::vector<KindShare> lsr = {{PodKind::lsr, 1.0}};
  static const std::vector<KindShare> gpu_share = {{PodKind::gpu_share, 1.0}};
  static const std::vector<KindShare> gpu_whole = {{PodKind::gpu_whole, 1.0}};
  static const std::vector<KindShare> gpu_rdma = {{PodKind::gpu_rdma, 1.0}};
  static const std::vector<KindShare> spread = {{PodKind::spread, 1.0}};
  static const std::vector<KindShare> replicas = {{PodKind::replica, 1.0}};
  static const std::vector<KindShare> mixed = {{PodKind::cpu, 0.40},
                                               {PodKind::lsr, 0.10},
                                               {PodKind::gpu_share, 0.20},
                                               {PodKind::gpu_whole, 0.15},
                                               {PodKind::gpu_rdma, 0.15}};
  switch (mix) {
    case PodMix::cpu: return cpu;
    case PodMix::lsr: return lsr;
    case PodMix::gpu_share: return gpu_share;
    case PodMix::gpu_whole: return gpu_whole;
    case PodMix::gpu_rdma: return gpu_rdma;
    case PodMix::mixed: return mixed;
    case PodMix::spread: return spread;
    case PodMix::replicas: return replicas;
  }
  return mixed;
}

Result<std::vector<Pod>> make_pods(PodMix mix, const PodMixOptions& options) {
  if (options.name_prefix.empty()) return Error{"pod mix: empty pod name prefix"};
  if (options.namespace_name.empty()) return Error{"pod mix: empty namespace"};
  const auto& shares = mix_composition(mix);
  const std::vector<size_t> counts = kind_counts(shares, options.count);
  std::vector<PodKind> kinds;
  for (size_t i = 0; i < shares.size(); ++i) kinds.insert(kinds.end(), counts[i], shares[i].kind);
  trace::TraceRng rng(options.seed);
  rng.shuffle(kinds);
  std::vector<Pod> pods;
  pods.reserve(kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i)
    pods.push_back(make_pod(kinds[i], options.name_prefix + std::to_string(i), options, rng));
  return pods;
}

std::vector<WorkloadSelector> mix_replica_sets(PodMix mix, const PodMixOptions& options) {
  std::vector<WorkloadSelector> out;
  if (mix != PodMix::replicas) return out;
  for (int app = 0; app < kSpreadApps; ++app) {
    WorkloadSelector rs;
    rs.kind = WorkloadKind::replica_set;
    rs.namespace_name = options.namespace_name;
    rs.name = replica_set_name(app);
    rs.requirements = {LabelRequirement{"app", LabelRequirement::Op::in, {rs.name}}};
    out.push_back(std::move(rs));
  }
  return out;
}

}  // namespace troupe::sim::synthetic
