#pragma once
// FixedVector: a vector with inline storage of a fixed capacity, so the
// allocator's per-node scratch lists (at most kMaxDevicesPerType devices of a
// type) live on the stack and Filter allocates nothing. Pushing beyond the
// capacity is a programming error the callers rule out by bounding their
// loops; it is checked and ignored rather than overflowing.

#include <array>
#include <cstddef>

namespace troupe::plugins::deviceshare {

template <class T, size_t N>
class FixedVector {
 public:
  using value_type = T;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == N; }
  static constexpr size_t capacity() { return N; }

  /// False (and nothing stored) when full.
  bool push_back(const T& value) {
    if (size_ == N) return false;
    items_[size_++] = value;
    return true;
  }
  void clear() { size_ = 0; }

  T& operator[](size_t i) { return items_[i]; }
  const T& operator[](size_t i) const { return items_[i]; }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + size_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }

 private:
  std::array<T, N> items_{};
  size_t size_ = 0;
};

}  // namespace troupe::plugins::deviceshare
