#include "plugins/deviceshare/joint_allocator.hpp"

#include <algorithm>

#include "plugins/deviceshare/gpu_allocator.hpp"
#include "plugins/deviceshare/rdma_allocator.hpp"

namespace troupe::plugins::deviceshare {

namespace {

struct Pipeline {
  const NodeDevices& node;
  const DeviceShareRequest& request;
  const AllocateOptions& options;
  const PreparedTypes& prepared;
  const AllocationView& view;

  PluginStatus allocate_type(DeviceType type, int64_t desired, const PcieIds* preferred, TypePlan& plan) const {
    const PreparedType& p = prepared[type_index(type)];
    plan.present = true;
    plan.per_instance = p.per_instance;
    plan.as_written = p.as_written;
    if (type == DeviceType::gpu) {
      PreparedType adjusted = p;
      adjusted.desired = desired;
      return allocate_gpus(view, request, adjusted, options, plan.devices);
    }
    return allocate_default_devices(view, type, request, p.per_instance, desired, preferred, options.scorer,
                                    plan.devices);
  }

  // newPreferredPCIes: the switches of the allocated devices.
  PcieIds switches_of(DeviceType type, const TypePlan& plan) const {
    PcieIds ids;
    const TypeDevices& devices = node.devices(type);
    for (const PlannedDevice& d : plan.devices) {
      const DeviceSlot* slot = devices.find(d.minor);
      const std::string* pcie = slot != nullptr ? pcie_of(*slot) : nullptr;
      if (pcie == nullptr) continue;
      if (std::none_of(ids.begin(), ids.end(), [&](const std::string* id) { return *id == *pcie; }))
        ids.push_back(pcie);
    }
    return ids;
  }

  static bool same_switches(const PcieIds& a, const PcieIds& b) {
    if (a.size() != b.size()) return false;
    return std::all_of(a.begin(), a.end(), [&](const std::string* x) {
      return std::any_of(b.begin(), b.end(), [&](const std::string* y) { return *x == *y; });
    });
  }

  PluginStatus joint(AllocationPlan& out) const {
    const DeviceType primary = request.joint_types.front();
    TypePlan& primary_plan = out.types[type_index(primary)];
    PluginStatus s = allocate_type(primary, prepared[type_index(primary)].desired, nullptr, primary_plan);
    if (!s.ok()) return s;
    if (primary_plan.devices.empty()) return PluginStatus::unschedulable(kErrInsufficientPrimaryDevice);
    const PcieIds switches = switches_of(primary, primary_plan);
    for (size_t i = 1; i < request.joint_types.size(); ++i) {
      const DeviceType type = request.joint_types[i];
      if (!prepared[type_index(type)].present) continue;
      int64_t desired = prepared[type_index(type)].desired;
      if (request.joint_same_pcie && desired < static_cast<int64_t>(switches.size()))
        desired = static_cast<int64_t>(switches.size());
      s = allocate_type(type, desired, &switches, out.types[type_index(type)]);
      if (!s.ok()) return s;
    }
    if (request.joint_same_pcie) {
      for (size_t i = 1; i < request.joint_types.size(); ++i) {
        const DeviceType type = request.joint_types[i];
        if (!prepared[type_index(type)].present) continue;
        if (!same_switches(switches_of(type, out.types[type_index(type)]), switches))
          return PluginStatus::unschedulable(kErrJointAllocateViolation);
      }
    }
    return {};
  }
};

size_t prepared_count(const PreparedTypes& prepared) {
  return static_cast<size_t>(std::count_if(prepared.begin(), prepared.end(), [](const PreparedType& p) { return p.present; }));
}

}  // namespace

PluginStatus allocate_devices(const NodeDevices& node, const DeviceShareRequest& request,
                              const AllocateOptions& options, AllocationPlan& out) {
  out = AllocationPlan{};
  PreparedTypes prepared;
  PluginStatus s = prepare_types(node, request, options, prepared);
  if (!s.ok()) return s;
  const AllocationView view = build_view(node, request, prepared, options);
  const Pipeline pipeline{node, request, options, prepared, view};

  if (prepared_count(prepared) > 1 && !request.joint_types.empty()) {
    s = pipeline.joint(out);
    if (!s.ok()) {
      out = AllocationPlan{};
      return s;
    }
  }
  for (DeviceType type : kAllDeviceTypes) {
    const PreparedType& p = prepared[type_index(type)];
    TypePlan& plan = out.types[type_index(type)];
    if (!p.present || !plan.devices.empty()) continue;
    s = pipeline.allocate_type(type, p.desired, nullptr, plan);
    if (!s.ok()) {
      out = AllocationPlan{};
      return s;
    }
  }
  if (out.empty()) {
    std::vector<std::string> reasons;
    for (DeviceType type : kAllDeviceTypes)
      if (prepared[type_index(type)].present)
        reasons.push_back("Insufficient " + std::string(device_type_name(type)) + " devices");
    return PluginStatus(Code::unschedulable, std::move(reasons));
  }
  return {};
}

int64_t score_node(const NodeDevices& node, const DeviceShareRequest& request, const DeviceScorer& scorer,
                   const AllocateOptions& options) {
  PreparedTypes prepared;
  if (!prepare_types(node, request, options, prepared).ok()) return 0;
  const AllocationView view = build_view(node, request, prepared, options);
  int64_t score = 0;
  for (DeviceType type : kAllDeviceTypes) {
    const PreparedType& p = prepared[type_index(type)];
    const TypeView& tv = view.types[type_index(type)];
    if (!p.present || p.per_instance.is_zero() || !tv.present || tv.candidates == 0) continue;
    DeviceAmounts total;
    DeviceAmounts free;
    const TypeDevices& devices = node.devices(type);
    for (size_t i = 0; i < devices.slots.size() && i < kMaxDevicesPerType; ++i) {
      if (!view.candidate(type, i)) continue;
      total += devices.slots[i].total();
      free += devices.slots[i].view_free();
    }
    score += scorer.score(p.per_instance, total, free);
  }
  return score;
}

}  // namespace troupe::plugins::deviceshare
