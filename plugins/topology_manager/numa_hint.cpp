#include "plugins/topology_manager/numa_hint.hpp"

#include <functional>

namespace troupe::plugins::topology {

int mask_count(NumaMask mask) { return __builtin_popcountll(mask); }

std::vector<int> mask_bits(NumaMask mask) {
  std::vector<int> out;
  for (int i = 0; i < 64; ++i)
    if ((mask >> i) & 1u) out.push_back(i);
  return out;
}

NumaMask mask_of(const std::vector<int>& nodes) {
  NumaMask mask = 0;
  for (int n : nodes)
    if (n >= 0 && n < 64) mask |= NumaMask{1} << n;
  return mask;
}

bool is_narrower(NumaMask a, NumaMask b) {
  if (mask_count(a) == mask_count(b)) return a < b;
  return mask_count(a) < mask_count(b);
}

std::string mask_string(NumaMask mask) {
  std::string out = "[";
  for (int n : mask_bits(mask)) {
    if (out.size() > 1) out += ' ';
    out += std::to_string(n);
  }
  return out + "]";
}

std::vector<NumaMask> numa_subsets(const std::vector<int>& nodes) {
  std::vector<NumaMask> out;
  // Combinations of each size in lexicographic order of positions in `nodes`.
  std::function<void(size_t, int, NumaMask)> choose = [&](size_t start, int left, NumaMask acc) {
    if (left == 0) {
      out.push_back(acc);
      return;
    }
    for (size_t i = start; i < nodes.size(); ++i) choose(i + 1, left - 1, acc | mask_of({nodes[i]}));
  };
  for (size_t size = 1; size <= nodes.size(); ++size) choose(0, static_cast<int>(size), 0);
  return out;
}

}  // namespace troupe::plugins::topology
