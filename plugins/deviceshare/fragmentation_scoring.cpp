#include "plugins/deviceshare/fragmentation_scoring.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include "plugins/deviceshare/fragmentation_policy.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins::deviceshare {

namespace {

constexpr int64_t kMiB = 1024 * 1024;
// koordinator.sh/gpu-core 100 (100000 in milli-units) is one whole card: 1000 milli-GPU.
constexpr int64_t kCoreMilliPerGpuMilli = 100;

// A card's share in milli-GPU: gpu-core, or gpu-memory-ratio for cards and
// requests sized by memory alone.
int64_t card_milli(const DeviceAmounts& amounts) {
  const int64_t core = amounts.milli(DeviceResource::gpu_core);
  return (core > 0 ? core : amounts.milli(DeviceResource::gpu_memory_ratio)) / kCoreMilliPerGpuMilli;
}

const std::string& node_label_model(const NodeInfo& node) {
  static const std::string kNone;
  if (node.node() == nullptr) return kNone;
  auto it = node.node()->meta.labels.find(label_keys().gpu_model);
  return it == node.node()->meta.labels.end() ? kNone : it->second;
}

struct HostFree {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
};

// Free CPU and memory as the measure reads them. Reserve runs after the pod
// was assumed on the NodeInfo: `pod_assumed` gives its CPU and memory back,
// so the state is Score's.
HostFree host_free(const NodeInfo& node, const PodInfo& pod, bool pod_assumed) {
  HostFree out;
  out.cpu_milli = node.allocatable().milli_cpu - node.requested().milli_cpu;
  int64_t memory = node.allocatable().memory - node.requested().memory;
  if (pod_assumed) {
    out.cpu_milli += pod.requests.milli_cpu;
    memory += pod.requests.memory;
  }
  out.memory_mib = memory / kMiB;
  return out;
}

// The memo's state key straight from the slots (no allocation); nullopt with
// more cards than it holds.
std::optional<FragmentationStateKey> state_key(const NodeDevices& devices, const HostFree& host, uint64_t args_id,
                                               uint64_t distribution_id) {
  FragmentationStateKey key;
  key.args_id = args_id;
  key.distribution_id = distribution_id;
  key.model_hash = devices.card_model_hash();
  key.cpu_free_milli = host.cpu_milli;
  key.memory_free_mib = host.memory_mib;
  if (devices.known()) {
    const auto& slots = devices.devices(DeviceType::gpu).slots;
    for (size_t i = 0; i < slots.size() && i < kMaxDevicesPerType; ++i) {
      if (!slots[i].has_capacity()) continue;
      if (key.cards == FragmentationStateKey::kMaxCards) return std::nullopt;
      key.card_free[key.cards++] = static_cast<int32_t>(card_milli(slots[i].free()));
    }
  }
  return key;
}

bool has_gpu_cards(const NodeDevices* devices) {
  if (devices == nullptr || !devices->known()) return false;
  const auto& slots = devices->devices(DeviceType::gpu).slots;
  for (size_t i = 0; i < slots.size() && i < kMaxDevicesPerType; ++i)
    if (slots[i].has_capacity()) return true;
  return false;
}

// A CPU-only request changes the measure only where it takes CPU or memory a
// class needs (the class fits the host before and not after). Elsewhere the
// before and after states add the same terms in the same order, so the score
// is exactly the neutral one: most CPU-only pods on most nodes need no
// evaluation (and no memo entry).
bool takes_host_from_a_class(const HostFree& before, const GpuRequest& request, const TaskDistribution& tasks) {
  const int64_t cpu_after = before.cpu_milli - request.cpu_milli;
  const int64_t memory_after = before.memory_mib - request.memory_mib;
  for (const auto& c : tasks.classes()) {
    const bool fits_before = before.cpu_milli >= c.cpu_milli && before.memory_mib >= c.memory_mib;
    const bool fits_after = cpu_after >= c.cpu_milli && memory_after >= c.memory_mib;
    if (fits_before != fits_after) return true;
  }
  return false;
}

// The policy's decision on the node, from the node's memo when it has seen
// this exact state and request before.
FragmentationDecision evaluate(const NodeInfo& node, const NodeDevices* devices, const PodInfo& pod,
                               const DeviceShareRequest* request, const FragmentationArgs& args,
                               const ScoringTasks& tasks, bool pod_assumed = false) {
  const GpuRequest req = fragmentation_request(pod, request);
  const HostFree host = host_free(node, pod, pod_assumed);
  if (req.gpu_count == 0 && !takes_host_from_a_class(host, req, *tasks.tasks))
    return FragmentationDecision{fragmentation_score(0, 0), -1, has_gpu_cards(devices)};
  std::optional<FragmentationStateKey> key;
  std::optional<double> before;
  if (devices != nullptr) {
    key = state_key(*devices, host, args.id, tasks.id);
    if (key) {
      if (auto hit = devices->fragmentation_cache().find(*key, req)) return *hit;
      before = devices->fragmentation_cache().before(*key);
    }
  }
  FragmentationNode fnode = fragmentation_node(node, devices);
  fnode.free.cpu_free_milli = host.cpu_milli;
  fnode.free.memory_free_mib = host.memory_mib;
  std::vector<uint8_t> own_access;
  const std::vector<uint8_t>& access =
      devices != nullptr ? devices->fragmentation_cache().access(args.id, tasks.id, *tasks.tasks, devices->card_model())
                         : (own_access = tasks.tasks->access_for_model(node_label_model(node)));
  FragmentationDecision decision;
  decision.has_cards = !fnode.free.card_free_milli.empty();
  if (!before) {
    before = node_fragmentation(fnode.free, *tasks.tasks, access);
    if (key) devices->fragmentation_cache().store_before(*key, *before);
  }
  auto placement = best_fragmentation_placement(fnode.free, req, *tasks.tasks, access, *before);
  if (placement) {
    decision.policy_score = fragmentation_policy_score(*placement, fnode.free, req, args.spread_weight);
    decision.first_card = placement->cards.empty() ? -1 : placement->cards.front();
  }
  if (key) devices->fragmentation_cache().store(*key, req, decision);
  return decision;
}

}  // namespace

