#pragma once
// Builders for the reservation tests: Available reservations on a node and
// owner pods, written as a person reads them.

#include <memory>
#include <string>

#include "../builders.hpp"
#include "model/reservation.hpp"
#include "plugins/reservation/node_reservations.hpp"
#include "plugins/reservation/reservation_names.hpp"

namespace troupe::plugins::reservation::testing {

using troupe::plugins::testing::Amounts;
using troupe::plugins::testing::NodeBuilder;
using troupe::plugins::testing::PodBuilder;
using troupe::plugins::testing::resources;

class ReservationBuilder {
 public:
  explicit ReservationBuilder(std::string name, const Amounts& allocatable = {{"cpu", "4"}, {"memory", "8Gi"}}) {
    r_.meta.name = name;
    r_.meta.uid = "ruid-" + name;
    r_.spec.pod_template = PodTemplate{};
    Container c;
    c.name = "main";
    c.resources.requests = resources(allocatable);
    r_.spec.pod_template->spec.containers.push_back(c);
    r_.spec.owners.push_back(ReservationOwner{});  // matches every pod
    r_.spec.ttl = std::chrono::hours(1);
    r_.status.phase = kPhaseAvailable;
    r_.status.node_name = "n";
    r_.status.allocatable = resources(allocatable);
  }
  ReservationBuilder& owners(std::vector<ReservationOwner> o) { r_.spec.owners = std::move(o); return *this; }
  ReservationBuilder& label(std::string k, std::string v) { r_.meta.labels[std::move(k)] = std::move(v); return *this; }
  ReservationBuilder& policy(std::string p) { r_.spec.allocate_policy = std::move(p); return *this; }
  ReservationBuilder& allocate_once(bool once) { r_.spec.allocate_once = once; return *this; }
  ReservationBuilder& unschedulable() { r_.spec.unschedulable = true; return *this; }
  ReservationBuilder& taint(std::string k, std::string v, TaintEffect e) {
    r_.spec.taints.push_back(Taint{std::move(k), std::move(v), e, std::nullopt});
    return *this;
  }
  ReservationBuilder& phase(std::string p) { r_.status.phase = std::move(p); return *this; }
  Reservation& get() { return r_; }
  std::shared_ptr<const Reservation> ptr() const { return std::make_shared<const Reservation>(r_); }

 private:
  Reservation r_;
};

/// An owner pod bound into `reservation` (its reservation-allocated annotation).
inline PodBuilder owner_pod(std::string name, const Amounts& requests) {
  PodBuilder b(std::move(name));
  b.container(requests);
  return b;
}

inline Pod with_annotation(Pod pod, std::string key, std::string value) {
  pod.meta.annotations[std::move(key)] = std::move(value);
  return pod;
}

}  // namespace troupe::plugins::reservation::testing
