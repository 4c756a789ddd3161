#pragma once
// Metrics for the /metrics endpoint. CAF 0.17 has no telemetry module, so the
// actors record into this registry and the metrics endpoint renders it in the
// Prometheus text format 0.0.4. Recording takes a short mutex: a few tens of
// thousands of observations per second cost nothing next to scheduling.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace troupe::actors {

using LabelValues = std::vector<std::string>;

/// Bucket bounds as kube-scheduler's metrics declare them.
std::vector<double> exponential_buckets(double start, double factor, int count);

class MetricsRegistry {
 public:
  enum class Type { counter, gauge, histogram };

  /// Declares a family once; label names fixed at declaration. Re-declaring an
  /// existing name returns silently (actors restart).
  void declare(const std::string& name, Type type, const std::string& help,
               std::vector<std::string> label_names, std::vector<double> buckets = {});

  void add(const std::string& name, const LabelValues& labels, double delta = 1.0);
  void set(const std::string& name, const LabelValues& labels, double value);
  void observe(const std::string& name, const LabelValues& labels, double value);

  /// Current value of a counter or gauge (0 if never recorded): for tests and
  /// debug endpoints.
  double value(const std::string& name, const LabelValues& labels) const;
  /// Number of observations of a histogram series.
  uint64_t count(const std::string& name, const LabelValues& labels) const;

  /// The whole registry in Prometheus text exposition format 0.0.4.
  std::string render() const;

 private:
  struct Series {
    double value = 0;                  // counter / gauge
    std::vector<uint64_t> bucket_counts;  // histogram, non-cumulative
    double sum = 0;
    uint64_t count = 0;
  };
  struct Family {
    Type type = Type::counter;
    std::string help;
    std::vector<std::string> label_names;
    std::vector<double> buckets;
    std::map<LabelValues, Series> series;
  };

  Series& series_for(const std::string& name, const LabelValues& labels, Type expected);

  mutable std::mutex mutex_;
  std::map<std::string, Family> families_;
};

/// Declares every metric troupe exposes, with kube-scheduler's names, labels,
/// HELP texts and buckets (see reference/k8s-protocol.md §8.1).
void declare_scheduler_metrics(MetricsRegistry& registry);

}  // namespace troupe::actors
