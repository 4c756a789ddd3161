#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "model/cpuset.hpp"

namespace {

using troupe::CpuSet;

CpuSet cpus(const char* text) {
  auto parsed = CpuSet::parse(text);
  INFO("parsing \"" << text << "\": " << (parsed ? "" : parsed.message()));
  REQUIRE(parsed.ok());
  return *parsed;
}

TEST_CASE("CpuSet parses the Linux cpulist format", "[cpuset]") {
  struct Case {
    const char* text;
    const char* canonical;
    std::vector<int> ids;
  };
  const Case cases[] = {
      {"", "", {}},
      {"\n", "", {}},
      {"0", "0", {0}},
      {"5", "5", {5}},
      {"0-3", "0-3", {0, 1, 2, 3}},
      {"2-3", "2-3", {2, 3}},
      {"7-7", "7", {7}},
      {"0-3,8-11", "0-3,8-11", {0, 1, 2, 3, 8, 9, 10, 11}},
      {"0-3,8-11\n", "0-3,8-11", {0, 1, 2, 3, 8, 9, 10, 11}},
      {"1,3,5", "1,3,5", {1, 3, 5}},
      {"1,2,3", "1-3", {1, 2, 3}},
      {"3,1,2", "1-3", {1, 2, 3}},
      {"0-3,2-5", "0-5", {0, 1, 2, 3, 4, 5}},
      {"0-1,2-3", "0-3", {0, 1, 2, 3}},
      {"4,4,4", "4", {4}},
      {"00,010", "0,10", {0, 10}},
      {"62-65", "62-65", {62, 63, 64, 65}},
      {"63,64", "63-64", {63, 64}},
      {"1023", "1023", {1023}},
      {"1020-1023,0", "0,1020-1023", {0, 1020, 1021, 1022, 1023}},
  };
  for (const auto& c : cases) {
    INFO("input \"" << c.text << "\"");
    CpuSet set = cpus(c.text);
    CHECK(set.to_string() == c.canonical);
    CHECK(set.to_vector() == c.ids);
    CHECK(set.size() == c.ids.size());
    CHECK(set.empty() == c.ids.empty());
    CHECK(cpus(set.to_string().c_str()) == set);
  }
  CHECK(cpus("0-1023").size() == 1024);
  CHECK(cpus("0-1023").to_string() == "0-1023");
}

TEST_CASE("CpuSet rejects malformed lists with the element at fault", "[cpuset]") {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"3-1", "invalid cpuset \"3-1\": range end before start"},
      {"0,3-1", "invalid cpuset \"0,3-1\": range end before start in \"3-1\""},
      {"1,,2", "invalid cpuset \"1,,2\": empty element in \"\""},
      {"1,", "invalid cpuset \"1,\": empty element in \"\""},
      {",1", "invalid cpuset \",1\": empty element in \"\""},
      {",", "invalid cpuset \",\": empty element in \"\""},
      {"-1", "invalid cpuset \"-1\": negative CPU number"},
      {"0,-1", "invalid cpuset \"0,-1\": negative CPU number in \"-1\""},
      {"1--2", "invalid cpuset \"1--2\": negative CPU number"},
      {"1-", "invalid cpuset \"1-\": missing CPU number"},
      {"a", "invalid cpuset \"a\": \"a\" is not a CPU number"},
      {"1-b", "invalid cpuset \"1-b\": \"b\" is not a CPU number"},
      {"1-2-3", "invalid cpuset \"1-2-3\": \"2-3\" is not a CPU number"},
      {"1.5", "invalid cpuset \"1.5\": \"1.5\" is not a CPU number"},
      {" 1", "invalid cpuset \" 1\": \" 1\" is not a CPU number"},
      {"1, 2", "invalid cpuset \"1, 2\": \" 2\" is not a CPU number in \" 2\""},
      {"1\n\n", "invalid cpuset \"1\n\": \"1\n\" is not a CPU number"},
      {"0-7:2", "invalid cpuset \"0-7:2\": \"7:2\" is not a CPU number"},
      {"1024", "invalid cpuset \"1024\": CPU 1024 is above the maximum 1023"},
      {"0-99999999999999999999", "invalid cpuset \"0-99999999999999999999\": CPU 99999999999999999999 is above the "
                                 "maximum 1023"},
  };
  for (const auto& c : cases) {
    INFO("input \"" << c.text << "\"");
    auto parsed = CpuSet::parse(c.text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.message() == c.message);
  }
}

