#include "model/event.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kCoreEventKind{"v1", "Event"};
constexpr KindInfo kEventsEventKind{"events.k8s.io/v1", "Event"};

template <class Io, class T>
void event_series_fields(Io& io, T& x) {
  io.field("count", x.count);
  io.micro_time("lastObservedTime", x.last_observed_time);
}

template <class Io, class T>
void event_source_fields(Io& io, T& x) {
  io.field("component", x.component);
  io.field("host", x.host);
}

template <class Io, class T>
void event_fields(Io& io, T& x) {
  if constexpr (Io::reading) {
    const std::string api_version = get_string(io.current(), "apiVersion");
    if (api_version == "v1") x.api = EventApi::core_v1;
    if (api_version == "events.k8s.io/v1" || api_version == "events.k8s.io/v1beta1") x.api = EventApi::events_v1;
  }
  const bool core = x.api == EventApi::core_v1;
  io.object("metadata", x.meta);
  io.object(core ? "involvedObject" : "regarding", x.regarding);
  io.optional_object("related", x.related);
  io.field("reason", x.reason);
  io.field(core ? "message" : "note", x.note);
  io.field("type", x.type);
  io.field("action", x.action);
  io.field(core ? "reportingComponent" : "reportingController", x.reporting_controller);
  io.field("reportingInstance", x.reporting_instance);
  io.micro_time("eventTime", x.event_time);
  io.optional_object("series", x.series);
  io.object(core ? "source" : "deprecatedSource", x.source);
  io.field(core ? "firstTimestamp" : "deprecatedFirstTimestamp", x.first_timestamp);
  io.field(core ? "lastTimestamp" : "deprecatedLastTimestamp", x.last_timestamp);
  io.field(core ? "count" : "deprecatedCount", x.count);
}

KindInfo kind_of(const Event& event) {
  return event.api == EventApi::core_v1 ? kCoreEventKind : kEventsEventKind;
}

}  // namespace

TROUPE_JSON_FIELDS(EventSeries, event_series_fields)
TROUPE_JSON_FIELDS(EventSource, event_source_fields)
TROUPE_JSON_FIELDS(Event, event_fields)

Result<Event> decode_event(JsonPtr doc, EventApi api_if_unknown) {
  Event initial;
  initial.api = api_if_unknown;
  return decode_object<Event>(doc, kCoreEventKind, std::move(initial));
}

Result<Event> decode_event_json(std::string_view text, EventApi api_if_unknown) {
  auto doc = parse_json(text);
  if (!doc) return doc.error();
  return decode_event(JsonPtr(std::move(*doc)), api_if_unknown);
}

std::shared_ptr<JsonDocument> to_document(const Event& event) { return encode_document(event, kind_of(event)); }

std::string encode(const Event& event) { return to_json(*to_document(event)); }

}  // namespace troupe
