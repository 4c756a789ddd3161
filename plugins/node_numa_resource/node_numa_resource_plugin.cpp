#include "plugins/node_numa_resource/node_numa_resource_plugin.hpp"

#include "model/pod_requests.hpp"
#include "plugins/common/args.hpp"
#include "plugins/node_numa_resource/designated_cpus.hpp"
#include "plugins/node_numa_resource/qos.hpp"
#include "plugins/node_numa_resource/reservation_restore.hpp"

namespace troupe::plugins::numa {

namespace {

const NodeCpus* cpus_of(const NodeInfo& node) { return node.extension<NodeCpus>(NodeExtensionSlot::kCpus); }

const TopologyOptions& options_of(const NodeCpus* cpus) {
  static const TopologyOptions kNone;
  return cpus != nullptr ? cpus->options() : kNone;
}

bool all_zero(const ResourceList& list) {
  for (const auto& [name, q] : list)
    if (!q.is_zero()) return false;
  return true;
}

PluginStatus missing_state() { return PluginStatus::internal_error("NodeNUMAResource: no PreFilter state for the pod"); }

}  // namespace

NodeNUMAResource::NodeNUMAResource(NodeNumaResourceArgs args, HintProviders providers)
    : args_(std::move(args)),
      providers_(std::move(providers)),
      node_scorer_(args_.scoring_strategy),
      hint_scoring_{args_.numa_scoring_strategy.type, args_.scoring_strategy.resources} {}

Result<std::shared_ptr<const Plugin>> NodeNUMAResource::make(const YAML::Node& args) {
  return build_plugin<NodeNumaResourceArgs, NodeNUMAResource>(args, NodeNumaResourceArgs::from_yaml);
}

Result<std::shared_ptr<const Plugin>> NodeNUMAResource::make_with_hint_providers(const YAML::Node& args,
                                                                                 HintProviders providers) {
  // make() validates the args and reports their errors; reuse what it decoded.
  auto built = make(args);
  if (!built) return built;
  const auto* plain = dynamic_cast<const NodeNUMAResource*>(built->get());
  return std::shared_ptr<const Plugin>(std::make_shared<const NodeNUMAResource>(plain->args_, std::move(providers)));
}

std::optional<topology::NumaMask> NodeNUMAResource::reserved_affinity(const CycleState& state) const {
  const NumaState* s = read_state(state);
  if (s == nullptr || !s->allocation || s->affinity == 0) return std::nullopt;
  return s->affinity;
}

PluginStatus NodeNUMAResource::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) const {
  auto spec = decode_resource_spec(pod.meta().annotations);
  if (!spec) return PluginStatus::internal_error(spec.message());
  auto numa_spec = decode_numa_topology_spec(pod.meta().annotations);
  if (!numa_spec) return PluginStatus::internal_error(numa_spec.message());
  NumaState st;
  st.requests = pod_requests(pod.spec());
  if (all_zero(st.requests)) {
    st.skip = true;
    state.write<NumaState>(state_slot(), std::move(st));
    return PluginStatus(Code::skip);
  }
  auto cpu = st.requests.find("cpu");
  st.milli_cpu = cpu == st.requests.end() ? 0 : cpu->second.milli_value();
  st.num_cpus = static_cast<int>(st.milli_cpu / 1000);
  st.pod_numa_policy = numa_spec->policy;
  st.pod_numa_exclusive = numa_spec->exclusive;
  st.pod_spec = *spec;
  auto designated = designated_cpus_of(pod.meta());
  if (!designated) return PluginStatus::unresolvable(designated.message());
  if (allow_use_cpuset(*pod.pod)) {
    CpuBindPolicy policy = spec->preferred();
    if (policy == CpuBindPolicy::unset || policy == CpuBindPolicy::default_policy) policy = args_.default_cpu_bind_policy;
    CpuBindPolicy required = spec->required();
    if (required == CpuBindPolicy::default_policy) required = args_.default_cpu_bind_policy;
    if (required != CpuBindPolicy::unset) policy = required;
    if (binds_cpus(policy)) {
      if (st.milli_cpu % 1000 != 0) return PluginStatus::unresolvable(kErrInvalidRequestedCpus);
      if (st.milli_cpu > 0) {
        st.request_cpu_bind = true;
        st.required = required;
        st.preferred = policy;
        st.exclusive = spec->exclusive();
        // A cpuset is designated for a pod that gets one; others take none.
        st.designated_cpus = std::move(*designated);
      }
    }
  }
  state.write<NumaState>(state_slot(), std::move(st));
  return {};
}

