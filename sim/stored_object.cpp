#include "sim/stored_object.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "model/field_selector.hpp"
#include "sim/event_conversion.hpp"
#include "sim/resource_registry.hpp"

namespace troupe::sim {

namespace {

std::string string_member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return {};
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

// Copies the value at dotted `path` of `source` into `target`, creating the
// intermediate objects, so FieldSelector::matches sees the same structure.
void project_path(const rapidjson::Value& source, const std::string& path, rapidjson::Value& target,
                  rapidjson::MemoryPoolAllocator<>& pool) {
  const rapidjson::Value* from = &source;
  rapidjson::Value* to = &target;
  size_t start = 0;
  while (true) {
    size_t dot = path.find('.', start);
    std::string segment = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!from->IsObject()) return;
    auto it = from->FindMember(segment.c_str());
    if (it == from->MemberEnd()) return;
    from = &it->value;
    auto existing = to->FindMember(segment.c_str());
    if (dot == std::string::npos) {
      if (existing == to->MemberEnd()) to->AddMember(rapidjson::Value(segment.c_str(), pool), rapidjson::Value(*from, pool), pool);
      return;
    }
    if (existing == to->MemberEnd()) {
      to->AddMember(rapidjson::Value(segment.c_str(), pool), rapidjson::Value(rapidjson::kObjectType), pool);
      existing = to->FindMember(segment.c_str());
    }
    to = &existing->value;
    start = dot + 1;
  }
}

void set_api_version(rapidjson::Document& doc, const std::string& version) {
  auto it = doc.FindMember("apiVersion");
  if (it != doc.MemberEnd()) {
    it->value.SetString(version.c_str(), static_cast<rapidjson::SizeType>(version.size()), doc.GetAllocator());
  } else {
    doc.AddMember("apiVersion", rapidjson::Value(version.c_str(), doc.GetAllocator()), doc.GetAllocator());
  }
}

}  // namespace

const char* event_type_name(EventType type) {
  switch (type) {
    case EventType::added: return "ADDED";
    case EventType::modified: return "MODIFIED";
    case EventType::deleted: return "DELETED";
    case EventType::bookmark: return "BOOKMARK";
    case EventType::error: return "ERROR";
  }
  return "ERROR";
}

std::string watch_event_line(EventType type, const std::string& object_json) {
  const char* name = event_type_name(type);
  std::string line;
  line.reserve(object_json.size() + 32);
  line.append("{\"type\":\"").append(name).append("\",\"object\":").append(object_json).append("}\n");
  return line;
}

std::string object_json_as(const ResourceInfo& resource, const StoredObject& object) {
  if (resource.storage_version) return object.json;
  rapidjson::Document doc;
  doc.Parse(object.json.data(), object.json.size());
  if (doc.HasParseError() || !doc.IsObject()) return object.json;
  to_served_schema(resource, doc);
  return to_json(doc);
}

void to_served_schema(const ResourceInfo& resource, rapidjson::Document& doc) {
  if (resource.storage_version || !doc.IsObject()) return;
  if (resource.schema == ResourceInfo::Schema::events_v1) {
    core_event_to_events_v1(doc);
    return;
  }
  set_api_version(doc, resource.api_version());
}

void to_stored_schema(const ResourceInfo& resource, rapidjson::Document& doc) {
  if (resource.schema == ResourceInfo::Schema::events_v1) return events_v1_to_core_event(doc);
  // Stored as the storage version, which serves the stored text as it is.
  if (!resource.storage_version && doc.IsObject()) set_api_version(doc, resource.stored_api_version);
}

std::string to_json(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return {buffer.GetString(), buffer.GetSize()};
}

std::shared_ptr<StoredObject> make_stored_object(const ResourceInfo& resource, const rapidjson::Value& doc) {
  auto object = std::make_shared<StoredObject>();
  auto meta = doc.FindMember("metadata");
  if (meta != doc.MemberEnd() && meta->value.IsObject()) {
    const auto& m = meta->value;
    object->ns = string_member(m, "namespace");
    object->name = string_member(m, "name");
    object->uid = string_member(m, "uid");
    auto deletion = m.FindMember("deletionTimestamp");
    object->being_deleted = deletion != m.MemberEnd() && !deletion->value.IsNull();
    auto labels = m.FindMember("labels");
    if (labels != m.MemberEnd() && labels->value.IsObject()) {
      for (const auto& l : labels->value.GetObject()) {
        if (l.value.IsString())
          object->labels.emplace(std::string(l.name.GetString(), l.name.GetStringLength()),
                                 std::string(l.value.GetString(), l.value.GetStringLength()));
      }
    }
  }
  for (const auto& path : selectable_fields(resource.kind)) project_path(doc, path, object->fields, object->pool);
  return object;
}

}  // namespace troupe::sim
