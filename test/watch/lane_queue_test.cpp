// The event lane: LaneQueue's order and bounds (table-driven), and the
// TaskPool running it on threads.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "watch/lane_queue.hpp"
#include "watch/task_pool.hpp"

using namespace troupe::watch;
using namespace std::chrono_literals;

namespace {

// One step of a script: "F3" pushes foreground task 3, "B7" background task
// 7, "+250" advances the clock 250 ms, "pop" takes the next task, "done"
// finishes the oldest running background task.
struct Script {
  const char* name;
  LaneLimits limits;
  std::vector<std::string> steps;
  // What each "pop" gave ("F3", "B7", or "-" for nothing), and each push's
  // answer ("ok" or "full") in order, all in one list.
  std::vector<std::string> expected;
};

std::vector<std::string> run(const Script& script) {
  LaneQueue<int> queue(script.limits);
  auto now = std::chrono::steady_clock::time_point{} + 1h;
  std::vector<std::string> out;
  for (const std::string& step : script.steps) {
    if (step == "pop") {
      auto next = queue.pop(now);
      out.push_back(!next ? "-" : (next->first == Lane::foreground ? "F" : "B") + std::to_string(next->second));
    } else if (step == "done") {
      queue.finished(Lane::background);
    } else if (step[0] == '+') {
      now += std::chrono::milliseconds(std::stoi(step.substr(1)));
    } else {
      const Lane lane = step[0] == 'F' ? Lane::foreground : Lane::background;
      out.push_back(queue.push(lane, std::stoi(step.substr(1)), now) ? "ok" : "full");
    }
  }
  return out;
}

LaneLimits limits(std::size_t capacity, std::size_t in_flight, std::chrono::milliseconds max_wait = 5000ms) {
  LaneLimits l;
  l.background_capacity = capacity;
  l.background_in_flight = in_flight;
  l.background_max_wait = max_wait;
  return l;
}

}  // namespace

TEST_CASE("lane queue: foreground first, background when nothing else waits, bounded", "[lane_queue]") {
  const std::vector<Script> scripts = {
      {"an empty queue gives nothing", limits(10, 0), {"pop"}, {"-"}},
      {"each lane keeps its order",
       limits(10, 0),
       {"F1", "F2", "B3", "B4", "pop", "pop", "pop", "pop", "pop"},
       {"ok", "ok", "ok", "ok", "F1", "F2", "B3", "B4", "-"}},
      {"foreground queued after background still goes first",
       limits(10, 0),
       {"B1", "B2", "F3", "pop", "pop", "F4", "pop", "pop"},
       {"ok", "ok", "ok", "F3", "B1", "ok", "F4", "B2"}},
      {"background alone runs at once", limits(10, 0), {"B1", "pop"}, {"ok", "B1"}},
      {"a full background lane refuses; foreground is unbounded",
       limits(2, 0),
       {"B1", "B2", "B3", "F4", "F5", "F6", "pop", "pop", "pop", "pop", "B7", "pop", "pop", "pop"},
       {"ok", "ok", "full", "ok", "ok", "ok", "F4", "F5", "F6", "B1", "ok", "B2", "B7", "-"}},
      {"capacity counts waiting tasks, not running ones",
       limits(1, 0),
       {"B1", "pop", "B2", "B3", "pop"},
       {"ok", "B1", "ok", "full", "B2"}},
      {"capacity 0 takes no background task", limits(0, 0), {"B1", "F2", "pop", "pop"}, {"full", "ok", "F2", "-"}},
      {"the in-flight limit holds background back until one finishes",
       limits(10, 2),
       {"B1", "B2", "B3", "pop", "pop", "pop", "done", "pop", "pop"},
       {"ok", "ok", "ok", "B1", "B2", "-", "B3", "-"}},
      {"the in-flight limit never holds foreground back",
       limits(10, 1),
       {"B1", "B2", "pop", "F3", "pop", "pop", "done", "pop"},
       {"ok", "ok", "B1", "ok", "F3", "-", "B2"}},
      {"background tasks waiting max_wait go before foreground",
       limits(10, 0, 1000ms),
       {"B1", "B2", "+500", "B3", "F4", "F5", "F6", "+500", "pop", "pop", "pop", "pop", "+500", "pop", "pop", "pop"},
       {"ok", "ok", "ok", "ok", "ok", "ok", "B1", "B2", "F4", "F5", "B3", "F6", "-"}},
      {"an overdue background task still respects the in-flight limit",
       limits(10, 1, 1000ms),
       {"B1", "B2", "pop", "F3", "+2000", "pop", "done", "F4", "pop", "pop"},
       {"ok", "ok", "B1", "ok", "F3", "ok", "B2", "F4"}},
  };
  for (const Script& script : scripts) {
    SECTION(script.name) { CHECK(run(script) == script.expected); }
  }
}

