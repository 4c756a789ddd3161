#pragma once
// JsonBody: builds request bodies with RapidJSON's writer, so every string is
// escaped correctly whatever a pod name or condition message contains.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace troupe::watch {

class JsonBody {
 public:
  JsonBody& begin_object() { writer_.StartObject(); return *this; }
  JsonBody& begin_object(std::string_view key) { return this->key(key).begin_object(); }
  JsonBody& end_object() { writer_.EndObject(); return *this; }
  JsonBody& begin_array(std::string_view key) { this->key(key); writer_.StartArray(); return *this; }
  JsonBody& end_array() { writer_.EndArray(); return *this; }

  JsonBody& key(std::string_view k) {
    writer_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
    return *this;
  }
  JsonBody& string(std::string_view k, std::string_view v) {
    key(k);
    writer_.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
    return *this;
  }
  /// Only when non-empty (Go's omitempty).
  JsonBody& string_if(std::string_view k, std::string_view v) { return v.empty() ? *this : string(k, v); }
  JsonBody& integer(std::string_view k, std::int64_t v) {
    key(k);
    writer_.Int64(v);
    return *this;
  }
  JsonBody& null(std::string_view k) {
    key(k);
    writer_.Null();
    return *this;
  }
  /// A map of strings; a nullopt value is written as null (a merge patch deletes it).
  JsonBody& string_map(std::string_view k, const std::map<std::string, std::optional<std::string>>& values);
  JsonBody& string_map(std::string_view k, const std::map<std::string, std::string>& values);

  std::string str() const { return std::string(buffer_.GetString(), buffer_.GetSize()); }

 private:
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_{buffer_};
};

inline JsonBody& JsonBody::string_map(std::string_view k,
                                      const std::map<std::string, std::optional<std::string>>& values) {
  begin_object(k);
  for (const auto& [name, value] : values) {
    if (value) {
      string(name, *value);
    } else {
      null(name);
    }
  }
  return end_object();
}

inline JsonBody& JsonBody::string_map(std::string_view k, const std::map<std::string, std::string>& values) {
  begin_object(k);
  for (const auto& [name, value] : values) string(name, value);
  return end_object();
}

}  // namespace troupe::watch
