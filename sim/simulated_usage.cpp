#include "sim/simulated_usage.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <rapidjson/document.h>

#include "model/pod_requests.hpp"

namespace troupe::sim {

namespace {

/// Usage is simulated for the resources LowNodeLoad balances by default.
const char* const kUsageResources[] = {"cpu", "memory"};

/// cpu in milli-cores (the finest unit it is written in), memory in bytes.
Quantity scaled(const std::string& resource, const Quantity& request, double ratio) {
  if (resource == "cpu") return Quantity::from_milli(std::llround(static_cast<double>(request.milli_value()) * ratio));
  return Quantity::from_value(std::llround(static_cast<double>(request.value()) * ratio), Quantity::Format::binary_si);
}

ResourceList pod_usage(const Pod& pod, double ratio) {
  ResourceList requests = pod_requests(pod.spec);
  ResourceList usage;
  for (const char* resource : kUsageResources) usage[resource] = scaled(resource, requests.get(resource), ratio);
  return usage;
}

/// "1", "0.9": the shortest form that reads back the same.
std::string format_ratio(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", ratio);
  return text;
}

/// The pod's ratio; a malformed annotation leaves the default and a warning.
double ratio_of(const Pod& pod, double default_ratio, std::vector<std::string>& warnings) {
  const std::string* text = pod.meta.annotation(kUsageRatioAnnotation);
  if (!text) return default_ratio;
  auto ratio = parse_usage_ratio(*text);
  if (ratio) return *ratio;
  warnings.push_back("pod " + pod.meta.namespace_name + "/" + pod.meta.name + ": annotation " + kUsageRatioAnnotation +
                     ": " + ratio.message() + "; using the default ratio " + format_ratio(default_ratio));
  return default_ratio;
}

Result<ResourceList> parse_base_usage(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError() || !doc.IsObject())
    return Error{"\"" + text + "\" is not a JSON object of quantities, e.g. {\"cpu\":\"500m\",\"memory\":\"1Gi\"}"};
  ResourceList out;
  for (const auto& member : doc.GetObject()) {
    std::string name = member.name.GetString();
    if (!member.value.IsString()) return Error{name + ": the quantity must be a string, e.g. \"500m\""};
    auto quantity = Quantity::parse(member.value.GetString());
    if (!quantity) return Error{name + ": " + quantity.message()};
    if (quantity->sign() < 0) return Error{name + ": must not be negative"};
    out[name] = *quantity;
  }
  return out;
}

ResourceList base_usage_of(const Node& node, std::vector<std::string>& warnings) {
  const std::string* text = node.meta.annotation(kBaseUsageAnnotation);
  if (!text) return {};
  auto base = parse_base_usage(*text);
  if (base) return *base;
  warnings.push_back("node " + node.meta.name + ": annotation " + kBaseUsageAnnotation + ": " + base.message() +
                     "; no base usage");
  return {};
}

}  // namespace

Result<double> parse_usage_ratio(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  double ratio = std::strtod(begin, &end);
  if (text.empty() || end != begin + text.size() || !std::isfinite(ratio))
    return Error{"\"" + text + "\" is not a number, e.g. \"0.9\""};
  if (ratio < 0 || ratio > kMaxUsageRatio)
    return Error{"\"" + text + "\" must be from 0 to " + std::to_string(static_cast<int>(kMaxUsageRatio))};
  return ratio;
}

bool runs_on(const Pod& pod, const std::string& node_name) {
  return pod.spec.node_name == node_name && !pod_finished(pod);
}

SimulatedMetric simulate_node_metric(const Node& node, const std::vector<const Pod*>& pods, double default_ratio,
                                     Timestamp now) {
  SimulatedMetric out;
  NodeMetric& metric = out.metric;
  metric.meta.name = node.meta.name;
  metric.update_time = now;
  NodeMetricInfo info;
  info.system_usage.resources = base_usage_of(node, out.warnings);
  ResourceList total = info.system_usage.resources;
  for (const Pod* pod : pods) {
    if (!runs_on(*pod, node.meta.name)) continue;
    PodMetricInfo entry;
    entry.name = pod->meta.name;
    entry.namespace_name = pod->meta.namespace_name;
    entry.pod_usage.resources = pod_usage(*pod, ratio_of(*pod, default_ratio, out.warnings));
    total += entry.pod_usage.resources;
    metric.pods_metric.push_back(std::move(entry));
  }
  for (const char* resource : kUsageResources) total.emplace(resource, Quantity{});
  info.node_usage.resources = std::move(total);
  metric.node_metric = std::move(info);
  return out;
}

}  // namespace troupe::sim
