#include "plugins/descheduler/node_load.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_set>

#include "plugins/common/raw_allocatable.hpp"
#include "plugins/descheduler/pod_classes.hpp"

namespace troupe::plugins::descheduler {

ResourceAxes axes_for(const LoadThresholds& thresholds) {
  std::set<std::string> names = {"memory"};
  for (const auto* map : {&thresholds.low, &thresholds.high, &thresholds.prod_low, &thresholds.prod_high}) {
    for (const auto& entry : *map) names.insert(entry.first);
  }
  return ResourceAxes{std::vector<std::string>(names.begin(), names.end())};
}

Amounts amounts_of(const ResourceAxes& axes, const ResourceList& list) {
  // A merge of two sorted lists rather than a map lookup per axis: this
  // reads every node's allocatable and every candidate pod's metric.
  Amounts out(axes.size(), 0);
  add_amounts(axes, list, out);
  return out;
}

void add_amounts(const ResourceAxes& axes, const ResourceList& list, Amounts& into) {
  // Lists are short and sorted like the axes: one merge pass, no allocation
  // (this runs once per pod metric, the bulk of a cycle on a large cluster).
  auto it = list.begin();
  for (size_t i = 0; i < axes.size() && it != list.end(); ++i) {
    int order = -1;  // one string comparison per step: list entry vs axis name
    while (it != list.end() && (order = it->first.str().compare(axes.names[i])) < 0) ++it;
    if (order == 0) into[i] += amount_of(axes.names[i], it->second);
  }
}

namespace {

/// As a std::string once: ObjectMeta's lookup takes one, and building it
/// from the constant allocated for every node of every cycle.
const std::string kRawAllocatableKey = kAnnotationRawAllocatable;

}  // namespace

ResourceList raw_allocatable(const Node& node) {
  auto raw = parse_raw_allocatable(node);
  return raw ? std::move(*raw) : node.status.allocatable;
}

bool metric_expired(const NodeMetric& metric, int64_t expiration_seconds, Timestamp now) {
  if (!metric.update_time) return true;
  return expiration_seconds > 0 && now - *metric.update_time >= std::chrono::seconds(expiration_seconds);
}

std::string pod_key(const std::string& ns, const std::string& name) { return ns + "/" + name; }

UsageTotals pod_usage_totals(const NodeMetric& metric) {
  std::map<std::string, int64_t, std::less<>> sums;
  for (const PodMetricInfo& pod : metric.pods_metric) {
    for (const auto& [name, quantity] : pod.pod_usage.resources) sums[name] += amount_of(name, quantity);
  }
  return UsageTotals(sums.begin(), sums.end());
}

const char* to_string(NodeClass node_class) {
  switch (node_class) {
    case NodeClass::low: return "low";
    case NodeClass::both_low: return "both-low";
    case NodeClass::prod_low: return "prod-low";
    case NodeClass::high: return "high";
    case NodeClass::prod_high: return "prod-high";
    case NodeClass::appropriate: return "appropriate";
  }
  return "?";
}

bool over_any(const Amounts& usage, const Amounts& threshold) {
  for (size_t i = 0; i < usage.size(); ++i) {
    if (usage[i] > threshold[i]) return true;
  }
  return false;
}

bool under_all(const Amounts& usage, const Amounts& threshold) { return !over_any(usage, threshold); }

namespace {

/// raw_allocatable's amounts without copying status.allocatable (the usual case).
Amounts capacity_amounts(const ResourceAxes& axes, const Node& node) {
  if (!node.meta.annotation(kRawAllocatableKey)) return amounts_of(axes, node.status.allocatable);
  return amounts_of(axes, raw_allocatable(node));
}

/// Adds the totals of the axes' resources (both lists sorted by name).
void add_totals(const ResourceAxes& axes, const UsageTotals& totals, Amounts& into) {
  auto it = totals.begin();
  for (size_t i = 0; i < axes.size() && it != totals.end(); ++i) {
    while (it != totals.end() && it->first < axes.names[i]) ++it;
    if (it != totals.end() && it->first == axes.names[i]) into[i] += it->second;
  }
}

/// System usage plus every pod's usage. A metric that reports neither
/// (only nodeUsage) falls back to nodeUsage, so such nodes are not read as idle.
Amounts measured_usage(const ResourceAxes& axes, const NodeLoadInput& input) {
  const NodeMetric& metric = *input.metric;
  const NodeMetricInfo& info = *metric.node_metric;
  Amounts usage = amounts_of(axes, info.system_usage.resources);
  if (input.pod_totals) {
    add_totals(axes, *input.pod_totals, usage);
  } else {
    for (const PodMetricInfo& pod : metric.pods_metric) add_amounts(axes, pod.pod_usage.resources, usage);
  }
  if (info.system_usage.resources.empty() && metric.pods_metric.empty()) {
    usage = amounts_of(axes, info.node_usage.resources);
  }
  return usage;
}

Amounts measured_prod_usage(const ResourceAxes& axes, const NodeLoadInput& input) {
  std::unordered_set<std::string> prod_pods;
  for (const auto& pod : input.pods) {
    if (koord_priority_class(*pod) == KoordPriorityClass::prod) {
      prod_pods.insert(pod_key(pod->meta.namespace_name, pod->meta.name));
    }
  }
  Amounts usage(axes.size(), 0);
  for (const PodMetricInfo& pod : input.metric->pods_metric) {
    if (!prod_pods.count(pod_key(pod.namespace_name, pod.name))) continue;
    add_amounts(axes, pod.pod_usage.resources, usage);
  }
  return usage;
}

/// "pods" counts pods rather than reading the metric.
void count_pods(const ResourceAxes& axes, const NodeLoadInput& input, NodeLoad& load) {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (std::string_view(axes.names[i]) != "pods") continue;
    load.usage[i] = static_cast<int64_t>(input.pods.size());
    int64_t prod = 0;
    for (const auto& pod : input.pods) prod += koord_priority_class(*pod) == KoordPriorityClass::prod;
    load.prod_usage[i] = prod;
  }
}

int64_t fraction(double percent, int64_t capacity) { return static_cast<int64_t>(percent * 0.01 * static_cast<double>(capacity)); }

double percent_or(const ResourceThresholds& map, const std::string& name, double fallback) {
  auto it = map.find(name);
  return it == map.end() ? fallback : it->second;
}

/// Mean usage percent per axis over the pool (nodes with zero capacity add
/// nothing but still count in the divisor, as Koordinator averages).
std::vector<double> mean_percent(const std::vector<NodeLoad>& loads, bool prod) {
  if (loads.empty()) return {};
  std::vector<double> sum(loads.front().capacity.size(), 0.0);
  for (const NodeLoad& load : loads) {
    const Amounts& used = prod ? load.prod_usage : load.usage;
    for (size_t i = 0; i < sum.size(); ++i) {
      if (load.capacity[i] != 0) sum[i] += static_cast<double>(used[i]) / static_cast<double>(load.capacity[i]) * 100.0;
    }
  }
  for (double& s : sum) s /= static_cast<double>(loads.size());
  return sum;
}

/// The four threshold percentages per axis, looked up once per pool rather
/// than once per node.
struct AxisPercents {
  std::vector<double> low, high, prod_low, prod_high;
};

AxisPercents axis_percents(const ResourceAxes& axes, const LoadThresholds& t, double fallback) {
  AxisPercents out;
  for (const std::string& name : axes.names) {
    out.low.push_back(percent_or(t.low, name, fallback));
    out.high.push_back(percent_or(t.high, name, fallback));
    out.prod_low.push_back(percent_or(t.prod_low, name, fallback));
    out.prod_high.push_back(percent_or(t.prod_high, name, fallback));
  }
  return out;
}

void set_fixed_thresholds(const AxisPercents& p, NodeLoad& load) {
  for (size_t i = 0; i < load.capacity.size(); ++i) {
    load.low[i] = fraction(p.low[i], load.capacity[i]);
    load.high[i] = fraction(p.high[i], load.capacity[i]);
    load.prod_low[i] = fraction(p.prod_low[i], load.capacity[i]);
    load.prod_high[i] = fraction(p.prod_high[i], load.capacity[i]);
  }
}

/// low = mean - low%, high = mean + high% (clamped to 0..100); a resource
/// whose low deviation is 0 is not balanced (both thresholds = capacity).
void set_deviation_pair(double mean, double low_pct, double high_pct, int64_t capacity, int64_t& low, int64_t& high) {
  if (low_pct == 0) {
    low = high = capacity;
    return;
  }
  low = fraction(std::clamp(mean - low_pct, 0.0, 100.0), capacity);
  high = fraction(std::clamp(mean + high_pct, 0.0, 100.0), capacity);
}

void set_deviation_thresholds(const AxisPercents& p, const std::vector<double>& mean,
                              const std::vector<double>& prod_mean, NodeLoad& load) {
  for (size_t i = 0; i < load.capacity.size(); ++i) {
    set_deviation_pair(mean[i], p.low[i], p.high[i], load.capacity[i], load.low[i], load.high[i]);
    set_deviation_pair(prod_mean[i], p.prod_low[i], p.prod_high[i], load.capacity[i], load.prod_low[i],
                       load.prod_high[i]);
  }
}

NodeClass classify(const NodeLoad& load) {
  const bool low = !load.input->node->spec.unschedulable && under_all(load.usage, load.low);
  const bool prod_high = over_any(load.prod_usage, load.prod_high);
  const bool prod_low = under_all(load.prod_usage, load.prod_low);
  if (low) return prod_high ? NodeClass::prod_high : prod_low ? NodeClass::both_low : NodeClass::low;
  if (over_any(load.usage, load.high)) return NodeClass::high;
  return prod_high ? NodeClass::prod_high : prod_low ? NodeClass::prod_low : NodeClass::appropriate;
}

}  // namespace

