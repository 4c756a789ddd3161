#include "watch/event_series.hpp"

namespace troupe::watch {

EventSeriesCache::EventSeriesCache(Clock::duration finish_after, size_t max_entries)
    : finish_after_(finish_after), max_entries_(max_entries == 0 ? 1 : max_entries) {}

void EventSeriesCache::touch(Entry& entry, const std::string& key) {
  recency_.erase(entry.recency);
  recency_.push_front(key);
  entry.recency = recency_.begin();
}

void EventSeriesCache::evict_over_capacity() {
  while (entries_.size() > max_entries_) {
    entries_.erase(recency_.back());
    recency_.pop_back();
  }
}

EventSeriesCache::Occurrence EventSeriesCache::observe(const std::string& key, Clock::time_point now,
                                                       const std::function<std::string()>& fresh_name) {
  auto it = entries_.find(key);
  if (it != entries_.end() && now - it->second.last_seen <= finish_after_) {
    Entry& entry = it->second;
    ++entry.count;
    entry.last_seen = now;
    touch(entry, key);
    return {false, entry.name, entry.count};
  }
  if (it == entries_.end()) {
    recency_.push_front(key);
    it = entries_.emplace(key, Entry{}).first;
    it->second.recency = recency_.begin();
  } else {
    touch(it->second, key);  // a finished series: this occurrence starts a new Event
  }
  Entry& entry = it->second;
  entry.name = fresh_name();
  entry.count = 1;
  entry.last_seen = now;
  Occurrence created{true, entry.name, 1};
  evict_over_capacity();
  return created;
}

int32_t EventSeriesCache::count_of(const std::string& key, const std::string& name) const {
  auto it = entries_.find(key);
  return it != entries_.end() && it->second.name == name ? it->second.count : 0;
}

void EventSeriesCache::forget(const std::string& key, const std::string& name) {
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.name != name) return;
  recency_.erase(it->second.recency);
  entries_.erase(it);
}

}  // namespace troupe::watch
