#pragma once
// A TaskDistribution built from classes a test knows to be valid (the
// Fragmentation tests: fragmentation, policy, card waste, taskClasses text).

#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "plugins/deviceshare/fragmentation.hpp"

namespace troupe::plugins::deviceshare::testing {

inline TaskDistribution distribution(std::vector<GpuTaskClass> classes) {
  auto made = TaskDistribution::make(std::move(classes));
  REQUIRE(made);
  return std::move(*made);
}

}  // namespace troupe::plugins::deviceshare::testing
