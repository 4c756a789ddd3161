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
                         std::string reporting_instance, EventSeriesCache::Clock::duration series_finish_after)
    : api_(std::move(api)),
      controller_(std::move(reporting_controller)),
      instance_(std::move(reporting_instance)),
      series_(series_finish_after) {}

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

std::string EventWriter::body_for(const EventSpec& event, Api api, const std::string& event_name,
                                  int32_t count) const {
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
    if (count > 1) {
      body.begin_object("series").integer("count", count);
      body.string("lastObservedTime", format_micro_time(now)).end_object();
    }
  } else {
    const std::string timestamp = format_time(now);
    body.string("apiVersion", "v1").string("kind", "Event");
    body.begin_object("metadata").string("name", event_name).string("namespace", event_namespace(event)).end_object();
    write_reference(body, "involvedObject", event.regarding);
    body.string("reason", event.reason).string_if("message", note).string("type", event.type);
    body.begin_object("source").string("component", controller_).end_object();
    body.string("firstTimestamp", timestamp).string("lastTimestamp", timestamp).integer("count", count);
    body.string_if("action", event.action);
    body.string("reportingComponent", controller_).string("reportingInstance", instance_);
  }
  body.end_object();
  return body.str();
}

std::string EventWriter::series_patch(const EventSpec& event, Api api, int32_t count,
                                      std::chrono::system_clock::time_point now) {
  JsonBody body;
  body.begin_object();
  if (api == Api::events_v1) {
    body.begin_object("series").integer("count", count).string("lastObservedTime", format_micro_time(now));
    body.end_object();
  } else {
    // The legacy correlator also refreshes the message (identical by the key).
    body.integer("count", count).string("lastTimestamp", format_time(now));
    body.string_if("message", truncate_note(event.note));
  }
  body.end_object();
  return body.str();
}

std::string EventWriter::series_key(const EventSpec& event, Api api) const {
  // Fields joined by a byte no Kubernetes name or reason contains.
  const char sep = '\x1f';
  const ObjectReference& r = event.regarding;
  std::string key = api == Api::events_v1 ? "v1" : "core";
  for (const std::string* part : {&controller_, &event.action, &event.reason, &r.kind, &r.ns, &r.name, &r.uid,
                                  &r.api_version, &r.resource_version})
    key += sep + *part;
  if (api != Api::events_v1) key += sep + event.type + sep + event.note;  // core/v1 aggregates identical messages only
  return key;
}

ApiResult EventWriter::record(const EventSpec& event, const CancelToken* cancel) {
  Api which = api(cancel);
  if (which == Api::unknown) which = Api::core_v1;
  const std::string ns = event_namespace(event);
  const std::string key = series_key(event, which);
  EventSeriesCache::Occurrence occurrence;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    occurrence = series_.observe(key, EventSeriesCache::Clock::now(),
                                 [&] { return next_name(event.regarding.name); });
  }
  const std::string path =
      object_path(which == Api::events_v1 ? "/apis/events.k8s.io/v1" : "/api/v1", "events", ns, occurrence.name);
  auto patch_series = [&](int32_t count) {
    return patch_object(*api_, path, series_patch(event, which, count, std::chrono::system_clock::now()),
                        PatchType::strategic_merge, cancel);
  };
  ApiResult result;
  if (!occurrence.create) {
    result = patch_series(occurrence.count);
    if (result.ok || result.code != 404) return result;
    // The Event expired or was deleted, or the write that creates it has not landed yet: record the
    // series anew under its name.
  }
  result = create_object(*api_, collection_path(which, ns), body_for(event, which, occurrence.name, occurrence.count),
                         cancel);
  if (!result.ok && result.code == 409) {
    // Another write of this series (running beside this one) created it first: fold this occurrence
    // in with the series' latest count, rather than lose it and start a second Event.
    int32_t count = occurrence.count;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      count = std::max(count, series_.count_of(key, occurrence.name));
    }
    result = patch_series(count);
  }
  if (!result.ok) {
    std::lock_guard<std::mutex> lock(mutex_);
    series_.forget(key, occurrence.name);
  }
  return result;
}

ApiResult EventWriter::create(const EventSpec& event, const CancelToken* cancel) {
  Api which = api(cancel);
  if (which == Api::unknown) which = Api::core_v1;  // works on every server; probe again next time
  return create_object(*api_, collection_path(which, event_namespace(event)),
                       body_for(event, which, next_name(event.regarding.name)), cancel);
}

}  // namespace troupe::watch
