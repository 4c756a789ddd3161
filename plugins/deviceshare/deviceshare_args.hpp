#pragma once
// DeviceShareArgs (Koordinator pkg/scheduler/apis/config/v1/types.go,
// defaults.go, validation_pluginargs.go), decoded from the pluginConfig YAML
// with field-named errors:
//
//   allocator: ""                              # deprecated, ignored
//   scoringStrategy:                           # absent: Fragmentation with learned task classes
//     type: LeastAllocated | MostAllocated     #   (troupe's default, docs/benchmarks.md; Koordinator's
//           | Fragmentation                    #   is LeastAllocated over the four resources below)
//     resources: [{name: koordinator.sh/gpu-memory-ratio, weight: 1}]   # weight in (0, 100]
//     taskClasses:                             # Fragmentation only: the expected task sizes;
//       - {cpu: 3152m, memory: 16Gi, gpuMilli: 810, gpuCount: 1, weight: 1047}   # absent =
//                                              #   learned from the pods seen (task_learner.hpp)
//     spreadWeight: 0                          # Fragmentation: the spread term (0 = off, FGD's score)
//     cardWasteWeight: 0.3                     # Fragmentation: weight of the expected card waste
//                                              #   (card_waste.hpp) in [0, 1]; 0 = FGD's measure
//     tieBreakSeed: 0                          # Fragmentation: seeds the node order of equal scores
//   disableDeviceNUMATopologyAlignment: false
//   gpuSharedResourceTemplatesConfig:          # defaults below
//     configMapNamespace: koordinator-system
//     configMapName: gpu-shared-resource-templates
//     matchedResources: [huawei.com/npu-core]
//   gpuShareUnsupportedModels: [{vendor: nvidia, model: A10}]
//   devicePluginAdaption: false                # troupe: Koordinator's DevicePluginAdaption
//                                              # feature gate (bind-timestamp, gpu-minors,
//                                              # hami.io/vgpu-node, Huawei NPU annotations)
//
// As in Koordinator, a scoringStrategy that is present but has no
// resources scores every device 0, and its type must be given. Fragmentation
// (fragmentation_scoring.hpp) is troupe's: it scores nodes and shared cards
// by the growth of GPU fragmentation; its resources only rank the devices the
// allocator still orders (RDMA, FPGA, whole cards), packing as MostAllocated
// does. They follow the same rule as the other types: without a
// scoringStrategy they are gpu-memory-ratio, gpu-memory, rdma and fpga
// (weight 1); a scoringStrategy without resources has none, and then those
// devices are taken in the allocator's own order.

#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "plugins/deviceshare/device_scorer.hpp"
#include "plugins/deviceshare/fragmentation.hpp"
#include "plugins/deviceshare/fragmentation_policy.hpp"

namespace troupe::plugins::deviceshare {

struct GpuModel {
  std::string vendor;
  std::string model;
};

/// The Fragmentation strategy's settings.
struct FragmentationArgs {
  /// The configured taskClasses; null = learned online from the pods the
  /// scheduler sees (the cycle hands the snapshot over in the CycleState).
  std::shared_ptr<const TaskDistribution> tasks;
  /// The expected card waste's weight (already applied to `tasks`; a learner
  /// builds its snapshots with it).
  double card_waste_weight = kDefaultCardWasteWeight;
  double spread_weight = kDefaultSpreadWeight;
  uint64_t tie_break_seed = 0;
  /// Unique per decoded args (never reused in the process): what the score
  /// memo (fragmentation_cache.hpp) keys on, so a new configuration never
  /// reads an old one's scores.
  uint64_t id = 0;

  bool learned() const { return !tasks; }
};

struct DeviceShareArgs {
  /// troupe's default: Fragmentation, the task classes learned from the pods
  /// seen (it beats LeastAllocated and MostAllocated on every openb trace;
  /// docs/benchmarks.md). Koordinator's default is LeastAllocated.
  ScoringStrategy strategy = ScoringStrategy::fragmentation;
  std::vector<WeightedResource> resources = default_scoring_resources();
  FragmentationArgs fragmentation;
  bool disable_numa_alignment = false;
  std::string templates_namespace = "koordinator-system";
  std::string templates_name = "gpu-shared-resource-templates";
  std::vector<std::string> template_matched_resources = {"huawei.com/npu-core"};
  std::vector<GpuModel> gpu_share_unsupported_models;
  bool device_plugin_adaption = false;

  /// Throws config::FieldError naming the field.
  static DeviceShareArgs from_yaml(const YAML::Node& args);
  static std::vector<WeightedResource> default_scoring_resources();
};

}  // namespace troupe::plugins::deviceshare
