#include "actors/actor_metrics.hpp"

namespace troupe::actors {

namespace {

constexpr const char* kDepthFamily = "troupe_actor_mailbox_depth";
constexpr const char* kMessagesFamily = "troupe_actor_messages_total";
constexpr const char* kDurationFamily = "troupe_actor_message_duration_seconds";

}  // namespace

std::shared_ptr<std::atomic<int64_t>> ActorKindMetrics::add_actor() {
  auto depth = std::make_shared<std::atomic<int64_t>>(0);
  std::lock_guard<std::mutex> lock(actors_mutex_);
  depths_.push_back(depth);
  return depth;
}

void ActorKindMetrics::drain_into(MetricsRegistry& registry) {
  int64_t depth = 0;
  {
    std::lock_guard<std::mutex> lock(actors_mutex_);
    for (const auto& d : depths_) depth += d->load(std::memory_order_relaxed);
  }
  registry.set(kDepthFamily, {kind_}, static_cast<double>(depth));
  registry.add(kMessagesFamily, {kind_}, static_cast<double>(messages_.exchange(0, std::memory_order_relaxed)));
  registry.merge(kDurationFamily, {kind_}, durations_.drain());
}

ActorMetricsHandle actor_metrics(const std::shared_ptr<MetricsRegistry>& registry, const std::string& kind) {
  if (!registry) return {};
  bool created = false;
  auto metrics = registry->attachment<ActorKindMetrics>(
      "actor-metrics/" + kind,
      [&] {
        auto bounds = std::make_shared<const std::vector<double>>(registry->buckets(kDurationFamily));
        return new ActorKindMetrics(kind, std::move(bounds));
      },
      &created);
  // Weak: the registry owns the counters through its attachment already.
  if (created) {
    std::weak_ptr<ActorKindMetrics> weak = metrics;
    registry->add_collector([weak](MetricsRegistry& r) {
      if (auto m = weak.lock()) m->drain_into(r);
    });
  }
  return {metrics, metrics->add_actor()};
}

}  // namespace troupe::actors
