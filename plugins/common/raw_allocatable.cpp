#include "plugins/common/raw_allocatable.hpp"

#include <string>
#include <string_view>

#include <rapidjson/document.h>

namespace troupe::plugins {

std::optional<ResourceList> parse_raw_allocatable(const Node& node) {
  static const std::string key = kAnnotationRawAllocatable;
  const std::string* text = node.meta.annotation(key);
  if (text == nullptr) return std::nullopt;
  rapidjson::Document doc;
  doc.Parse(text->data(), text->size());
  if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
  ResourceList out;
  for (const auto& member : doc.GetObject()) {
    if (!member.value.IsString()) return std::nullopt;
    auto quantity = Quantity::parse(std::string_view(member.value.GetString(), member.value.GetStringLength()));
    if (!quantity) return std::nullopt;
    out[member.name.GetString()] = *quantity;
  }
  return out;
}

}  // namespace troupe::plugins