PluginStatus NodeNUMAResource::decide(const NumaState& s, const NodeInfo& node, NodeDecision& d) const {
  const NodeCpus* cpus = cpus_of(node);
  const TopologyOptions& options = options_of(cpus);
  // NodeCpus keeps the node's policies current; a NodeInfo without it has them read now.
  const NodePolicies policies =
      cpus != nullptr ? cpus->policies() : combine_node_policies(read_node_policy_labels(*node.node()), options);
  d.node_bind = policies.cpu_bind;
  d.numa_exclusive = s.pod_numa_exclusive;
  // The pod chose a NUMA policy without exclusivity: Required by default.
  if (d.numa_exclusive == topology::NumaExclusive::none && s.pod_numa_policy != topology::NumaPolicy::none)
    d.numa_exclusive = topology::NumaExclusive::required;
  auto merged = topology::merge_numa_policies(policies.numa_policy, s.pod_numa_policy);
  if (!merged) return PluginStatus::unresolvable(kErrNumaPolicyNotMatch);
  d.numa_policy = *merged;

  d.bind_cpus = s.request_cpu_bind;
  if (!d.bind_cpus && d.node_bind != NodeCpuBindPolicy::none && s.milli_cpu > 0) {
    if (s.milli_cpu % 1000 != 0) return PluginStatus::unresolvable(kErrInvalidRequestedCpus);
    d.bind_cpus = true;
  }
  d.required = s.required;
  if (d.bind_cpus) {
    if (!options.valid_cpu_topology()) return PluginStatus::unresolvable(kErrInvalidCpuTopology);
    if (d.node_bind == NodeCpuBindPolicy::full_pcpus_only) d.required = CpuBindPolicy::full_pcpus;
    if (d.node_bind == NodeCpuBindPolicy::spread_by_pcpus) d.required = CpuBindPolicy::spread_by_pcpus;
    if (s.required != CpuBindPolicy::unset && s.required != d.required)
      return PluginStatus::unresolvable(kErrCpuBindPolicyConflict);
    const int per_core = options.cpu_topology->cpus_per_core();
    if (d.required == CpuBindPolicy::full_pcpus && per_core > 0 && s.num_cpus % per_core != 0)
      return PluginStatus::unresolvable(kErrSmtAlignment);
  }
  d.strategy = policies.allocate_strategy_or(args_.default_numa_allocate_strategy());
  return {};
}

AllocateRequest NodeNUMAResource::allocate_request(const NumaState& s, const NodeInfo& node, const NodeDecision& d) {
  AllocateRequest r;
  r.requests = s.requests;
  r.bind_cpus = d.bind_cpus;
  r.num_cpus = s.num_cpus;
  r.required = d.required != CpuBindPolicy::unset;
  r.bind_policy = r.required ? d.required : s.preferred;
  r.exclusive = s.exclusive;
  r.strategy = d.strategy;
  const NodeCpus* cpus = cpus_of(node);
  r.also_reserved = cpus != nullptr ? cpus->node_reserved_cpus() : node_annotation_reserved_cpus(*node.node());
  r.numa_cpu_at_most_free = s.designated_cpus != nullptr;
  return r;
}

topology::NumaHintProviders NodeNUMAResource::all_providers() const {
  topology::NumaHintProviders out{this};
  for (const auto& p : providers_) out.push_back(p.get());
  return out;
}

PluginStatus NodeNUMAResource::merged_affinity(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                               const NodeDecision& d, topology::NumaMask& affinity) const {
  const NodeCpus* cpus = cpus_of(node);
  const std::vector<int> numa_nodes = options_of(cpus).numa_node_ids();
  if (numa_nodes.empty()) return PluginStatus::unresolvable(kErrMissingNumaResources);
  topology::NumaHint best;
  PluginStatus status = topology::admit(all_providers(), state, pod, node, d.numa_policy, numa_nodes,
                                        d.numa_exclusive, cpus->numa_statuses(), best);
  if (!status.ok()) return status;
  affinity = best.numa_nodes;
  return {};
}

PluginStatus NodeNUMAResource::filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const NumaState* s = read_state(state);
  if (s == nullptr) return missing_state();
  if (s->skip) return {};
  if (auto designated = filter_designated_cpus(*this, state, pod, node)) return *designated;  // designated CPUs
  if (auto restored = filter_reserved_cpus(*this, state, pod, node)) return *restored;        // reserved CPUs
  return filter_node(state, pod, node);
}

