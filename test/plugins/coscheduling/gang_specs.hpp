#pragma once
// GangSpecs for the coscheduling tests: a gang's rules as the GangBook reads them.

#include <algorithm>
#include <string>
#include <vector>

#include "plugins/coscheduling/gang_spec.hpp"

namespace troupe::test {

/// total-number = min; `group` empty: a group of its own.
inline plugins::coscheduling::GangSpec gang(
    const std::string& id, int min,
    plugins::coscheduling::MatchPolicy policy = plugins::coscheduling::MatchPolicy::once_satisfied,
    plugins::coscheduling::GangMode mode = plugins::coscheduling::GangMode::strict,
    std::vector<std::string> group = {}) {
  plugins::coscheduling::GangSpec spec;
  spec.id = id;
  spec.min_member = min;
  spec.total_number = min;
  spec.mode = mode;
  spec.match_policy = policy;
  spec.group = group.empty() ? std::vector<std::string>{id} : std::move(group);
  std::sort(spec.group.begin(), spec.group.end());
  for (const auto& g : spec.group) spec.group_id += (spec.group_id.empty() ? "" : ",") + g;
  return spec;
}

}  // namespace troupe::test
