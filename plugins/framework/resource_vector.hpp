#pragma once
// kube-scheduler's framework.Resource: the integer amounts the fit and score
// plugins compare, precomputed from ResourceLists so the hot path never
// touches a Quantity or a map. cpu is in millicores, everything else in whole
// units (Quantity::value(), rounded up as resource.Quantity.Value()).
// Scalar resources are the ones kube-scheduler tracks by name: extended
// (vendor.com/x), hugepages-*, attachable-volumes-* and kubernetes.io/-prefixed.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/resources.hpp"
#include "model/resource_name.hpp"

namespace troupe::plugins {

struct ResourceVector {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  int64_t allowed_pods = 0;  // only meaningful for a node's allocatable
  /// Sorted by name, no duplicates; names interned (resource_name.hpp).
  std::vector<std::pair<ResourceName, int64_t>> scalars;

  /// Reads cpu, memory, ephemeral-storage, pods and the scalar names; other
  /// names (e.g. "storage") are not tracked, as in kube-scheduler.
  static ResourceVector from(const ResourceList& list);

  /// The amount of a scalar resource; 0 when absent.
  int64_t scalar(std::string_view name) const;
  bool has_scalar(std::string_view name) const;
  /// The amount of any resource by name ("cpu" in millicores); 0 when untracked.
  int64_t get(std::string_view name) const;

  void add(const ResourceVector& other);
  void subtract(const ResourceVector& other);
  /// True when every amount is zero.
  bool is_zero() const;

  friend bool operator==(const ResourceVector& a, const ResourceVector& b);
  friend bool operator!=(const ResourceVector& a, const ResourceVector& b) { return !(a == b); }
};

}  // namespace troupe::plugins
