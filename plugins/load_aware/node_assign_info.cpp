#include "plugins/load_aware/node_assign_info.hpp"

#include <algorithm>

#include "model/json.hpp"
#include "model/pod.hpp"
#include "plugins/deviceshare/go_json.hpp"
#include "plugins/load_aware/node_load_state.hpp"
#include "plugins/load_aware/node_usage.hpp"

namespace troupe::plugins::load_aware {

namespace {

using deviceshare::go_json_string;

/// A sum as a ResourceList: cpu in millicores, memory in bytes, others in units.
std::string resource_list_json(const LoadVector& amounts, const LoadAxes& axes) {
  std::string out = "{";
  for (size_t i = 0; i < axes.size(); ++i) {
    const std::string& name = axes.names[i];
    const Quantity q = name == "cpu"      ? Quantity::from_milli(amounts[i])
                       : name == "memory" ? Quantity::from_value(amounts[i], Quantity::Format::binary_si)
                                          : Quantity::from_value(amounts[i]);
    if (out.size() > 1) out += ',';
    out += go_json_string(name) + ":" + go_json_string(q.to_string());
  }
  return out + "}";
}

std::string keys_json(std::vector<std::string> keys) {
  std::sort(keys.begin(), keys.end());
  std::string out = "[";
  for (const std::string& key : keys) {
    if (out.size() > 1) out += ',';
    out += go_json_string(key);
  }
  return out + "]";
}

/// The node's pods with the time each estimate counts from.
std::string pods_json(const NodeInfo& node, const NodeLoadState& state) {
  std::string out = "[";
  for (const NodeLoadState::Pod& entry : state.pods()) {
    const auto& pods = node.pods();
    auto info = std::find_if(pods.begin(), pods.end(),
                             [&](const auto& p) { return p->meta().uid == entry.pod->identity; });
    if (info == pods.end()) continue;
    const Pod& pod = *(*info)->pod;
    if (out.size() > 1) out += ',';
    out += "{\"timestamp\":" + go_json_string(format_timestamp(entry.pod->scheduled)) +
           ",\"pod\":" + (pod.raw ? to_json(*pod.raw) : encode(pod)) + "}";
  }
  return out + "]";
}

void add_field(std::string& out, const char* key, const std::string& value, bool present) {
  if (!present) return;
  if (out.size() > 1) out += ',';
  out += std::string("\"") + key + "\":" + value;
}

}  // namespace

std::string node_assign_info_json(const NodeInfo& node, const LoadEstimator& estimator,
                                  const LoadAwareSchedulingArgs& args) {
  const auto* state = node.extension<NodeLoadState>(NodeExtensionSlot::kLoad);
  if (state == nullptr || node.node() == nullptr) return "{}";
  std::string out = "{";
  add_field(out, "pods", pods_json(node, *state), !state->pods().empty());
  if (state->metric() != nullptr) {
    UsagePods counted;
    const UsageEstimates sums = estimate_usage(*node.node(), *state, estimator, args, &counted);
    const LoadAxes& axes = estimator.axes();
    add_field(out, "prodUsage", resource_list_json(sums.prod_usage, axes), sums.prod_usage.present);
    add_field(out, "nodeDelta", resource_list_json(sums.node_delta, axes), sums.node_delta.present);
    add_field(out, "prodDelta", resource_list_json(sums.prod_delta, axes), sums.prod_delta.present);
    add_field(out, "nodeEstimated", resource_list_json(sums.node_estimated, axes), sums.node_estimated.present);
    add_field(out, "nodeDeltaPods", keys_json(counted.node_delta), !counted.node_delta.empty());
    add_field(out, "prodDeltaPods", keys_json(counted.prod_delta), !counted.prod_delta.empty());
    add_field(out, "nodeEstimatedPods", keys_json(counted.node_estimated), !counted.node_estimated.empty());
  }
  return out + "}";
}

}  // namespace troupe::plugins::load_aware
