#include "plugins/deviceshare/gpu_allocator.hpp"

#include <algorithm>

#include "plugins/deviceshare/gpu_memory.hpp"
#include "plugins/deviceshare/rdma_allocator.hpp"

namespace troupe::plugins::deviceshare {

namespace {

enum class Outcome {
  allocated,
  missing_partition_table,
  unsupported_gpu_requests,
  insufficient_partitioned,
  missing_topology_tree,
  unsupported_multi_shared,
  insufficient_topology_scoped,
  insufficient_gpus,
};

Code to_code(Outcome outcome) {
  switch (outcome) {
    case Outcome::allocated: return Code::success;
    case Outcome::missing_partition_table:
    case Outcome::unsupported_gpu_requests:
    case Outcome::missing_topology_tree:
    case Outcome::unsupported_multi_shared: return Code::unschedulable_and_unresolvable;
    default: return Code::unschedulable;
  }
}

// What the strategies share: the request and the node's GPUs as the view sees them.
struct GpuContext {
  const AllocationView& view;
  const GpuRequirements& req;
  const DeviceScorer* scorer;
  const TypeDevices& gpus;
  MinorMask used = 0;   // GPUs hosting allocations (Koordinator's realUsed)
  MinorMask total = 0;  // healthy candidate GPUs (removeZeroDevice of the view's total)
  MinorMask fits = 0;   // healthy candidates with room for one card's request

  GpuContext(const AllocationView& v, const GpuRequirements& r, const DeviceScorer* s)
      : view(v), req(r), scorer(s), gpus(v.devices(DeviceType::gpu)) {
    for (size_t i = 0; i < gpus.slots.size(); ++i) {
      const DeviceSlot& slot = gpus.slots[i];
      const bool candidate = view.candidate(DeviceType::gpu, i);
      if (candidate ? slot.view_used() : slot.allocations() > 0) used |= minor_bit(slot.minor);
      if (candidate && slot.has_capacity()) {
        total |= minor_bit(slot.minor);
        if (card_fits(slot)) fits |= minor_bit(slot.minor);
      }
    }
  }

  bool card_fits(const DeviceSlot& slot) const {
    return fill_gpu_memory(req.per_gpu_amounts, slot.total()).fits_in(slot.view_free());
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
    if (minor >= 0 && minor <= kMaxMaskedMinor) return (fits & minor_bit(minor)) != 0;
    const DeviceSlot* slot = candidate_slot(minor);
    return slot != nullptr && slot->has_capacity() && card_fits(*slot);
  }

  int64_t shared_score(int32_t minor) const {
    if (!req.shared || scorer == nullptr) return 0;
    const DeviceSlot* slot = candidate_slot(minor);
    return scorer->score(req.per_gpu_amounts, slot->total(), slot->view_free());
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

PluginStatus to_status(Outcome outcome) {
  switch (outcome) {
    case Outcome::allocated: return {};
    case Outcome::missing_partition_table: return PluginStatus::unresolvable(kErrMissingPartitionTable);
    case Outcome::unsupported_gpu_requests: return PluginStatus::unresolvable(kErrUnsupportedGpuRequests);
    case Outcome::insufficient_partitioned: return PluginStatus::unschedulable(kErrInsufficientPartitionedDevice);
    case Outcome::missing_topology_tree: return PluginStatus::unresolvable(kErrMissingTopologyTree);
    case Outcome::unsupported_multi_shared: return PluginStatus::unresolvable(kErrUnsupportedMultiSharedGpu);
    case Outcome::insufficient_topology_scoped: return PluginStatus::unschedulable(kErrInsufficientTopologyScopedGpu);
    case Outcome::insufficient_gpus: return PluginStatus::unschedulable(kErrInsufficientGpuDevices);
  }
  return PluginStatus::internal_error("unknown GPU allocation outcome");
}

bool unresolvable(Outcome outcome) {
  return to_code(outcome) == Code::unschedulable_and_unresolvable;
}

Outcome by_partition(const GpuContext& ctx, const GpuPartitionIndexer* index, PlannedDevices& out) {
  if (index == nullptr) return Outcome::missing_partition_table;
  auto size = index->find(ctx.req.count);
  if (size == index->end() || size->second.empty()) return Outcome::unsupported_gpu_requests;
  FixedVector<const GpuPartition*, 128> feasible;
  for (const PartitionGroup& group : size->second) {
    for (const GpuPartition& p : group.partitions)
      if (partition_feasible(p, ctx)) feasible.push_back(&p);
    if (!feasible.empty() || ctx.req.restricted_partition) break;
  }
  if (feasible.empty()) return Outcome::insufficient_partitioned;
  plan_minors(select_by_binpack(feasible, *index, ctx.used, ctx.req.count)->minors, out);
  return Outcome::allocated;
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

Outcome by_topology(const GpuContext& ctx, const GpuScope* tree, PlannedDevices& out) {
  if (tree == nullptr) return Outcome::missing_topology_tree;
  if (ctx.req.shared && ctx.req.count > 1) return Outcome::unsupported_multi_shared;
  ScopeResult result;
  if (!from_scope(ctx, *tree, 0, 0, result)) {
    return ctx.req.required_topology_scope.empty() ? Outcome::insufficient_gpus : Outcome::insufficient_topology_scoped;
  }
  out = result.devices;
  return Outcome::allocated;
}

}  // namespace

PluginStatus allocate_gpus(const AllocationView& view, const DeviceShareRequest& request,
                           const PreparedType& prepared, const AllocateOptions& options, PlannedDevices& out) {
  out.clear();
  const GpuRequirements& req = *request.gpu;
  const NodeDevices& node = *view.node;
  GpuContext ctx(view, req, options.scorer);

  // Failures a strategy may ignore are plain outcomes: no status text is
  // built unless it is returned (Filter runs this for every node).
  if (!req.shared) {
    const GpuPartitionIndexer* index = node.partition_indexer();
    bool node_honors = node.device_honors_partitions();
    if (index == nullptr && options.node_labels != nullptr) {
      index = builtin_partition_indexer(*options.node_labels);
      node_honors = honors_gpu_partitions(*options.node_labels);
    }
    const bool honor = req.honor_partition || node_honors;
    const Outcome partition = by_partition(ctx, index, out);
    if (partition == Outcome::allocated && !out.empty()) return {};
    if (partition != Outcome::allocated && honor) return to_status(partition);
    out.clear();
  }

  const Outcome topology = by_topology(ctx, node.gpu_topology(), out);
  if (topology == Outcome::allocated && !out.empty()) return {};
  if (topology != Outcome::allocated && !(req.required_topology_scope.empty() && unresolvable(topology)))
    return to_status(topology);
  out.clear();
  return allocate_default_devices(view, DeviceType::gpu, request, prepared.per_instance, prepared.desired, nullptr,
                                  options.scorer, out);
}

}  // namespace troupe::plugins::deviceshare
