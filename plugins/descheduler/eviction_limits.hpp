#pragma once
// The descheduler's per-cycle eviction counters (maxNoOfPodsToEvictPerNode,
// maxNoOfPodsToEvictPerNamespace, maxNoOfPodsToEvictTotal): every plugin of
// a cycle shares one EvictionLimits, created fresh at the start of it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace troupe::plugins::descheduler {

class EvictionLimits {
 public:
  EvictionLimits() = default;
  EvictionLimits(std::optional<uint32_t> per_node, std::optional<uint32_t> per_namespace, std::optional<uint32_t> total)
      : per_node_(per_node), per_namespace_(per_namespace), total_(total) {}

  /// Why one more eviction from `node` in `ns` is not allowed, or nullopt.
  std::optional<std::string> refusal(const std::string& node, const std::string& ns) const;
  bool total_reached() const { return total_ && evicted_ >= *total_; }
  bool node_reached(const std::string& node) const;
  /// Counts one eviction.
  void record(const std::string& node, const std::string& ns);
  uint32_t evicted() const { return evicted_; }
  /// Evictions maxNoOfPodsToEvictTotal still allows this cycle; nullopt = no limit.
  std::optional<uint32_t> total_left() const {
    if (!total_) return std::nullopt;
    return evicted_ >= *total_ ? 0 : *total_ - evicted_;
  }

 private:
  std::optional<uint32_t> per_node_, per_namespace_, total_;
  uint32_t evicted_ = 0;
  std::map<std::string, uint32_t> by_node_, by_namespace_;
};

}  // namespace troupe::plugins::descheduler
