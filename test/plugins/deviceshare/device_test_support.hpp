#pragma once
// Builders for the DeviceShare tests: Device objects (GPUs, RDMA NICs with
// VFs), pods with device requests and annotations, and a canonical node:
//   8 GPUs (80Gi, minors 0-7): NUMA 0 = pci0 {0,1}, pci1 {2,3};
//                              NUMA 1 = pci2 {4,5}, pci3 {6,7}
//   4 RDMA NICs (minors 0-3), NIC i on pci<i>, each with VFs
//     0000:1<i>:00.2 .. 0000:1<i>:00.5 (listed in reverse to test the sort)

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/device.hpp"
#include "model/node.hpp"
#include "model/pod.hpp"
#include "plugins/deviceshare/allocation_result.hpp"
#include "plugins/deviceshare/device_share_request.hpp"
#include "plugins/deviceshare/joint_allocator.hpp"
#include "plugins/deviceshare/node_devices.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::deviceshare::testing {

using Amounts = std::vector<std::pair<std::string, std::string>>;

inline ResourceList list(const Amounts& amounts) {
  ResourceList out;
  for (const auto& [name, text] : amounts) {
    auto q = Quantity::parse(text);
    REQUIRE(q);
    out[name] = *q;
  }
  return out;
}

/// A node with gpushare-scheduler-extender's capacity (aliyun.com/gpu-mem and gpu-count).
inline Node gpushare_node(const std::string& memory, const std::string& count) {
  Node n;
  n.meta.name = "gpu-node";
  n.status.capacity = list({{"aliyun.com/gpu-mem", memory}, {"aliyun.com/gpu-count", count}});
  return n;
}

inline DeviceInfo gpu(int32_t minor, std::optional<std::pair<int32_t, std::string>> numa_pcie = std::nullopt,
                      const std::string& memory = "80Gi", bool healthy = true) {
  DeviceInfo d;
  d.type = "gpu";
  d.minor = minor;
  d.id = "GPU-" + std::to_string(minor);
  d.health = healthy;
  d.resources = list({{"koordinator.sh/gpu-core", "100"},
                      {"koordinator.sh/gpu-memory", memory},
                      {"koordinator.sh/gpu-memory-ratio", "100"}});
  if (numa_pcie) {
    DeviceTopology t;
    t.node_id = numa_pcie->first;
    t.pcie_id = numa_pcie->second;
    t.bus_id = "0000:0" + std::to_string(minor) + ":00.0";
    d.topology = t;
  }
  return d;
}

inline DeviceInfo rdma(int32_t minor, std::optional<std::pair<int32_t, std::string>> numa_pcie, int vfs,
                       Labels labels = {}, Labels vf_labels = {}) {
  DeviceInfo d;
  d.type = "rdma";
  d.minor = minor;
  d.id = "0000:1" + std::to_string(minor) + ":00.0";
  d.health = true;
  d.labels = std::move(labels);
  d.resources = list({{"koordinator.sh/rdma", "100"}});
  if (numa_pcie) {
    DeviceTopology t;
    t.node_id = numa_pcie->first;
    t.pcie_id = numa_pcie->second;
    t.bus_id = d.id;
    d.topology = t;
  }
  if (vfs > 0) {
    VirtualFunctionGroup g;
    g.labels = std::move(vf_labels);
    for (int i = vfs - 1; i >= 0; --i)  // reverse order: the allocator must sort by bus id
      g.vfs.push_back(VirtualFunction{-1, "0000:1" + std::to_string(minor) + ":00." + std::to_string(2 + i)});
    d.vf_groups.push_back(std::move(g));
  }
  return d;
}

inline std::shared_ptr<const Device> device(std::vector<DeviceInfo> infos, Labels labels = {},
                                            std::map<std::string, std::string> annotations = {}) {
  Device d;
  d.meta.name = "node-1";
  d.meta.labels = std::move(labels);
  d.meta.annotations = std::move(annotations);
  d.devices = std::move(infos);
  return std::make_shared<const Device>(std::move(d));
}

