#pragma once
// The quota helpers (k8s.io/apiserver/pkg/quota/v1) the reservation code
// leans on, over ResourceList: Mask, ResourceNames, Intersection and
// SubtractWithNonNegativeResult.

#include <string>
#include <vector>

#include "model/resources.hpp"

namespace troupe::plugins::reservation {

/// The names of `list`, in order.
std::vector<std::string> resource_names(const ResourceList& list);
/// Only the entries of `list` whose name is in `names`.
ResourceList mask(const ResourceList& list, const std::vector<std::string>& names);
/// a − b per name, never below zero; names only `b` has are left out.
ResourceList subtract_non_negative(const ResourceList& a, const ResourceList& b);
/// The names present in both (sorted inputs give sorted output).
std::vector<std::string> intersection(const std::vector<std::string>& a, const std::vector<std::string>& b);

}  // namespace troupe::plugins::reservation
