#include "plugins/reservation/reservation_plugin.hpp"

#include <algorithm>
#include <iterator>

#include "model/pod_requests.hpp"
#include "plugins/common/args.hpp"
#include "plugins/reservation/cluster_reservations.hpp"
#include "plugins/reservation/reservation_diagnosis.hpp"
#include "plugins/reservation/reservation_names.hpp"
#include "plugins/reservation/reservation_score.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::plugins::reservation {

namespace {

const NodeReservations* held_on(const NodeInfo& node) {
  return node.extension<NodeReservations>(NodeExtensionSlot::kReservations);
}

bool holds_any(const NodeReservations* held) { return held != nullptr && !held->empty(); }

}  // namespace

Result<std::shared_ptr<const Plugin>> ReservationPlugin::make(const YAML::Node& args) {
  return build_plugin<ReservationArgs, ReservationPlugin>(args, ReservationArgs::from_yaml);
}

ReservationCycleState ReservationPlugin::make_state(PodReservationRequest request, const PodInfo& pod) const {
  ReservationCycleState out;
  out.fit_request = pod.requests;
  if (!args_.ignored_resources.empty() || !args_.ignored_resource_groups.empty()) {
    auto& scalars = out.fit_request.scalars;
    scalars.erase(std::remove_if(scalars.begin(), scalars.end(), [&](const auto& s) { return args_.ignores(s.first); }),
                  scalars.end());
    for (auto it = request.requests.begin(); it != request.requests.end();)
      it = args_.ignores(it->first) ? request.requests.erase(it) : std::next(it);
  }
  out.request = std::move(request);
  return out;
}

const ReservationCycleState* ReservationPlugin::read_state(const CycleState& state) const {
  return state.read<ReservationCycleState>(state_slot());
}

PluginStatus ReservationPlugin::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const {
  auto request = read_pod_reservation_request(*pod.pod);
  if (!request) return PluginStatus::unresolvable(request.message());
  // With the cycle's view of the reservations, a pod that must use one goes
  // only to their nodes, and is rejected once when there is none.
  const auto* usable = state.input<ReservationAffinityNodes>();
  if (usable != nullptr && request->has_affinity() && !request->reserve_pod) {
    if (usable->nodes.empty()) return PluginStatus::unresolvable(kErrReasonReservationAffinity);
    result.node_names = usable->nodes;
  }
  state.write(state_slot(), make_state(std::move(*request), pod));
  return {};
}

PluginStatus ReservationPlugin::filter_reserve_pod(const PodInfo& pod, const NodeInfo& node,
                                             const NodeReservations* held) const {
  const std::string wanted = reserve_pod_node(pod.meta());
  if (!wanted.empty() && wanted != node.name()) return PluginStatus::unresolvable(kErrReasonNodeNotMatchReservation);
  if (!held) return {};
  const std::string policy = reserve_pod_allocate_policy(pod.meta());
  for (const auto& [uid, entry] : held->entries()) {
    // The deprecated "" policy cannot share a node with any other policy.
    const std::string& other = entry.allocate_policy();
    if ((policy.empty() || other.empty()) && policy != other)
      return PluginStatus::unresolvable(kErrReasonAllocatePolicyConflict);
  }
  return {};
}

PluginStatus ReservationPlugin::filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  if (node.node() == nullptr) return PluginStatus::internal_error("node not found");
  const ReservationCycleState* s = read_state(state);
  if (s == nullptr) return PluginStatus::internal_error("Reservation: PreFilter state missing");
  const NodeReservations* held = held_on(node);
  if (s->request.reserve_pod) {
    PluginStatus status = filter_reserve_pod(pod, node, held);
    if (!status.ok() || !s->request.has_affinity()) return status;
    // A reserve pod matches no reservation, so an affinity cannot be met.
    return PluginStatus::unresolvable(kErrReasonReservationAffinity);
  }
  if (!holds_any(held)) {
    return s->request.has_affinity() ? PluginStatus::unresolvable(kErrReasonReservationAffinity) : PluginStatus{};
  }
  if (!s->request.has_affinity()) return {};  // NodeResourcesFit decides on the restored node
  const NodeMatch match = match_node(s->request, *pod.pod, *node.node(), *held);
  if (match.matched.empty()) return PluginStatus::unresolvable(kErrReasonReservationAffinity);
  return filter_with_reservations(s->request, s->fit_request, node, restore_node(match, node), match.matched, true);
}

RestoredNode ReservationPlugin::restored_node(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const ReservationCycleState* s = read_state(state);
  const NodeReservations* held = held_on(node);
  if (s == nullptr || s->request.reserve_pod || !holds_any(held) || node.node() == nullptr) return {};
  return restore_node(match_node(s->request, *pod.pod, *node.node(), *held), node);
}

