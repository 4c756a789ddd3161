#pragma once
// One node's measured load against its thresholds, as LowNodeLoad sees it
// (Koordinator loadaware/utilization_util.go): usage from NodeMetric
// (system usage plus every pod's usage), prod usage (pods of priority class
// koord-prod), and the low/high thresholds turned from percentages into
// amounts of the node's raw allocatable. Amounts are int64 in the unit
// Koordinator compares: millicores for cpu, whole units otherwise.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/node.hpp"
#include "model/node_metric.hpp"
#include "model/pod.hpp"
#include "model/timestamp.hpp"
#include "plugins/common/raw_allocatable.hpp"
#include "plugins/common/resource_amount.hpp"
#include "plugins/descheduler/amounts.hpp"
#include "plugins/descheduler/low_node_load_args.hpp"

namespace troupe::plugins::descheduler {

/// Per resource name (sorted), the sum over a NodeMetric's podsMetric of
/// each pod's usage in LowNodeLoad's units (amount_of, rounded per pod as
/// the per-pod sum rounds).
using UsageTotals = std::vector<std::pair<std::string, int64_t>>;

/// Computed once when a NodeMetric arrives (the migration view does), so
/// that a cycle reads one short list per node instead of every pod's metric.
UsageTotals pod_usage_totals(const NodeMetric& metric);

/// A node as LowNodeLoad is given it.
struct NodeLoadInput {
  std::shared_ptr<const Node> node;
  std::vector<std::shared_ptr<const Pod>> pods;  // pods bound to the node
  std::shared_ptr<const NodeMetric> metric;      // nullptr: none reported
  /// pod_usage_totals(*metric) when the caller keeps it; nullptr: summed here.
  std::shared_ptr<const UsageTotals> pod_totals;
  /// The summed requests of `pods` when the caller keeps them (the migration
  /// view does, as pods come and go), valid for the plan; nullptr: nodeFit
  /// sums them when the node is first tried as a target.
  const ResourceList* requested = nullptr;
};

/// The balanced resources in a fixed order (names sorted), memory always in.
struct ResourceAxes {
  std::vector<std::string> names;
  size_t size() const { return names.size(); }
};

/// Every resource named by a pool's thresholds, plus memory.
ResourceAxes axes_for(const LoadThresholds& thresholds);

/// One amount per axis from a ResourceList (absent = 0).
Amounts amounts_of(const ResourceAxes& axes, const ResourceList& list);

/// Adds a ResourceList's amounts to `into` (one per axis; names sorted as
/// axes_for sorts them).
void add_amounts(const ResourceAxes& axes, const ResourceList& list, Amounts& into);

/// The raw-allocatable annotation (a JSON ResourceList) when present and
/// valid, else status.allocatable (cpu normalisation inflates allocatable).
ResourceList raw_allocatable(const Node& node);

/// No updateTime, or older than `expiration_seconds` (0 = never expires).
bool metric_expired(const NodeMetric& metric, int64_t expiration_seconds, Timestamp now);

/// "namespace/name".
std::string pod_key(const std::string& ns, const std::string& name);

enum class NodeClass {
  low,          // under every low threshold, prod usage in range
  both_low,     // under the low thresholds for node and prod usage
  prod_low,     // node usage in range, prod usage low
  high,         // some node usage above its high threshold
  prod_high,    // node usage not high, some prod usage above prod high
  appropriate,  // in range
};
const char* to_string(NodeClass node_class);

struct NodeLoad {
  const NodeLoadInput* input = nullptr;
  Amounts capacity, usage, prod_usage;
  Amounts low, high, prod_low, prod_high;
  NodeClass node_class = NodeClass::appropriate;

  const std::string& name() const { return input->node->meta.name; }
};

/// Loads for the nodes with a fresh metric (others are skipped, as
/// Koordinator skips them), thresholds included (deviation thresholds use
/// the pool's mean usage percent), classified. `with_prod` off skips the
/// prod usage sums (no prod thresholds configured: prod usage never matters).
std::vector<NodeLoad> measure_nodes(const std::vector<const NodeLoadInput*>& nodes, const ResourceAxes& axes,
                                    const LoadThresholds& thresholds, int64_t expiration_seconds, Timestamp now,
                                    bool with_prod);

/// Some amount strictly above its threshold.
bool over_any(const Amounts& usage, const Amounts& threshold);
/// Every amount at or below its threshold.
bool under_all(const Amounts& usage, const Amounts& threshold);

}  // namespace troupe::plugins::descheduler
