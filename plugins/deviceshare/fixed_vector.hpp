#pragma once
// FixedVector: a vector with inline storage of a fixed capacity, so the
// allocator's per-node scratch lists (at most kMaxDevicesPerType devices of a
// type) live on the stack and Filter allocates nothing. The storage is left
// uninitialised and copies move only the elements in use: the allocator
// builds and copies these lists for every node it filters.
//
// Only for trivially copyable element types. Pushing beyond the capacity is
// a programming error the callers rule out by bounding their loops; it is
// checked and ignored rather than overflowing.

#include <cstddef>
#include <new>
#include <type_traits>

namespace troupe::plugins::deviceshare {

template <class T, size_t N>
class FixedVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "FixedVector holds trivially copyable values only");

 public:
  using value_type = T;

  FixedVector() = default;
  FixedVector(const FixedVector& other) : size_(other.size_) { copy_from(other); }
  FixedVector& operator=(const FixedVector& other) {
    if (this == &other) return *this;
    size_ = other.size_;
    copy_from(other);
    return *this;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == N; }
  static constexpr size_t capacity() { return N; }

  /// False (and nothing stored) when full.
  bool push_back(const T& value) {
    if (size_ == N) return false;
    new (&data()[size_]) T(value);
    ++size_;
    return true;
  }
  void clear() { size_ = 0; }

  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

 private:
  T* data() { return std::launder(reinterpret_cast<T*>(storage_)); }
  const T* data() const { return std::launder(reinterpret_cast<const T*>(storage_)); }
  void copy_from(const FixedVector& other) {
    for (size_t i = 0; i < size_; ++i) new (&data()[i]) T(other.data()[i]);
  }

  alignas(T) unsigned char storage_[sizeof(T) * N];
  size_t size_ = 0;
};

}  // namespace troupe::plugins::deviceshare
