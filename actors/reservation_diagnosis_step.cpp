#include "actors/reservation_diagnosis_step.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "actors/partitioning.hpp"
#include "plugins/reservation/reservation_diagnosis.hpp"
#include "plugins/reservation/reservation_plugin.hpp"

namespace troupe::actors {

namespace {

namespace rsv = plugins::reservation;
using NodeReasons = std::map<std::string, std::vector<std::string>>;

constexpr auto kReasonsTimeout = std::chrono::seconds(30);

bool reservation_post_filter(const plugins::Framework& framework) {
  const auto& post_filters = framework.post_filter_plugins();
  return std::any_of(post_filters.begin(), post_filters.end(),
                     [](const plugins::PostFilterPlugin* p) { return p->name() == rsv::ReservationPlugin::kName; });
}

void share(const CycleRequest& request, rsv::ReservationDiagnosis diagnosis) {
  request.state->share_input(std::make_shared<const rsv::ReservationDiagnosis>(std::move(diagnosis)), 1,
                             /*read_by_filter=*/false);
}

/// The nodes whose own rejection kept the pod from a reservation it could
/// use, by partition; those the attempt already knows the reasons of (a
/// PreFilter excluded them, an extender turned them down) go into `known`.
std::vector<std::vector<std::string>> nodes_to_ask(const rsv::ReservationDiagnosis& diagnosis,
                                                   const CycleRequest& request,
                                                   const plugins::NodeStatuses& extender_statuses,
                                                   size_t partitions, NodeReasons& known) {
  std::vector<std::vector<std::string>> by_partition(partitions);
  const plugins::CycleState& state = *request.state;
  for (const auto& [node, counts] : diagnosis.nodes) {
    if (rsv::usable_reservations(counts) <= 0) continue;
    auto rejected = std::find_if(extender_statuses.begin(), extender_statuses.end(),
                                 [&node = node](const auto& entry) { return entry.first == node; });
    if (rejected != extender_statuses.end()) {
      known[node] = rejected->second.reasons;
    } else if (state.node_names && state.node_names->count(node) == 0) {
      known[node] = {plugins::Framework::excluded_by_pre_filter_reason(state)};
    } else {
      by_partition[partition_of(node, partitions)].push_back(node);
    }
  }
  return by_partition;
}

/// Gathers the partitions' answers; the last one shares the diagnosis and calls `done`.
struct PendingReasons {
  rsv::ReservationDiagnosis diagnosis;
  size_t waiting = 0;
  std::function<void()> done;
};

}  // namespace

void diagnose_reservations(CycleSelf self, const CycleRequestPtr& request,
                           const plugins::NodeStatuses& extender_statuses, std::function<void()> done) {
  const auto& reservations = self->state.reservations;
  if (reservations.empty() || !reservation_post_filter(*request->framework)) return done();
  auto diagnosis = reservations.diagnose(*request->pod->pod, self->state.cluster_pods);
  if (!diagnosis) return done();
  const auto& partitions = self->state.deps.nodes;
  auto by_partition = nodes_to_ask(*diagnosis, *request, extender_statuses, partitions.size(), diagnosis->node_reasons);
  auto pending = std::make_shared<PendingReasons>();
  pending->diagnosis = std::move(*diagnosis);
  pending->done = std::move(done);
  for (const auto& names : by_partition) pending->waiting += names.empty() ? 0 : 1;
  if (pending->waiting == 0) {
    share(*request, std::move(pending->diagnosis));
    return pending->done();
  }
  auto answered = [request, pending] {
    if (--pending->waiting > 0) return;
    share(*request, std::move(pending->diagnosis));
    pending->done();
  };
  for (size_t i = 0; i < by_partition.size(); ++i) {
    if (by_partition[i].empty()) continue;
    auto names = std::make_shared<const std::vector<std::string>>(std::move(by_partition[i]));
    self->request(partitions[i], kReasonsTimeout, atom::evaluate_v, request, NodeNamesPtr(names), false)
        .then(
            [pending, answered](const EvaluationPtr& evaluation) {
              for (const auto& [node, status] : evaluation->failed) pending->diagnosis.node_reasons[node] = status.reasons;
              answered();
            },
            [answered](caf::error&) { answered(); });
  }
}

void diagnose_reservations_after_pre_filter(CycleSelf self, const CycleRequest& request,
                                            const plugins::PluginStatus& rejection) {
  const auto& reservations = self->state.reservations;
  if (reservations.empty() || !reservation_post_filter(*request.framework)) return;
  auto diagnosis = reservations.diagnose(*request.pod->pod, self->state.cluster_pods);
  if (!diagnosis) return;
  for (const auto& [node, counts] : diagnosis->nodes)
    if (rsv::usable_reservations(counts) > 0) diagnosis->node_reasons[node] = rejection.reasons;
  share(request, std::move(*diagnosis));
}

}  // namespace troupe::actors
