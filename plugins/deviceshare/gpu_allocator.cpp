#include "plugins/deviceshare/gpu_allocator.hpp"

#include <algorithm>

#include "plugins/deviceshare/gpu_memory.hpp"
#include "plugins/deviceshare/rdma_allocator.hpp"

namespace troupe::plugins::deviceshare {

namespace {

// What the strategies share: the request and the node's GPUs as the view sees them.
struct GpuContext {
  const AllocationView& view;
  const GpuRequirements& req;
  const DeviceScorer* scorer;
  const TypeDevices& gpus;
  MinorMask used = 0;   // GPUs hosting allocations (Koordinator's realUsed)
  MinorMask total = 0;  // healthy candidate GPUs (removeZeroDevice of the view's total)

  GpuContext(const AllocationView& v, const GpuRequirements& r, const DeviceScorer* s)
      : view(v), req(r), scorer(s), gpus(v.devices(DeviceType::gpu)) {
    for (size_t i = 0; i < gpus.slots.size(); ++i) {
      const DeviceSlot& slot = gpus.slots[i];
      const bool candidate = view.candidate(DeviceType::gpu, i);
      if (candidate ? slot.view_used : slot.allocations > 0) used |= minor_bit(slot.minor);
      if (candidate && !slot.total.is_zero()) total |= minor_bit(slot.minor);
    }
  }

  const DeviceSlot* candidate_slot(int32_t minor) const {
    auto it = std::lower_bound(gpus.slots.begin(), gpus.slots.end(), minor,
                               [](const DeviceSlot& s, int32_t m) { return s.minor < m; });
    if (it == gpus.slots.end() || it->minor != minor) return nullptr;
    const size_t index = static_cast<size_t>(it - gpus.slots.begin());
    return view.candidate(DeviceType::gpu, index) ? &*it : nullptr;
  }

  /// The GPU is a healthy candidate with room for one card's request.
  bool satisfied(int32_t minor) const {
    const DeviceSlot* slot = candidate_slot(minor);
    return slot != nullptr && !slot->total.is_zero() &&
           fill_gpu_memory(req.per_gpu_amounts, slot->total).fits_in(slot->view_free);
  }

