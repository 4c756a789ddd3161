#include <catch2/catch.hpp>

#include <algorithm>
#include <string_view>

#include "plugins/framework/resource_vector.hpp"

using troupe::plugins::ResourceVector;

TEST_CASE("ResourceVector keeps interned scalar names in name order", "[resource_vector]") {
  troupe::ResourceList list;
  list["zz.example/b"] = troupe::Quantity::from_value(2);
  list["koordinator.sh/gpu-memory-ratio"] = troupe::Quantity::from_value(800);
  list["cpu"] = troupe::Quantity::from_value(4);
  const ResourceVector v = ResourceVector::from(list);
  REQUIRE(v.scalars.size() == 2);
  CHECK(v.scalars[0].first == std::string_view("koordinator.sh/gpu-memory-ratio"));
  CHECK(v.scalar("zz.example/b") == 2);
  ResourceVector sum = v;
  sum.add(v);
  sum.subtract(v);
  CHECK(sum == v);
  CHECK(std::is_sorted(sum.scalars.begin(), sum.scalars.end(),
                       [](const auto& x, const auto& y) { return x.first < y.first; }));
}
