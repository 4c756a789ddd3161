#include "actors/node_object.hpp"

#include "plugins/deviceshare/node_devices.hpp"
#include "plugins/load_aware/node_load_state.hpp"
#include "plugins/node_numa_resource/node_cpus.hpp"
#include "plugins/reservation/node_reservations.hpp"
#include "plugins/reservation/reservation_status.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::actors {

namespace {

using plugins::NodeExtensionSlot;
using plugins::deviceshare::NodeDevices;
using plugins::gpushare::GpuShareNodeState;
using plugins::load_aware::NodeLoadState;
using plugins::numa::NodeCpus;
using plugins::reservation::NodeReservations;

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

NodeObjectRef ref_of(const NodeObject& object) {
  return std::visit(
      Overloaded{
          [](const std::shared_ptr<const Device>& d) {
            return NodeObjectRef{NodeObjectKind::device, d->meta.name, d->meta.name};
          },
          [](const std::shared_ptr<const NodeResourceTopology>& t) {
            return NodeObjectRef{NodeObjectKind::topology, t->meta.name, t->meta.name};
          },
          [](const std::shared_ptr<const Reservation>& r) {
            return NodeObjectRef{NodeObjectKind::reservation, r->status.node_name, r->meta.uid};
          },
          [](const UnhealthyGpusPtr& h) {
            return NodeObjectRef{NodeObjectKind::gpu_health, h->node_name, h->node_name};
          },
          [](const std::shared_ptr<const NodeMetric>& m) {
            return NodeObjectRef{NodeObjectKind::node_metric, m->meta.name, m->meta.name};
          },
      },
      object);
}

std::shared_ptr<const plugins::PodInfo> apply_node_object(plugins::NodeInfo& node, const NodeObject& object) {
  return std::visit(
      Overloaded{
          [&](const std::shared_ptr<const Device>& d) -> std::shared_ptr<const plugins::PodInfo> {
            node.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices)->apply_device(d);
            return nullptr;
          },
          [&](const std::shared_ptr<const NodeResourceTopology>& t) -> std::shared_ptr<const plugins::PodInfo> {
            node.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus)->apply_topology(t);
            return nullptr;
          },
          [&](const std::shared_ptr<const Reservation>& r) -> std::shared_ptr<const plugins::PodInfo> {
            auto* held = node.mutable_extension<NodeReservations>(NodeExtensionSlot::kReservations);
            // Without the extension (a profile-less NodeInfo) nothing can use the hold; still account it.
            if (held != nullptr && !held->apply_reservation(r)) return nullptr;
            if (held == nullptr && !plugins::reservation::is_available(*r)) return nullptr;
            // Koordinator's reservation cache counts an Available reservation as its reserve pod:
            // its requests and its device-allocated / resource-status annotations hold the node.
            return plugins::reservation::make_reserve_pod_info(*r);
          },
          [&](const UnhealthyGpusPtr& h) -> std::shared_ptr<const plugins::PodInfo> {
            if (auto* gpus = node.mutable_extension<GpuShareNodeState>(NodeExtensionSlot::kGpuShare))
              gpus->set_unhealthy(h->indices);
            return nullptr;
          },
          [&](const std::shared_ptr<const NodeMetric>& m) -> std::shared_ptr<const plugins::PodInfo> {
            // Only a node with a NodeMetric has the state: the others (every
            // node of a cluster without koordlet) pay nothing for it.
            if (node.extension<NodeLoadState>(NodeExtensionSlot::kLoad) == nullptr)
              node.set_extension(NodeExtensionSlot::kLoad, std::make_unique<NodeLoadState>());
            node.mutable_extension<NodeLoadState>(NodeExtensionSlot::kLoad)->apply_metric(m);
            return nullptr;
          },
      },
      object);
}

void remove_node_object(plugins::NodeInfo& node, const NodeObjectRef& ref) {
  switch (ref.kind) {
    case NodeObjectKind::device:
      node.mutable_extension<NodeDevices>(NodeExtensionSlot::kDevices)->clear_device();
      return;
    case NodeObjectKind::topology:
      node.mutable_extension<NodeCpus>(NodeExtensionSlot::kCpus)->clear_topology();
      return;
    case NodeObjectKind::reservation:
      if (auto* held = node.mutable_extension<NodeReservations>(NodeExtensionSlot::kReservations))
        held->remove_reservation(ref.key);
      return;
    case NodeObjectKind::gpu_health:
      if (auto* gpus = node.mutable_extension<GpuShareNodeState>(NodeExtensionSlot::kGpuShare)) gpus->set_unhealthy({});
      return;
    case NodeObjectKind::node_metric:
      // The pods stay recorded (as Koordinator's cache keeps them) for the next report.
      if (node.extension<NodeLoadState>(NodeExtensionSlot::kLoad) != nullptr)
        node.mutable_extension<NodeLoadState>(NodeExtensionSlot::kLoad)->apply_metric(nullptr);
      return;
  }
}

}  // namespace troupe::actors
