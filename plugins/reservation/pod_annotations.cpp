#include "plugins/reservation/pod_annotations.hpp"

#include <charconv>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "model/json.hpp"
#include "model/json_reader.hpp"
#include "plugins/reservation/reservation_names.hpp"

namespace troupe::plugins::reservation {

namespace {

/// Parses an annotation value as a JSON object (or null); the error names the annotation.
Result<std::shared_ptr<rapidjson::Document>> parse_annotation(std::string_view text, const char* annotation) {
  auto doc = parse_json(text);
  if (!doc) return Error{std::string("annotation ") + annotation + ": " + doc.message()};
  if (!(*doc)->IsObject() && !(*doc)->IsNull())
    return Error{std::string("annotation ") + annotation + ": " + JsonReader::expected("an object", **doc)};
  return doc;
}

Error reader_error(const char* annotation, const JsonReader& reader) {
  return Error{std::string("annotation ") + annotation + ": " + reader.error()};
}

}  // namespace

std::string encode_reservation_allocated(const ReservationAllocated& allocated) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  if (!allocated.name.empty()) {
    writer.Key("name");
    writer.String(allocated.name.data(), static_cast<rapidjson::SizeType>(allocated.name.size()));
  }
  if (!allocated.uid.empty()) {
    writer.Key("uid");
    writer.String(allocated.uid.data(), static_cast<rapidjson::SizeType>(allocated.uid.size()));
  }
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

Result<ReservationAllocated> decode_reservation_allocated(std::string_view text) {
  auto doc = parse_annotation(text, kAnnotationReservationAllocated);
  if (!doc) return doc.error();
  ReservationAllocated out;
  JsonReader reader(**doc);
  reader.field("name", out.name);
  reader.field("uid", out.uid);
  if (!reader.ok()) return reader_error(kAnnotationReservationAllocated, reader);
  return out;
}

Result<std::optional<ReservationAllocated>> reservation_allocated_of(const ObjectMeta& meta) {
  const std::string* value = meta.annotation(kAnnotationReservationAllocated);
  if (value == nullptr) return std::optional<ReservationAllocated>{};
  auto decoded = decode_reservation_allocated(*value);
  if (!decoded) return decoded.error();
  return std::optional<ReservationAllocated>(std::move(*decoded));
}

Result<std::optional<ExactMatchSpec>> exact_match_spec_of(const ObjectMeta& meta) {
  const std::string* value = meta.annotation(kAnnotationExactMatchReservation);
  if (value == nullptr || value->empty()) return std::optional<ExactMatchSpec>{};
  auto doc = parse_annotation(*value, kAnnotationExactMatchReservation);
  if (!doc) return doc.error();
  ExactMatchSpec spec;
  JsonReader reader(**doc);
  reader.field("resourceNames", spec.resource_names);
  if (!reader.ok()) return reader_error(kAnnotationExactMatchReservation, reader);
  return std::optional<ExactMatchSpec>(std::move(spec));
}

bool exact_match(const ResourceList& pod_requests, const ResourceList& reservation_allocatable,
                 const std::optional<ExactMatchSpec>& spec) {
  if (!spec || spec->resource_names.empty()) return true;
  for (const auto& name : spec->resource_names) {
    auto allocatable = reservation_allocatable.find(name);
    auto request = pod_requests.find(name);
    const bool in_reservation = allocatable != reservation_allocatable.end();
    const bool in_pod = request != pod_requests.end();
    // Upstream returns at the first name missing from both sides.
    if (!in_reservation || !in_pod) return !in_reservation && !in_pod;
    if (allocatable->second != request->second) return false;
  }
  return true;
}

bool is_reservation_ignored(const ObjectMeta& meta) {
  const std::string* value = meta.label(kLabelReservationIgnored);
  return value != nullptr && *value == "true";
}

std::optional<int64_t> reservation_order(const ObjectMeta& reservation_meta) {
  const std::string* value = reservation_meta.label(kLabelReservationOrder);
  if (value == nullptr || value->empty()) return std::nullopt;
  // strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits only.
  std::string_view text = *value;
  bool negative = false;
  if (text.front() == '+' || text.front() == '-') {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  int64_t order = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), order);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return negative ? -order : order;
}

bool is_preemptible(const ObjectMeta& meta) {
  const std::string* value = meta.label(kLabelDisablePreemptible);
  return value == nullptr || *value != "true";
}

}  // namespace troupe::plugins::reservation
