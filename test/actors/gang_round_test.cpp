// The scheduling queue's gang rounds (actors/scheduling_queue.hpp): once a
// pod of a group is popped, the group's other pending members come next, each
// once, wherever they wait (activeQ, backoffQ, unschedulablePods), gated ones
// excepted; a member's failure ends the round.

#include <catch2/catch.hpp>

#include "actors/scheduling_queue.hpp"

using namespace troupe::actors;
using namespace std::chrono_literals;

namespace {

struct Pod {
  int priority = 0;
  std::string group;  // empty: in no gang
};
using Queue = SchedulingQueue<Pod>;

Queue make_queue() {
  return Queue(
      [](const Queue::Entry& a, const Queue::Entry& b) {
        if (a.payload.priority != b.payload.priority) return a.payload.priority > b.payload.priority;
        return a.added < b.added;
      },
      QueueSettings{}, [](const Pod& pod) { return pod.group; });
}

const QueueClock::time_point t0{};

// Pops and places every pod that is ready: the order they were handed out.
std::vector<std::string> drain(Queue& q, QueueClock::time_point now) {
  std::vector<std::string> keys;
  while (auto e = q.pop(now)) {
    keys.push_back(e->key);
    q.done(e->key);
  }
  return keys;
}

struct Arrival {
  std::string key;
  int priority;
  std::string group;
};

}  // namespace

