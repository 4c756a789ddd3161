#include "plugins/reservation/reservation_fit.hpp"

#include <set>

#include "plugins/reservation/resource_list_ops.hpp"

namespace troupe::plugins::reservation {

namespace {

bool is_zero_request(const ResourceVector& r) {
  return r.milli_cpu == 0 && r.memory == 0 && r.ephemeral_storage == 0 && r.scalars.empty();
}

/// A quantity as fitsReservation prints it: millicores for cpu, units otherwise.
int64_t amount(const std::string& name, const Quantity& q) { return name == "cpu" ? q.milli_value() : q.value(); }

std::string reservation_reason(const std::string& text) { return kReservationReasonPrefix + text; }

}  // namespace

RestoredNode restore_node(const NodeMatch& match, const NodeInfo& node) {
  RestoredNode out;
  out.trimmed_requested = node.requested();
  for (const ReservationEntry* entry : match.unmatched) {
    // The hold shrinks to what the owners have not taken yet.
    out.trimmed_requested.subtract(entry->owners_share_vector);
    out.released.add(entry->owners_share_vector);
  }
  for (const ReservationEntry* entry : match.matched) {
    out.released.add(entry->allocatable_vector);
    out.matched_allocated.add(entry->allocated_vector);
    ++out.released_pods;
  }
  out.released.allowed_pods = 0;  // a reserved "pods" amount is not node capacity
  return out;
}

std::vector<std::string> fits_node(const ResourceVector& request, const NodeInfo& node, const RestoredNode& restored,
                                   const ReservationEntry* entry) {
  std::vector<std::string> insufficient;
  const ResourceVector& alloc = node.allocatable();
  if (static_cast<int64_t>(node.pod_count()) - restored.released_pods + 1 > alloc.allowed_pods)
    insufficient.push_back("pods");
  if (is_zero_request(request)) return insufficient;
  // Used by others = podRequested − this reservation's remaining − all matched allocations.
  ResourceVector used = restored.trimmed_requested;
  if (entry != nullptr) {
    ResourceVector remaining = entry->allocatable_vector;
    remaining.subtract(entry->allocated_vector);
    used.subtract(remaining);
  }
  used.subtract(restored.matched_allocated);
  if (request.milli_cpu > alloc.milli_cpu - used.milli_cpu) insufficient.push_back("cpu");
  if (request.memory > alloc.memory - used.memory) insufficient.push_back("memory");
  if (request.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage)
    insufficient.push_back("ephemeral-storage");
  for (const auto& [name, quantity] : request.scalars)
    if (quantity > alloc.scalar(name) - used.scalar(name)) insufficient.push_back(name);
  return insufficient;
}

std::vector<std::string> fits_reservation(const ResourceList& requests, const ReservationEntry& entry, bool detailed) {
  std::vector<std::string> reasons;
  const ResourceList& allocatable = entry.allocatable;
  auto max_pods = allocatable.find("pods");
  if (max_pods != allocatable.end()) {
    const int64_t used = static_cast<int64_t>(entry.allocated_pods());
    if (used + 1 > max_pods->second.value()) {
      reasons.push_back(reservation_reason(
          detailed ? "Too many pods, requested: 1, used: " + std::to_string(used) +
                         ", capacity: " + std::to_string(max_pods->second.value())
                   : std::string("Too many pods")));
    }
  }
  for (const auto& [name, requested] : mask(requests, entry.resource_names)) {
    if (requested.is_zero()) continue;
    const Quantity capacity = allocatable.get(name);
    const Quantity used = entry.allocated.get(name);
    if (requested <= capacity - used) continue;
    if (!detailed) {
      reasons.push_back(reservation_reason("Insufficient " + name));
    } else {
      reasons.push_back(reservation_reason("Insufficient " + name + ", requested: " +
                                           std::to_string(amount(name, requested)) + ", used: " +
                                           std::to_string(amount(name, used)) + ", capacity: " +
                                           std::to_string(amount(name, capacity))));
    }
  }
  return reasons;
}

PluginStatus filter_with_reservations(const PodReservationRequest& request, const ResourceVector& pod_request,
                                      const NodeInfo& node, const RestoredNode& restored,
                                      const std::vector<const ReservationEntry*>& candidates, bool required) {
  if (!required) return {};
  const std::string& wanted = request.affinity_name();
  std::set<std::string> by_node;
  std::vector<std::string> by_reservation;
  for (const ReservationEntry* entry : candidates) {
    if (!wanted.empty() && wanted != entry->name()) continue;
    const bool detailed = !wanted.empty();
    const std::vector<std::string> node_lacks = fits_node(pod_request, node, restored, entry);
    by_node.insert(node_lacks.begin(), node_lacks.end());
    bool reservation_fits = false;
    const std::string& policy = entry->allocate_policy();
    if (policy.empty() || policy == "Aligned") {
      reservation_fits = node_lacks.empty();
    } else if (policy == "Restricted") {
      std::vector<std::string> reasons = fits_reservation(request.requests, *entry, detailed);
      reservation_fits = reasons.empty();
      by_reservation.insert(by_reservation.end(), reasons.begin(), reasons.end());
    }
    if (node_lacks.empty() && reservation_fits) return {};
  }
  std::vector<std::string> reasons;
  for (const auto& name : by_node) reasons.push_back("Insufficient " + name + " by node");
  reasons.insert(reasons.end(), by_reservation.begin(), by_reservation.end());
  if (reasons.empty()) reasons.push_back(kErrReasonNoReservationsMeetRequirements);
  return PluginStatus(Code::unschedulable, std::move(reasons));
}

}  // namespace troupe::plugins::reservation
