#pragma once
// TaskPool: a few threads that run blocking client calls (bindings, status
// patches, events) off the actors' threads. An actor posts a closure that
// makes the call and reports back with caf::anon_send; the pool's size bounds
// how many writes are in flight at once.
//
// Two lanes (watch/lane_queue.hpp): post() is the foreground lane, served
// first; post_background() is the bounded, lower-priority lane for
// best-effort writes (Events) that must not hold up Bindings.

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "watch/lane_queue.hpp"

namespace troupe::watch {

class TaskPool {
 public:
  explicit TaskPool(std::size_t threads, std::string name = "io-pool", LaneLimits limits = {});
  ~TaskPool();  // shutdown()
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  /// Queues `task`; false once shutdown() has begun. An exception escaping a
  /// task is logged and does not stop the thread.
  bool post(std::function<void()> task);

  enum class Posted { queued, full, closed };
  /// Queues `task` in the background lane: it runs when no foreground task
  /// waits (or once it waited LaneLimits::background_max_wait). `full`: the
  /// lane holds background_capacity tasks already and `task` was not taken.
  Posted post_background(std::function<void()> task);

  /// Stops accepting tasks, finishes the queued foreground tasks, drops the
  /// background ones not started yet (logged), joins the threads.
  void shutdown();

  /// Tasks waiting to start, both lanes.
  std::size_t queued() const;
  std::size_t queued(Lane lane) const;
  std::size_t threads() const { return threads_.size(); }

 private:
  void work();

  std::string name_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  LaneQueue<std::function<void()>> queue_;
  bool closing_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace troupe::watch
