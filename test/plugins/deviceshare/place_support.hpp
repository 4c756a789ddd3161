#pragma once
// One pod through DeviceShare in the framework's order, for the scoring tests:
// raw_score() runs PreFilter then Score; place() runs PreFilter, assumes the
// pod on the node, then Reserve, and says which cards the pod got.

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <vector>

#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::deviceshare::testing {

/// DeviceShare's raw Score of the pod on the node. `state` is the cycle's.
inline int64_t raw_score(const DeviceShare& plugin, const NodeInfo& node, const std::shared_ptr<const PodInfo>& pod,
                         CycleState state = CycleState()) {
  PreFilterResult pre;
  const PluginStatus status = plugin.pre_filter(state, *pod, pre);
  REQUIRE((status.ok() || status.is_skip()));
  return plugin.score(state, *pod, node).score;
}

/// The GPU minors the pod got. `state` is the cycle's (e.g. with a learned snapshot shared into it).
inline std::vector<int32_t> place(const DeviceShare& plugin, NodeInfo& node, const std::shared_ptr<const PodInfo>& pod,
                                  CycleState state = CycleState()) {
  PreFilterResult pre;
  REQUIRE(plugin.pre_filter(state, *pod, pre).ok());
  REQUIRE(node.add_pod(pod));
  REQUIRE(plugin.reserve(state, *pod, node).ok());
  std::vector<int32_t> minors;
  const DeviceShareState* s = plugin.read_state(state);
  if (s != nullptr && s->allocated && s->allocated->count("gpu") != 0)
    for (const auto& a : s->allocated->at("gpu")) minors.push_back(a.minor);
  return minors;
}

}  // namespace troupe::plugins::deviceshare::testing
