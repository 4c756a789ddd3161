#pragma once
// The seeded random stream of a replay. std::mt19937_64's output is fixed by
// the C++ standard, and bounded draws use rejection sampling written here
// (std::uniform_int_distribution differs between standard libraries), so a
// seed gives the same arrival order on every platform.

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace troupe::sim::trace {

class TraceRng {
 public:
  explicit TraceRng(uint64_t seed) : engine_(seed) {}

  uint64_t next() { return engine_(); }

  /// Uniform in [0, n); n must be > 0.
  uint64_t below(uint64_t n) {
    // Reject the top partial block so every residue is equally likely.
    const uint64_t limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;
    uint64_t x = engine_();
    while (x > limit) x = engine_();
    return x % n;
  }

  /// Fisher-Yates from the end, as Go's rand.Shuffle walks.
  template <class T>
  void shuffle(std::vector<T>& items) {
    for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
  }

  /// A random permutation of 0..n-1.
  std::vector<uint32_t> permutation(size_t n) {
    std::vector<uint32_t> perm(n);
    for (size_t i = 0; i < n; ++i) perm[i] = static_cast<uint32_t>(i);
    shuffle(perm);
    return perm;
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace troupe::sim::trace
