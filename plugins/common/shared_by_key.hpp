#pragma once
// SharedByKey<T>: one immutable T per distinct key, shared by every caller
// that asks for that key while someone still holds it. For per-node state
// derived from node-scoped objects that are the same on every node of a
// hardware model (a Device's layout): 5,000 identical nodes then hold one
// copy instead of 5,000.
//
// Entries hold the value weakly: once no caller uses it, it is freed, and
// its entry is pruned on a later insert (released entries are dropped when
// the map reaches twice the live count, so pruning is O(1) per insert on
// average). Node actors run on several threads, so every call takes the lock;
// the value is built outside it, and when two threads build the same key the
// first to insert wins and both get its value.

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace troupe::plugins {

template <class T>
class SharedByKey {
 public:
  /// The value stored for `key`, else the one `make()` returns
  /// (std::shared_ptr<const T>), stored unless it is null (a failed build).
  template <class Make>
  std::shared_ptr<const T> get(std::string_view key, Make&& make) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto shared = find_locked(key)) return shared;
    }
    std::shared_ptr<const T> built = make();
    if (!built) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto shared = find_locked(key)) return shared;
    insert_locked(key, built);
    return built;
  }

  /// Entries stored, including released ones not yet pruned.
  size_t stored() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
  }
  /// Entries whose value some caller still holds.
  size_t in_use() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<size_t>(
        std::count_if(entries_.begin(), entries_.end(), [](const auto& e) { return !e.second.expired(); }));
  }

 private:
  std::shared_ptr<const T> find_locked(std::string_view key) const {
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second.lock();
  }

  void insert_locked(std::string_view key, const std::shared_ptr<const T>& value) {
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      it->second = value;  // a released entry for this key
      return;
    }
    if (entries_.size() >= prune_at_) {
      for (auto e = entries_.begin(); e != entries_.end();) e = e->second.expired() ? entries_.erase(e) : std::next(e);
      prune_at_ = std::max(kFirstPrune, 2 * entries_.size());
    }
    entries_.emplace(std::string(key), value);
  }

  static constexpr size_t kFirstPrune = 16;
  mutable std::mutex mutex_;
  std::map<std::string, std::weak_ptr<const T>, std::less<>> entries_;
  size_t prune_at_ = kFirstPrune;
};

}  // namespace troupe::plugins
