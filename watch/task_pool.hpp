#pragma once
// TaskPool: a few threads that run blocking client calls (bindings, status
// patches, events) off the actors' threads. An actor posts a closure that
// makes the call and reports back with caf::anon_send; the pool's size bounds
// how many writes are in flight at once.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace troupe::watch {

class TaskPool {
 public:
  explicit TaskPool(std::size_t threads, std::string name = "io-pool");
  ~TaskPool();  // shutdown(): runs what is queued, then joins
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  /// Queues `task`; false once shutdown() has begun. An exception escaping a
  /// task is logged and does not stop the thread.
  bool post(std::function<void()> task);

  /// Stops accepting tasks, finishes the queued ones, joins the threads.
  void shutdown();

  std::size_t queued() const;
  std::size_t threads() const { return threads_.size(); }

 private:
  void work();

  std::string name_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  bool closing_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace troupe::watch
