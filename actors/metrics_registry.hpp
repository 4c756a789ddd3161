#pragma once
// Metrics for the /metrics endpoint. CAF 0.17 has no telemetry module, so the
// actors record into this registry and the metrics endpoint renders it in the
// Prometheus text format 0.0.4. Recording takes a short mutex: a few tens of
// thousands of observations per second cost nothing next to scheduling.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "actors/atomic_histogram.hpp"

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
  /// Makes `series` the whole of a gauge family: series not listed go (the
  /// values of objects that are gone), at once for a reader of /metrics.
  void replace(const std::string& name, const std::vector<std::pair<LabelValues, double>>& series);
  void observe(const std::string& name, const LabelValues& labels, double value);
  /// Adds observations pre-aggregated elsewhere (an AtomicHistogram's drain
  /// over this family's bounds). Empty deltas create no series.
  void merge(const std::string& name, const LabelValues& labels, const HistogramDelta& delta);
  /// The bucket bounds a histogram family was declared with (empty if unknown).
  std::vector<double> buckets(const std::string& name) const;

  /// Collectors run at the start of every render(), outside the registry's
  /// lock, to move lock-free counters (actor and plugin metrics) in.
  void add_collector(std::function<void(MetricsRegistry&)> collect);
  /// Runs the collectors now (render() does; tests call it directly).
  void collect();

  /// An object that lives as long as the registry, made by `make()` the first
  /// time `key` is asked for (e.g. one actor kind's lock-free counters).
  /// `created` tells the caller whether this call made it.
  template <class T, class Make>
  std::shared_ptr<T> attachment(const std::string& key, Make&& make, bool* created = nullptr) {
    std::lock_guard<std::mutex> lock(attachments_mutex_);
    auto& slot = attachments_[key];
    if (created != nullptr) *created = slot == nullptr;
    if (!slot) slot = std::shared_ptr<T>(make());
    return std::static_pointer_cast<T>(slot);
  }

  /// Current value of a counter or gauge (0 if never recorded): for tests and
  /// debug endpoints.
  double value(const std::string& name, const LabelValues& labels) const;
  /// Number of observations of a histogram series.
  uint64_t count(const std::string& name, const LabelValues& labels) const;

  /// The whole registry in Prometheus text exposition format 0.0.4.
  std::string render();

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
  std::mutex collectors_mutex_;  // also serialises collectors: each drains its counters alone
  std::vector<std::function<void(MetricsRegistry&)>> collectors_;
  std::mutex attachments_mutex_;
  std::map<std::string, std::shared_ptr<void>> attachments_;
};

/// Declares every metric troupe exposes, with kube-scheduler's names, labels,
/// HELP texts and buckets (see reference/k8s-protocol.md §8.1).
void declare_scheduler_metrics(MetricsRegistry& registry);

}  // namespace troupe::actors
