// Token bucket and backoff arithmetic with injected clocks: no sleeping, no timing.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>
#include <vector>

#include "watch/backoff.hpp"
#include "watch/cancel_token.hpp"
#include "watch/rate_limiter.hpp"

using namespace troupe::watch;
using namespace std::chrono_literals;

namespace {

struct FakeClock {
  RateLimiter::Clock::time_point now = RateLimiter::Clock::time_point(std::chrono::hours(1000));
  RateLimiter::NowFn fn() {
    return [this] { return now; };
  }
};

double seconds(RateLimiter::Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

TEST_CASE("rate limiter: a full bucket serves the burst at once, then one token per 1/qps", "[rate_limiter]") {
  FakeClock clock;
  RateLimiter limiter({50, 100}, clock.fn());  // kube-scheduler's defaults
  for (int i = 0; i < 100; ++i) REQUIRE(limiter.reserve() == RateLimiter::Clock::duration::zero());
  // The 101st..103rd callers queue behind each other, 20 ms apart.
  CHECK(seconds(limiter.reserve()) == Approx(0.02));
  CHECK(seconds(limiter.reserve()) == Approx(0.04));
  CHECK(seconds(limiter.reserve()) == Approx(0.06));
  CHECK(limiter.available() == Approx(-3));
  clock.now += 60ms;  // the three waits are over
  CHECK(limiter.available() == Approx(0).margin(1e-9));
  CHECK_FALSE(limiter.try_acquire());
  clock.now += 20ms;
  CHECK(limiter.try_acquire());
}

TEST_CASE("rate limiter: refill is capped at the burst", "[rate_limiter]") {
  FakeClock clock;
  RateLimiter limiter({10, 5}, clock.fn());
  for (int i = 0; i < 5; ++i) REQUIRE(limiter.try_acquire());
  CHECK_FALSE(limiter.try_acquire());
  clock.now += 250ms;  // 2.5 tokens
  CHECK(limiter.available() == Approx(2.5));
  clock.now += std::chrono::hours(1);
  CHECK(limiter.available() == Approx(5));
}

TEST_CASE("rate limiter: table of qps/burst/elapsed cases", "[rate_limiter]") {
  struct Case {
    double qps;
    int burst;
    int taken_at_start;
    std::chrono::milliseconds elapsed;
    double expected_wait_seconds;  // for the next reserve()
  };
  const std::vector<Case> cases = {
      {50, 100, 100, 0ms, 0.02},   {50, 100, 100, 20ms, 0.0},  {50, 100, 100, 10ms, 0.01},
      {5, 1, 1, 0ms, 0.2},         {5, 1, 1, 100ms, 0.1},      {1, 3, 3, 0ms, 1.0},
      {1, 3, 0, 0ms, 0.0},         {0.5, 1, 1, 0ms, 2.0},      {1000, 1, 1, 0ms, 0.001},
      {20, 0, 1, 0ms, 0.05},  // burst below 1 counts as 1
  };
  for (const auto& c : cases) {
    INFO("qps " << c.qps << " burst " << c.burst << " taken " << c.taken_at_start << " elapsed "
                << c.elapsed.count() << "ms");
    FakeClock clock;
    RateLimiter limiter({c.qps, c.burst}, clock.fn());
    for (int i = 0; i < c.taken_at_start; ++i) (void)limiter.reserve();
    clock.now += c.elapsed;
    CHECK(seconds(limiter.reserve()) == Approx(c.expected_wait_seconds).margin(1e-9));
  }
}

TEST_CASE("rate limiter: qps <= 0 disables limiting", "[rate_limiter]") {
  FakeClock clock;
  RateLimiter limiter({0, 1}, clock.fn());
  for (int i = 0; i < 1000; ++i) REQUIRE(limiter.reserve() == RateLimiter::Clock::duration::zero());
  CHECK(limiter.try_acquire());
}

TEST_CASE("rate limiter: a clock stepping backwards never adds tokens", "[rate_limiter]") {
  FakeClock clock;
  RateLimiter limiter({10, 2}, clock.fn());
  REQUIRE(limiter.try_acquire());
  REQUIRE(limiter.try_acquire());
  clock.now -= std::chrono::hours(1);
  CHECK(limiter.available() == Approx(0));
  clock.now += std::chrono::hours(1) + 100ms;
  CHECK(limiter.available() == Approx(1));
}

TEST_CASE("rate limiter: a cancelled acquire gives its token back", "[rate_limiter]") {
  FakeClock clock;
  RateLimiter limiter({1, 1}, clock.fn());
  REQUIRE(limiter.try_acquire());
  CancelToken cancel;
  cancel.cancel();
  CHECK_FALSE(limiter.acquire(&cancel));  // would wait 1 s; cancelled at once
  CHECK(limiter.available() == Approx(0));
}

TEST_CASE("backoff: doubles from the initial delay to the cap, with jitter on top", "[backoff]") {
  Backoff::Clock::time_point now{};
  double random = 0.0;
  Backoff backoff({800ms, 30'000ms, 120'000ms, 2.0, 1.0}, [&] { return now; }, [&] { return random; });
  const std::vector<long> expected = {800, 1600, 3200, 6400, 12800, 25600, 30000, 30000};
  for (long ms : expected) {
    now += 1s;
    CHECK(backoff.next().count() == ms);
  }
  random = 0.5;  // jitter adds up to jitter × base
  now += 1s;
  CHECK(backoff.next().count() == 45000);
}

TEST_CASE("backoff: resets after a healthy stretch longer than reset_after", "[backoff]") {
  Backoff::Clock::time_point now{};
  Backoff backoff({100ms, 10'000ms, 60'000ms, 2.0, 0.0}, [&] { return now; }, [] { return 0.0; });
  CHECK(backoff.next().count() == 100);
  now += 10s;
  CHECK(backoff.next().count() == 200);
  now += 60s;  // exactly the reset period: not yet
  CHECK(backoff.next().count() == 400);
  now += 60s + 1ms;
  CHECK(backoff.next().count() == 100);
  backoff.next();
  backoff.reset();
  CHECK(backoff.next().count() == 100);
}

TEST_CASE("backoff: default random jitter stays between base and base times (1 + jitter)", "[backoff]") {
  Backoff backoff({1000ms, 1000ms, 60'000ms, 2.0, 1.0});
  for (int i = 0; i < 200; ++i) {
    const auto d = backoff.next();
    REQUIRE(d >= 1000ms);
    REQUIRE(d < 2000ms);
  }
}

TEST_CASE("cancel token: sleep, hooks, idempotence", "[cancel_token]") {
  CancelToken token;
  int calls = 0;
  {
    CancelToken::Hook hook = token.on_cancel([&] { ++calls; });
    CancelToken::Hook gone = token.on_cancel([&] { calls += 100; });
    gone = CancelToken::Hook{};  // released before the cancel: never runs
    std::thread canceller([&] { token.cancel(); });
    CHECK_FALSE(token.sleep_for(std::chrono::hours(1)));  // woken by the cancel, not the hour
    canceller.join();
    token.cancel();
  }
  CHECK(calls == 1);
  CHECK(token.cancelled());
  bool ran_at_once = false;
  CancelToken::Hook late = token.on_cancel([&] { ran_at_once = true; });
  CHECK(ran_at_once);
  CHECK(sleep_unless_cancelled(nullptr, 0ms));
}
