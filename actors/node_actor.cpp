#include "actors/node_actor.hpp"

#include "actors/preemption_search.hpp"

namespace troupe::actors {

node_actor::behavior_type node_actor_fn(node_actor::stateful_pointer<node_actor_state> self,
                                        std::shared_ptr<MetricsRegistry> metrics) {
  self->state.actor_metrics = actor_metrics(metrics, "node");
  return {
      [=](atom::upsert_node, NodePtr node) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.upsert_node(std::move(node));
      },
      [=](atom::delete_node, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.delete_node(name);
      },
      [=](atom::pod_bound, PodInfoPtr pod) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.account_pod(std::move(pod));
      },
      [=](atom::pod_gone, const std::string& uid) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.forget_pod(uid);
      },
      [=](atom::upsert_device, DevicePtr device) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.apply_object(NodeObject(std::move(device)));
      },
      [=](atom::delete_device, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.delete_object(NodeObjectRef{NodeObjectKind::device, name, name});
      },
      [=](atom::upsert_gpu_health, UnhealthyGpusPtr health) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.apply_object(NodeObject(std::move(health)));
      },
      [=](atom::delete_gpu_health, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.delete_object(NodeObjectRef{NodeObjectKind::gpu_health, name, name});
      },
      [=](atom::device_summary, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        return self->state.partition.device_summaries(name);
      },
      [=](atom::upsert_topology, TopologyPtr nrt) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.apply_object(NodeObject(std::move(nrt)));
      },
      [=](atom::delete_topology, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.delete_object(NodeObjectRef{NodeObjectKind::topology, name, name});
      },
      [=](atom::upsert_node_metric, NodeMetricPtr metric) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.apply_object(NodeObject(std::move(metric)));
      },
      [=](atom::delete_node_metric, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.delete_object(NodeObjectRef{NodeObjectKind::node_metric, name, name});
      },
      [=](atom::cpu_summary, const std::string& name, bool available) {
        MessageTimer timer(self->state.actor_metrics, self);
        return self->state.partition.cpu_summary(name, available);
      },
      [=](atom::gpushare_inspect, const std::string& name) {
        MessageTimer timer(self->state.actor_metrics, self);
        return self->state.partition.gpushare_inspection(name);
      },
      [=](atom::upsert_reservation, ReservationPtr reservation) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.apply_object(NodeObject(std::move(reservation)));
      },
      [=](atom::delete_reservation, const std::string& uid) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.delete_object(NodeObjectRef{NodeObjectKind::reservation, "", uid});
      },
      [=](atom::reservation_summary, const std::string& name, bool koordinator_shape) {
        MessageTimer timer(self->state.actor_metrics, self);
        return self->state.partition.reservation_summary(name, koordinator_shape);
      },
      [=](atom::load_summary, const std::string& name, FrameworkPtr framework) {
        MessageTimer timer(self->state.actor_metrics, self);
        return self->state.partition.load_summary(name, *framework);
      },
      [=](atom::filter, CycleRequestPtr req) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto& partition = self->state.partition;
        RoundOptions options;
        options.limit =
            feasible_share(req->feasible_wanted, req->total_nodes, static_cast<int64_t>(partition.node_count()));
        options.scheduling_class = req->scheduling_class;
        options.score = req->score;
        self->state.round_cycle = req->cycle;
        auto outcome = partition.run_round(*req->framework, *req->state, *req->pod, options);
        return FilterOutcomePtr(std::make_shared<FilterOutcome>(std::move(outcome)));
      },
      [=](atom::evaluate, CycleRequestPtr req, NodeNamesPtr names, bool score) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto verdict = self->state.partition.evaluate(*req->framework, *req->state, *req->pod, *names, score);
        return EvaluationPtr(std::make_shared<const Evaluation>(std::move(verdict)));
      },
      [=](atom::reserve, CycleRequestPtr req, const std::string& node) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto status = self->state.partition.reserve(*req->framework, *req->state, req->pod, node);
        return ReserveOutcome{status.ok(), status.message(), status.plugin, status.is_rejection()};
      },
      [=](atom::node_objects, NodeNamesPtr names) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto out = std::make_shared<std::map<std::string, std::string>>();
        for (const auto& name : *names)
          if (const auto* info = self->state.partition.find(name); info != nullptr && info->node() != nullptr)
            (*out)[name] = encode(*info->node());
        return NodeJsonPtr(std::move(out));
      },
      [=](atom::evaluate, PreemptionRequestPtr req) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto answer = evaluate_preemption(self->state.partition, self->state.round_cycle, *req);
        return PartitionPreemptionPtr(std::make_shared<const plugins::preemption::PartitionPreemption>(std::move(answer)));
      },
      [=](atom::unreserve, CycleRequestPtr req, const std::string& node) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.partition.unreserve(*req->framework, *req->state, *req->pod, node);
      },
  };
}

}  // namespace troupe::actors