PluginStatus NodeNUMAResource::filter_node(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const NumaState* s = read_state(state);
  if (s == nullptr) return missing_state();
  if (s->skip) return {};
  if (node.node() == nullptr) return PluginStatus::internal_error("node not found");
  NodeDecision d;
  PluginStatus status = decide(*s, node, d);
  if (!status.ok()) return status;
  if (d.bind_cpus && d.required != CpuBindPolicy::unset && d.numa_policy == topology::NumaPolicy::none) {
    // Koordinator allocates here to see whether the required policy can be
    // met; without a NUMA affinity that succeeds exactly when enough CPUs
    // qualify (count_for_required_policy), so count them instead.
    // NodeCpus keeps that count current (free_cpus_for_required_policy).
    if (cpus_of(node)->free_cpus_for_required_policy(d.required) < s->num_cpus)
      return PluginStatus::unschedulable(kErrNotEnoughCpus);
    return {};
  }
  if (d.numa_policy == topology::NumaPolicy::none) return {};
  // Every policy but None is admitted here, BestEffort too (Koordinator's
  // FilterByNUMANode): its merge always admits, but a node without NUMA
  // zones, a provider without hints, or an allocation that fails on the
  // chosen hint still turns the node away.
  topology::NumaMask affinity = 0;
  return merged_affinity(state, pod, node, d, affinity);
}

namespace {

/// calculateAllocatableAndRequested: what Score rates a node by once the pod
/// would get `allocation`. With NUMA amounts, the NUMA nodes it uses (their
/// allocatable, what others hold there); else the node. A pod given a cpuset
/// counts, for cpu, every CPU bound on the node (Koordinator's reading, beside
/// NUMA-local allocatable when there are NUMA amounts).
std::pair<ResourceVector, ResourceVector> allocatable_and_requested(const NodeCpus& cpus, const NodeInfo& node,
                                                                    const PodAllocation& allocation) {
  std::pair<ResourceVector, ResourceVector> out{node.allocatable(), node.requested()};
  if (!allocation.numa_resources.empty()) {
    ResourceList total, held;
    for (const NumaNodeResource& r : allocation.numa_resources) {
      if (const ResourceList* a = cpus.options().allocatable_of(r.node)) total += *a;
      if (auto it = cpus.numa_allocated().find(r.node); it != cpus.numa_allocated().end()) held += it->second;
    }
    out = {ResourceVector::from(total), ResourceVector::from(held)};
  }
  if (!allocation.cpus.empty()) out.second.milli_cpu = int64_t{1000} * cpus.allocated_cpus().size();
  return out;
}

}  // namespace

ScoreResult NodeNUMAResource::score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const NumaState* s = read_state(state);
  if (s == nullptr || s->skip || node.node() == nullptr) return {};
  NodeDecision d;
  if (!decide(*s, node, d).ok()) return {};
  const NodeCpus* cpus = cpus_of(node);
  if (d.numa_policy == topology::NumaPolicy::none || cpus == nullptr)
    return {node_scorer_.score(pod, node), {}};
  topology::NumaMask affinity = 0;
  if (!merged_affinity(state, pod, node, d, affinity).ok()) return {};
  auto allocation = allocate_on_node(*cpus, allocate_request(*s, node, d), affinity);
  if (!allocation) return {};
  // scoringStrategy rates the node, NUMA policy or not (numaScoringStrategy
  // only orders the NUMA hints).
  const auto [allocatable, requested] = allocatable_and_requested(*cpus, node, *allocation);
  return {node_scorer_.score(pod, allocatable, requested), {}};
}

PluginStatus NodeNUMAResource::reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const {
  const NumaState* s = read_state(state);
  if (s == nullptr) return missing_state();
  if (s->skip) return {};
  // The pod was assumed on the node before Reserve, and NodeCpus held the
  // resource-status it may carry (stale, or a designation): not an allocation
  // of this attempt, so it goes before anything is allocated.
  if (auto* cpus = node.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus)) cpus->remove_allocation(pod_identity(pod));
  if (auto designated = reserve_designated_cpus(*this, state, pod, node)) return *designated;  // designated CPUs
  if (auto restored = reserve_reserved_cpus(*this, state, pod, node)) return *restored;  // reserved CPUs first
  return reserve_node(state, pod, node);
}