TEST_CASE("a group's members are popped back to back, in order of arrival") {
  struct Case {
    const char* name;
    std::vector<Arrival> arrivals;  // in arrival order, 1 ms apart
    std::vector<std::string> expected;
  };
  std::vector<Case> cases = {
      {"no groups: the QueueSort order", {{"a", 0, ""}, {"b", 5, ""}, {"c", 0, ""}}, {"b", "a", "c"}},
      {"two gangs interleaved",
       {{"a1", 0, "ns/a"}, {"b1", 0, "ns/b"}, {"a2", 0, "ns/a"}, {"b2", 0, "ns/b"}},
       {"a1", "a2", "b1", "b2"}},
      {"a plain pod between members waits for the round",
       {{"a1", 0, "ns/a"}, {"x", 0, ""}, {"a2", 0, "ns/a"}, {"a3", 0, "ns/a"}},
       {"a1", "a2", "a3", "x"}},
      {"a higher-priority pod ahead of the group goes first, then the round",
       {{"a1", 0, "ns/a"}, {"hi", 9, ""}, {"a2", 0, "ns/a"}},
       {"hi", "a1", "a2"}},
      {"members of lower priority still come with their round",
       {{"a1", 5, "ns/a"}, {"x", 1, ""}, {"a2", 0, "ns/a"}},
       {"a1", "a2", "x"}},
      {"the round follows arrival, not priority, within the group",
       {{"a1", 0, "ns/a"}, {"a2", 0, "ns/a"}, {"a3", 7, "ns/a"}},
       {"a3", "a1", "a2"}},
      {"a gang group of two gangs is one group",
       {{"a1", 0, "ns/a,ns/b"}, {"x", 0, ""}, {"b1", 0, "ns/a,ns/b"}},
       {"a1", "b1", "x"}},
      {"a lone member starts no round", {{"a1", 0, "ns/a"}, {"x", 0, ""}}, {"a1", "x"}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto q = make_queue();
    auto now = t0;
    for (const auto& a : c.arrivals) q.add(a.key, Pod{a.priority, a.group}, now += 1ms);
    CHECK(drain(q, now) == c.expected);
  }
}

TEST_CASE("a round takes the group's members out of backoffQ and unschedulablePods") {
  auto q = make_queue();
  q.add("a1", {0, "g"}, t0);
  q.add("a2", {0, "g"}, t0 + 1ms);
  q.add("a3", {0, "g"}, t0 + 2ms);
  q.add("x", {0, ""}, t0 + 3ms);
  // a2 fails with an event in flight (backoffQ), a3 without (unschedulablePods).
  auto first = q.pop(t0 + 10ms);
  REQUIRE(first->key == "a1");
  q.failed("a1", {"NodeResourcesFit"}, false, t0 + 10ms);  // ends the round
  REQUIRE(q.round_group().empty());
  CHECK(q.pop(t0 + 11ms)->key == "a2");  // a new round starts with a2
  q.on_cluster_event(nullptr, t0 + 11ms);   // a1 leaves unschedulablePods: backoffQ until 1,010 ms
  q.failed("a2", {"NodeResourcesFit"}, false, t0 + 11ms);
  CHECK(q.where("a2") == Queue::Where::backoff);  // until 1,011 ms
  CHECK(q.pop(t0 + 12ms)->key == "a3");
  q.failed("a3", {"NodeResourcesFit"}, false, t0 + 12ms);
  CHECK(q.where("a3") == Queue::Where::unschedulable);
  CHECK(q.where("a1") == Queue::Where::backoff);

  // x is the only pod ready; the round it does not belong to is over.
  CHECK(q.pop(t0 + 13ms)->key == "x");
  q.done("x");
  CHECK_FALSE(q.pop(t0 + 14ms).has_value());

  // a1's backoff ends: its round takes a2 out of backoffQ before its backoff
  // ends, and a3 out of unschedulablePods, their attempts kept.
  auto next = q.pop(t0 + 1010ms);
  REQUIRE(next.has_value());
  CHECK(next->key == "a1");
  CHECK(q.round_group() == "g");
  CHECK(q.where("a2") == Queue::Where::backoff);
  auto second = q.pop(t0 + 1010ms);
  CHECK(second->key == "a2");
  CHECK(second->attempts == 1);
  auto third = q.pop(t0 + 1010ms);
  CHECK(third->key == "a3");
  CHECK(q.where("a3") == Queue::Where::in_flight);
  CHECK_FALSE(q.pop(t0 + 1010ms).has_value());
  CHECK(q.round_group().empty());
}

TEST_CASE("a round skips gated and in-flight members and hands each member out once") {
  auto q = make_queue();
  q.add("a1", {0, "g"}, t0);
  q.add("a2", {0, "g"}, t0 + 1ms, /*gated=*/true);
  q.add("a3", {0, "g"}, t0 + 2ms);
  q.add("x", {0, ""}, t0 + 3ms);
  CHECK(q.pop(t0 + 5ms)->key == "a1");
  CHECK(q.pop(t0 + 5ms)->key == "a3");  // a2 is gated
  // a1 and a3 are in flight: the round is over, x comes next.
  CHECK(q.pop(t0 + 5ms)->key == "x");
  CHECK(q.round_group().empty());
}

TEST_CASE("a member that arrives during its round joins it; one removed leaves it") {
  auto q = make_queue();
  q.add("a1", {0, "g"}, t0);
  q.add("a2", {0, "g"}, t0 + 1ms);
  q.add("a3", {0, "g"}, t0 + 2ms);
  q.add("x", {0, ""}, t0 + 3ms);
  CHECK(q.pop(t0 + 5ms)->key == "a1");
  q.remove("a2");                       // deleted while the round runs
  q.add("a4", {0, "g"}, t0 + 6ms);      // created while the round runs
  CHECK(drain(q, t0 + 7ms) == std::vector<std::string>{"a3", "a4", "x"});
}

TEST_CASE("a failure outside the round leaves the round going") {
  auto q = make_queue();
  q.add("x", {9, ""}, t0);
  q.add("a1", {0, "g"}, t0 + 1ms);
  q.add("a2", {0, "g"}, t0 + 2ms);
  q.add("a3", {0, "g"}, t0 + 3ms);
  CHECK(q.pop(t0 + 5ms)->key == "x");
  CHECK(q.pop(t0 + 5ms)->key == "a1");
  q.failed("x", {"NodeResourcesFit"}, false, t0 + 5ms);
  CHECK(q.round_group() == "g");
  CHECK(q.pop(t0 + 5ms)->key == "a2");
  q.failed("a2", {"NodeResourcesFit"}, false, t0 + 5ms);  // a member fails: the round ends
  CHECK(q.round_group().empty());
  CHECK(q.pop(t0 + 5ms)->key == "a3");  // by the QueueSort order now: the only ready pod
}

TEST_CASE("an update that moves a pod to another group moves it in the rounds") {
  auto q = make_queue();
  q.add("a1", {0, "g"}, t0);
  q.add("a2", {0, "h"}, t0 + 1ms);
  q.add("x", {0, ""}, t0 + 2ms);
  q.add("a2", {0, "g"}, t0 + 3ms);  // relabelled into gang g
  CHECK(drain(q, t0 + 5ms) == std::vector<std::string>{"a1", "a2", "x"});
  q.add("b1", {0, "g"}, t0 + 6ms);
  q.add("y", {0, ""}, t0 + 7ms);
  q.add("b2", {0, "g"}, t0 + 8ms);
  q.add("b2", {0, ""}, t0 + 9ms);  // taken out of the gang
  CHECK(drain(q, t0 + 10ms) == std::vector<std::string>{"b1", "y", "b2"});
}

TEST_CASE("a group learned after its pods were queued gathers them from then on") {
  // Gangs a and b form one group, but their PodGroups arrive after the pods:
  // each pod was queued with its gang alone as its group.
  const auto queue_two_gangs = [](Queue& q) {
    q.add("a1", Pod{0, "ns/a"}, t0);
    q.add("b1", Pod{0, "ns/b"}, t0 + 1ms);
    q.add("c1", Pod{0, ""}, t0 + 2ms);
    q.add("a2", Pod{0, "ns/a"}, t0 + 3ms);
    q.add("b2", Pod{0, "ns/b"}, t0 + 4ms);
  };
  Queue q = make_queue();
  queue_two_gangs(q);
  const auto rename = [&q](const std::string& from, const std::string& to) {
    q.revise_payloads([&](const Pod& pod) -> std::optional<Pod> {
      if (pod.group != from) return std::nullopt;
      return Pod{pod.priority, to};
    });
  };
  rename("ns/a", "ns/ab");
  rename("ns/b", "ns/ab");
  CHECK(drain(q, t0 + 10ms) == std::vector<std::string>{"a1", "b1", "a2", "b2", "c1"});
  SECTION("without the change each gang is its own round") {
    Queue plain = make_queue();
    queue_two_gangs(plain);
    CHECK(drain(plain, t0 + 10ms) == std::vector<std::string>{"a1", "a2", "b1", "b2", "c1"});
  }
}
