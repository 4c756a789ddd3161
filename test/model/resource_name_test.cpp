#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "model/resource_name.hpp"

using troupe::ResourceName;

TEST_CASE("ResourceName: one copy per name, compared and ordered as its text", "[resource_name]") {
  const std::string long_name = "koordinator.sh/gpu-memory-ratio";
  const ResourceName a(long_name), b(std::string("koordinator.sh/") + "gpu-memory-ratio");
  CHECK(a == b);
  CHECK(&a.str() == &b.str());  // interned: the same string
  CHECK(a.str() == long_name);
  CHECK(ResourceName() == ResourceName(""));

  struct Case {
    std::string x, y;
    bool less;
  };
  const std::vector<Case> cases = {
      {"a.io/x", "b.io/x", true}, {"b.io/x", "a.io/x", false}, {"nvidia.com/gpu", "nvidia.com/gpu", false},
      {"hugepages-1Gi", "hugepages-2Mi", true}, {"", "a", true},
  };
  for (const auto& c : cases) {
    INFO(c.x << " < " << c.y);
    CHECK((ResourceName(c.x) < ResourceName(c.y)) == c.less);
    CHECK((ResourceName(c.x) < std::string_view(c.y)) == c.less);
    CHECK((std::string_view(c.x) < ResourceName(c.y)) == c.less);
    CHECK((ResourceName(c.x) == ResourceName(c.y)) == (c.x == c.y));
    CHECK((ResourceName(c.x) == std::string_view(c.y)) == (c.x == c.y));
  }
  CHECK("Insufficient " + ResourceName("example.com/foo") == "Insufficient example.com/foo");
}

TEST_CASE("ResourceName: threads interning the same names get the same copies", "[resource_name]") {
  constexpr int kThreads = 4;
  std::vector<std::vector<const std::string*>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) got[t].push_back(&ResourceName("example.com/r" + std::to_string(i)).str());
    });
  for (auto& th : threads) th.join();
  for (int t = 1; t < kThreads; ++t) CHECK(got[t] == got[0]);
}