std::vector<NodeLoad> measure_nodes(const std::vector<const NodeLoadInput*>& nodes, const ResourceAxes& axes,
                                    const LoadThresholds& thresholds, int64_t expiration_seconds, Timestamp now,
                                    bool with_prod) {
  std::vector<NodeLoad> loads;
  loads.reserve(nodes.size());
  for (const NodeLoadInput* input : nodes) {
    if (!input->node || !input->metric || !input->metric->node_metric) continue;
    if (metric_expired(*input->metric, expiration_seconds, now)) continue;
    NodeLoad load;
    load.input = input;
    load.capacity = capacity_amounts(axes, *input->node);
    load.usage = measured_usage(axes, *input);
    load.prod_usage = with_prod ? measured_prod_usage(axes, *input) : Amounts(axes.size(), 0);
    count_pods(axes, *input, load);
    load.low = load.high = load.prod_low = load.prod_high = Amounts(axes.size(), 0);
    loads.push_back(std::move(load));
  }
  if (thresholds.use_deviation) {
    const auto mean = mean_percent(loads, false);
    const auto prod_mean = mean_percent(loads, true);
    const AxisPercents percents = axis_percents(axes, thresholds, 0);
    for (NodeLoad& load : loads) set_deviation_thresholds(percents, mean, prod_mean, load);
  } else {
    const AxisPercents percents = axis_percents(axes, thresholds, 100);
    for (NodeLoad& load : loads) set_fixed_thresholds(percents, load);
  }
  for (NodeLoad& load : loads) load.node_class = classify(load);
  return loads;
}

}  // namespace troupe::plugins::descheduler
