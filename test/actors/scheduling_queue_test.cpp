#include <catch2/catch.hpp>

#include "actors/scheduling_queue.hpp"

using namespace troupe::actors;
using namespace std::chrono_literals;

namespace {

// Payload = priority; QueueSort = PrioritySort (higher priority first, then older first).
using Queue = SchedulingQueue<int>;

Queue make_queue(QueueSettings settings = {}) {
  return Queue([](const Queue::Entry& a, const Queue::Entry& b) {
    if (a.payload != b.payload) return a.payload > b.payload;
    return a.added < b.added;
  }, settings);
}

const QueueClock::time_point t0{};

std::vector<std::string> drain(Queue& q, QueueClock::time_point now) {
  std::vector<std::string> keys;
  while (auto e = q.pop(now)) {
    keys.push_back(e->key);
    q.done(e->key);
  }
  return keys;
}

}  // namespace

TEST_CASE("activeQ pops by priority, then by arrival") {
  struct Case {
    std::vector<std::pair<std::string, int>> arrivals;  // in arrival order
    std::vector<std::string> expected;
  };
  std::vector<Case> cases = {
      {{}, {}},
      {{{"a", 0}}, {"a"}},
      {{{"a", 0}, {"b", 0}, {"c", 0}}, {"a", "b", "c"}},
      {{{"a", 0}, {"b", 10}, {"c", 5}}, {"b", "c", "a"}},
      {{{"a", 5}, {"b", 5}, {"c", 100}, {"d", -1}}, {"c", "a", "b", "d"}},
  };
  for (const auto& c : cases) {
    auto q = make_queue();
    auto now = t0;
    for (const auto& [key, prio] : c.arrivals) q.add(key, prio, now += 1ms);
    CHECK(drain(q, now) == c.expected);
  }
}

TEST_CASE("pods the QueueSort cannot tell apart keep their order of arrival") {
  struct Case {
    std::vector<std::pair<std::string, int>> arrivals;  // in arrival order, all at the same instant
    std::vector<std::string> expected;
  };
  std::vector<Case> cases = {
      {{{"c", 0}, {"b", 0}, {"a", 0}}, {"c", "b", "a"}},
      {{{"pod-10", 0}, {"pod-9", 0}, {"pod-100", 0}}, {"pod-10", "pod-9", "pod-100"}},
      {{{"z", 0}, {"y", 7}, {"x", 0}, {"w", 7}}, {"y", "w", "z", "x"}},
  };
  for (const auto& c : cases) {
    auto q = make_queue();
    for (const auto& [key, prio] : c.arrivals) q.add(key, prio, t0);
    CHECK(drain(q, t0) == c.expected);
  }
  SECTION("an update keeps the pod's place") {
    auto q = make_queue();
    q.add("b", 0, t0);
    q.add("a", 0, t0);
    q.add("b", 0, t0);  // the same pod again (an update)
    CHECK(drain(q, t0) == std::vector<std::string>{"b", "a"});
  }
}

TEST_CASE("re-adding a queued pod updates it rather than duplicating it") {
  auto q = make_queue();
  q.add("a", 0, t0);
  q.add("b", 1, t0 + 1ms);
  q.add("a", 5, t0 + 2ms);  // priority raised while queued
  CHECK(q.size() == 2);
  CHECK(drain(q, t0 + 3ms) == std::vector<std::string>{"a", "b"});
}

TEST_CASE("backoff doubles per attempt and is capped") {
  auto q = make_queue({1000ms, 10000ms, 5min});
  struct Case { int attempts; std::chrono::milliseconds expected; };
  for (auto c : std::vector<Case>{{1, 1000ms}, {2, 2000ms}, {3, 4000ms}, {4, 8000ms}, {5, 10000ms}, {40, 10000ms}})
    CHECK(q.backoff_duration(c.attempts) == c.expected);
}

TEST_CASE("an unschedulable pod waits for an event that may help it") {
  auto q = make_queue();
  q.add("p", 0, t0);
  auto e = q.pop(t0);
  REQUIRE(e);
  q.failed("p", {"NodeResourcesFit"}, false, t0);
  CHECK(q.where("p") == Queue::Where::unschedulable);
  CHECK_FALSE(q.pop(t0 + 1h - 1s));  // nothing moves it but events (or the 5 min flush)

  // An event only TaintToleration cares about does not move it.
  CHECK(q.on_cluster_event([](const Queue::Entry& e) { return e.rejected_by.count("TaintToleration") > 0; }, t0 + 2s) == 0);
  CHECK(q.where("p") == Queue::Where::unschedulable);

  // One NodeResourcesFit cares about does; the backoff (1 s) has passed, so activeQ.
  CHECK(q.on_cluster_event([](const Queue::Entry& e) { return e.rejected_by.count("NodeResourcesFit") > 0; }, t0 + 2s) == 1);
  CHECK(q.where("p") == Queue::Where::active);
  REQUIRE(q.pop(t0 + 2s));
}

