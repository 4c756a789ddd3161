#include "plugins/reservation/reservation_summary.hpp"

#include <rapidjson/document.h>

#include "model/json.hpp"
#include "model/json_writer.hpp"
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

/// One spec.owners entry as the CRD spells it.
std::string owner_json(const ReservationOwner& owner) {
  rapidjson::Document doc(rapidjson::kObjectType);
  JsonWriter writer(doc, doc.GetAllocator());
  json_fields(writer, owner);
  return to_json(doc);
}

/// Koordinator's PodRequirement of an owner pod. It has no JSON tags: Go writes
/// every field under its own name, empty or not (Ports: troupe reserves none).
std::string assigned_pod_json(const NodeInfo& node, const std::string& identity, const ResourceList& requests) {
  std::string ns, name;
  for (const auto& pod : node.pods()) {
    if (pod_identity(*pod) != identity) continue;
    ns = pod->meta().namespace_name;
    name = pod->meta().name;
    break;
  }
  return "{\"Namespace\":" + go_json_string(ns) + ",\"Name\":" + go_json_string(name) +
         ",\"UID\":" + go_json_string(identity) +
         ",\"Requests\":" + (requests.empty() ? std::string("null") : resource_list_json(requests)) +
         ",\"Ports\":null}";
}

std::string koordinator_item_json(const NodeInfo& node, const ReservationEntry& e) {
  const ReservationSpec& spec = e.reservation->spec;
  std::string out = "{\"name\":" + go_json_string(e.name());
  if (!e.uid().empty()) out += ",\"uid\":" + go_json_string(e.uid());
  out += ",\"kind\":\"Reservation\",\"available\":true";  // a node holds its Available reservations only
  if (spec.allocate_once) out += ",\"allocateOnce\":true";
  if (!e.allocatable.empty()) out += ",\"allocatable\":" + resource_list_json(e.allocatable);
  if (!e.allocated.empty()) out += ",\"allocated\":" + resource_list_json(e.allocated);
  if (!spec.owners.empty()) {
    out += ",\"owners\":[";
    for (size_t i = 0; i < spec.owners.size(); ++i) out += (i == 0 ? "" : ",") + owner_json(spec.owners[i]);
    out += "]";
  }
  if (!e.allocate_policy().empty()) out += ",\"allocatePolicy\":" + go_json_string(e.allocate_policy());
  if (!e.owners.empty()) {
    out += ",\"assignedPods\":[";
    bool first = true;
    for (const auto& [identity, requests] : e.owners) {
      out += (first ? "" : ",") + assigned_pod_json(node, identity, requests);
      first = false;
    }
    out += "]";
  }
  return out + "}";
}

}  // namespace

std::string koordinator_node_reservations_json(const NodeInfo& node) {
  const auto* held = node.extension<NodeReservations>(NodeExtensionSlot::kReservations);
  if (held == nullptr || held->entries().empty()) return "{}";  // items is omitempty
  std::string out = "{\"items\":[";
  bool first = true;
  for (const auto& [uid, entry] : held->entries()) {
    out += (first ? "" : ",") + koordinator_item_json(node, entry);
    first = false;
  }
  return out + "]}";
}

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
