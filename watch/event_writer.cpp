#include "watch/event_writer.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <spdlog/spdlog.h>

#include "watch/json_body.hpp"
#include "watch/object_writes.hpp"
#include "watch/time_format.hpp"

namespace troupe::watch {

namespace {

constexpr std::size_t kNoteLimit = 1024;  // NoteLengthLimit in client-go's events recorder

std::string event_namespace(const EventSpec& event) {
  return event.regarding.ns.empty() ? "default" : event.regarding.ns;
}

void write_reference(JsonBody& body, const char* key, const ObjectReference& ref) {
  body.begin_object(key);
  body.string_if("kind", ref.kind).string_if("namespace", ref.ns).string_if("name", ref.name);
  body.string_if("uid", ref.uid).string_if("apiVersion", ref.api_version);
  body.string_if("resourceVersion", ref.resource_version);
  body.end_object();
}

}  // namespace

std::string truncate_note(const std::string& note) {
  if (note.size() <= kNoteLimit) return note;
  const std::string marker = " ...";
  std::size_t cut = kNoteLimit - marker.size();
  // Step back over UTF-8 continuation bytes (10xxxxxx) to a character start.
  while (cut > 0 && (static_cast<unsigned char>(note[cut]) & 0xC0) == 0x80) --cut;
  return note.substr(0, cut) + marker;
}

EventWriter::EventWriter(std::shared_ptr<ApiClient> api, std::string reporting_controller,
                         std::string reporting_instance)
    : api_(std::move(api)), controller_(std::move(reporting_controller)), instance_(std::move(reporting_instance)) {}

EventWriter::Api EventWriter::api(const CancelToken* cancel) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (api_kind_ != Api::unknown) return api_kind_;
  }
  const ApiResult probe = get_object(*api_, "/apis/events.k8s.io/v1", cancel);
  Api found = Api::unknown;
  if (probe.ok) {
    found = Api::events_v1;
  } else if (probe.code == 404) {
    found = Api::core_v1;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (found != Api::unknown) {
    api_kind_ = found;
    spdlog::info("event-writer using {} events", found == Api::events_v1 ? "events.k8s.io/v1" : "core/v1");
  }
  return found;
}

std::string EventWriter::collection_path(Api api, const std::string& ns) {
  return api == Api::events_v1 ? object_path("/apis/events.k8s.io/v1", "events", ns, "")
                               : object_path("/api/v1", "events", ns, "");
}

// client-go's GenerateEventName: "<name>.<hex UnixNano>"; made strictly
// increasing so two events in the same clock tick never collide.
std::string EventWriter::next_name(const std::string& regarding_name) {
  const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
  std::int64_t last = last_nanos_.load();
  std::int64_t mine = 0;
  do {
    mine = std::max(now, last + 1);
  } while (!last_nanos_.compare_exchange_weak(last, mine));
  char hex[20];
  std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(mine));
  return (regarding_name.empty() ? std::string("event") : regarding_name) + "." + hex;
}

std::string EventWriter::body_for(const EventSpec& event, Api api, const std::string& event_name) const {
  const auto now = std::chrono::system_clock::now();
  const std::string note = truncate_note(event.note);
  JsonBody body;
  body.begin_object();
  if (api == Api::events_v1) {
    body.string("apiVersion", "events.k8s.io/v1").string("kind", "Event");
    body.begin_object("metadata").string("name", event_name).string("namespace", event_namespace(event)).end_object();
    body.string("eventTime", format_micro_time(now));
    body.string("reportingController", controller_).string("reportingInstance", instance_);
    body.string_if("action", event.action).string("reason", event.reason).string("type", event.type);
    write_reference(body, "regarding", event.regarding);
    body.string_if("note", note);
  } else {
    const std::string timestamp = format_time(now);
    body.string("apiVersion", "v1").string("kind", "Event");
    body.begin_object("metadata").string("name", event_name).string("namespace", event_namespace(event)).end_object();
    write_reference(body, "involvedObject", event.regarding);
    body.string("reason", event.reason).string_if("message", note).string("type", event.type);
    body.begin_object("source").string("component", controller_).end_object();
    body.string("firstTimestamp", timestamp).string("lastTimestamp", timestamp).integer("count", 1);
    body.string_if("action", event.action);
    body.string("reportingComponent", controller_).string("reportingInstance", instance_);
  }
  body.end_object();
  return body.str();
}

ApiResult EventWriter::create(const EventSpec& event, const CancelToken* cancel) {
  Api which = api(cancel);
  if (which == Api::unknown) which = Api::core_v1;  // works on every server; probe again next time
  return create_object(*api_, collection_path(which, event_namespace(event)),
                       body_for(event, which, next_name(event.regarding.name)), cancel);
}

}  // namespace troupe::watch