TEST_CASE("an event during backoff sends the pod to backoffQ, which releases it when the backoff ends") {
  auto q = make_queue();
  q.add("p", 0, t0);
  REQUIRE(q.pop(t0));
  q.failed("p", {"NodeResourcesFit"}, false, t0);
  q.on_cluster_event(nullptr, t0 + 100ms);
  CHECK(q.where("p") == Queue::Where::backoff);
  CHECK(q.next_backoff_expiry() == t0 + 1000ms);
  CHECK_FALSE(q.pop(t0 + 999ms));
  CHECK(q.pop(t0 + 1000ms));
}

TEST_CASE("an event while the pod is in flight sends a failure to backoff, not to unschedulable") {
  auto q = make_queue();
  q.add("p", 0, t0);
  REQUIRE(q.pop(t0));
  q.on_cluster_event(nullptr, t0 + 1ms);  // e.g. a node was added mid-cycle
  q.failed("p", {"NodeResourcesFit"}, false, t0 + 2ms);
  CHECK(q.where("p") == Queue::Where::backoff);
}

TEST_CASE("a pod updated while in flight is tried again when its stale attempt fails") {
  auto q = make_queue();
  q.add("p", 0, t0);
  REQUIRE(q.pop(t0));
  q.update("p", 5, t0 + 1ms);  // e.g. a toleration added while the old spec was being tried
  q.failed("p", {"TaintToleration"}, false, t0 + 2ms);
  CHECK(q.where("p") == Queue::Where::backoff);
  // The next attempt sees the new spec; if that one fails too, it waits for an event.
  auto again = q.pop(t0 + 10s);
  REQUIRE(again);
  CHECK(again->payload == 5);
  q.failed("p", {"TaintToleration"}, false, t0 + 11s);
  CHECK(q.where("p") == Queue::Where::unschedulable);
}

TEST_CASE("errors always back off; attempts accumulate") {
  auto q = make_queue();
  q.add("p", 0, t0);
  REQUIRE(q.pop(t0));
  q.failed("p", {}, true, t0);
  CHECK(q.where("p") == Queue::Where::backoff);
  auto e = q.pop(t0 + 1s);
  REQUIRE(e);
  CHECK(e->attempts == 1);
  q.failed("p", {}, true, t0 + 1s);
  CHECK(q.next_backoff_expiry() == t0 + 1s + 2s);
}

TEST_CASE("the periodic flush retries pods unschedulable for too long") {
  auto q = make_queue({1000ms, 10000ms, 60s});
  q.add("p", 0, t0);
  REQUIRE(q.pop(t0));
  q.failed("p", {"X"}, false, t0);
  q.flush(t0 + 59s);
  CHECK(q.where("p") == Queue::Where::unschedulable);
  q.flush(t0 + 60s);
  CHECK(q.where("p") == Queue::Where::active);
}

TEST_CASE("removing a pod takes it out of whichever queue holds it") {
  for (auto where : {Queue::Where::active, Queue::Where::backoff, Queue::Where::unschedulable, Queue::Where::gated,
                     Queue::Where::in_flight}) {
    auto q = make_queue();
    q.add("p", 0, t0, where == Queue::Where::gated);
    if (where != Queue::Where::active && where != Queue::Where::gated) {
      REQUIRE(q.pop(t0));
      if (where != Queue::Where::in_flight) q.failed("p", {"X"}, where == Queue::Where::backoff, t0);
    }
    REQUIRE(q.where("p") == where);
    q.remove("p");
    CHECK(q.where("p") == Queue::Where::none);
    CHECK(q.size() == 0);
    CHECK(q.active_size() + q.backoff_size() + q.unschedulable_size() + q.gated_size() == 0);
    CHECK_FALSE(q.pop(t0 + 1h));
  }
}

