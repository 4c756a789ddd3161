#pragma once
// The "0/5 nodes are available: ..." message of a pod no node could take
// (kube-scheduler's FitError.Error(), framework/types.go), the per-reason
// counts it is built from, and how many feasible nodes a cycle looks for
// (numFeasibleNodesToFind, schedule_one.go).

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "plugins/framework/status.hpp"

namespace troupe::plugins {

/// Counts each rejection reason once per node that gave it; partitions fill
/// their own and the cycle merges them.
///
/// It remembers the entries it counted last: the nodes a partition rejects
/// mostly give the same reason and plugin one after the other, so most adds
/// compare one string instead of searching the map and the set. Copies and
/// moves start without that memory (it points into the source's map).
class FailureHistogram {
 public:
  FailureHistogram() = default;
  FailureHistogram(const FailureHistogram& other);
  FailureHistogram(FailureHistogram&& other) noexcept;
  FailureHistogram& operator=(const FailureHistogram& other);
  FailureHistogram& operator=(FailureHistogram&& other) noexcept;
  ~FailureHistogram() = default;

  /// Counts every reason of a rejected node and remembers its plugin.
  void add(const PluginStatus& status);
  /// Counts one reason for `nodes` nodes at once (e.g. nodes a PreFilter excluded).
  void add_reason(const std::string& reason, int64_t nodes, const std::string& plugin = {});
  void merge(const FailureHistogram& other);

  const std::map<std::string, int64_t>& counts() const { return counts_; }
  /// Plugins that rejected at least one node: the queue requeues the pod on
  /// the cluster events these plugins registered.
  const std::set<std::string>& plugins() const { return plugins_; }
  int64_t rejected_nodes() const { return rejected_nodes_; }

 private:
  void count(const std::string& reason, int64_t nodes);
  void note_plugin(const std::string& plugin);
  void forget_last() {
    last_count_ = nullptr;
    last_plugin_ = nullptr;
  }

  std::map<std::string, int64_t> counts_;
  std::set<std::string> plugins_;
  int64_t rejected_nodes_ = 0;
  std::pair<const std::string, int64_t>* last_count_ = nullptr;  // an entry of counts_
  const std::string* last_plugin_ = nullptr;                       // an element of plugins_
};

/// kube-scheduler's ErrNoNodesAvailable: the message when the cluster has no node at all.
inline constexpr const char* kNoNodesAvailableMessage = "no nodes available to schedule pods";

/// "0/<total> nodes are available: <count> <reason>, ... ." with the
/// "<count> <reason>" strings sorted as strings (Go's sort.Strings, so
/// "10 x" comes before "2 y"), then " <post_filter_message>." when PostFilter spoke.
std::string fit_error_message(int64_t total_nodes, const std::map<std::string, int64_t>& reason_counts,
                              std::string_view post_filter_message = {});

/// The FitError when a PreFilter rejected the pod: its message replaces the histogram.
std::string pre_filter_fit_error_message(int64_t total_nodes, std::string_view pre_filter_message,
                                         std::string_view post_filter_message = {});

inline constexpr int64_t kMinFeasibleNodesToFind = 100;
inline constexpr int64_t kMinFeasibleNodesPercentageToFind = 5;

/// How many feasible nodes to find before scoring: all of a small cluster
/// (< 100 nodes); otherwise `percentage` % (0 = adaptive: 50 - nodes/125, at
/// least 5 %), and never fewer than 100.
int64_t num_feasible_nodes_to_find(int32_t percentage, int64_t total_nodes);

}  // namespace troupe::plugins
