#include "plugins/node_numa_resource/annotation_json.hpp"

#include "plugins/deviceshare/go_json.hpp"

namespace troupe::plugins::numa {

using deviceshare::equals_fold;
using deviceshare::member_name;

Result<std::shared_ptr<JsonDocument>> parse_annotation(std::string_view what, std::string_view text) {
  auto doc = parse_json(text);
  if (!doc) return Error{std::string(what) + ": " + doc.message()};
  return *doc;
}

const JsonValue* member(const JsonValue& object, std::string_view key) {
  if (!object.IsObject()) return nullptr;
  const JsonValue* folded = nullptr;
  for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) {
    std::string_view name = member_name(it->name);
    if (name == key) return it->value.IsNull() ? nullptr : &it->value;
    if (folded == nullptr && equals_fold(name, key)) folded = &it->value;
  }
  return folded != nullptr && !folded->IsNull() ? folded : nullptr;
}

std::string describe(const JsonValue& value) { return deviceshare::describe_json(value); }

namespace {
std::string at(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}
}  // namespace

Status read_string(const JsonValue& object, std::string_view key, const std::string& path, std::string& out) {
  const JsonValue* v = member(object, key);
  if (v == nullptr) return {};
  if (!v->IsString()) return Error{at(path, key) + ": expected a string, got " + describe(*v)};
  out.assign(v->GetString(), v->GetStringLength());
  return {};
}

Status read_bool(const JsonValue& object, std::string_view key, const std::string& path, bool& out) {
  const JsonValue* v = member(object, key);
  if (v == nullptr) return {};
  if (!v->IsBool()) return Error{at(path, key) + ": expected a boolean, got " + describe(*v)};
  out = v->GetBool();
  return {};
}

Status read_int(const JsonValue& object, std::string_view key, const std::string& path, int64_t& out) {
  const JsonValue* v = member(object, key);
  if (v == nullptr) return {};
  if (!v->IsInt64()) return Error{at(path, key) + ": expected an integer, got " + describe(*v)};
  out = v->GetInt64();
  return {};
}

Status read_resource_list(const JsonValue& value, const std::string& path, ResourceList& out) {
  if (!value.IsObject()) return Error{path + ": expected an object, got " + describe(value)};
  for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
    const std::string name(member_name(it->name));
    const JsonValue& q = it->value;
    std::string text;
    if (q.IsString()) {
      text.assign(q.GetString(), q.GetStringLength());
    } else if (q.IsNumber()) {
      text = to_json(q);
    } else if (q.IsNull()) {
      continue;
    } else {
      return Error{at(path, name) + ": expected a quantity, got " + describe(q)};
    }
    auto parsed = Quantity::parse(text);
    if (!parsed) return Error{at(path, name) + ": " + parsed.message()};
    out[name] = *parsed;
  }
  return {};
}

}  // namespace troupe::plugins::numa
