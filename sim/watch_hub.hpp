#pragma once
// Fan-out of store events to watchers. Every event is serialized once (on the
// first watcher that wants it in its natural type) and the same string is
// queued for all watchers. Each watcher has a bounded queue: a watcher that
// falls more than `queue_limit` events behind is cut off with an ERROR 410
// event, as kube-apiserver's cacher cuts off unresponsive watchers, so one slow
// client never blocks writers or other watchers.
//
// Producers (the store) call the hub and Watcher::push/deliver under the
// store's lock; consumers (HTTP sessions) call Watcher::take from their own
// strand. A watcher's queue has its own small mutex.

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sim/object_filter.hpp"
#include "sim/resource_registry.hpp"
#include "sim/server_side_table.hpp"
#include "sim/stored_object.hpp"

namespace troupe::sim {

/// One committed change, as kept in the store's history.
struct StoreEvent {
  EventType type = EventType::added;
  uint64_t resource_version = 0;
  size_t storage = 0;
  ObjectPtr object;   // the new state; for DELETED the final state (at the deletion's RV)
  ObjectPtr previous; // MODIFIED: the state before, to see objects enter or leave a selector
  // The wire line in the natural type, built on first use under the store lock.
  mutable std::shared_ptr<const std::string> line;
  // `previous` at this event's resourceVersion, built on first use under the store lock.
  mutable ObjectPtr previous_now;

  const std::shared_ptr<const std::string>& wire_line() const;
  /// What a watcher whose selector the object left gets as DELETED: the
  /// previous state with this event's resourceVersion (kube-apiserver's
  /// cacher, convertToWatchEvent).
  const ObjectPtr& previous_at_event(const ResourceInfo& resource) const;
};
using EventPtr = std::shared_ptr<const StoreEvent>;

/// One queued item: a ready wire line, or an object to render as `type`.
struct WatchItem {
  std::shared_ptr<const std::string> line;
  ObjectPtr object;
  EventType type = EventType::added;
};

class Watcher {
 public:
  /// `table`: every event's object is a Table of that object (server_side_table.hpp).
  Watcher(const ResourceInfo& resource, ObjectFilter filter, size_t queue_limit,
          std::optional<TableRequest> table = std::nullopt);

  const ResourceInfo& resource() const { return resource_; }
  const ObjectFilter& filter() const { return filter_; }
  /// Called (from any thread, possibly under the store lock: it must only
  /// schedule work) when the queue becomes non-empty or the watch finishes.
  void set_wake(std::function<void()> wake);

  // --- producer side ---
  /// Queues `event` if it concerns this watcher: an object entering the
  /// selector is ADDED, one leaving it DELETED. Replayed history is not
  /// `counted` against the queue limit (only live events are).
  void deliver(const EventPtr& event, bool counted = true);
  /// Queues unconditionally (initial state, bookmarks); not counted against the limit.
  void push(WatchItem item);
  /// Queues a last line (an ERROR event, or nothing when null) and ends the watch.
  void finish(std::shared_ptr<const std::string> last_line);
  bool finished() const;

  // --- consumer side ---
  /// Moves every queued item to `out`. Returns true once the watch has
  /// finished and nothing more will ever be queued.
  bool take(std::vector<WatchItem>& out);
  /// The client went away: drop the queue and accept nothing more.
  void cancel();

  /// The wire line for `item`, converting the object's apiVersion when this
  /// watcher uses another version of the same objects.
  std::string render(const WatchItem& item) const;

 private:
  void enqueue_locked(WatchItem item, bool counted, std::function<void()>& wake_out);

  const ResourceInfo& resource_;
  const ObjectFilter filter_;
  const size_t queue_limit_;
  const std::optional<TableRequest> table_;
  mutable std::mutex mutex_;
  std::deque<WatchItem> queue_;
  size_t counted_ = 0; // queued live events, checked against queue_limit_
  bool finished_ = false;
  std::function<void()> wake_;
};

/// The ERROR event line for a Status body.
std::shared_ptr<const std::string> error_event_line(const std::string& status_json);

class WatchHub {
 public:
  explicit WatchHub(size_t storage_count) : watchers_(storage_count) {}

  // All calls happen under the store's lock.
  void add(std::shared_ptr<Watcher> watcher);
  void remove(const Watcher* watcher);
  void publish(const EventPtr& event);
  size_t watcher_count() const;
  /// Ends every watch (server shutdown).
  void finish_all();

 private:
  std::vector<std::vector<std::shared_ptr<Watcher>>> watchers_; // by storage
};

}  // namespace troupe::sim