namespace {

// A TaskPool whose threads are held by a gate task until open(), so that what
// a test posts queues up first; note(what) is a task that records its name.
class GatedPool {
 public:
  explicit GatedPool(TaskPool& pool) {
    REQUIRE(pool.post([this] {
      running_ = true;
      std::unique_lock<std::mutex> lock(mutex_);
      opened_.wait(lock, [this] { return open_; });
    }));
    while (!running_.load()) std::this_thread::sleep_for(1ms);
  }

  std::function<void()> note(std::string what) {
    return [this, what] {
      std::lock_guard<std::mutex> lock(mutex_);
      order_.push_back(what);
    };
  }

  void open() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }

  std::vector<std::string> order() {
    std::lock_guard<std::mutex> lock(mutex_);
    return order_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
  std::atomic<bool> running_{false};
  std::vector<std::string> order_;
};

}  // namespace

TEST_CASE("task pool: background tasks wait while foreground work is queued", "[lane_queue][task_pool]") {
  // One thread, held by a gate, so that everything below queues up first.
  LaneLimits l;
  l.background_capacity = 3;
  TaskPool pool(1, "test-lanes", l);
  GatedPool gated(pool);
  auto note = [&](std::string what) { return gated.note(std::move(what)); };
  CHECK(pool.post_background(note("event 1")) == TaskPool::Posted::queued);
  CHECK(pool.post(note("binding 1")));
  CHECK(pool.post_background(note("event 2")) == TaskPool::Posted::queued);
  CHECK(pool.post_background(note("event 3")) == TaskPool::Posted::queued);
  CHECK(pool.post_background(note("event 4")) == TaskPool::Posted::full);
  CHECK(pool.post(note("binding 2")));
  CHECK(pool.queued(Lane::background) == 3);
  CHECK(pool.queued() == 5);
  gated.open();
  for (int waited = 0; gated.order().size() < 5 && waited < 5000; ++waited) std::this_thread::sleep_for(1ms);
  pool.shutdown();
  CHECK(gated.order() == std::vector<std::string>{"binding 1", "binding 2", "event 1", "event 2", "event 3"});
  CHECK(pool.post_background(note("late")) == TaskPool::Posted::closed);
}

TEST_CASE("task pool: shutdown finishes the foreground lane and drops the background one", "[lane_queue][task_pool]") {
  // A full event lane written at the client's rate limit would hold the exit
  // for minutes: events not started yet are dropped, bindings still run.
  TaskPool pool(1, "test-lanes");
  GatedPool gated(pool);
  auto note = [&](std::string what) { return gated.note(std::move(what)); };
  CHECK(pool.post_background(note("event 1")) == TaskPool::Posted::queued);
  CHECK(pool.post(note("binding")));
  CHECK(pool.post_background(note("event 2")) == TaskPool::Posted::queued);
  std::thread stopping([&] { pool.shutdown(); });  // joins once the gate opens
  while (pool.post_background(note("late")) != TaskPool::Posted::closed) std::this_thread::sleep_for(1ms);
  CHECK(pool.queued(Lane::background) == 0);
  gated.open();
  stopping.join();
  CHECK(gated.order() == std::vector<std::string>{"binding"});
}

TEST_CASE("task pool: the background in-flight limit leaves threads for foreground work", "[lane_queue][task_pool]") {
  LaneLimits l;
  l.background_in_flight = 1;
  TaskPool pool(2, "test-lanes", l);
  std::atomic<bool> release{false};
  std::atomic<int> background_running{0};
  std::atomic<int> most_background{0};
  std::atomic<int> foreground_done{0};
  for (int i = 0; i < 4; ++i) {
    REQUIRE(pool.post_background([&] {
              int now = ++background_running;
              int seen = most_background.load();
              while (now > seen && !most_background.compare_exchange_weak(seen, now)) {
              }
              while (!release.load()) std::this_thread::sleep_for(1ms);
              --background_running;
            }) == TaskPool::Posted::queued);
  }
  // With one background task holding a thread, the other thread is free for bindings.
  for (int i = 0; i < 3; ++i) REQUIRE(pool.post([&] { ++foreground_done; }));
  for (int waited = 0; foreground_done.load() < 3 && waited < 5000; ++waited) std::this_thread::sleep_for(1ms);
  CHECK(foreground_done.load() == 3);
  release = true;
  pool.shutdown();
  CHECK(most_background.load() == 1);
}
