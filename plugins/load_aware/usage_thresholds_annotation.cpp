#include "plugins/load_aware/usage_thresholds_annotation.hpp"

#include <rapidjson/document.h>

#include "model/go_duration.hpp"

namespace troupe::plugins::load_aware {

bool read_resource_ints(const rapidjson::Value& value, ResourceInts& out) {
  if (!value.IsObject()) return false;
  for (const auto& member : value.GetObject()) {
    if (!member.value.IsInt64()) return false;
    out[member.name.GetString()] = member.value.GetInt64();
  }
  return true;
}

namespace {

bool read_aggregated(const rapidjson::Value& value, AggregatedArgs& out) {
  if (!value.IsObject()) return false;
  if (auto it = value.FindMember("usageThresholds"); it != value.MemberEnd() && !it->value.IsNull())
    if (!read_resource_ints(it->value, out.usage_thresholds)) return false;
  if (auto it = value.FindMember("usageAggregationType"); it != value.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsString()) return false;
    out.usage_aggregation_type = it->value.GetString();
  }
  if (auto it = value.FindMember("usageAggregatedDuration"); it != value.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsString()) return false;
    auto duration = parse_go_duration(it->value.GetString());
    if (!duration) return false;
    out.usage_aggregated_duration = *duration;
  }
  return true;
}

}  // namespace

std::optional<CustomUsageThresholds> parse_custom_usage_thresholds(const std::string* text) {
  if (text == nullptr) return std::nullopt;
  rapidjson::Document doc;
  doc.Parse(text->data(), text->size());
  if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
  CustomUsageThresholds out;
  if (auto it = doc.FindMember("usageThresholds"); it != doc.MemberEnd() && !it->value.IsNull())
    if (!read_resource_ints(it->value, out.usage_thresholds)) return std::nullopt;
  if (auto it = doc.FindMember("prodUsageThresholds"); it != doc.MemberEnd() && !it->value.IsNull())
    if (!read_resource_ints(it->value, out.prod_usage_thresholds)) return std::nullopt;
  if (auto it = doc.FindMember("aggregatedUsage"); it != doc.MemberEnd() && !it->value.IsNull()) {
    AggregatedArgs aggregated;
    if (!read_aggregated(it->value, aggregated)) return std::nullopt;
    if (aggregated.filters_aggregated()) out.aggregated = std::move(aggregated);
  }
  if (out.usage_thresholds.empty() && out.prod_usage_thresholds.empty() && !out.aggregated) return std::nullopt;
  return out;
}

}  // namespace troupe::plugins::load_aware
