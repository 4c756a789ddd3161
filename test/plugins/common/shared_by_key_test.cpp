#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "plugins/common/shared_by_key.hpp"

using troupe::plugins::SharedByKey;

namespace {

struct Value {
  std::string key;
};

}  // namespace

TEST_CASE("SharedByKey builds a key's value once while it is held", "[common][shared]") {
  SharedByKey<Value> cache;
  int builds = 0;
  auto make = [&](const std::string& key) {
    return [&, key] {
      ++builds;
      return std::make_shared<const Value>(Value{key});
    };
  };
  auto a = cache.get("a", make("a"));
  auto a2 = cache.get("a", make("a"));
  auto b = cache.get("b", make("b"));
  CHECK(a == a2);
  CHECK(a != b);
  CHECK(a->key == "a");
  CHECK(builds == 2);
  CHECK(cache.in_use() == 2);

  std::weak_ptr<const Value> released = b;
  b.reset();
  CHECK(released.expired());  // the cache holds values weakly
  CHECK(cache.in_use() == 1);
  auto b2 = cache.get("b", make("b"));
  CHECK(builds == 3);  // built again, into the same entry
  CHECK(cache.stored() == 2);
}

TEST_CASE("SharedByKey keeps nothing for a failed build and prunes released entries", "[common][shared]") {
  SharedByKey<Value> cache;
  CHECK(cache.get("bad", [] { return std::shared_ptr<const Value>(); }) == nullptr);
  CHECK(cache.stored() == 0);
  auto kept = cache.get("kept", [] { return std::make_shared<const Value>(Value{"kept"}); });
  for (int i = 0; i < 200; ++i) {
    auto v = cache.get(std::to_string(i), [&] { return std::make_shared<const Value>(Value{std::to_string(i)}); });
    CHECK(cache.stored() <= 16);  // bounded by about twice the entries in use
  }
  CHECK(cache.in_use() == 1);
}

TEST_CASE("SharedByKey gives every thread the same value", "[common][shared]") {
  SharedByKey<Value> cache;
  constexpr int kThreads = 8;
  std::vector<std::shared_ptr<const Value>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 100; ++round)
        got[t] = cache.get("k", [] { return std::make_shared<const Value>(Value{"k"}); });
    });
  for (auto& th : threads) th.join();
  for (const auto& v : got) CHECK(v == got[0]);
}
