#include "sim/event_conversion.hpp"

#include <utility>

namespace troupe::sim {

namespace {

/// (core/v1 name, events.k8s.io/v1 name) of the fields the two schemas name differently.
constexpr std::pair<const char*, const char*> kRenamed[] = {
    {"involvedObject", "regarding"},
    {"message", "note"},
    {"reportingComponent", "reportingController"},
    {"source", "deprecatedSource"},
    {"firstTimestamp", "deprecatedFirstTimestamp"},
    {"lastTimestamp", "deprecatedLastTimestamp"},
    {"count", "deprecatedCount"},
};

/// Moves `from` to `to`. A `to` already there is not a field of the source
/// schema (decoding would have dropped it), so it goes either way.
void rename(rapidjson::Document& doc, const char* from, const char* to) {
  doc.RemoveMember(to);
  auto it = doc.FindMember(from);
  if (it == doc.MemberEnd()) return;
  rapidjson::Value value(std::move(it->value));
  doc.RemoveMember(from);
  doc.AddMember(rapidjson::Value(to, doc.GetAllocator()), value, doc.GetAllocator());
}

void set_api_version(rapidjson::Document& doc, const char* version) {
  doc.RemoveMember("apiVersion");
  doc.AddMember("apiVersion", rapidjson::Value(version, doc.GetAllocator()), doc.GetAllocator());
}

}  // namespace

void core_event_to_events_v1(rapidjson::Document& event) {
  if (!event.IsObject()) return;
  for (const auto& [core, v1] : kRenamed) rename(event, core, v1);
  set_api_version(event, "events.k8s.io/v1");
}

void events_v1_to_core_event(rapidjson::Document& event) {
  if (!event.IsObject()) return;
  for (const auto& [core, v1] : kRenamed) rename(event, v1, core);
  set_api_version(event, "v1");
}

}  // namespace troupe::sim
