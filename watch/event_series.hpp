#pragma once
// EventSeriesCache: which recorded Event a repeated event belongs to, as
// client-go's recorders decide it. A repeat of an event still in the cache
// updates that Event (events.k8s.io/v1: series.count and lastObservedTime;
// core/v1: count and lastTimestamp) instead of creating another one. A
// series idle for `finish_after` is finished (the next occurrence starts a
// new Event, as the events recorder's finishTime of 6 minutes), and the cache
// keeps at most `max_entries` keys, dropping the least recently seen
// (the legacy recorder's LRU of 4096).
//
// Not thread-safe: EventWriter guards it with its mutex.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <string>
#include <unordered_map>

namespace troupe::watch {

class EventSeriesCache {
 public:
  using Clock = std::chrono::steady_clock;

  struct Occurrence {
    bool create = true;  // true: POST a new Event named `name`; false: PATCH `name`
    std::string name;
    int32_t count = 1;   // occurrences in this series so far, this one included
  };

  explicit EventSeriesCache(Clock::duration finish_after = std::chrono::minutes(6), size_t max_entries = 4096);

  /// Records one occurrence of the event identified by `key` at `now`;
  /// `fresh_name` names the Event when a new one must be created.
  Occurrence observe(const std::string& key, Clock::time_point now, const std::function<std::string()>& fresh_name);

  /// The Event `name` could not be written: forget it so that the next
  /// occurrence creates one again (a no-op if the key moved on to another name).
  void forget(const std::string& key, const std::string& name);

  /// Occurrences so far of the series `key` while it is recorded as `name`; 0 otherwise.
  int32_t count_of(const std::string& key, const std::string& name) const;

  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::string name;
    int32_t count = 0;
    Clock::time_point last_seen;
    std::list<std::string>::iterator recency;  // position in recency_ (front = most recent)
  };

  void touch(Entry& entry, const std::string& key);
  void evict_over_capacity();

  Clock::duration finish_after_;
  size_t max_entries_;
  std::unordered_map<std::string, Entry> entries_;
  std::list<std::string> recency_;
};

}  // namespace troupe::watch
