#pragma once
// ResourceList: a pod's or node's resources, name -> Quantity, ordered by name
// as Kubernetes writes them. It is a std::map (so find/emplace/operator[] and
// structured-binding iteration work) plus the arithmetic the scheduler needs.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/quantity.hpp"

namespace troupe {

class ResourceList : public std::map<std::string, Quantity, std::less<>> {
 public:
  using std::map<std::string, Quantity, std::less<>>::map;

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
  /// operator== (from std::map) also requires the same names.
  bool same_amounts(const ResourceList& other) const;

  /// "{cpu: 500m, memory: 1Gi}", quantities in canonical form; "{}" when empty.
  std::string to_string() const;
};

std::ostream& operator<<(std::ostream& out, const ResourceList& resources);

}  // namespace troupe
