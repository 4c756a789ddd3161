#pragma once
// LowNodeLoadArgs (Koordinator pkg/descheduler/apis/config/v1alpha2
// types_loadaware.go, defaults.go, validation), decoded from pluginConfig
// YAML with field-named errors. Percentages are numbers in [0, 100].
//
//   paused: false
//   dryRun: false
//   numberOfNodes: 0                 # act only when more nodes than this are low
//   nodeMetricExpirationSeconds: 180
//   evictableNamespaces: {include: [...]} | {exclude: [...]}
//   nodeSelector: {matchLabels: {...}}
//   podSelectors: [{name: web, selector: {matchLabels: {app: web}}}]
//   nodeFit: true
//   useDeviationThresholds: false
//   highThresholds: {cpu: 70, memory: 80}
//   lowThresholds: {cpu: 45, memory: 50}
//   prodHighThresholds: {...}
//   prodLowThresholds: {...}
//   resourceWeights: {cpu: 1, memory: 1}   # non-positive -> 1; threshold resources added with 1
//   anomalyCondition: {timeout: 1m, consecutiveAbnormalities: 5, consecutiveNormalities: 3}
//   detectorCacheTimeout: 5m
//   nodePools: [{name, nodeSelector, useDeviationThresholds, highThresholds, lowThresholds,
//                prodHighThresholds, prodLowThresholds, resourceWeights, anomalyCondition}]
//
// A pool inherits every field it leaves unset from the top level.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/label_selector.hpp"
#include "model/result.hpp"
#include "plugins/descheduler/evictor_args.hpp"

namespace troupe::plugins::descheduler {

/// Resource name -> percent of (raw) allocatable.
using ResourceThresholds = std::map<std::string, double>;
using ResourceWeights = std::map<std::string, int64_t>;

struct AnomalyCondition {
  std::chrono::nanoseconds timeout = std::chrono::minutes(1);
  /// A node acts only after more than this many consecutive hot rounds; 1
  /// (or 0 after defaulting never happens: 0 becomes 5) acts at once.
  int64_t consecutive_abnormalities = 5;
  int64_t consecutive_normalities = 3;
};

struct PodSelector {
  std::string name;
  LabelSelector selector;
};

/// Thresholds, weights and anomaly rules of one node pool.
struct LoadThresholds {
  bool use_deviation = false;
  ResourceThresholds high, low, prod_high, prod_low;
  ResourceWeights weights;
  AnomalyCondition anomaly;
};

/// A pool as written: unset fields inherit from the top level.
struct NodePoolSpec {
  std::string name;
  std::optional<LabelSelector> node_selector;
  std::optional<bool> use_deviation;
  std::optional<ResourceThresholds> high, low, prod_high, prod_low;
  std::optional<ResourceWeights> weights;
  std::optional<AnomalyCondition> anomaly;
};

/// A pool ready to balance.
struct NodePool {
  std::string name;
  std::optional<LabelSelector> node_selector;
  LoadThresholds thresholds;
};

struct LowNodeLoadArgs {
  bool paused = false;
  bool dry_run = false;
  int64_t number_of_nodes = 0;
  int64_t node_metric_expiration_seconds = 180;
  std::optional<Namespaces> evictable_namespaces;
  std::optional<LabelSelector> node_selector;
  std::vector<PodSelector> pod_selectors;
  bool node_fit = true;
  LoadThresholds thresholds;
  std::chrono::nanoseconds detector_cache_timeout = std::chrono::minutes(5);
  std::vector<NodePoolSpec> node_pools;

  /// The pools to balance: the top level alone when no nodePools are given.
  std::vector<NodePool> pools() const;
  /// detectorCacheTimeout raised to the descheduling interval when smaller.
  std::chrono::nanoseconds effective_detector_cache_timeout(std::chrono::nanoseconds interval) const;

  /// Throws config::FieldError naming the field.
  static LowNodeLoadArgs from_yaml(const YAML::Node& args);
};

/// from_yaml as a Result (for the plugin factory and tests).
Result<LowNodeLoadArgs> decode_low_node_load_args(const YAML::Node& args);

}  // namespace troupe::plugins::descheduler
