#include "cmd/bench_reservations.hpp"

#include <string>

namespace troupe::cmd {

namespace {

namespace synthetic = sim::synthetic;

Quantity quantity(const char* text) { return *Quantity::parse(text); }

bool mix_uses_gpus(synthetic::PodMix mix) { return mix != synthetic::PodMix::cpu && mix != synthetic::PodMix::lsr; }

ResourceList held_resources(const synthetic::SyntheticNode& node, synthetic::PodMix mix) {
  ResourceList held = {{"cpu", quantity("8")}, {"memory", quantity("32Gi")}};
  if (node.device && mix_uses_gpus(mix)) {
    if (mix == synthetic::PodMix::gpu_share)
      held["koordinator.sh/gpu"] = quantity("100");
    else
      held["nvidia.com/gpu"] = quantity("1");
  }
  return held;
}

Reservation reservation_on(const synthetic::SyntheticNode& node, size_t index, synthetic::PodMix mix) {
  Reservation r;
  const std::string& node_name = node.node.meta.name;
  r.meta.name = "bench-rsv-" + node_name;
  r.meta.uid = "bench-rsv-uid-" + std::to_string(index);
  r.meta.creation_timestamp = timestamp_now();
  PodTemplate pod_template;
  pod_template.spec.node_name = node_name;
  Container main;
  main.name = "main";
  main.resources.requests = held_resources(node, mix);
  main.resources.limits = main.resources.requests;
  pod_template.spec.containers.push_back(std::move(main));
  r.spec.pod_template = std::move(pod_template);
  ReservationOwner owner;
  owner.label_selector = *parse_label_selector(std::string(kBenchReservedLabel) + "=true");
  r.spec.owners.push_back(std::move(owner));
  r.spec.allocate_once = false;
  r.spec.ttl = std::chrono::nanoseconds(0);
  return r;
}

}  // namespace

bool reserved_node(size_t index, int percent) {
  const size_t p = static_cast<size_t>(percent);
  return (index + 1) * p / 100 > index * p / 100;
}

std::vector<Reservation> bench_reservations(const std::vector<synthetic::SyntheticNode>& cluster, int percent,
                                            synthetic::PodMix mix) {
  std::vector<Reservation> out;
  for (size_t i = 0; i < cluster.size(); ++i)
    if (reserved_node(i, percent)) out.push_back(reservation_on(cluster[i], i, mix));
  return out;
}

void label_reservation_owners(std::vector<Pod>& pods) {
  for (size_t i = 0; i < pods.size(); i += 2) pods[i].meta.labels[kBenchReservedLabel] = "true";
}

}  // namespace troupe::cmd