inline std::pair<int32_t, std::string> pcie_of_gpu(int32_t minor) {
  return {minor / 4, "pci" + std::to_string(minor / 2)};
}

/// The canonical node's devices (see the header comment).
inline std::vector<DeviceInfo> canonical_infos(int vfs_per_nic = 4) {
  std::vector<DeviceInfo> out;
  for (int32_t m = 0; m < 8; ++m) out.push_back(gpu(m, pcie_of_gpu(m)));
  for (int32_t m = 0; m < 4; ++m) out.push_back(rdma(m, std::make_pair(m / 2, "pci" + std::to_string(m)), vfs_per_nic));
  return out;
}

inline NodeDevices canonical_node(int vfs_per_nic = 4) {
  NodeDevices n;
  n.apply_device(device(canonical_infos(vfs_per_nic)));
  return n;
}

class PodSpecBuilder {
 public:
  explicit PodSpecBuilder(std::string name = "p") {
    pod_.meta.name = std::move(name);
    pod_.meta.namespace_name = "default";
    pod_.meta.uid = "uid-" + pod_.meta.name;
  }
  PodSpecBuilder& requests(const Amounts& amounts) {
    Container c;
    c.name = "c" + std::to_string(pod_.spec.containers.size());
    c.resources.requests = list(amounts);
    c.resources.limits = c.resources.requests;
    pod_.spec.containers.push_back(std::move(c));
    return *this;
  }
  PodSpecBuilder& annotation(std::string key, std::string value) {
    pod_.meta.annotations[std::move(key)] = std::move(value);
    return *this;
  }
  PodSpecBuilder& label(std::string key, std::string value) {
    pod_.meta.labels[std::move(key)] = std::move(value);
    return *this;
  }
  Pod pod() const { return pod_; }
  std::shared_ptr<const PodInfo> info() const { return PodInfo::make(pod_); }

 private:
  Pod pod_;
};

inline DeviceShareRequest prepared(const Pod& pod) {
  DeviceShareRequest r;
  PluginStatus s = prepare_device_share_request(pod, TemplatePolicy{}, r);
  INFO(s.message());
  REQUIRE(s.ok());
  return r;
}

/// "gpu:0,1 rdma:2" — the plan's devices, for compact expectations.
inline std::string describe(const AllocationPlan& plan) {
  std::string out;
  for (DeviceType t : kAllDeviceTypes) {
    const TypePlan& tp = plan.types[type_index(t)];
    if (!tp.present || tp.devices.empty()) continue;
    if (!out.empty()) out += ' ';
    out += std::string(device_type_name(t)) + ":";
    for (size_t i = 0; i < tp.devices.size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(tp.devices[i].minor);
    }
  }
  return out;
}

/// Options that order devices by `scorer` (Reserve's), nothing else set.
inline AllocateOptions scored_by(const DeviceScorer& scorer) {
  AllocateOptions options;
  options.scorer = &scorer;
  return options;
}

/// Allocates and returns "gpu:0,1" or the failure as "<Code>: <message>".
inline std::string allocate_text(const NodeDevices& node, const Pod& pod, const AllocateOptions& options = {}) {
  DeviceShareRequest r = prepared(pod);
  AllocationPlan plan;
  PluginStatus s = allocate_devices(node, r, options, plan);
  if (!s.ok()) return std::string(to_string(s.code)) + ": " + s.message();
  return describe(plan);
}

/// Allocates, accounts the result under the pod's uid, returns the annotation entries.
inline DeviceAllocations reserve(NodeDevices& node, const Pod& pod, const AllocateOptions& options = {}) {
  DeviceShareRequest r = prepared(pod);
  AllocationPlan plan;
  PluginStatus s = allocate_devices(node, r, options, plan);
  INFO(s.message());
  REQUIRE(s.ok());
  auto allocations = to_device_allocations(plan, node, r);
  REQUIRE(allocations);
  REQUIRE(node.add_pod(pod.meta.uid, pod_devices_from(*allocations)));
  return *allocations;
}

}  // namespace troupe::plugins::deviceshare::testing
