#pragma once
// The embedded API server's fake koordlet: every interval it writes, for
// every Node, a NodeMetric (slo.koordinator.sh/v1alpha1, named after the
// node) with the usage sim/simulated_usage computes from the pods bound to
// it — what Koordinator's koordlet reports from cgroups. It writes through
// the API handler like any client (watchers see ADDED, then MODIFIED), skips
// nodes that went away, and deletes the metrics it published for them (as
// koord-manager's NodeMetric controller does).

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "sim/api_handler.hpp"

namespace troupe::sim {

struct FakeKoordletOptions {
  std::chrono::milliseconds interval{0};  // 0: the fake koordlet is off
  double default_usage_ratio = 1.0;       // pods without sim.troupe.dev/usage-ratio
};

/// What one round did.
struct KoordletRound {
  size_t published = 0;  // NodeMetrics created or updated
  size_t removed = 0;    // NodeMetrics of nodes that are gone
  std::vector<std::string> errors;
};

class FakeKoordlet {
 public:
  FakeKoordlet(ApiHandler& handler, FakeKoordletOptions options);
  ~FakeKoordlet();
  FakeKoordlet(const FakeKoordlet&) = delete;
  FakeKoordlet& operator=(const FakeKoordlet&) = delete;

  /// Publishes at once, then every interval on a thread of its own.
  void start();
  void stop();

  /// One round, on the caller's thread (the loop's body; tests call it, but
  /// not while the thread runs). Each round decodes every Node and Pod in the
  /// store and writes one NodeMetric per node, like koordlets reporting.
  KoordletRound publish_once();

 private:
  void loop();
  /// Creates the metric or replaces its status; false with `error` set on failure.
  bool write_metric(const std::string& node, const std::string& json, std::string& error);
  void log_new_warnings(std::set<std::string> warnings);

  ApiHandler& handler_;
  const FakeKoordletOptions options_;
  std::set<std::string> published_;      // nodes whose metric this koordlet wrote
  std::set<std::string> last_warnings_;  // logged once until they go away
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace troupe::sim