  int64_t shared_score(int32_t minor) const {
    if (!req.shared || scorer == nullptr) return 0;
    const DeviceSlot* slot = candidate_slot(minor);
    return scorer->score(req.per_gpu_amounts, slot->total, slot->view_free);
  }
};

void plan_minors(const std::vector<int32_t>& minors, PlannedDevices& out) {
  out.clear();
  for (int32_t m : minors) out.push_back(PlannedDevice{m, -1});
}

// ---- 1. partitions ------------------------------------------------------------

bool partition_feasible(const GpuPartition& p, const GpuContext& ctx) {
  for (int32_t m : p.minors)
    if (m < 0 || m > kMaxMaskedMinor) return false;
  if ((p.mask & ctx.used) != 0) return false;
  if ((ctx.total & p.mask) != p.mask) return false;
  if (ctx.req.ring_bus_bandwidth) {
    if (!p.ring_bus_bandwidth) return false;
    if (*ctx.req.ring_bus_bandwidth > *p.ring_bus_bandwidth) return false;
  }
  return true;
}

// selectPartitionByBinPack: the partition leaving the most free whole
// partitions of 8, 4 and 2 GPUs (score-weighted); the first on ties.
const GpuPartition* select_by_binpack(const FixedVector<const GpuPartition*, 128>& feasible,
                                      const GpuPartitionIndexer& index, MinorMask used, int64_t count) {
  if (feasible.size() == 1) return feasible[0];
  constexpr std::pair<int64_t, int64_t> kWeights[] = {{8, 10000}, {4, 100}, {2, 1}};
  const GpuPartition* best = nullptr;
  int64_t best_score = -1;
  for (const GpuPartition* candidate : feasible) {
    const MinorMask allocated = used | candidate->mask;
    int64_t score = 0;
    for (const auto& [size, weight] : kWeights) {
      if (size < count) continue;
      auto it = index.find(size);
      if (it == index.end() || it->second.empty()) continue;
      for (const GpuPartition& p : it->second.front().partitions)
        if ((p.mask & allocated) == 0) score += weight * p.allocation_score;
    }
    if (score > best_score) {
      best = candidate;
      best_score = score;
    }
  }
  return best;
}

PluginStatus by_partition(const GpuContext& ctx, const GpuPartitionIndexer* index, PlannedDevices& out) {
  if (index == nullptr) return PluginStatus::unresolvable(kErrMissingPartitionTable);
  auto size = index->find(ctx.req.count);
  if (size == index->end() || size->second.empty()) return PluginStatus::unresolvable(kErrUnsupportedGpuRequests);
  FixedVector<const GpuPartition*, 128> feasible;
  for (const PartitionGroup& group : size->second) {
    for (const GpuPartition& p : group.partitions)
      if (partition_feasible(p, ctx)) feasible.push_back(&p);
    if (!feasible.empty() || ctx.req.restricted_partition) break;
  }
  if (feasible.empty()) return PluginStatus::unschedulable(kErrInsufficientPartitionedDevice);
  plan_minors(select_by_binpack(feasible, *index, ctx.used, ctx.req.count)->minors, out);
  return {};
}

// ---- 2. topology tree -----------------------------------------------------------

struct ScopeResult {
  PlannedDevices devices;
  int cumulative_not_empties = 0;
  int depth = 0;
  int64_t score = -1;
};

bool better_child(const ScopeResult& best, const ScopeResult& r, bool shared) {
  if (best.depth != r.depth) return best.depth < r.depth;
  if (best.cumulative_not_empties != r.cumulative_not_empties)
    return best.cumulative_not_empties < r.cumulative_not_empties;
  return shared && best.score < r.score;
}

bool from_scope(const GpuContext& ctx, const GpuScope& scope, int cumulative, int depth, ScopeResult& out) {
  const auto count = static_cast<size_t>(ctx.req.count);
  if (scope.minors.size() < count) return false;
  ++depth;
  if ((scope.mask & ctx.used) != 0) ++cumulative;

  bool found = false;
  for (const GpuScope& child : scope.children) {
    if (child.minors.size() < count) continue;
    ScopeResult r;
    if (!from_scope(ctx, child, cumulative, depth, r)) continue;
    if (!found || better_child(out, r, ctx.req.shared)) out = r;
    found = true;
  }
  if (found) return true;
  if (ctx.req.required_topology_level > scope.level) return false;

  out = ScopeResult{};
  out.cumulative_not_empties = cumulative;
  out.depth = depth;
  int32_t best_shared = -1;
  for (int32_t minor : scope.minors) {
    if (!ctx.satisfied(minor)) continue;
    if (!ctx.req.shared) {
      out.devices.push_back(PlannedDevice{minor, -1});
      if (out.devices.size() == count) return true;
      continue;
    }
    const int64_t score = ctx.shared_score(minor);
    if (score > out.score) {
      out.score = score;
      best_shared = minor;
    }
  }
  if (!ctx.req.shared || best_shared < 0) return false;
  out.devices.push_back(PlannedDevice{best_shared, -1});
  return true;
}

PluginStatus by_topology(const GpuContext& ctx, const GpuScope* tree, PlannedDevices& out) {
  if (tree == nullptr) return PluginStatus::unresolvable(kErrMissingTopologyTree);
  if (ctx.req.shared && ctx.req.count > 1) return PluginStatus::unresolvable(kErrUnsupportedMultiSharedGpu);
  ScopeResult result;
  if (!from_scope(ctx, *tree, 0, 0, result)) {
    return PluginStatus::unschedulable(ctx.req.required_topology_scope.empty() ? kErrInsufficientGpuDevices
                                                                               : kErrInsufficientTopologyScopedGpu);
  }
  out = result.devices;
  return {};
}

}  // namespace

PluginStatus allocate_gpus(const AllocationView& view, const DeviceShareRequest& request,
                           const PreparedType& prepared, const AllocateOptions& options, PlannedDevices& out) {
  out.clear();
  const GpuRequirements& req = *request.gpu;
  const NodeDevices& node = *view.node;
  GpuContext ctx(view, req, options.scorer);

  if (!req.shared) {
    const GpuPartitionIndexer* index = node.partition_indexer();
    bool node_honors = node.device_honors_partitions();
    if (index == nullptr && options.node_labels != nullptr) {
      index = builtin_partition_indexer(*options.node_labels);
      node_honors = honors_gpu_partitions(*options.node_labels);
    }
    const bool honor = req.honor_partition || node_honors;
    PluginStatus s = by_partition(ctx, index, out);
    if (!s.ok()) {
      if (honor) return s;
      out.clear();
    } else if (!out.empty()) {
      return {};
    }
  }

  PluginStatus s = by_topology(ctx, node.gpu_topology(), out);
  if (!s.ok()) {
    if (!(req.required_topology_scope.empty() && s.code == Code::unschedulable_and_unresolvable)) return s;
    out.clear();
  } else if (!out.empty()) {
    return {};
  }
  return allocate_default_devices(view, DeviceType::gpu, request, prepared.per_instance, prepared.desired, nullptr,
                                  options.scorer, out);
}

}  // namespace troupe::plugins::deviceshare
