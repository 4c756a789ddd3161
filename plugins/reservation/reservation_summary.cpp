#include "plugins/reservation/reservation_summary.hpp"

#include "plugins/deviceshare/go_json.hpp"
#include "plugins/reservation/node_reservations.hpp"

namespace troupe::plugins::reservation {

namespace {

using deviceshare::go_json_string;

std::string resource_list_json(const ResourceList& list) {
  std::string out = "{";
  for (const auto& [name, q] : list) {
    if (out.size() > 1) out += ',';
    out += go_json_string(name) + ":" + go_json_string(q.to_string());
  }
  return out + "}";
}

/// Requested amounts in the units NodeInfo keeps (millicores, bytes, counts).
std::string resource_vector_json(const ResourceVector& v) {
  std::string out = "{\"cpu\":" + std::to_string(v.milli_cpu) + ",\"memory\":" + std::to_string(v.memory);
  if (v.ephemeral_storage != 0) out += ",\"ephemeral-storage\":" + std::to_string(v.ephemeral_storage);
  for (const auto& [name, amount] : v.scalars) out += "," + go_json_string(name) + ":" + std::to_string(amount);
  return out + "}";
}

std::string entry_json(const ReservationEntry& e) {
  std::string out = "{\"name\":" + go_json_string(e.name()) + ",\"uid\":" + go_json_string(e.uid()) +
                    ",\"allocatePolicy\":" + go_json_string(e.allocate_policy()) +
                    ",\"allocateOnce\":" + (e.reservation->spec.allocate_once ? "true" : "false") +
                    ",\"allocatable\":" + resource_list_json(e.allocatable) +
                    ",\"allocated\":" + resource_list_json(e.allocated) + ",\"owners\":[";
  bool first = true;
  for (const auto& [owner, requests] : e.owners) {
    if (!first) out += ',';
    first = false;
    out += go_json_string(owner);
  }
  return out + "]}";
}

}  // namespace

std::string node_reservations_json(const std::string& node_name, const NodeInfo& node) {
  std::string out = "{\"node\":" + go_json_string(node_name) + ",\"requested\":" +
                    resource_vector_json(node.requested()) + ",\"podCount\":" + std::to_string(node.pod_count()) +
                    ",\"reservations\":[";
  if (const auto* held = node.extension<NodeReservations>(NodeExtensionSlot::kReservations)) {
    bool first = true;
    for (const auto& [uid, entry] : held->entries()) {
      if (!first) out += ',';
      first = false;
      out += entry_json(entry);
    }
  }
  return out + "]}";
}

}  // namespace troupe::plugins::reservation
