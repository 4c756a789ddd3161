#include "watch/watch_event.hpp"

#include "watch/json_util.hpp"

namespace troupe::watch {

const char* to_string(EventType type) {
  switch (type) {
    case EventType::added: return "ADDED";
    case EventType::modified: return "MODIFIED";
    case EventType::deleted: return "DELETED";
  }
  return "?";
}

namespace {

bool kind_from_type(std::string_view type, WatchEvent::Kind& kind) {
  if (type == "ADDED") kind = WatchEvent::Kind::added;
  else if (type == "MODIFIED") kind = WatchEvent::Kind::modified;
  else if (type == "DELETED") kind = WatchEvent::Kind::deleted;
  else if (type == "BOOKMARK") kind = WatchEvent::Kind::bookmark;
  else if (type == "ERROR") kind = WatchEvent::Kind::error;
  else return false;
  return true;
}

}  // namespace

Result<WatchEvent> parse_watch_event(std::string_view line) {
  auto parsed = parse_document(line);
  if (!parsed) return Error{"watch event: " + parsed.message()};
  std::shared_ptr<rapidjson::Document> doc = std::move(*parsed);
  if (!doc->IsObject()) return Error{"watch event: not a JSON object"};
  const rapidjson::Value* type = find_path(*doc, {"type"});
  if (type == nullptr || !type->IsString()) return Error{"watch event: missing string field \"type\""};
  WatchEvent event;
  const std::string_view type_text(type->GetString(), type->GetStringLength());
  if (!kind_from_type(type_text, event.kind)) return Error{"watch event: unknown type \"" + std::string(type_text) + "\""};
  const auto object = doc->FindMember("object");
  if (object == doc->MemberEnd() || !object->value.IsObject())
    return Error{"watch event: " + std::string(type_text) + " without an \"object\" JSON object"};

  // Make the object the document's root without copying it: move it out of
  // the envelope, then swap it into the root. Its memory stays in the
  // document's pool, which the document owns; the envelope's leftovers are
  // unreachable pool memory (a few bytes) freed with the document.
  rapidjson::Value inner;
  inner.Swap(object->value);
  static_cast<rapidjson::Value&>(*doc).Swap(inner);
  event.object = std::move(doc);
  return event;
}

StatusInfo status_info(const rapidjson::Value& status) {
  StatusInfo info;
  info.code = static_cast<int>(int_at(status, {"code"}).value_or(0));
  info.reason = string_at(status, {"reason"});
  info.message = string_at(status, {"message"});
  return info;
}

bool is_expired(const StatusInfo& status) {
  return status.code == 410 || status.reason == "Expired" || status.reason == "Gone";
}

std::string resource_version_of(const rapidjson::Value& object) {
  return string_at(object, {"metadata", "resourceVersion"});
}

}  // namespace troupe::watch