PluginStatus NodeNUMAResource::reserve_node(CycleState& state, const PodInfo& pod, NodeInfo& node) const {
  const NumaState* s = read_state(state);
  if (s == nullptr) return missing_state();
  if (s->skip) return {};
  if (node.node() == nullptr) return PluginStatus::internal_error("node not found");
  NodeDecision d;
  PluginStatus status = decide(*s, node, d);
  if (!status.ok()) return status;
  if (d.allocates_nothing()) return {};
  if (cpus_of(node) == nullptr) return PluginStatus::unresolvable(kErrMissingNumaResources);
  topology::NumaMask affinity = 0;
  if (d.numa_policy != topology::NumaPolicy::none) {
    status = merged_affinity(state, pod, node, d, affinity);
    if (!status.ok()) return status;
  }
  auto allocation = allocate_on_node(*cpus_of(node), allocate_request(*s, node, d), affinity);
  if (!allocation) return PluginStatus::unschedulable(allocation.message());
  allocation->name = pod.key;
  node.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus)->add_allocation(pod_identity(pod), *allocation);
  NumaState next = *s;
  next.allocation = std::move(*allocation);
  next.node_required = d.required;
  next.affinity = affinity;
  state.write<NumaState>(state_slot(), std::move(next));
  return {};
}

void NodeNUMAResource::unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const {
  const NumaState* s = read_state(state);
  if (s == nullptr || !s->allocation) return;
  if (cpus_of(node) != nullptr)
    node.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus)->remove_allocation(pod_identity(pod));
  NumaState next = *s;
  next.allocation.reset();
  next.affinity = 0;
  state.write<NumaState>(state_slot(), std::move(next));
}

PluginStatus NodeNUMAResource::pre_bind(CycleState& state, const PodInfo&, const std::string&,
                                        BindingChanges& changes) const {
  const NumaState* s = read_state(state);
  if (s == nullptr || s->skip || !s->allocation || s->allocation->empty()) return {};
  const PodAllocation& a = *s->allocation;
  changes.annotations[kAnnotationResourceStatus] = encode(ResourceStatus{a.cpus, a.numa_resources});
  if (a.cpus.empty()) return {};
  // Tell the node agent which policy produced the cpuset when the pod did not say.
  if (auto spec = resource_spec_to_write_back(s->pod_spec, s->node_required, s->preferred))
    changes.annotations[kAnnotationResourceSpec] = encode(*spec);
  return {};
}

std::vector<ClusterEvent> NodeNUMAResource::events_to_register() const {
  return {
      {EventResource::other, kAll, "NodeResourceTopologyChange"},
      {EventResource::pod, kDelete, "AssignedPodDelete"},
      {EventResource::node, kAdd | kUpdateNodeLabel | kUpdateNodeAnnotation, "NodeChange"},
  };
}

PluginStatus NodeNUMAResource::numa_hints(const CycleState& state, const PodInfo&, const NodeInfo& node,
                                          topology::NumaHints& out) const {
  const NumaState* s = read_state(state);
  if (s == nullptr) return missing_state();
  if (s->skip || node.node() == nullptr) return {};
  NodeDecision d;
  PluginStatus status = decide(*s, node, d);
  if (!status.ok()) return status;
  const NodeCpus* cpus = cpus_of(node);
  if (cpus == nullptr) return PluginStatus::unschedulable(kErrNoNumaHints);
  auto hints = generate_hints(*cpus, allocate_request(*s, node, d), d.numa_policy, hint_scoring_);
  if (!hints) return PluginStatus::unschedulable(kErrNoNumaHints);
  out = std::move(*hints);
  return {};
}

PluginStatus NodeNUMAResource::try_allocate(const CycleState& state, const PodInfo&, const NodeInfo& node,
                                            const topology::NumaHint& affinity) const {
  const NumaState* s = read_state(state);
  if (s == nullptr) return missing_state();
  if (s->skip || node.node() == nullptr) return {};
  NodeDecision d;
  PluginStatus status = decide(*s, node, d);
  if (!status.ok()) return status;
  if (!d.bind_cpus && affinity.numa_nodes == 0) return {};
  const NodeCpus* cpus = cpus_of(node);
  if (cpus == nullptr) return PluginStatus::unschedulable(kErrInsufficientNumaResources);
  auto allocation = allocate_on_node(*cpus, allocate_request(*s, node, d), affinity.numa_nodes);
  if (!allocation) return PluginStatus::unschedulable(allocation.message());
  return {};
}

}  // namespace troupe::plugins::numa