const ReservationEntry* ReservationPlugin::nominated(const CycleState& state, const PodInfo& pod,
                                               const NodeInfo& node) const {
  const ReservationCycleState* s = read_state(state);
  const NodeReservations* held = held_on(node);
  if (s == nullptr || s->request.reserve_pod || s->request.ignored || !holds_any(held) || node.node() == nullptr)
    return nullptr;
  const NodeMatch match = match_node(s->request, *pod.pod, *node.node(), *held);
  return nominate(s->request, s->fit_request, node, match, restore_node(match, node));
}

ScoreResult ReservationPlugin::score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  ScoreResult result;
  const ReservationCycleState* s = read_state(state);
  const NodeReservations* held = held_on(node);
  if (s == nullptr || s->request.reserve_pod || s->request.ignored || !holds_any(held) || node.node() == nullptr)
    return result;
  const NodeMatch match = match_node(s->request, *pod.pod, *node.node(), *held);
  if (match.matched.empty()) return result;
  const int64_t order = most_preferred(match.matched).order;
  const ReservationEntry* chosen = nominate(s->request, s->fit_request, node, match, restore_node(match, node));
  result.score = encode_node_score(order, chosen ? score_reservation(s->request.requests, *chosen) : 0);
  return result;
}

PluginStatus ReservationPlugin::normalize_scores(const CycleState&, const PodInfo& pod, std::vector<int64_t>& scores) const {
  if (is_reserve_pod(pod.meta())) return {};
  normalize_node_scores(scores);
  return {};
}

PluginStatus ReservationPlugin::reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const {
  const ReservationCycleState* s = read_state(state);
  if (s == nullptr || s->request.reserve_pod || s->request.ignored) return {};
  const ReservationEntry* chosen = nominated(state, pod, node);
  if (chosen == nullptr) {
    if (s->request.has_affinity()) return PluginStatus::unschedulable(kErrReasonReservationAffinity);
    return {};
  }
  ReservationCycleState next = *s;
  next.assumed = ReservationAllocated{chosen->name(), chosen->uid()};
  auto* held = node.mutable_extension<NodeReservations>(NodeExtensionSlot::kReservations);
  // The whole pod's requests, as on_pod_added records it once bound (s->request.requests lacks the ignored
  // resources): what the reservation's owners take must not change when the annotation is read back.
  if (!held->assume_pod(chosen->uid(), pod_identity(pod), pod_requests(pod.spec())))
    return PluginStatus::internal_error("Reservation: pod " + pod.key + " already allocated a reservation");
  state.write(state_slot(), std::move(next));
  return {};
}

void ReservationPlugin::unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const {
  const ReservationCycleState* s = read_state(state);
  if (s == nullptr || !s->assumed) return;
  if (auto* held = node.mutable_extension<NodeReservations>(NodeExtensionSlot::kReservations))
    held->forget_pod(pod_identity(pod));
  ReservationCycleState next = *s;
  next.assumed.reset();
  state.write(state_slot(), std::move(next));
}

PluginStatus ReservationPlugin::pre_bind(CycleState& state, const PodInfo&, const std::string&,
                                   BindingChanges& changes) const {
  const ReservationCycleState* s = read_state(state);
  if (s == nullptr || s->request.reserve_pod || s->request.ignored) return {};
  if (!s->assumed) {
    return s->request.has_affinity() ? PluginStatus::unschedulable(kErrReasonReservationAffinity) : PluginStatus{};
  }
  changes.annotations[kAnnotationReservationAllocated] = encode_reservation_allocated(*s->assumed);
  return {};
}

std::vector<ClusterEvent> ReservationPlugin::events_to_register() const {
  return {{EventResource::pod, kDelete, "PodDelete"},
          {EventResource::other, kAdd | kUpdate | kDelete, "reservations.v1alpha1.scheduling.koordinator.sh"}};
}

preemption::PreemptionOptions ReservationPlugin::options(Timestamp now) const {
  return preemption::preemption_options(args_.min_candidate_nodes_percentage, args_.min_candidate_nodes_absolute, now);
}

PostFilterResult ReservationPlugin::post_filter(CycleState& state, const PodInfo&, const NodeStatuses&) const {
  PostFilterResult out;
  out.status = PluginStatus(Code::unschedulable);
  if (preempts()) {
    out = preemption_verdict(state);
    // A nomination, an unresolvable answer or an error ends PostFilter here (upstream).
    if (out.status.code != Code::unschedulable) return out;
  }
  if (const auto* diagnosis = state.input<ReservationDiagnosis>()) {
    auto reasons = post_filter_reasons(*diagnosis);
    out.status.reasons.insert(out.status.reasons.end(), reasons.begin(), reasons.end());
  }
  out.message = out.status.message();
  return out;
}

}  // namespace troupe::plugins::reservation
