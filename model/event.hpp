#pragma once
// Event in either API: core/v1 (what `kubectl describe` reads and what the
// legacy recorder writes) and events.k8s.io/v1 (what kube-scheduler writes when
// the group is served). One struct holds both; `api` selects the field names:
//
//   this struct            core/v1            events.k8s.io/v1
//   regarding              involvedObject     regarding
//   note                   message            note
//   reporting_controller   reportingComponent reportingController
//   source                 source             deprecatedSource
//   first/last_timestamp   first/lastTimestamp deprecatedFirst/LastTimestamp
//   count                  count              deprecatedCount

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/object_meta.hpp"
#include "model/result.hpp"
#include "model/timestamp.hpp"

namespace troupe {

enum class EventApi { core_v1, events_v1 };

struct EventSeries {
  int32_t count = 0;
  std::optional<Timestamp> last_observed_time;  // MicroTime
};

struct EventSource {
  std::string component;
  std::string host;
};

struct Event {
  ObjectMeta meta;
  EventApi api = EventApi::core_v1;
  ObjectReference regarding;
  std::optional<ObjectReference> related;
  std::string reason;
  std::string note;
  std::string type;  // Normal, Warning
  std::string action;
  std::string reporting_controller;
  std::string reporting_instance;
  std::optional<Timestamp> event_time;  // MicroTime
  std::optional<EventSeries> series;
  EventSource source;
  std::optional<Timestamp> first_timestamp;
  std::optional<Timestamp> last_timestamp;
  int32_t count = 0;
  JsonPtr raw;
};

/// The API comes from apiVersion ("v1" or "events.k8s.io/v1[beta1]"); list
/// items carry none, so the caller says which list it read (`api_if_unknown`).
Result<Event> decode_event(JsonPtr doc, EventApi api_if_unknown = EventApi::core_v1);
Result<Event> decode_event_json(std::string_view text, EventApi api_if_unknown = EventApi::core_v1);
/// Written with the field names of `event.api`.
std::shared_ptr<JsonDocument> to_document(const Event& event);
std::string encode(const Event& event);

TROUPE_DECLARE_JSON_FIELDS(EventSeries)
TROUPE_DECLARE_JSON_FIELDS(EventSource)
TROUPE_DECLARE_JSON_FIELDS(Event)

}  // namespace troupe
