#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "model/node.hpp"
#include "model/resources.hpp"

using troupe::Quantity;
using troupe::ResourceList;

namespace {

// What a std::map keyed by the name text holds: the reference the flat list must match.
using Reference = std::map<std::string, Quantity>;

void check_same(const ResourceList& list, const Reference& ref) {
  REQUIRE(list.size() == ref.size());
  auto it = list.begin();
  for (const auto& [name, q] : ref) {
    CHECK(it->first == name);
    CHECK(it->second == q);
    ++it;
  }
}

}  // namespace

TEST_CASE("ResourceList behaves as a map ordered by name", "[resources][flat]") {
  std::mt19937 rng(7);
  const std::vector<std::string> names = {"cpu", "memory", "pods", "nvidia.com/gpu", "koordinator.sh/gpu-core",
                                          "koordinator.sh/gpu-memory-ratio", "hugepages-2Mi", "a", "zz.example/x"};
  ResourceList list;
  Reference ref;
  for (int step = 0; step < 2000; ++step) {
    const std::string& name = names[rng() % names.size()];
    const Quantity q = Quantity::from_value(static_cast<int64_t>(rng() % 100));
    switch (rng() % 5) {
      case 0: {  // emplace keeps an existing quantity
        const bool inserted = list.emplace(name, q).second;
        CHECK(inserted == ref.emplace(name, q).second);
        break;
      }
      case 1:  // operator[] inserts zero, then assigns
        list[name] = q;
        ref[name] = q;
        break;
      case 2:
        CHECK(list.erase(name) == ref.erase(name));
        break;
      case 3:
        list.insert_or_assign(name, q);
        ref.insert_or_assign(name, q);
        break;
      default: {
        auto found = list.find(name);
        REQUIRE((found == list.end()) == (ref.count(name) == 0));
        if (found != list.end()) {
          CHECK(found->second == ref.at(name));
          CHECK(list.at(name) == ref.at(name));
          CHECK(list.get(name) == ref.at(name));
        } else {
          CHECK(list.get(name).is_zero());
          CHECK_THROWS_AS(list.at(name), std::out_of_range);
        }
      }
    }
    check_same(list, ref);
  }
}

TEST_CASE("ResourceList construction, equality and erasing while iterating", "[resources][flat]") {
  const ResourceList a = {{"memory", Quantity::from_value(1)}, {"cpu", Quantity::from_value(2)},
                          {"memory", Quantity::from_value(9)}};  // a later duplicate is ignored, as in std::map
  REQUIRE(a.size() == 2);
  CHECK(a.begin()->first == "cpu");
  CHECK(a.at("memory") == Quantity::from_value(1));
  const ResourceList b(a.begin(), a.end());
  CHECK(a == b);
  ResourceList c = b;
  c["cpu"] = Quantity::from_value(3);
  CHECK(c != b);
  for (auto it = c.begin(); it != c.end();) it = it->first == "cpu" ? c.erase(it) : std::next(it);
  CHECK(c.size() == 1);
  CHECK(c.count("cpu") == 0);
  CHECK(c.contains("memory"));
  CHECK(ResourceList().empty());
}

TEST_CASE("A decoded ResourceList keeps no spare room", "[resources][flat]") {
  // Nodes keep two lists each: a decoder growing the array by doubling would
  // leave 7 of 16 entries unused for a GPU node's 9 names.
  auto node = troupe::decode_node_json(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":{
      "allocatable":{"cpu":"64","memory":"256Gi","pods":"110","nvidia.com/gpu":"8","koordinator.sh/gpu":"800",
                     "koordinator.sh/gpu-core":"800","koordinator.sh/gpu-memory":"640Gi",
                     "koordinator.sh/gpu-memory-ratio":"800","koordinator.sh/rdma":"200"}}})");
  REQUIRE(node.ok());
  const ResourceList& a = node->status.allocatable;
  REQUIRE(a.size() == 9);
  CHECK(a.capacity() == 9);
  CHECK(a.begin()->first == "cpu");
}
