#include "plugins/descheduler/eviction_limits.hpp"

namespace troupe::plugins::descheduler {

namespace {

uint32_t count_in(const std::map<std::string, uint32_t>& counts, const std::string& key) {
  auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

}  // namespace

bool EvictionLimits::node_reached(const std::string& node) const {
  return per_node_ && count_in(by_node_, node) >= *per_node_;
}

std::optional<std::string> EvictionLimits::refusal(const std::string& node, const std::string& ns) const {
  if (total_reached()) return "maxNoOfPodsToEvictTotal (" + std::to_string(*total_) + ") reached";
  if (node_reached(node)) return "maxNoOfPodsToEvictPerNode (" + std::to_string(*per_node_) + ") reached on node " + node;
  if (per_namespace_ && count_in(by_namespace_, ns) >= *per_namespace_) {
    return "maxNoOfPodsToEvictPerNamespace (" + std::to_string(*per_namespace_) + ") reached in namespace " + ns;
  }
  return std::nullopt;
}

void EvictionLimits::record(const std::string& node, const std::string& ns) {
  ++evicted_;
  ++by_node_[node];
  ++by_namespace_[ns];
}

}  // namespace troupe::plugins::descheduler
