#pragma once
// JsonWriter: writes a typed view back into (a copy of) the JSON it was
// decoded from, through the same field template the JsonReader uses (see
// json_reader.hpp).
//
// The rule that makes re-encoding lossless: a field is only touched when the
// view's value differs from what the JSON already says. An unchanged view
// therefore re-encodes to exactly its input (unknown fields, key order,
// "1.5" vs "1500m" spellings all kept); a changed field is written in the API
// server's canonical form. Empty values (Go's omitempty zero values) are
// removed rather than written as "" / 0 / false / {} / [].
//
// Arrays of objects are matched by position: element i is written over the
// JSON's element i, so unknown fields of element i stay with element i.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <rapidjson/document.h>

#include "model/json_reader.hpp"

namespace troupe {

class JsonWriter {
 public:
  static constexpr bool reading = false;

  /// `root` (an object) is modified in place; `allocator` must own it.
  JsonWriter(rapidjson::Value& root, JsonAllocator& allocator);

  // --- leaf fields -------------------------------------------------------
  /// Omitted when empty; otherwise written if it differs from the JSON.
  template <class T>
  void field(const char* key, const T& value) {
    write(key, value, /*omit=*/is_empty(value));
  }
  /// A field with a Kubernetes default: absent JSON means `fallback`.
  template <class T>
  void field(const char* key, const T& value, const T& fallback) {
    write(key, value, /*omit=*/value == fallback && member(key) == nullptr);
  }
  /// Always present in the JSON, even when empty.
  template <class T>
  void required(const char* key, const T& value) {
    write(key, value, /*omit=*/false);
  }
  /// A field Go writes without omitempty: always written (JsonReader reads absent as `zero`).
  template <class T>
  void unomitted(const char* key, const T& value, const T& zero) {
    if (value == zero && current_->IsObject()) {  // a null read as zero is left as it was
      auto found = current_->FindMember(key);
      if (found != current_->MemberEnd() && found->value.IsNull()) return;
    }
    write(key, value, /*omit=*/false);
  }
  /// Reader-side validation; nothing to do when writing.
  void check(const char*, bool, const char*) {}
  /// A metav1.MicroTime: six fractional digits when written.
  void micro_time(const char* key, const std::optional<Timestamp>& value);

  // --- nested objects and arrays -----------------------------------------
  /// Runs `fn` inside the object at `key`, creating it if needed; an object
  /// created here that ends up empty is removed again.
  template <class Fn>
  void nested(const char* key, Fn&& fn) {
    enter(key, /*keep_empty=*/false, fn);
  }
  template <class T>
  void object(const char* key, const T& value) {
    enter(key, /*keep_empty=*/false, [&] { json_fields(*this, value); });
  }
  /// Always written, even when empty ({}).
  template <class T>
  void required_object(const char* key, const T& value) {
    enter(key, /*keep_empty=*/true, [&] { json_fields(*this, value); });
  }
  /// nullopt removes the key; a value is written even if it is empty ({}).
  template <class T>
  void optional_object(const char* key, const std::optional<T>& value) {
    if (!value) {
      if (member(key) != nullptr) erase(key);  // a JSON null stays as it was
      return;
    }
    enter(key, /*keep_empty=*/true, [&] { json_fields(*this, *value); });
  }
  template <class T>
  void array(const char* key, const std::vector<T>& items) {
    rapidjson::Value* arr = prepare_array(key, items.size());
    if (arr == nullptr) return;
    for (size_t i = 0; i < items.size(); ++i) {
      Descent d(*this, (*arr)[static_cast<rapidjson::SizeType>(i)]);
      json_fields(*this, items[i]);
    }
  }
  template <class T>
  void object_map(const char* key, const std::map<std::string, T>& items) {
    if (items.empty()) {
      erase_if_not_empty(key);
      return;
    }
    rapidjson::Value& obj = ensure_object(key);
    for (auto m = obj.MemberBegin(); m != obj.MemberEnd();) {
      if (items.count(std::string(m->name.GetString(), m->name.GetStringLength())) == 0) {
        m = obj.EraseMember(m);
      } else {
        ++m;
      }
    }
    for (const auto& [name, item] : items) {
      Descent outer(*this, obj);
      rapidjson::Value& child = ensure_object(name.c_str());
      Descent inner(*this, child);
      json_fields(*this, item);
    }
  }

  /// The object being written.
  rapidjson::Value& current() { return *current_; }
  JsonAllocator& allocator() { return allocator_; }

 private:
  class Descent {
   public:
    Descent(JsonWriter& w, rapidjson::Value& v) : w_(w), saved_(w.current_) { w.current_ = &v; }
    ~Descent() { w_.current_ = saved_; }
    Descent(const Descent&) = delete;
    Descent& operator=(const Descent&) = delete;

   private:
    JsonWriter& w_;
    rapidjson::Value* saved_;
  };

  template <class T>
  void write(const char* key, const T& value, bool omit) {
    rapidjson::Value* existing = member(key);
    if (existing != nullptr && unchanged(*existing, value)) return;
    if (omit) {
      if (existing != nullptr) erase(key);
      return;
    }
    set(key, encode(value));
  }

