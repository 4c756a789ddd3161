#include "model/json_reader.hpp"

#include <limits>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "model/text.hpp"

namespace troupe {

JsonReader::JsonReader(const rapidjson::Value& root, std::string root_path)
    : current_(&root), path_(std::move(root_path)) {}

JsonReader::Descent::Descent(JsonReader& r, const rapidjson::Value& v, const char* key)
    : r_(r), saved_value_(r.current_), saved_length_(r.path_.size()) {
  if (!r.path_.empty()) r.path_ += '.';
  r.path_ += key;
  r.current_ = &v;
}

JsonReader::Descent::Descent(JsonReader& r, const rapidjson::Value& v, const char* key, size_t index)
    : Descent(r, v, key) {
  r.path_ += '[';
  r.path_ += std::to_string(index);
  r.path_ += ']';
}

JsonReader::Descent::Descent(JsonReader& r, const rapidjson::Value& v, const char* key, const std::string& map_key)
    : Descent(r, v, key) {
  r.path_ += '.';
  r.path_ += map_key;
}

JsonReader::Descent::~Descent() {
  r_.current_ = saved_value_;
  r_.path_.resize(saved_length_);
}

void JsonReader::fail(const char* key, const std::string& message) {
  if (!ok()) return;
  error_ = path(key);
  if (!message.empty() && (message[0] == '.' || message[0] == '[')) {
    error_ += message;
  } else {
    error_ += ": ";
    error_ += message;
  }
}

void JsonReader::fail_index(const char* key, size_t index, const std::string& message) {
  fail(key, "[" + std::to_string(index) + "]: " + message);
}

std::string JsonReader::path(const char* key) const { return path_.empty() ? std::string(key) : path_ + "." + key; }

std::string JsonReader::expected(const char* what, const rapidjson::Value& got) {
  return std::string("Invalid value: ") + json_type_name(got) + ": must be " + what;
}

const rapidjson::Value* JsonReader::child(const char* key) const {
  if (!ok() || !current_->IsObject()) return nullptr;
  auto member = current_->FindMember(key);
  if (member == current_->MemberEnd() || member->value.IsNull()) return nullptr;
  return &member->value;
}

const rapidjson::Value* JsonReader::object_child(const char* key) {
  const rapidjson::Value* v = child(key);
  if (v != nullptr && !v->IsObject()) {
    fail(key, expected("an object", *v));
    return nullptr;
  }
  return v;
}

const rapidjson::Value* JsonReader::array_child(const char* key) {
  const rapidjson::Value* v = child(key);
  if (v != nullptr && !v->IsArray()) {
    fail(key, expected("an array", *v));
    return nullptr;
  }
  return v;
}

void JsonReader::read_selector(const char* key, const rapidjson::Value& v, LabelSelector& out) {
  Result<LabelSelector> decoded = decode_label_selector(v, path(key));
  if (!decoded) {
    if (ok()) error_ = decoded.message();
    return;
  }
  out = std::move(*decoded);
}

void JsonReader::read_selector(const char* key, const rapidjson::Value& v, std::vector<LabelRequirement>& out) {
  Result<std::vector<LabelRequirement>> decoded = decode_requirements(v, path(key));
  if (!decoded) {
    if (ok()) error_ = decoded.message();
    return;
  }
  out = std::move(*decoded);
}

// --- leaf decoders -----------------------------------------------------------

std::string JsonReader::read_leaf(const rapidjson::Value& v, std::string& out) {
  if (!v.IsString()) return expected("a string", v);
  out.assign(v.GetString(), v.GetStringLength());
  return {};
}

std::string JsonReader::read_leaf(const rapidjson::Value& v, bool& out) {
  if (!v.IsBool()) return expected("a boolean", v);
  out = v.GetBool();
  return {};
}

std::string JsonReader::read_leaf(const rapidjson::Value& v, int32_t& out) {
  if (!v.IsInt64()) return expected("an integer", v);
  const int64_t value = v.GetInt64();
  if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max()) {
    return "Invalid value: " + std::to_string(value) + ": must fit in a 32-bit integer";
  }
  out = static_cast<int32_t>(value);
  return {};
}

std::string JsonReader::read_leaf(const rapidjson::Value& v, int64_t& out) {
  if (!v.IsInt64()) return expected("an integer", v);
  out = v.GetInt64();
  return {};
}

std::string JsonReader::read_leaf(const rapidjson::Value& v, Quantity& out) {
  std::string text;
  if (v.IsString()) {
    text.assign(v.GetString(), v.GetStringLength());
  } else if (v.IsNumber()) {
    // resource.Quantity also accepts a bare JSON number and parses its text.
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    v.Accept(writer);
    text.assign(buffer.GetString(), buffer.GetSize());
  } else {
    return expected("a quantity string", v);
  }
  // As resource.Quantity's UnmarshalJSON: surrounding whitespace is trimmed first.
  Result<Quantity> parsed = Quantity::parse(trim(text));
  if (!parsed) return parsed.message();
  out = *parsed;
  return {};
}

std::string JsonReader::read_leaf(const rapidjson::Value& v, ResourceList& out) {
  if (!v.IsObject()) return expected("an object of resource names to quantities", v);
  out.clear();
  out.reserve(v.MemberCount());
  for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
    std::string name(m->name.GetString(), m->name.GetStringLength());
    Quantity quantity;
    std::string message = read_leaf(m->value, quantity);
    if (!message.empty()) return "." + name + ": " + message;
    // As the API server validates every resource list (ValidateResourceQuantityValue).
    if (quantity.sign() < 0)
      return "." + name + ": Invalid value: \"" + quantity.to_string() + "\": must be greater than or equal to 0";
    out[name] = quantity;
  }
  return {};
}

std::string JsonReader::read_leaf(const rapidjson::Value& v, Timestamp& out) {
  if (!v.IsString()) return expected("an RFC 3339 time string", v);
  Result<Timestamp> parsed = parse_timestamp(std::string_view(v.GetString(), v.GetStringLength()));
  if (!parsed) return parsed.message();
  out = *parsed;
  return {};
}

std::string JsonReader::read_leaf(const rapidjson::Value& v, std::chrono::nanoseconds& out) {
  if (!v.IsString()) return expected("a duration string like \"24h\"", v);
  Result<std::chrono::nanoseconds> parsed = parse_go_duration(std::string_view(v.GetString(), v.GetStringLength()));
  if (!parsed) return parsed.message();
  out = *parsed;
  return {};
}

std::string JsonReader::read_leaf(const rapidjson::Value& v, IntOrString& out) {
  if (v.IsString()) {
    out = IntOrString::from_string(std::string(v.GetString(), v.GetStringLength()));
    return {};
  }
  int32_t number = 0;
  if (!v.IsInt64()) return expected("an integer or a string", v);
  std::string message = read_leaf(v, number);
  if (!message.empty()) return message;
  out = IntOrString::from_int(number);
  return {};
}

}  // namespace troupe
