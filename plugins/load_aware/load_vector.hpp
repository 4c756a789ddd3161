#pragma once
// LoadAwareScheduling's resource vectors (Koordinator loadaware/helper.go's
// vectorizer): the resources the plugin compares, sorted by name — cpu,
// memory and every resource its args name — and one int64 amount per
// resource in Koordinator's units: cpu in millicores, everything else in
// whole units. Fixed-size, so that Filter and Score add and compare usage
// without allocating.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/quantity.hpp"
#include "model/resources.hpp"
#include "plugins/common/resource_amount.hpp"
#include "plugins/load_aware/load_aware_args.hpp"

namespace troupe::plugins::load_aware {

/// More resources than this in one profile's args is a configuration error.
inline constexpr size_t kMaxLoadResources = 8;

/// The resources compared, sorted by name.
struct LoadAxes {
  std::vector<std::string> names;

  size_t size() const { return names.size(); }
  std::optional<size_t> index_of(std::string_view name) const;
};

/// cpu, memory and every resource named by the args' thresholds, weights and
/// scaling factors. Throws config::FieldError when that is more than kMaxLoadResources.
LoadAxes load_axes_of(const LoadAwareSchedulingArgs& args);

/// One amount per axis; entries past the axes stay 0.
struct LoadVector {
  std::array<int64_t, kMaxLoadResources> amounts{};
  /// False when no amount was ever set (Koordinator's nil vector).
  bool present = false;

  int64_t operator[](size_t i) const { return amounts[i]; }
  int64_t& operator[](size_t i) { return amounts[i]; }
  void add(const LoadVector& other);
};

/// The axes' amounts of a resource list (absent = 0); present even when empty.
LoadVector load_of(const LoadAxes& axes, const ResourceList& list);

/// `list` with `overlay`'s entries replacing or added to it.
ResourceList overlaid(const ResourceList& list, const ResourceList& overlay);

}  // namespace troupe::plugins::load_aware
