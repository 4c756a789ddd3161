#include "plugins/reservation/reservation_lifecycle.hpp"

#include "plugins/reservation/reservation_names.hpp"
#include "plugins/reservation/reservation_status.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::plugins::reservation {

namespace {

bool same_owners(const std::vector<ObjectReference>& a, const std::vector<ObjectReference>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].namespace_name != b[i].namespace_name || a[i].name != b[i].name || a[i].uid != b[i].uid) return false;
  return true;
}

LifecycleDecision write(ReservationStatus status, std::string why) {
  return {LifecycleAction::write_status, std::move(status), std::move(why)};
}

std::string expiry_message(const Reservation& r) {
  if (r.spec.expires) return "the reservation expired at " + format_timestamp(*r.spec.expires);
  return "the reservation outlived its ttl";
}

/// Finished (Succeeded or Failed): deleted once the retention has passed.
LifecycleDecision decide_finished(const Reservation& r, const LifecycleContext& context) {
  if (r.meta.deletion_timestamp || !due_for_collection(finished_at(r), context)) return {};
  return {LifecycleAction::delete_object, std::nullopt,
          "finished " + reservation_phase(r) + " more than " + std::to_string(context.retention.count()) + "s ago"};
}

/// Available (or Waiting): the node, allocateOnce and the owners.
LifecycleDecision decide_active(const Reservation& r, const LifecycleContext& context) {
  if (!context.node_exists)
    return write(failed_status(r, kReasonExpired, "node " + r.status.node_name + " not found", context.now),
                 "its node " + r.status.node_name + " is gone");
  OwnerStatus owners = recompute_owners(r, context.owner_pods);
  ReservationStatus status = r.status;
  status.current_owners = owners.current_owners;
  status.allocated = owners.allocated.without_zeros();
  if (owners.succeeded) {
    Reservation with_owners = r;
    with_owners.status = status;
    return write(succeeded_status(with_owners, context.now),
                 "allocateOnce and owned by " + owners.current_owners.front().namespace_name + "/" +
                     owners.current_owners.front().name);
  }
  if (same_owners(status.current_owners, r.status.current_owners) &&
      status.allocated.same_amounts(r.status.allocated))
    return {};
  return write(std::move(status), std::to_string(owners.current_owners.size()) + " owner(s), allocated " +
                                      owners.allocated.without_zeros().to_string());
}

}  // namespace

void set_condition(std::vector<Condition>& conditions, const std::string& type, const std::string& status,
                   const std::string& reason, const std::string& message, Timestamp now) {
  for (Condition& c : conditions) {
    if (c.type != type) continue;
    if (c.status != status) c.last_transition_time = now;
    c.status = status;
    c.reason = reason;
    c.message = message;
    c.last_probe_time = now;
    return;
  }
  Condition c;
  c.type = type;
  c.status = status;
  c.reason = reason;
  c.message = message;
  c.last_probe_time = now;
  c.last_transition_time = now;
  conditions.push_back(std::move(c));
}

ReservationStatus bound_status(const Reservation& r, const std::string& node, const ResourceList& allocatable,
                               Timestamp now) {
  ReservationStatus status = r.status;
  status.phase = kPhaseAvailable;
  status.node_name = node;
  status.allocatable = allocatable;
  set_condition(status.conditions, kConditionScheduled, "True", kReasonScheduled, "", now);
  set_condition(status.conditions, kConditionReady, "True", kReasonAvailable, "", now);
  return status;
}

ReservationStatus unschedulable_status(const Reservation& r, const std::string& message, Timestamp now) {
  ReservationStatus status = r.status;
  set_condition(status.conditions, kConditionScheduled, "False", kReasonUnschedulable, message, now);
  return status;
}

ReservationStatus failed_status(const Reservation& r, const std::string& reason, const std::string& message,
                                Timestamp now) {
  ReservationStatus status = r.status;
  status.phase = kPhaseFailed;
  set_condition(status.conditions, kConditionReady, "False", reason, message, now);
  return status;
}

ReservationStatus succeeded_status(const Reservation& r, Timestamp now) {
  ReservationStatus status = r.status;
  status.phase = kPhaseSucceeded;
  set_condition(status.conditions, kConditionReady, "False", kReasonSucceeded, "", now);
  return status;
}

StatusUpdate bind_update(const Reservation& fresh, const std::string& uid, const std::string& node, Timestamp now) {
  const std::string& name = fresh.meta.name;
  if (fresh.meta.uid != uid) return {std::nullopt, "reservation " + name + " was replaced (uid " + fresh.meta.uid + ")"};
  if (is_available(fresh) && fresh.status.node_name == node) return {};  // written already (a retried write)
  if (reservation_phase(fresh) != kPhasePending)
    return {std::nullopt, "reservation " + name + " is " + reservation_phase(fresh) + ", not Pending"};
  return {bound_status(fresh, node, reservation_requests(fresh), now), ""};
}

std::optional<ReservationStatus> unschedulable_update(const Reservation& fresh, const std::string& uid,
                                                      const std::string& message, Timestamp now) {
  if (fresh.meta.uid != uid || reservation_phase(fresh) != kPhasePending) return std::nullopt;
  const Condition* scheduled = find_condition(fresh.status.conditions, kConditionScheduled);
  if (scheduled && scheduled->status == "False" && scheduled->reason == kReasonUnschedulable &&
      scheduled->message == message)
    return std::nullopt;
  return unschedulable_status(fresh, message, now);
}

std::optional<ReservationStatus> decided_update(const Reservation& fresh, const Reservation& decided_from,
                                                const ReservationStatus& status) {
  if (fresh.meta.uid != decided_from.meta.uid || fresh.meta.resource_version != decided_from.meta.resource_version)
    return std::nullopt;
  return status;
}

std::optional<Timestamp> finished_at(const Reservation& r) {
  std::optional<Timestamp> latest;
  for (const char* type : {kConditionReady, kConditionScheduled}) {
    const Condition* c = find_condition(r.status.conditions, type);
    if (c == nullptr) continue;
    for (const auto& t : {c->last_transition_time, c->last_probe_time})
      if (t && (!latest || *t > *latest)) latest = t;
  }
  return latest ? latest : r.meta.creation_timestamp;
}

bool due_for_collection(std::optional<Timestamp> finished, const LifecycleContext& context) {
  return context.garbage_collection && finished && context.now - *finished > context.retention;
}

LifecycleDecision decide_lifecycle(const Reservation& r, const LifecycleContext& context) {
  if (is_succeeded(r) || is_failed(r)) return decide_finished(r, context);
  const std::string phase = reservation_phase(r);
  if (phase == kPhasePending) {
    if (Status valid = validate_reservation(r); !valid.ok())
      return write([&] {
        ReservationStatus status = r.status;
        status.phase = kPhaseFailed;
        set_condition(status.conditions, kConditionScheduled, "False", kReasonInvalid, valid.message(), context.now);
        return status;
      }(), "invalid: " + valid.message());
  }
  if (needs_expiration(r, context.now))
    return write(failed_status(r, kReasonExpired, expiry_message(r), context.now), expiry_message(r));
  if (phase == kPhasePending) return {LifecycleAction::schedule, std::nullopt, "pending"};
  if (is_active(r)) return decide_active(r, context);
  return {};
}

}  // namespace troupe::plugins::reservation