FragmentationNode fragmentation_node(const NodeInfo& node, const NodeDevices* devices) {
  FragmentationNode out;
  out.free.cpu_free_milli = node.allocatable().milli_cpu - node.requested().milli_cpu;
  out.free.memory_free_mib = (node.allocatable().memory - node.requested().memory) / kMiB;
  if (devices == nullptr || !devices->known()) return out;
  const auto& slots = devices->devices(DeviceType::gpu).slots;
  out.free.card_free_milli.reserve(slots.size());
  out.slots.reserve(slots.size());
  for (size_t i = 0; i < slots.size() && i < kMaxDevicesPerType; ++i) {
    if (!slots[i].has_capacity()) continue;  // unhealthy or gone: no idle GPU to strand
    out.free.card_free_milli.push_back(static_cast<int32_t>(card_milli(slots[i].free())));
    out.slots.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

GpuRequest fragmentation_request(const PodInfo& pod, const DeviceShareRequest* request) {
  GpuRequest out;
  out.cpu_milli = pod.requests.milli_cpu;
  out.memory_mib = (pod.requests.memory + kMiB - 1) / kMiB;
  if (request != nullptr && request->gpu) {
    out.gpu_count = static_cast<int32_t>(request->gpu->count);
    out.gpu_milli = static_cast<int32_t>(std::min<int64_t>(card_milli(request->gpu->per_gpu_amounts), kMilliPerGpu));
    if (out.gpu_milli <= 0 || out.gpu_count <= 0) out.gpu_milli = out.gpu_count = 0;
  }
  return out;
}

int64_t fragmentation_raw_score(const NodeInfo& node, const NodeDevices* devices, const PodInfo& pod,
                                const DeviceShareRequest* request, const FragmentationArgs& args,
                                const ScoringTasks& tasks) {
  if (tasks.tasks == nullptr) return 0;
  const FragmentationDecision decision = evaluate(node, devices, pod, request, args, tasks);
  if (decision.policy_score < 0) return 0;
  const int64_t policy = decision.policy_score;
  // Equal policy scores: a node without cards first (a CPU-only pod there can
  // strand no GPU; and in a cluster without GPUs every node ties, so the
  // strategy stays neutral), then the seeded node order. A smaller rank
  // wins, so it enters inverted: higher raw = preferred (rank 0 ties with a
  // node without cards, one name in 2^32).
  if (!decision.has_cards) return (policy << 32) | int64_t{UINT32_MAX};
  const std::string_view name = node.node() != nullptr ? std::string_view(node.node()->meta.name) : std::string_view();
  const int64_t order = static_cast<int64_t>(UINT32_MAX - tie_break_rank(name, args.tie_break_seed));
  return (policy << 32) | order;
}

void normalize_fragmentation_scores(std::vector<int64_t>& scores) {
  if (scores.empty()) return;
  const int64_t best = *std::max_element(scores.begin(), scores.end());
  for (int64_t& s : scores) {
    const int64_t policy = policy_score_of(s);
    s = s == best ? std::min<int64_t>(policy + 1, kMaxNodeScore) : std::min<int64_t>(policy, kMaxNodeScore - 1);
  }
}

std::optional<uint64_t> fragmentation_card_mask(const NodeInfo& node, const NodeDevices* devices, const PodInfo& pod,
                                                const DeviceShareRequest* request, const FragmentationArgs& args,
                                                const ScoringTasks& tasks, bool pod_assumed) {
  if (tasks.tasks == nullptr || request == nullptr || !request->gpu || !request->gpu->shared || request->gpu->count != 1)
    return std::nullopt;
  const FragmentationDecision decision = evaluate(node, devices, pod, request, args, tasks, pod_assumed);
  if (decision.first_card < 0) return std::nullopt;
  const FragmentationNode chosen_from = fragmentation_node(node, devices);
  return uint64_t{1} << chosen_from.slots[static_cast<size_t>(decision.first_card)];
}

}  // namespace troupe::plugins::deviceshare
