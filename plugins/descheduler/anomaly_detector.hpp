#pragma once
// Per-node anomaly detectors kept between LowNodeLoad rounds (Koordinator
// pkg/descheduler/utils/anomaly BasicDetector in a go-cache): a hot node is
// acted on only after more than `consecutiveAbnormalities` hot rounds in a
// row; it then stays anomalous for `timeout` (or until marked normal), and
// a detector nobody touched for the cache timeout is dropped. Time is
// passed in, so rounds are reproducible in tests.

#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "model/timestamp.hpp"
#include "plugins/descheduler/low_node_load_args.hpp"

namespace troupe::plugins::descheduler {

class AnomalyDetectors {
 public:
  struct Detector {
    bool anomalous = false;
    int64_t consecutive_abnormalities = 0;
    int64_t consecutive_normalities = 0;
    Timestamp anomaly_expires{};  // when an anomaly falls back to normal
    Timestamp last_set{};         // for the cache timeout
  };

  /// Records a hot round for `node` (creating its detector) and says
  /// whether the node is now anomalous, i.e. to be acted on.
  bool mark_abnormal(const std::string& node, const AnomalyCondition& condition, Timestamp now);
  /// Records a calm round; an anomalous node becomes normal with cleared
  /// counters. Nodes without a detector are left alone.
  void mark_normal(const std::string& node, Timestamp now);
  /// Clears a node's counters and state (the node is low).
  void reset(const std::string& node);
  /// Drops detectors not marked abnormal within `cache_timeout` of `now`.
  void expire(Timestamp now, std::chrono::nanoseconds cache_timeout);

  const Detector* find(const std::string& node) const;
  size_t size() const { return detectors_.size(); }

 private:
  /// An anomaly whose time is up becomes normal again (currentState).
  static void settle(Detector& detector, Timestamp now);

  std::unordered_map<std::string, Detector> detectors_;
};

}  // namespace troupe::plugins::descheduler
