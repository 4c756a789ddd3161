#pragma once
// ResourceList: a pod's or node's resources, name -> Quantity, ordered by name
// as Kubernetes writes them, plus the arithmetic the scheduler needs.
//
// Held flat: one sorted array of (interned name, quantity) pairs
// (resource_name.hpp), 32 bytes per entry in a single heap block. A map
// costs a 96-byte block per entry plus one per name longer than 15
// characters, and every node carries two lists (capacity, allocatable) of up
// to ten names: 2.1 KB per GPU node as a map, 0.6 KB flat. The interface is
// the part of std::map the code uses (find, operator[], emplace, erase,
// structured-binding iteration in name order), with the vector's rules:
// inserting or erasing invalidates iterators and references into the list.

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/quantity.hpp"
#include "model/resource_name.hpp"

namespace troupe {

class ResourceList {
 public:
  using key_type = ResourceName;
  using mapped_type = Quantity;
  using value_type = std::pair<ResourceName, Quantity>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;
  using size_type = size_t;

  ResourceList() = default;
  /// Later duplicates of a name are ignored, as std::map's list constructor does.
  ResourceList(std::initializer_list<value_type> entries);
  template <class It>
  ResourceList(It first, It last) {
    for (; first != last; ++first) emplace(first->first, first->second);
  }

  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  const_iterator cbegin() const { return entries_.begin(); }
  const_iterator cend() const { return entries_.end(); }
  size_t size() const { return entries_.size(); }
  size_t capacity() const { return entries_.capacity(); }
  bool empty() const { return entries_.empty(); }
  void clear() { entries_.clear(); }
  /// Room for `n` entries (decoders know the count: no spare capacity is kept).
  void reserve(size_t n) { entries_.reserve(n); }

  iterator find(std::string_view name);
  const_iterator find(std::string_view name) const;
  size_t count(std::string_view name) const { return find(name) != end() ? 1 : 0; }
  bool contains(std::string_view name) const { return find(name) != end(); }
  /// The quantity for a name; throws std::out_of_range when absent (as std::map::at).
  const Quantity& at(std::string_view name) const;
  Quantity& at(std::string_view name);
  /// The quantity for a name, inserted as zero when absent.
  Quantity& operator[](std::string_view name);
  /// Inserts when the name is absent; {position, inserted}.
  std::pair<iterator, bool> emplace(ResourceName name, const Quantity& quantity);
  std::pair<iterator, bool> try_emplace(ResourceName name, const Quantity& quantity) { return emplace(name, quantity); }
  std::pair<iterator, bool> insert(const value_type& entry) { return emplace(entry.first, entry.second); }
  /// Sets the quantity, inserting the name when absent.
  std::pair<iterator, bool> insert_or_assign(ResourceName name, const Quantity& quantity);
  /// The hint is ignored (the position follows from the name).
  iterator emplace_hint(const_iterator, const value_type& entry) { return emplace(entry.first, entry.second).first; }
  iterator erase(const_iterator position) { return entries_.erase(position); }
  size_t erase(std::string_view name);

  friend bool operator==(const ResourceList& a, const ResourceList& b) { return a.entries_ == b.entries_; }
  friend bool operator!=(const ResourceList& a, const ResourceList& b) { return !(a == b); }

  /// The quantity for a name; zero when the name is absent.
  Quantity get(std::string_view name) const;

  /// Per-name sum; names only `other` has are added (addResourceList).
  ResourceList& operator+=(const ResourceList& other);
  /// Per-name difference; names only `other` has become negative (quota.Subtract).
  ResourceList& operator-=(const ResourceList& other);
  /// Every quantity times factor (saturating, see Quantity).
  ResourceList& operator*=(int64_t factor);
  friend ResourceList operator+(ResourceList a, const ResourceList& b) { return a += b; }
  friend ResourceList operator-(ResourceList a, const ResourceList& b) { return a -= b; }
  friend ResourceList operator*(ResourceList a, int64_t factor) { return a *= factor; }

  /// Per-name maximum; names only `other` has are added (maxResourceList).
  void set_max(const ResourceList& other);

  /// Names (in order) whose quantity is positive and above what `available`
  /// has for it (absent = 0). Zero and negative requests always fit, as
  /// kube-scheduler skips zero requests.
  std::vector<std::string> fits_within(const ResourceList& available) const;

  /// True when every quantity is zero (also when empty).
  bool is_zero() const;
  /// A copy without the zero entries.
  ResourceList without_zeros() const;
  /// Equal amounts with absent names counting as zero ({cpu: 0} ~ {}).
  /// operator== also requires the same names.
  bool same_amounts(const ResourceList& other) const;

  /// "{cpu: 500m, memory: 1Gi}", quantities in canonical form; "{}" when empty.
  std::string to_string() const;

 private:
  /// The first entry whose name is not before `name`.
  iterator lower_bound(std::string_view name);

  std::vector<value_type> entries_;  // ascending by name text, names unique
};

std::ostream& operator<<(std::ostream& out, const ResourceList& resources);

}  // namespace troupe
