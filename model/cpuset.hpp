#pragma once
// CpuSet: a set of logical CPU ids, read and written in the Linux cpulist format
// ("0-3,8-11") used by cgroups, sysfs and Koordinator's annotations.

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"

namespace troupe {

class CpuSet {
 public:
  /// CPU ids are 0 .. kMaxCpus-1. A fixed bitset keeps every operation a few
  /// word instructions and the type trivially copyable, at 128 bytes a set.
  static constexpr int kMaxCpus = 1024;

  CpuSet() = default;

  /// Parses "0-3,8-11", "5", "" (empty). Strict like Kubernetes' cpuset.Parse
  /// (no spaces, no stride syntax); one trailing newline, as read from sysfs, is
  /// accepted. Overlapping or unordered elements are merged.
  static Result<CpuSet> parse(std::string_view text);
  /// The CPUs from..to inclusive; an error if the range is reversed or leaves
  /// 0..kMaxCpus-1.
  static Result<CpuSet> from_range(int from, int to);
  /// An error naming the first id outside 0..kMaxCpus-1.
  static Result<CpuSet> from_ids(const std::vector<int>& ids);
  /// For literals in code and tests; ids outside the range are ignored.
  CpuSet(std::initializer_list<int> ids);

  /// False (and no change) when cpu is outside 0..kMaxCpus-1.
  bool insert(int cpu);
  void erase(int cpu);
  bool contains(int cpu) const;

  std::size_t size() const;
  bool empty() const;
  /// Lowest and highest id; -1 when empty.
  int first() const;
  int last() const;
  /// The k lowest ids (all of them when the set has fewer).
  CpuSet first_n(std::size_t k) const;
  std::vector<int> to_vector() const;

  bool is_subset_of(const CpuSet& other) const;
  bool intersects(const CpuSet& other) const;

  CpuSet& operator|=(const CpuSet& other);
  CpuSet& operator&=(const CpuSet& other);
  CpuSet& operator-=(const CpuSet& other);
  friend CpuSet operator|(CpuSet a, const CpuSet& b) { return a |= b; }
  friend CpuSet operator&(CpuSet a, const CpuSet& b) { return a &= b; }
  friend CpuSet operator-(CpuSet a, const CpuSet& b) { return a -= b; }
  friend bool operator==(const CpuSet& a, const CpuSet& b) { return a.words_ == b.words_; }
  friend bool operator!=(const CpuSet& a, const CpuSet& b) { return a.words_ != b.words_; }

  /// Canonical cpulist: sorted, ranges merged, "a-b" for runs of two or more
  /// ("0-3,5,8-9"); "" when empty.
  std::string to_string() const;

  /// Ascending iteration over the ids.
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    using pointer = const int*;
    using reference = int;

    int operator*() const { return cpu_; }
    const_iterator& operator++();
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++*this;
      return before;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.cpu_ == b.cpu_; }
    friend bool operator!=(const const_iterator& a, const const_iterator& b) { return a.cpu_ != b.cpu_; }

   private:
    friend class CpuSet;
    const_iterator(const CpuSet* set, int cpu) : set_(set), cpu_(cpu) {}
    const CpuSet* set_;
    int cpu_;  // kMaxCpus at the end
  };
  const_iterator begin() const { return {this, next_at_or_after(0)}; }
  const_iterator end() const { return {this, kMaxCpus}; }

 private:
  static constexpr int kWordBits = 64;
  static constexpr int kWords = kMaxCpus / kWordBits;

  /// The first id >= cpu in the set, or kMaxCpus.
  int next_at_or_after(int cpu) const;

  std::array<uint64_t, kWords> words_{};
};

std::ostream& operator<<(std::ostream& out, const CpuSet& set);

}  // namespace troupe
