#include "plugins/descheduler/low_node_load_args.hpp"

#include <algorithm>
#include <sstream>

#include "config/descheduler_config.hpp"
#include "config/yaml_fields.hpp"

namespace troupe::plugins::descheduler {

using config::child_path;
using config::FieldError;
using config::index_path;
using config::is_absent;

namespace {

std::string percent_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

ResourceThresholds read_thresholds(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  ResourceThresholds out;
  for (const auto& entry : node) {
    const std::string name = config::read_string(entry.first, path);
    const std::string entry_path = child_path(path, name);
    if (name.empty()) throw FieldError(path, "resource names must not be empty");
    const double value = config::read_number(entry.second, entry_path);
    if (value < 0 || value > 100) {
      throw FieldError(entry_path, "percentage must be between 0 and 100, got " + percent_text(value));
    }
    out[name] = value;
  }
  return out;
}

ResourceWeights read_weights(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  ResourceWeights out;
  for (const auto& entry : node) {
    const std::string name = config::read_string(entry.first, path);
    out[name] = config::read_int(entry.second, child_path(path, name));
  }
  return out;
}

AnomalyCondition read_anomaly(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path, {"timeout", "consecutiveAbnormalities", "consecutiveNormalities"});
  AnomalyCondition out;
  config::read_optional(node, path, "timeout", out.timeout);
  out.consecutive_abnormalities = 0;
  config::read_optional(node, path, "consecutiveAbnormalities", out.consecutive_abnormalities);
  config::read_optional(node, path, "consecutiveNormalities", out.consecutive_normalities);
  // Defaulting: an unset (zero) count takes Koordinator's 5.
  if (out.consecutive_abnormalities == 0) out.consecutive_abnormalities = 5;
  if (out.consecutive_abnormalities < 0) throw FieldError(child_path(path, "consecutiveAbnormalities"), "must not be negative");
  if (out.consecutive_normalities < 0) throw FieldError(child_path(path, "consecutiveNormalities"), "must not be negative");
  if (out.timeout.count() < 0) throw FieldError(child_path(path, "timeout"), "must not be negative");
  return out;
}

template <class T, class Read>
std::optional<T> read_field(const YAML::Node& map, const std::string& path, const char* key, Read read) {
  const YAML::Node node = map[key];
  if (is_absent(node)) return std::nullopt;
  return read(node, child_path(path, key));
}

/// A low and a high map must name the same resources, and (unless
/// deviation thresholds are used) low must not exceed high.
void check_pair(const ResourceThresholds& low, const ResourceThresholds& high, bool deviation, const std::string& path,
                const char* low_key, const char* high_key) {
  if (low.empty() && high.empty()) return;
  for (const auto& [name, value] : low) {
    auto it = high.find(name);
    if (it == high.end()) {
      throw FieldError(child_path(path, high_key), "resource " + name + " is in " + low_key + " but not here");
    }
    if (!deviation && value > it->second) {
      throw FieldError(child_path(child_path(path, low_key), name),
                       percent_text(value) + " is above the " + high_key + " value " + percent_text(it->second));
    }
  }
  for (const auto& entry : high) {
    if (!low.count(entry.first)) {
      throw FieldError(child_path(path, low_key), "resource " + entry.first + " is in " + high_key + " but not here");
    }
  }
}

void validate(const LoadThresholds& t, const std::string& path) {
  check_pair(t.low, t.high, t.use_deviation, path, "lowThresholds", "highThresholds");
  check_pair(t.prod_low, t.prod_high, t.use_deviation, path, "prodLowThresholds", "prodHighThresholds");
}

/// SetDefaults_LowNodeLoadArgs: cpu and memory weigh 1, so does every
/// threshold resource; non-positive weights take those defaults.
ResourceWeights defaulted_weights(const LoadThresholds& t) {
  ResourceWeights defaults = {{"cpu", 1}, {"memory", 1}};
  for (const auto* map : {&t.low, &t.high, &t.prod_low, &t.prod_high}) {
    for (const auto& entry : *map) defaults[entry.first] = 1;
  }
  ResourceWeights out = t.weights;
  for (const auto& [name, weight] : defaults) {
    if (out[name] <= 0) out[name] = weight;
  }
  return out;
}

LoadThresholds read_load_thresholds(const YAML::Node& node, const std::string& path, const LoadThresholds& inherited) {
  LoadThresholds t = inherited;
  if (auto v = read_field<bool>(node, path, "useDeviationThresholds", config::read_bool)) t.use_deviation = *v;
  if (auto v = read_field<ResourceThresholds>(node, path, "highThresholds", read_thresholds)) t.high = *v;
  if (auto v = read_field<ResourceThresholds>(node, path, "lowThresholds", read_thresholds)) t.low = *v;
  if (auto v = read_field<ResourceThresholds>(node, path, "prodHighThresholds", read_thresholds)) t.prod_high = *v;
  if (auto v = read_field<ResourceThresholds>(node, path, "prodLowThresholds", read_thresholds)) t.prod_low = *v;
  if (auto v = read_field<ResourceWeights>(node, path, "resourceWeights", read_weights)) t.weights = *v;
  if (auto v = read_field<AnomalyCondition>(node, path, "anomalyCondition", read_anomaly)) t.anomaly = *v;
  return t;
}

NodePoolSpec read_pool(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  config::reject_unknown_fields(node, path,
                                {"name", "nodeSelector", "useDeviationThresholds", "highThresholds", "lowThresholds",
                                 "prodHighThresholds", "prodLowThresholds", "resourceWeights", "anomalyCondition"});
  NodePoolSpec pool;
  config::read_optional(node, path, "name", pool.name);
  pool.node_selector = read_field<LabelSelector>(node, path, "nodeSelector", config::read_label_selector);
  pool.use_deviation = read_field<bool>(node, path, "useDeviationThresholds", config::read_bool);
  pool.high = read_field<ResourceThresholds>(node, path, "highThresholds", read_thresholds);
  pool.low = read_field<ResourceThresholds>(node, path, "lowThresholds", read_thresholds);
  pool.prod_high = read_field<ResourceThresholds>(node, path, "prodHighThresholds", read_thresholds);
  pool.prod_low = read_field<ResourceThresholds>(node, path, "prodLowThresholds", read_thresholds);
  pool.weights = read_field<ResourceWeights>(node, path, "resourceWeights", read_weights);
  pool.anomaly = read_field<AnomalyCondition>(node, path, "anomalyCondition", read_anomaly);
  return pool;
}

LoadThresholds resolve_pool(const NodePoolSpec& pool, const LoadThresholds& top) {
  LoadThresholds t = top;
  if (pool.use_deviation) t.use_deviation = *pool.use_deviation;
  if (pool.high) t.high = *pool.high;
  if (pool.low) t.low = *pool.low;
  if (pool.prod_high) t.prod_high = *pool.prod_high;
  if (pool.prod_low) t.prod_low = *pool.prod_low;
  if (pool.weights) t.weights = *pool.weights;
  if (pool.anomaly) t.anomaly = *pool.anomaly;
  t.weights = defaulted_weights(t);
  return t;
}

std::vector<PodSelector> read_pod_selectors(const YAML::Node& node, const std::string& path) {
  std::vector<PodSelector> out;
  if (is_absent(node)) return out;
  config::expect_sequence(node, path);
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string item = index_path(path, i);
    config::expect_map(node[i], item);
    config::reject_unknown_fields(node[i], item, {"name", "selector"});
    PodSelector selector;
    config::read_optional(node[i], item, "name", selector.name);
    if (is_absent(node[i]["selector"])) throw FieldError(child_path(item, "selector"), "is required");
    selector.selector = config::read_label_selector(node[i]["selector"], child_path(item, "selector"));
    out.push_back(std::move(selector));
  }
  return out;
}

}  // namespace