TEST_CASE("CpuSet set operations", "[cpuset]") {
  struct Case {
    const char* a;
    const char* b;
    const char* both;     // a | b
    const char* common;   // a & b
    const char* a_only;   // a - b
    bool a_within_b;
    bool overlap;
  };
  const Case cases[] = {
      {"", "", "", "", "", true, false},
      {"0-3", "", "0-3", "", "0-3", false, false},
      {"", "0-3", "0-3", "", "", true, false},
      {"0-3", "2-5", "0-5", "2-3", "0-1", false, true},
      {"0-3", "4-7", "0-7", "", "0-3", false, false},
      {"1,3", "0-7", "0-7", "1,3", "", true, true},
      {"0-127", "64-191", "0-191", "64-127", "0-63", false, true},
      {"0,1023", "1023", "0,1023", "1023", "0", false, true},
      {"0-1023", "1-1022", "0-1023", "1-1022", "0,1023", false, true},
  };
  for (const auto& c : cases) {
    INFO(c.a << " vs " << c.b);
    CpuSet a = cpus(c.a);
    CpuSet b = cpus(c.b);
    CHECK((a | b).to_string() == c.both);
    CHECK((a & b).to_string() == c.common);
    CHECK((a - b).to_string() == c.a_only);
    CHECK(a.is_subset_of(b) == c.a_within_b);
    CHECK(a.intersects(b) == c.overlap);
    CHECK(b.intersects(a) == c.overlap);
    CHECK((a | b) == (b | a));
    CHECK(((a - b) | (a & b)) == a);
  }
}

TEST_CASE("CpuSet element access", "[cpuset]") {
  CpuSet set = cpus("2-4,64,700");
  CHECK(set.contains(2));
  CHECK(set.contains(64));
  CHECK_FALSE(set.contains(5));
  CHECK_FALSE(set.contains(-1));
  CHECK_FALSE(set.contains(1024));
  CHECK(set.first() == 2);
  CHECK(set.last() == 700);
  CHECK(CpuSet().first() == -1);
  CHECK(CpuSet().last() == -1);

  CHECK(set.insert(5));
  CHECK_FALSE(set.insert(-1));
  CHECK_FALSE(set.insert(1024));
  set.erase(64);
  set.erase(9999);  // outside: ignored
  CHECK(set.to_string() == "2-5,700");

  std::vector<int> seen;
  for (int cpu : set) seen.push_back(cpu);
  CHECK(seen == std::vector<int>{2, 3, 4, 5, 700});
  CHECK(CpuSet().begin() == CpuSet().end());

  CHECK((CpuSet{0, 2, 1, 9}).to_string() == "0-2,9");
  CHECK((CpuSet{-5, 3, 4096}).to_string() == "3");
  CHECK(CpuSet{1, 2} != CpuSet{1});

  std::ostringstream out;
  out << cpus("0-1,4");
  CHECK(out.str() == "\"0-1,4\"");
}

TEST_CASE("CpuSet first_n takes the lowest ids", "[cpuset]") {
  struct Case {
    const char* set;
    std::size_t k;
    const char* expected;
  };
  const Case cases[] = {
      {"0-7", 0, ""},          {"0-7", 3, "0-2"},        {"0-7", 8, "0-7"},
      {"0-7", 100, "0-7"},     {"", 4, ""},              {"1,3,5,7", 2, "1,3"},
      {"60-70", 6, "60-65"},   {"0-63,128", 64, "0-63"}, {"0-63,128", 65, "0-63,128"},
      {"5,900-1023", 3, "5,900-901"},
  };
  for (const auto& c : cases) {
    INFO(c.set << " first " << c.k);
    CHECK(cpus(c.set).first_n(c.k).to_string() == c.expected);
  }
}

TEST_CASE("CpuSet checked constructors", "[cpuset]") {
  CHECK(CpuSet::from_range(4, 7)->to_string() == "4-7");
  CHECK(CpuSet::from_range(0, 1023)->size() == 1024);
  CHECK(CpuSet::from_range(7, 4).message() == "CPU range 7..4 ends before it starts");
  CHECK(CpuSet::from_range(-1, 4).message() == "CPU range -1..4 is outside 0-1023");
  CHECK(CpuSet::from_range(0, 1024).message() == "CPU range 0..1024 is outside 0-1023");
  CHECK(CpuSet::from_ids({3, 1, 2})->to_string() == "1-3");
  CHECK(CpuSet::from_ids({}).value().empty());
  CHECK(CpuSet::from_ids({1, 2000}).message() == "CPU id 2000 is outside 0-1023");
  CHECK(CpuSet::from_ids({-3}).message() == "CPU id -3 is outside 0-1023");
}

}  // namespace
