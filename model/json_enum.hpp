#pragma once
// String-valued Kubernetes enums ("NoSchedule", "Exists", ...) mapped to C++
// enum classes. A type opts in by specialising JsonEnum<E> with a `names`
// table; JsonReader/JsonWriter then decode and encode it, rejecting values
// outside the table with the API server's wording.

#include <string>
#include <string_view>
#include <optional>
#include <utility>

namespace troupe {

/// Specialise as
///   template <> struct JsonEnum<TaintEffect> {
///     static constexpr std::pair<TaintEffect, std::string_view> names[] = {...};
///   };
/// The first entry for a value is the one written out; later entries are
/// accepted aliases (e.g. "" for Equal). The enumerator that compares equal
/// to E{} is the "unset" value a writer omits.
template <class E>
struct JsonEnum;

template <class E>
std::string_view enum_name(E value) {
  for (const auto& [v, name] : JsonEnum<E>::names)
    if (v == value) return name;
  return {};
}

template <class E>
std::optional<E> enum_from_name(std::string_view text) {
  for (const auto& [v, name] : JsonEnum<E>::names)
    if (name == text) return v;
  return std::nullopt;
}

/// `Unsupported value: "Foo": supported values: "NoSchedule", "NoExecute"`,
/// the API server's wording.
template <class E>
std::string enum_error(std::string_view text) {
  std::string message = "Unsupported value: \"" + std::string(text) + "\": supported values: ";
  bool first = true;
  for (const auto& entry : JsonEnum<E>::names) {
    if (entry.second.empty()) continue;
    if (!first) message += ", ";
    message += "\"" + std::string(entry.second) + "\"";
    first = false;
  }
  return message;
}

}  // namespace troupe
