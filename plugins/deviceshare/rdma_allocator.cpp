#include "plugins/deviceshare/rdma_allocator.hpp"

#include <algorithm>

#include "plugins/deviceshare/gpu_memory.hpp"

namespace troupe::plugins::deviceshare {

namespace {

struct Candidate {
  size_t slot = 0;
  int32_t minor = 0;
  int64_t score = 0;
  bool preferred = false;
  const std::string* pcie = nullptr;
};
using Candidates = FixedVector<Candidate, kMaxDevicesPerType>;


bool in_preferred(const PcieIds* preferred, const std::string* pcie) {
  if (preferred == nullptr || pcie == nullptr) return false;
  return std::any_of(preferred->begin(), preferred->end(), [&](const std::string* id) { return *id == *pcie; });
}

// Preferred devices first, then score descending, then minor ascending.
void sort_candidates(Candidates& c) {
  std::sort(c.begin(), c.end(), [](const Candidate& a, const Candidate& b) {
    if (a.preferred != b.preferred) return a.preferred;
    if (a.score != b.score) return a.score > b.score;
    return a.minor < b.minor;
  });
}

// The preferred prefix re-ordered round-robin over its PCIe switches (in the
// order each switch first appears): the 1st device of every switch, then the
// 2nd, and so on, so every preferred switch gets a device.
void round_robin_preferred(Candidates& c) {
  size_t preferred = 0;
  while (preferred < c.size() && c[preferred].preferred) ++preferred;
  if (preferred < 2) return;
  FixedVector<const std::string*, kMaxDevicesPerType> switches;
  for (size_t i = 0; i < preferred; ++i) {
    if (std::none_of(switches.begin(), switches.end(), [&](const std::string* s) { return *s == *c[i].pcie; }))
      switches.push_back(c[i].pcie);
  }
  Candidates ordered;
  for (size_t round = 0; ordered.size() < preferred; ++round) {
    for (const std::string* sw : switches) {
      size_t seen = 0;
      for (size_t i = 0; i < preferred; ++i) {
        if (*c[i].pcie != *sw) continue;
        if (seen++ == round) {
          ordered.push_back(c[i]);
          break;
        }
      }
    }
  }
  for (size_t i = preferred; i < c.size(); ++i) ordered.push_back(c[i]);
  c = ordered;
}

}  // namespace

PluginStatus prepare_common_device(const NodeDevices& node, DeviceType type, const TypeRequest& request,
                                   const DeviceHint* hint, PreparedType& out) {
  const TypeDevices& devices = node.devices(type);
  if (devices.slots.empty()) return PluginStatus::unresolvable(insufficient_devices(type));
  const DeviceResource resource = type == DeviceType::rdma ? DeviceResource::rdma : DeviceResource::fpga;
  const int64_t quantity = request.amounts.value(resource);
  out.present = true;
  out.per_instance = request.amounts;
  out.desired = 1;
  out.as_written = true;
  if (quantity > 100 && quantity % 100 == 0) {
    out.desired = quantity / 100;
    out.per_instance = DeviceAmounts();
    out.per_instance.set_value(resource, quantity / out.desired);
    out.as_written = false;
  } else if (hint != nullptr && hint->apply_for_all()) {
    int64_t count = static_cast<int64_t>(devices.slots.size());
    if (hint->selector) {
      count = 0;
      for (const auto& slot : devices.slots)
        if (slot.info != nullptr && hint->selector->matches(slot.info->labels)) ++count;
    }
    if (count == 0) return PluginStatus::unresolvable(insufficient_devices(type));
    out.desired = count;
  } else if (hint != nullptr && hint->requests_as_count()) {
    out.desired = quantity;
    out.per_instance = DeviceAmounts();
    out.per_instance.set_value(resource, hint->device_level_exclusive() ? 100 : 1);
    out.as_written = false;
  }
  return {};
}

int32_t select_vf(const DeviceSlot& slot, const LabelSelector& selector) {
  if (slot.info == nullptr) return -1;
  for (size_t i = 0; i < slot.vfs().size(); ++i) {
    const DeviceVf& vf = slot.vfs()[i];
    if (!selector.matches(slot.info->vf_group_labels[vf.group])) continue;
    if (slot.vf_taken(vf.bus_id)) continue;
    return static_cast<int32_t>(i);
  }
  return -1;
}

PluginStatus allocate_default_devices(const AllocationView& view, DeviceType type, const DeviceShareRequest& request,
                                      const DeviceAmounts& per_instance, int64_t desired,
                                      const PcieIds* preferred_pcie, const DeviceScorer* scorer,
                                      PlannedDevices& out) {
  out.clear();
  int64_t max_desired = desired;
  if (preferred_pcie != nullptr && static_cast<int64_t>(preferred_pcie->size()) > max_desired)
    max_desired = static_cast<int64_t>(preferred_pcie->size());
  if (desired == 0) desired = 1;
  if (max_desired < desired) max_desired = desired;

  const TypeDevices& devices = view.devices(type);
  Candidates candidates;
  if (view.types[type_index(type)].present) {
    for (size_t i = 0; i < devices.slots.size() && i < kMaxDevicesPerType; ++i) {
      if (!view.candidate(type, i)) continue;
      const DeviceSlot& slot = devices.slots[i];
      Candidate c;
      c.slot = i;
      c.minor = slot.minor;
      c.score = scorer != nullptr ? scorer->score(per_instance, slot.total(), slot.view_free()) : 0;
      c.pcie = pcie_of(slot);
      c.preferred = in_preferred(preferred_pcie, c.pcie);
      candidates.push_back(c);
    }
  }
  sort_candidates(candidates);
  round_robin_preferred(candidates);

  const DeviceHint* hint = request.hint(type);
  for (const Candidate& c : candidates) {
    const DeviceSlot& slot = devices.slots[c.slot];
    if (!slot.has_view_free()) continue;  // unhealthy or fully used
    // A GPU card must have room for both memory dimensions that will be recorded.
    const bool fits = type == DeviceType::gpu ? fill_gpu_memory(per_instance, slot.total()).fits_in(slot.view_free())
                                              : per_instance.fits_in(slot.view_free());
    if (!fits) continue;
    PlannedDevice planned;
    planned.minor = slot.minor;
    if (hint != nullptr && hint->must_allocate_vf()) {
      planned.vf = select_vf(slot, *hint->vf_selector);
      if (planned.vf < 0) continue;
    }
    out.push_back(planned);
    if (static_cast<int64_t>(out.size()) == max_desired) break;
  }
  if (static_cast<int64_t>(out.size()) < desired) {
    out.clear();
    return PluginStatus::unschedulable(insufficient_devices(type));
  }
  return {};
}

}  // namespace troupe::plugins::deviceshare