TEST_CASE("an update to an unschedulable pod gives it another try") {
  auto q = make_queue();
  q.add("p", 0, t0);
  REQUIRE(q.pop(t0));
  q.failed("p", {"NodeAffinity"}, false, t0);
  q.update("p", 7, t0 + 5s);
  CHECK(q.where("p") == Queue::Where::active);
  auto e = q.pop(t0 + 5s);
  REQUIRE(e);
  CHECK(e->payload == 7);
}

TEST_CASE("a gated pod waits for an update that lifts its gate, and for nothing else") {
  auto q = make_queue(QueueSettings{1s, 10s, 60s});
  q.add("gated", 5, t0, true);
  q.add("free", 0, t0);
  CHECK(q.where("gated") == Queue::Where::gated);
  CHECK(q.gated_size() == 1);
  CHECK(drain(q, t0) == std::vector<std::string>{"free"});
  q.on_cluster_event({}, t0 + 1s);  // an event that may help every unschedulable pod
  q.flush(t0 + 1h);                 // and the periodic flush, long after
  CHECK(q.where("gated") == Queue::Where::gated);
  q.update("gated", 5, t0 + 2h, true);  // another update that keeps a gate
  CHECK(q.where("gated") == Queue::Where::gated);
  q.update("gated", 5, t0 + 3h, false);
  CHECK(q.where("gated") == Queue::Where::active);
  CHECK(q.gated_size() == 0);
  CHECK(drain(q, t0 + 3h) == std::vector<std::string>{"gated"});
}

TEST_CASE("a gate keeps its place in line: released, the pod sorts by its first arrival") {
  auto q = make_queue();
  q.add("early", 0, t0, true);
  q.add("late", 0, t0 + 1s);
  q.update("early", 0, t0 + 2s, false);
  CHECK(drain(q, t0 + 2s) == std::vector<std::string>{"early", "late"});
}

TEST_CASE("an update that adds a gate takes the pod out of whichever queue held it") {
  for (auto where : {Queue::Where::active, Queue::Where::backoff, Queue::Where::unschedulable}) {
    auto q = make_queue();
    q.add("p", 0, t0);
    if (where != Queue::Where::active) {
      REQUIRE(q.pop(t0));
      q.failed("p", {"X"}, where == Queue::Where::backoff, t0);
    }
    REQUIRE(q.where("p") == where);
    q.update("p", 0, t0 + 1s, true);
    CHECK(q.where("p") == Queue::Where::gated);
    CHECK(q.active_size() + q.backoff_size() + q.unschedulable_size() == 0);
    CHECK_FALSE(q.pop(t0 + 1h));
  }
}

TEST_CASE("a pod gated while in flight keeps its slot, and is parked when its attempt fails") {
  for (bool error : {false, true}) {
    auto q = make_queue();
    q.add("p", 0, t0);
    REQUIRE(q.pop(t0));
    q.update("p", 3, t0 + 1s, true);
    CHECK(q.where("p") == Queue::Where::in_flight);
    q.failed("p", {"X"}, error, t0 + 2s);
    CHECK(q.where("p") == Queue::Where::gated);
    CHECK_FALSE(q.pop(t0 + 1h));
  }
}

TEST_CASE("a pod's latency starts when it is first queued with no gate") {
  auto q = make_queue();
  q.add("free", 0, t0 + 1s);
  q.add("gated", 0, t0, true);
  CHECK_FALSE(q.find("gated")->ready_since.has_value());
  q.update("gated", 0, t0 + 5s, true);
  CHECK_FALSE(q.find("gated")->ready_since.has_value());
  q.update("gated", 0, t0 + 9s, false);
  CHECK(q.find("gated")->ready_since == t0 + 9s);
  CHECK(q.find("gated")->added == t0);  // the place in line is kept
  CHECK(q.find("free")->ready_since == t0 + 1s);
  q.update("free", 0, t0 + 20s, false);  // later updates do not move it
  CHECK(q.find("free")->ready_since == t0 + 1s);
}

TEST_CASE("a gated pod released while it backs off waits out its backoff") {
  auto q = make_queue(QueueSettings{10s, 10s, 60s});
  q.add("p", 0, t0);
  REQUIRE(q.pop(t0));
  q.failed("p", {"X"}, true, t0);  // backoff until t0 + 10s
  q.update("p", 0, t0 + 1s, true);
  q.update("p", 0, t0 + 2s, false);
  CHECK(q.where("p") == Queue::Where::backoff);
  CHECK_FALSE(q.pop(t0 + 9s));
  CHECK(q.pop(t0 + 10s));
}
