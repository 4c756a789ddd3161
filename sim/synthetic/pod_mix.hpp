#pragma once
// Pod mixes of `troupe bench` (shared/docs/benchmarks.md §1). Each pod carries
// the label troupe.dev/bench-kind naming its kind:
// - cpu:       plain requests (cpu 100m-2, memory 128Mi-2Gi), Burstable.
// - lsr:       Koordinator LSR pods (label koordinator.sh/qosClass=LSR) with
//              requiredCPUBindPolicy FullPCPUs, 2/4/8 whole CPUs and 2 GiB per
//              CPU, requests = limits (Guaranteed): FullPCPUs cpusets.
// - gpu-share: koordinator.sh/gpu 25 or 50 (a quarter or half card), 1 CPU, 4 GiB.
// - gpu-whole: nvidia.com/gpu 1/2/4/8; 2-card pods require PCIe scope
//              (device-allocate-hint gpu.requiredTopologyScope=PCIe), 4-card pods
//              NUMANode scope: a PCIe switch holds only 2 cards, so PCIe scope
//              could never place 4 (benchmarks.md says "PCIe scope for 2 and 4").
// - gpu-rdma:  nvidia.com/gpu 1/2/4/8 plus koordinator.sh/rdma 1 with a VF
//              (hint rdma.vfSelector {}), jointly allocated
//              (device-joint-allocate deviceTypes [gpu, rdma]).
// - mixed:     40% cpu, 10% lsr, 20% gpu-share, 15% gpu-whole, 15% gpu-rdma.
// Proportions are exact (largest remainder over the pod count), the order and
// the sizes within a kind are drawn from the seed.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/pod.hpp"
#include "model/result.hpp"
#include "model/workload_selector.hpp"

namespace troupe::sim::synthetic {

inline constexpr const char* kBenchKindLabel = "troupe.dev/bench-kind";

/// `spread`: a cpu-shaped replica of one of kSpreadApps apps that spreads
/// over hosts (a DoNotSchedule hostname constraint, maxSkew 1) and prefers
/// hosts without its app (preferred anti-affinity): PodTopologySpread and
/// InterPodAffinity count the cluster's pods for every one of them.
/// `replica`: a cpu-shaped pod of one of kSpreadApps ReplicaSets
/// (mix_replica_sets), with no constraints of its own: PodTopologySpread's
/// system default constraints spread it over its ReplicaSet's pods.
enum class PodKind { cpu, lsr, gpu_share, gpu_whole, gpu_rdma, spread, replica };
enum class PodMix { cpu, lsr, gpu_share, gpu_whole, gpu_rdma, mixed, spread, replicas };
inline constexpr int kSpreadApps = 50;

std::string_view pod_kind_name(PodKind kind);
std::string_view pod_mix_name(PodMix mix);
/// Accepts "cpu", "lsr", "gpu-share", "gpu-whole", "gpu-rdma", "mixed", "spread", "replicas"; the error lists them.
Result<PodMix> parse_pod_mix(std::string_view name);

struct KindShare {
  PodKind kind;
  double share;  // of the mix's pods, shares sum to 1
};
/// The composition of a mix.
const std::vector<KindShare>& mix_composition(PodMix mix);

struct PodMixOptions {
  size_t count = 1000;
  uint64_t seed = 1;
  std::string namespace_name = "bench";
  std::string scheduler_name = "troupe";
  std::string name_prefix = "pod-";
};

/// Errors: an empty name prefix or namespace.
Result<std::vector<Pod>> make_pods(PodMix mix, const PodMixOptions& options);

/// The ReplicaSets whose pods the mix holds (`replicas`: kSpreadApps of
/// them, "app-N" selecting app=app-N); none for the other mixes.
std::vector<WorkloadSelector> mix_replica_sets(PodMix mix, const PodMixOptions& options);

}  // namespace troupe::sim::synthetic
