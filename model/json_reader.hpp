#pragma once
// JsonReader: decodes a Kubernetes object into a typed view, field by field,
// and names the exact field in the first error it meets
// ("spec.containers[0].resources.requests.cpu: quantities must match ...").
//
// Each view type describes its fields once, in a template shared with
// JsonWriter (see json_writer.hpp):
//
//   template <class Io, class C> void container_fields(Io& io, C& c) {
//     io.required("name", c.name);
//     io.nested("resources", [&] { io.field("requests", c.requests); });
//     io.array("ports", c.ports);   // calls json_fields(io, port) per element
//   }
//
// and exposes it as the overload pair json_fields(JsonReader&, T&) /
// json_fields(JsonWriter&, const T&). Missing and null fields leave the
// output untouched (Go's zero value); a wrong JSON type is an error, never a
// crash. After the first error every further call is a no-op.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <rapidjson/document.h>

#include "model/go_duration.hpp"
#include "model/int_or_string.hpp"
#include "model/json.hpp"
#include "model/json_enum.hpp"
#include "model/label_selector.hpp"
#include "model/quantity.hpp"
#include "model/resources.hpp"
#include "model/timestamp.hpp"

namespace troupe {

class JsonReader {
 public:
  static constexpr bool reading = true;

  /// `root` must outlive the reader; a root that is not an object reads as empty.
  explicit JsonReader(const rapidjson::Value& root, std::string root_path = "");

  // --- leaf fields -------------------------------------------------------
  /// Optional field: missing or null leaves `out` unchanged.
  template <class T>
  void field(const char* key, T& out) {
    if (const rapidjson::Value* v = child(key)) read_into(key, *v, out);
  }
  /// Optional field with the default Kubernetes applies when it is absent.
  template <class T>
  void field(const char* key, T& out, const T& fallback) {
    out = fallback;
    field(key, out);
  }
  /// A field Go writes without omitempty: absent reads as Go's zero value
  /// `zero` (JsonWriter always writes it).
  template <class T>
  void unomitted(const char* key, T& out, const T& zero) {
    field(key, out, zero);
  }
  /// Required field: missing or null is an error.
  template <class T>
  void required(const char* key, T& out) {
    const rapidjson::Value* v = child(key);
    if (v == nullptr) {
      if (ok()) fail(key, "Required value");
      return;
    }
    read_into(key, *v, out);
  }
  /// Validation beyond types: records "<path>.<key>: <message>" when `valid`
  /// is false (JsonWriter's check() does nothing).
  void check(const char* key, bool valid, const char* message) {
    if (!valid) fail(key, message);
  }
  /// metav1.MicroTime fields decode like any timestamp; the writer differs.
  void micro_time(const char* key, std::optional<Timestamp>& out) { field(key, out); }

  // --- nested objects and arrays -----------------------------------------
  /// Descends into the object at `key` (if present) and runs `fn` there.
  template <class Fn>
  void nested(const char* key, Fn&& fn) {
    const rapidjson::Value* v = object_child(key);
    if (v == nullptr) return;
    Descent d(*this, *v, key);
    fn();
  }
  /// Decodes the object at `key` into `out` with json_fields(reader, out).
  template <class T>
  void object(const char* key, T& out) {
    nested(key, [&] { json_fields(*this, out); });
  }
  /// Like object(), but a missing or null object is an error.
  template <class T>
  void required_object(const char* key, T& out) {
    if (ok() && child(key) == nullptr) {
      fail(key, "Required value");
      return;
    }
    object(key, out);
  }
  /// Like object(), but records whether the key was present at all
  /// (Kubernetes distinguishes a nil pointer from an empty object).
  template <class T>
  void optional_object(const char* key, std::optional<T>& out) {
    const rapidjson::Value* v = object_child(key);
    if (v == nullptr) return;
    out.emplace();
    Descent d(*this, *v, key);
    json_fields(*this, *out);
  }
  /// An array of objects, each decoded with json_fields.
  template <class T>
  void array(const char* key, std::vector<T>& out) {
    const rapidjson::Value* v = array_child(key);
    if (v == nullptr) return;
    out.clear();
    out.resize(v->Size());
    for (rapidjson::SizeType i = 0; i < v->Size() && ok(); ++i) {
      const rapidjson::Value& item = (*v)[i];
      if (!item.IsObject()) {
        fail_index(key, i, expected("an object", item));
        return;
      }
      Descent d(*this, item, key, i);
      json_fields(*this, out[i]);
    }
  }
  /// An object whose values are objects ({"avg": {...}, "p90": {...}}).
  template <class T>
  void object_map(const char* key, std::map<std::string, T>& out) {
    const rapidjson::Value* v = object_child(key);
    if (v == nullptr) return;
    out.clear();
    for (auto m = v->MemberBegin(); m != v->MemberEnd() && ok(); ++m) {
      std::string name(m->name.GetString(), m->name.GetStringLength());
      if (!m->value.IsObject()) {
        fail(key, "." + name + ": " + expected("an object", m->value));
        return;
      }
      Descent d(*this, m->value, key, name);
      json_fields(*this, out[name]);
    }
  }

