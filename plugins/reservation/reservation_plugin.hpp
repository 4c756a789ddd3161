#pragma once
// ReservationPlugin ("Reservation"): Koordinator's reservation plugin (pkg/scheduler/plugins/reservation),
// over the per-node NodeReservations in NodeInfo slot kReservations.
//
//   PreFilter  decode the pod's reservation annotations (affinity,
//              exact-match, ignored) once; a malformed one rejects the pod
//              (UnschedulableAndUnresolvable naming the annotation).
//   Filter     reserve pods: the reservation-node must be this node and an
//              allocate policy "" cannot share a node with another policy.
//              Other pods: with a reservation affinity, some matched
//              reservation must fit (Aligned: by node; Restricted: by node and
//              by the reservation's remaining capacity). Without one the
//              plugin passes and NodeResourcesFit decides on the restored
//              node (see restored_node()).
//   Score      1000 for the node with the cluster's preferred
//              reservation-order, else MostAllocated over the reservation the
//              pod would allocate there; normalised to 0..100.
//   Reserve    nominate one reservation on the node and account the pod as
//              its owner; Unreserve forgets it.
//   PreBind    reservation-allocated {"name","uid"} into BindingChanges.annotations.
//   PostFilter with ReservationArgs.enablePreemption, preempt as DefaultPreemption
//              with the Reservation's minCandidateNodes* (Koordinator's
//              PreemptionMgr; reserve pods may then preempt too); when that
//              finds nothing, the "N Reservation(s) ..." reasons
//              (reservation_diagnosis.hpp) from the diagnosis the cycle shares.
//
// NodeResourcesFit's fit check reads restored_node() through ReservedCapacity
// (reserved_capacity.hpp): requested() − restored_node(...).released and
// pod_count() − released_pods, so the holds of reservations the pod may use
// are free to it and unmatched holds are not counted twice with their owners.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/default_preemption/preemption_post_filter.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/reservation/reservation_args.hpp"
#include "plugins/reservation/reservation_fit.hpp"
#include "plugins/reservation/reservation_match.hpp"

namespace troupe::plugins::reservation {

/// The CycleState slot of the Reservation plugin.
struct ReservationCycleState {
  PodReservationRequest request;
  /// The pod's requests without ignoredResources, as the fit checks see them.
  ResourceVector fit_request;
  /// Set by Reserve: the reservation the pod allocated.
  std::optional<ReservationAllocated> assumed;
};

class ReservationPlugin final : public PreFilterPlugin,
                          public FilterPlugin,
                          public ScorePlugin,
                          public ReservePlugin,
                          public PreBindPlugin,
                          public preemption::PreemptionPostFilter,
                          public EnqueueExtensions {
 public:
  static constexpr const char* kName = "Reservation";

  explicit ReservationPlugin(ReservationArgs args = {}) : args_(std::move(args)) {}
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  std::string_view name() const override { return kName; }
  const ReservationArgs& args() const { return args_; }

  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  PluginStatus filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  ScoreResult score(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  bool has_normalize_score() const override { return true; }
  PluginStatus normalize_scores(const CycleState& state, const PodInfo& pod,
                                std::vector<int64_t>& scores) const override;
  PluginStatus reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const override;
  void unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const override;
  PluginStatus pre_bind(CycleState& state, const PodInfo& pod, const std::string& node_name,
                        BindingChanges& changes) const override;
  std::vector<ClusterEvent> events_to_register() const override;

  bool preempts() const override { return args_.enable_preemption; }
  preemption::PreemptionOptions options(Timestamp now) const override;
  PostFilterResult post_filter(CycleState& state, const PodInfo& pod, const NodeStatuses& statuses) const override;

  /// What the transformer gives back to this pod on this node (zero when the
  /// pod is a reserve pod, or the node holds no reservation).
  RestoredNode restored_node(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const;
  /// The reservation Reserve would pick on this node; nullptr when none.
  const ReservationEntry* nominated(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const;

  /// The state PreFilter wrote, or nullptr.
  const ReservationCycleState* read_state(const CycleState& state) const;

 private:
  PluginStatus filter_reserve_pod(const PodInfo& pod, const NodeInfo& node, const NodeReservations* held) const;
  ReservationCycleState make_state(PodReservationRequest request, const PodInfo& pod) const;

  ReservationArgs args_;
};

}  // namespace troupe::plugins::reservation
