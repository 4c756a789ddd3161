#pragma once
// A NodeInfo with the plugins' extensions, 2 NUMA nodes of 4 hyper-threaded
// cores (NUMA 0 = CPUs 0-3,8-11, NUMA 1 = 4-7,12-15) and the canonical 8 GPUs
// (0-3 on NUMA 0, 4-7 on NUMA 1) under SingleNUMANode: the tests where
// DeviceShare's hints meet NodeNUMAResource's.

#include <string>

#include "plugins/node_extensions.hpp"
#include "plugins/node_numa_resource/node_cpus.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"
#include "test/plugins/node_numa_resource/numa_test_support.hpp"

namespace troupe::plugins::deviceshare::testing {

/// `kubelet_reserved` (e.g. "0-3,8-11": all of NUMA node 0) are the CPUs
/// kubelet keeps; "" = none.
inline NodeInfo gpu_numa_node(const std::string& kubelet_reserved) {
  NodeInfo info = plugins::testing::NodeBuilder("node-1")
                      .allocatable({{"cpu", "16"}, {"memory", "16Gi"}, {"pods", "110"}, {"nvidia.com/gpu", "8"}})
                      .label("node.koordinator.sh/numa-topology-policy", "SingleNUMANode")
                      .info();
  attach_node_extensions(info);
  std::map<std::string, std::string> annotations;
  if (!kubelet_reserved.empty())
    annotations["kubelet.koordinator.sh/cpu-manager-policy"] =
        R"({"policy":"static","reservedCPUs":")" + kubelet_reserved + R"("})";
  info.mutable_extension<numa::NodeCpus>(NodeExtensionSlot::kCpus)
      ->apply_topology(numa::testing::make_nrt(2, 1, 4, "8Gi", annotations));
  info.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices)->apply_device(device(canonical_infos()));
  return info;
}

}  // namespace troupe::plugins::deviceshare::testing