std::vector<NodePool> LowNodeLoadArgs::pools() const {
  std::vector<NodePool> out;
  if (node_pools.empty()) {
    out.push_back({"", std::nullopt, resolve_pool(NodePoolSpec{}, thresholds)});
    return out;
  }
  for (const NodePoolSpec& spec : node_pools) out.push_back({spec.name, spec.node_selector, resolve_pool(spec, thresholds)});
  return out;
}

std::chrono::nanoseconds LowNodeLoadArgs::effective_detector_cache_timeout(std::chrono::nanoseconds interval) const {
  return std::max(detector_cache_timeout, interval);
}

LowNodeLoadArgs LowNodeLoadArgs::from_yaml(const YAML::Node& args) {
  LowNodeLoadArgs out;
  if (is_absent(args)) return out;
  const std::string path;
  config::expect_map(args, path);
  config::reject_unknown_fields(
      args, path,
      {"paused", "dryRun", "numberOfNodes", "nodeMetricExpirationSeconds", "evictableNamespaces", "nodeSelector",
       "podSelectors", "nodeFit", "useDeviationThresholds", "highThresholds", "lowThresholds", "prodHighThresholds",
       "prodLowThresholds", "resourceWeights", "anomalyCondition", "detectorCacheTimeout", "nodePools"});
  config::read_optional(args, path, "paused", out.paused);
  config::read_optional(args, path, "dryRun", out.dry_run);
  config::read_optional(args, path, "numberOfNodes", out.number_of_nodes);
  if (out.number_of_nodes < 0) throw FieldError("numberOfNodes", "must not be negative");
  config::read_optional(args, path, "nodeMetricExpirationSeconds", out.node_metric_expiration_seconds);
  if (out.node_metric_expiration_seconds < 0) throw FieldError("nodeMetricExpirationSeconds", "must not be negative");
  if (!is_absent(args["evictableNamespaces"])) {
    out.evictable_namespaces = read_namespaces(args["evictableNamespaces"], "evictableNamespaces");
  }
  out.node_selector = read_field<LabelSelector>(args, path, "nodeSelector", config::read_label_selector);
  out.pod_selectors = read_pod_selectors(args["podSelectors"], "podSelectors");
  config::read_optional(args, path, "nodeFit", out.node_fit);
  out.thresholds = read_load_thresholds(args, path, LoadThresholds{});
  validate(out.thresholds, path);
  config::read_optional(args, path, "detectorCacheTimeout", out.detector_cache_timeout);
  const YAML::Node pools = args["nodePools"];
  if (!is_absent(pools)) {
    config::expect_sequence(pools, "nodePools");
    for (size_t i = 0; i < pools.size(); ++i) {
      const std::string pool_path = index_path("nodePools", i);
      out.node_pools.push_back(read_pool(pools[i], pool_path));
      if (out.node_pools.back().name.empty()) throw FieldError(child_path(pool_path, "name"), "must not be empty");
      validate(resolve_pool(out.node_pools.back(), out.thresholds), pool_path);
    }
  }
  out.thresholds.weights = defaulted_weights(out.thresholds);
  return out;
}

Result<LowNodeLoadArgs> decode_low_node_load_args(const YAML::Node& args) {
  LowNodeLoadArgs out;
  Status status = config::catch_field_errors([&] { out = LowNodeLoadArgs::from_yaml(args); });
  if (!status) return Error{status.message()};
  return out;
}

}  // namespace troupe::plugins::descheduler
