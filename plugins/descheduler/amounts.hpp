#pragma once
// Amounts: one int64 per balanced resource (ResourceAxes), LowNodeLoad's
// unit of arithmetic. A pool balances a handful of resources (memory plus
// those its thresholds name), so the values live inline; only more than
// kInlineAxes resources spill to the heap. Why not std::vector: a cycle
// builds seven of these per node and one per candidate pod, and on 5,000+
// nodes those allocations were a fifth of the plan's time.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace troupe::plugins::descheduler {

class Amounts {
 public:
  static constexpr size_t kInlineAxes = 4;

  Amounts() = default;
  Amounts(size_t size, int64_t value) : size_(size) {
    if (size_ > kInlineAxes) heap_.assign(size_, value);
    else std::fill_n(inline_.begin(), size_, value);
  }
  Amounts(std::initializer_list<int64_t> values) : Amounts(values.size(), 0) {
    std::copy(values.begin(), values.end(), begin());
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t* data() { return size_ > kInlineAxes ? heap_.data() : inline_.data(); }
  const int64_t* data() const { return size_ > kInlineAxes ? heap_.data() : inline_.data(); }
  int64_t& operator[](size_t i) { return data()[i]; }
  int64_t operator[](size_t i) const { return data()[i]; }
  int64_t* begin() { return data(); }
  int64_t* end() { return data() + size_; }
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + size_; }

  friend bool operator==(const Amounts& a, const Amounts& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const Amounts& a, const Amounts& b) { return !(a == b); }

 private:
  size_t size_ = 0;
  std::array<int64_t, kInlineAxes> inline_{};
  std::vector<int64_t> heap_;  // used only beyond kInlineAxes
};

}  // namespace troupe::plugins::descheduler