  template <class Fn>
  void enter(const char* key, bool keep_empty, Fn&& fn) {
    if (!current_->IsObject()) current_->SetObject();
    auto found = current_->FindMember(key);
    const bool existed = found != current_->MemberEnd() && found->value.IsObject();
    const bool was_null = found != current_->MemberEnd() && found->value.IsNull();
    rapidjson::Value& child = ensure_object(key);
    {
      Descent d(*this, child);
      fn();
    }
    if (!existed && !keep_empty && child.ObjectEmpty()) {
      if (was_null) {
        child.SetNull();
      } else {
        erase(key);
      }
    }
  }

  // True when the JSON already holds `value` (decoding it gives an equal value).
  template <class T>
  bool unchanged(const rapidjson::Value& existing, const T& value) const {
    if constexpr (std::is_same_v<T, std::optional<LabelSelector>>) {
      return same_selector(existing, value);
    } else if constexpr (std::is_same_v<T, std::vector<LabelRequirement>>) {
      return same_requirements(existing, value);
    } else if constexpr (is_optional<T>::value) {
      return value.has_value() && unchanged(existing, *value);
    } else if constexpr (is_vector<T>::value) {
      if (!existing.IsArray() || existing.Size() != value.size()) return false;
      for (rapidjson::SizeType i = 0; i < existing.Size(); ++i)
        if (!unchanged(existing[i], value[i])) return false;
      return true;
    } else {
      T decoded{};
      return JsonReader::read_leaf(existing, decoded).empty() && decoded == value;
    }
  }

  template <class T>
  static bool is_empty(const T& value) {
    if constexpr (std::is_same_v<T, std::optional<LabelSelector>>) {
      // LabelSelector::nothing() is Go's nil selector: no JSON form.
      return !value || value->matches_nothing();
    } else if constexpr (is_optional<T>::value) {
      return !value.has_value();
    } else if constexpr (std::is_same_v<T, std::string> || is_vector<T>::value || is_map<T>::value ||
                         std::is_same_v<T, ResourceList>) {
      return value.empty();
    } else if constexpr (std::is_same_v<T, Quantity> || std::is_same_v<T, IntOrString>) {
      return false;  // written whenever set: "0" is a meaningful quantity
    } else {
      return value == T{};
    }
  }

  template <class T>
  rapidjson::Value encode(const T& value) {
    if constexpr (is_optional<T>::value) {
      return encode(*value);
    } else if constexpr (std::is_same_v<T, std::vector<LabelRequirement>>) {
      return encode_requirements(value);
    } else if constexpr (is_vector<T>::value) {
      rapidjson::Value arr(rapidjson::kArrayType);
      for (const auto& item : value) arr.PushBack(encode(item), allocator_);
      return arr;
    } else if constexpr (is_map<T>::value) {
      rapidjson::Value obj(rapidjson::kObjectType);
      for (const auto& [name, item] : value) obj.AddMember(encode_leaf(name), encode(item), allocator_);
      return obj;
    } else if constexpr (std::is_enum_v<T>) {
      std::string_view name = enum_name(value);
      return rapidjson::Value(name.data(), static_cast<rapidjson::SizeType>(name.size()), allocator_);
    } else {
      return encode_leaf(value);
    }
  }

  rapidjson::Value encode_leaf(const std::string& value);
  rapidjson::Value encode_leaf(bool value);
  rapidjson::Value encode_leaf(int32_t value);
  rapidjson::Value encode_leaf(int64_t value);
  rapidjson::Value encode_leaf(const Quantity& value);
  rapidjson::Value encode_leaf(const ResourceList& value);
  rapidjson::Value encode_leaf(const Timestamp& value);
  rapidjson::Value encode_leaf(const std::chrono::nanoseconds& value);
  rapidjson::Value encode_leaf(const IntOrString& value);
  rapidjson::Value encode_leaf(const LabelSelector& value);
  rapidjson::Value encode_requirements(const std::vector<LabelRequirement>& value);

  static bool same_selector(const rapidjson::Value& existing, const std::optional<LabelSelector>& value);
  static bool same_requirements(const rapidjson::Value& existing, const std::vector<LabelRequirement>& value);

  // The member `key` of the current object; nullptr when absent or null.
  rapidjson::Value* member(const char* key);
  void set(const char* key, rapidjson::Value value);
  void erase(const char* key);
  void erase_if_not_empty(const char* key);
  rapidjson::Value& ensure_object(const char* key);
  // Makes `key` an array of `size` objects (keeping existing elements), or
  // removes it when `size` is 0; nullptr when there is nothing to write.
  rapidjson::Value* prepare_array(const char* key, size_t size);

  template <class T>
  struct is_optional : std::false_type {};
  template <class T>
  struct is_optional<std::optional<T>> : std::true_type {};
  template <class T>
  struct is_vector : std::false_type {};
  template <class T>
  struct is_vector<std::vector<T>> : std::true_type {};
  template <class T>
  struct is_map : std::false_type {};
  template <class V>
  struct is_map<std::map<std::string, V>> : std::true_type {};

  rapidjson::Value* current_;
  JsonAllocator& allocator_;
};

}  // namespace troupe
