#pragma once
// Where a node keeps its Fragmentation score memo (fragmentation_cache.hpp):
// allocated the first time the Fragmentation strategy scores the node, so
// nodes never scored by it (every node under the default strategies) do not
// carry one; cleared by freeing it.
//
// A copy starts empty. NodeDevices is copied for Reservation restore views,
// which are filtered or scored once and dropped: the memo is exact (its keys
// are everything a decision reads), so an empty one decides the same and a
// copied one would only cost its entries.

#include <memory>

#include "plugins/deviceshare/fragmentation_cache.hpp"

namespace troupe::plugins::deviceshare {

class FragmentationMemo {
 public:
  FragmentationMemo() = default;
  FragmentationMemo(const FragmentationMemo&) {}
  FragmentationMemo& operator=(const FragmentationMemo&) {
    cache_.reset();
    return *this;
  }
  FragmentationMemo(FragmentationMemo&&) noexcept = default;
  FragmentationMemo& operator=(FragmentationMemo&&) noexcept = default;

  /// The memo, allocated on first use.
  FragmentationScoreCache& get() {
    if (!cache_) cache_ = std::make_unique<FragmentationScoreCache>();
    return *cache_;
  }
  /// Forgets every decision (and the storage).
  void clear() { cache_.reset(); }
  bool allocated() const { return cache_ != nullptr; }

 private:
  std::unique_ptr<FragmentationScoreCache> cache_;
};

}  // namespace troupe::plugins::deviceshare
