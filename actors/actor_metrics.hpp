#pragma once
// Per-actor-kind metrics: troupe_actor_mailbox_depth{actor},
// troupe_actor_messages_total{actor} and troupe_actor_message_duration_seconds{actor}.
// Every handler opens a MessageTimer: two clock reads, a mailbox size read
// and three relaxed atomic updates per message, no lock and no allocation;
// a registry collector publishes the counters when /metrics is rendered.
//
// The depth of a kind is the sum over its actors (the node partitions are
// several) of the messages each saw waiting when it last handled one.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "actors/atomic_histogram.hpp"
#include "actors/metrics_registry.hpp"

namespace troupe::actors {

class ActorKindMetrics {
 public:
  ActorKindMetrics(std::string kind, std::shared_ptr<const std::vector<double>> bounds)
      : kind_(std::move(kind)), durations_(std::move(bounds)) {}

  const std::string& kind() const { return kind_; }
  /// A depth cell for one more actor of this kind (call when spawning it).
  std::shared_ptr<std::atomic<int64_t>> add_actor();

  void handled(double seconds) {
    messages_.fetch_add(1, std::memory_order_relaxed);
    durations_.observe(seconds);
  }

  /// Publishes the counters into `registry` (the three troupe_actor_* families).
  void drain_into(MetricsRegistry& registry);

 private:
  std::string kind_;
  std::atomic<uint64_t> messages_{0};
  AtomicHistogram durations_;
  std::mutex actors_mutex_;
  std::vector<std::shared_ptr<std::atomic<int64_t>>> depths_;
};

/// What one actor keeps: its kind's counters and its own depth cell. Empty
/// (no metrics) when the actor was spawned without a registry.
struct ActorMetricsHandle {
  std::shared_ptr<ActorKindMetrics> kind;
  std::shared_ptr<std::atomic<int64_t>> depth;

  explicit operator bool() const { return kind != nullptr; }
};

/// The handle for one new actor of `kind`; the kind's counters are created
/// (and a collector registered) on first use. Null registry: an empty handle.
ActorMetricsHandle actor_metrics(const std::shared_ptr<MetricsRegistry>& registry, const std::string& kind);

/// RAII: counts one handled message and its handling time; records the
/// mailbox depth the handler sees. `Self` is any CAF scheduled actor pointer.
class MessageTimer {
 public:
  template <class Self>
  MessageTimer(const ActorMetricsHandle& handle, Self* self) : handle_(handle) {
    if (!handle_) return;
    start_ = std::chrono::steady_clock::now();
    handle_.depth->store(static_cast<int64_t>(self->mailbox().size()), std::memory_order_relaxed);
  }
  ~MessageTimer() {
    if (handle_)
      handle_.kind->handled(std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  MessageTimer(const MessageTimer&) = delete;
  MessageTimer& operator=(const MessageTimer&) = delete;

 private:
  const ActorMetricsHandle& handle_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace troupe::actors