  // --- state ---------------------------------------------------------------
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  Status status() const { return ok() ? Status() : Status(Error{error_}); }
  /// Records "<path>.<key>: <message>" unless an error is already recorded.
  /// A message that starts with '.' or '[' continues the path instead
  /// (".cpu: invalid quantity ..." names a member of the field).
  void fail(const char* key, const std::string& message);
  /// The dotted path of `key` under the current object ("spec.containers[0].name").
  std::string path(const char* key) const;
  /// The object being decoded.
  const rapidjson::Value& current() const { return *current_; }

 private:
  // Moves the cursor into a child object for one scope and back out.
  class Descent {
   public:
    Descent(JsonReader& r, const rapidjson::Value& v, const char* key);
    Descent(JsonReader& r, const rapidjson::Value& v, const char* key, size_t index);
    Descent(JsonReader& r, const rapidjson::Value& v, const char* key, const std::string& map_key);
    ~Descent();
    Descent(const Descent&) = delete;
    Descent& operator=(const Descent&) = delete;

   private:
    JsonReader& r_;
    const rapidjson::Value* saved_value_;
    size_t saved_length_;
  };

  // The member `key` of the current object; nullptr when absent or null.
  const rapidjson::Value* child(const char* key) const;
  const rapidjson::Value* object_child(const char* key);
  const rapidjson::Value* array_child(const char* key);
  void fail_index(const char* key, size_t index, const std::string& message);

  template <class T>
  void read_into(const char* key, const rapidjson::Value& v, T& out) {
    if (!ok()) return;
    if constexpr (std::is_same_v<T, LabelSelector> || std::is_same_v<T, std::vector<LabelRequirement>>) {
      read_selector(key, v, out);
    } else if constexpr (is_optional<T>::value) {
      typename T::value_type value{};
      read_into(key, v, value);
      if (ok()) out = std::move(value);
    } else if constexpr (is_vector<T>::value) {
      read_vector(key, v, out);
    } else {
      std::string message = read_leaf(v, out);
      if (!message.empty()) fail(key, message);
    }
  }

  template <class T>
  void read_vector(const char* key, const rapidjson::Value& v, std::vector<T>& out) {
    if (!v.IsArray()) {
      fail(key, expected("an array", v));
      return;
    }
    out.clear();
    out.resize(v.Size());
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      std::string message = read_leaf(v[i], out[i]);
      if (!message.empty()) {
        fail_index(key, i, message);
        return;
      }
    }
  }

  void read_selector(const char* key, const rapidjson::Value& v, LabelSelector& out);
  void read_selector(const char* key, const rapidjson::Value& v, std::vector<LabelRequirement>& out);

  template <class T>
  struct is_optional : std::false_type {};
  template <class T>
  struct is_optional<std::optional<T>> : std::true_type {};
  template <class T>
  struct is_vector : std::false_type {};
  template <class T>
  struct is_vector<std::vector<T>> : std::true_type {};

 public:
  /// "Invalid value: number: must be a string", the API server's wording.
  static std::string expected(const char* what, const rapidjson::Value& got);
  // Leaf decoders: return "" on success, else a message without the path.
  static std::string read_leaf(const rapidjson::Value& v, std::string& out);
  static std::string read_leaf(const rapidjson::Value& v, bool& out);
  static std::string read_leaf(const rapidjson::Value& v, int32_t& out);
  static std::string read_leaf(const rapidjson::Value& v, int64_t& out);
  static std::string read_leaf(const rapidjson::Value& v, Quantity& out);
  static std::string read_leaf(const rapidjson::Value& v, ResourceList& out);
  /// An object of leaves ({"app": "web"}, {"pod-a": "2026-...Z"}).
  template <class V>
  static std::string read_leaf(const rapidjson::Value& v, std::map<std::string, V>& out) {
    if (!v.IsObject()) return expected("an object", v);
    out.clear();
    for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
      std::string name(m->name.GetString(), m->name.GetStringLength());
      std::string message = read_leaf(m->value, out[name]);
      if (!message.empty()) return "." + name + ": " + message;
    }
    return {};
  }
  static std::string read_leaf(const rapidjson::Value& v, Timestamp& out);
  static std::string read_leaf(const rapidjson::Value& v, std::chrono::nanoseconds& out);
  static std::string read_leaf(const rapidjson::Value& v, IntOrString& out);
  template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
  static std::string read_leaf(const rapidjson::Value& v, E& out) {
    if (!v.IsString()) return expected("a string", v);
    std::string_view text(v.GetString(), v.GetStringLength());
    auto value = enum_from_name<E>(text);
    if (!value) return enum_error<E>(text);
    out = *value;
    return {};
  }

 private:
  const rapidjson::Value* current_;
  std::string path_;
  std::string error_;
};

}  // namespace troupe
