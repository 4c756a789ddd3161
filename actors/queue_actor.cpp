#include "actors/queue_actor.hpp"

#include <map>
#include <string_view>
#include <utility>

#include <spdlog/spdlog.h>

#include "plugins/coscheduling/gang_spec.hpp"

namespace troupe::actors {

std::shared_ptr<QueuedPod> make_queued_pod(PodInfoPtr pod, std::shared_ptr<const plugins::Framework> framework) {
  auto queued = std::make_shared<QueuedPod>();
  queued->scheduling_class = plugins::scheduling_class_of(*pod->pod);
  queued->pod = std::move(pod);
  queued->framework = std::move(framework);
  return queued;
}

namespace {

// QueueSort: every profile shares one QueueSort plugin (the configuration
// enforces it), so the framework of either pod gives the order.
bool queue_sort_less(const SchedulingQueue<QueuedPod>::Entry& a, const SchedulingQueue<QueuedPod>::Entry& b) {
  plugins::QueuedPodInfo qa{a.payload.pod.get(), a.added, a.attempts};
  plugins::QueuedPodInfo qb{b.payload.pod.get(), b.added, b.attempts};
  return a.payload.framework->less(qa, qb);
}

// PreEnqueue: whether a plugin (SchedulingGates) holds the pod back. Run on
// every add and update, so an update that lifts the last gate releases it.
bool held_back(const QueuedPod& pod) {
  plugins::PluginStatus status = pod.framework->run_pre_enqueue(*pod.pod);
  if (status.ok()) return false;
  spdlog::debug("{} is not queued: {} ({})", pod.pod->key, status.message(), status.plugin);
  return true;
}

QueuedPodPtr handout(const SchedulingQueue<QueuedPod>::Entry& entry) {
  if (!entry.group.empty()) spdlog::debug("queue: {} is tried in the gang round of {}", entry.key, entry.group);
  auto pod = std::make_shared<QueuedPod>(entry.payload);
  pod->attempts = entry.attempts;
  pod->first_queued = entry.ready_since.value_or(entry.added);
  return pod;
}

/// The attempt a verdict is about is the one under way: the pod of that uid is in flight.
bool in_flight(const SchedulingQueue<QueuedPod>& queue, const std::string& key, const std::string& uid) {
  const auto* entry = queue.find(key);
  return entry != nullptr && queue.where(key) == SchedulingQueue<QueuedPod>::Where::in_flight &&
         entry->payload.pod->meta().uid == uid;
}

/// A gang's pods queued before their PodGroup named its group (or queued
/// under the group of a PodGroup now gone) take the group they are tried with
/// now, so gang rounds gather them as the informer would have.
void regroup_gang(SchedulingQueue<QueuedPod>& queue, const std::string& gang_id, const std::string& group) {
  std::unordered_map<std::string, std::string> groups;
  if (!group.empty()) groups.emplace(gang_id, group);
  queue.revise_payloads([&](const QueuedPod& pod) -> std::optional<QueuedPod> {
    if (pod.gang_group.empty()) return std::nullopt;  // not tried in gang rounds (no Coscheduling, or no gang)
    const ObjectMeta& meta = pod.pod->meta();
    const std::string_view ns = meta.namespace_name;
    if (gang_id.size() <= ns.size() || gang_id.compare(0, ns.size(), ns) != 0 || gang_id[ns.size()] != '/')
      return std::nullopt;
    auto name = plugins::coscheduling::gang_name_of(meta);
    if (!name || gang_id.compare(ns.size() + 1, std::string::npos, *name) != 0) return std::nullopt;
    std::string key = plugins::coscheduling::gang_group_key(meta, groups);
    if (key == pod.gang_group) return std::nullopt;
    QueuedPod revised = pod;
    revised.gang_group = std::move(key);
    return revised;
  });
}

}  // namespace

void queue_actor_state::serve_waiting(QueueClock::time_point now) {
  while (!waiting.empty()) {
    auto entry = queue->pop(now);
    if (!entry) return;
    auto promise = waiting.front();
    waiting.erase(waiting.begin());
    promise.deliver(handout(*entry));
  }
}

void queue_actor_state::publish_sizes() {
  if (!metrics) return;
  metrics->set("scheduler_pending_pods", {"active"}, static_cast<double>(queue->active_size()));
  metrics->set("scheduler_pending_pods", {"backoff"}, static_cast<double>(queue->backoff_size()));
  metrics->set("scheduler_pending_pods", {"unschedulable"}, static_cast<double>(queue->unschedulable_size()));
  metrics->set("scheduler_pending_pods", {"gated"}, static_cast<double>(queue->gated_size()));
}

void queue_actor_state::publish_unschedulable_by_plugin() {
  if (!metrics) return;
  // Views into the entries: no string is copied while walking the queue.
  std::map<std::pair<std::string_view, std::string_view>, double> counts;
  queue->for_each_unschedulable([&](const SchedulingQueue<QueuedPod>::Entry& entry) {
    const std::string& profile = entry.payload.pod->pod->spec.scheduler_name;
    for (const auto& plugin : entry.rejected_by) counts[{plugin, profile}] += 1;
  });
  for (const auto& series : unschedulable_series)
    if (counts.count({series.first, series.second}) == 0)
      metrics->set("scheduler_unschedulable_pods", {series.first, series.second}, 0);
  for (const auto& [series, count] : counts) {
    std::pair<std::string, std::string> owned{series.first, series.second};
    metrics->set("scheduler_unschedulable_pods", {owned.first, owned.second}, count);
    unschedulable_series.insert(std::move(owned));
  }
}

queue_actor::behavior_type queue_actor_fn(queue_actor::stateful_pointer<queue_actor_state> self,
                                          QueueActorSettings settings) {
  self->state.queue = std::make_unique<SchedulingQueue<QueuedPod>>(
      queue_sort_less, settings.queue, [](const QueuedPod& pod) { return pod.gang_group; });
  self->state.metrics = settings.metrics;
  self->state.actor_metrics = actor_metrics(settings.metrics, "queue");
  auto tick = settings.tick;
  self->delayed_send(self, tick, atom::tick_v);
  return {
      [=](atom::enqueue, QueuedPodPtr pod) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto now = QueueClock::now();
        bool known = self->state.queue->find(pod->pod->key) != nullptr;
        bool gated = held_back(*pod);
        self->state.queue->add(pod->pod->key, *pod, now, gated);
        // Upstream counts a pod when it enters activeQ; a gated one is not counted.
        if (self->state.metrics && !gated)
          self->state.metrics->add("scheduler_queue_incoming_pods_total", {known ? "PodUpdate" : "PodAdd", "active"});
        self->state.serve_waiting(now);
      },
      [=](atom::dequeue, const std::string& key) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.queue->remove(key);
      },
      [=](atom::regroup, const std::string& gang_id, const std::string& group) {
        MessageTimer timer(self->state.actor_metrics, self);
        regroup_gang(*self->state.queue, gang_id, group);
      },
      [=](atom::pop) -> caf::result<QueuedPodPtr> {
        MessageTimer timer(self->state.actor_metrics, self);
        auto entry = self->state.queue->pop(QueueClock::now());
        if (entry) return handout(*entry);
        auto promise = self->make_response_promise<QueuedPodPtr>();
        self->state.waiting.push_back(promise);
        return promise;
      },
      [=](atom::done, const std::string& key, const std::string& uid) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (in_flight(*self->state.queue, key, uid)) self->state.queue->done(key);
      },
      [=](atom::failed, const std::string& key, const std::string& uid, const std::vector<std::string>& rejectors,
          bool error) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (!in_flight(*self->state.queue, key, uid)) return;
        auto now = QueueClock::now();
        self->state.queue->failed(key, std::set<std::string>(rejectors.begin(), rejectors.end()), error, now);
        self->state.serve_waiting(now);
      },
      [=](atom::cluster_event, uint8_t resource, uint32_t actions) {
        MessageTimer timer(self->state.actor_metrics, self);
        plugins::ClusterEvent event{static_cast<plugins::EventResource>(resource), actions, "event"};
        auto now = QueueClock::now();
        self->state.queue->on_cluster_event(
            [&](const SchedulingQueue<QueuedPod>::Entry& e) {
              std::set<std::string> rejectors = e.rejected_by;
              return e.payload.framework->event_may_help(event, rejectors);
            },
            now);
        self->state.serve_waiting(now);
      },
      [=](atom::tick) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto now = QueueClock::now();
        self->state.queue->flush(now);
        self->state.serve_waiting(now);
        self->state.publish_sizes();
        self->state.publish_unschedulable_by_plugin();
        self->delayed_send(self, tick, atom::tick_v);
      },
  };
}

}  // namespace troupe::actors
