#include "watch/task_pool.hpp"

#include <exception>

#include <spdlog/spdlog.h>

namespace troupe::watch {

TaskPool::TaskPool(std::size_t threads, std::string name, LaneLimits limits) : name_(std::move(name)), queue_(limits) {
  if (threads == 0) threads = 1;
  threads_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

TaskPool::~TaskPool() { shutdown(); }

bool TaskPool::post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_) return false;
    queue_.push(Lane::foreground, std::move(task), std::chrono::steady_clock::now());
  }
  ready_.notify_one();
  return true;
}

TaskPool::Posted TaskPool::post_background(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_) return Posted::closed;
    if (!queue_.push(Lane::background, std::move(task), std::chrono::steady_clock::now())) return Posted::full;
  }
  ready_.notify_one();
  return Posted::queued;
}

void TaskPool::shutdown() {
  std::size_t dropped = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_) return;  // the first caller joins
    closing_ = true;
    // Best-effort work (Events) is not worth a slow exit: a full lane written
    // at the client's rate limit would hold the process for minutes.
    dropped = queue_.drop_background();
  }
  if (dropped > 0) spdlog::warn("{}: {} background tasks (events) dropped at shutdown", name_, dropped);
  ready_.notify_all();
  for (auto& thread : threads_) {
    if (thread.get_id() == std::this_thread::get_id()) {
      thread.detach();  // shutdown() from inside a task: this thread ends when the task returns
    } else {
      thread.join();
    }
  }
}

std::size_t TaskPool::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.queued(Lane::foreground) + queue_.queued(Lane::background);
}

std::size_t TaskPool::queued(Lane lane) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.queued(lane);
}

void TaskPool::work() {
  for (;;) {
    std::optional<std::pair<Lane, std::function<void()>>> next;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // A background task may be queued yet not startable (its in-flight
      // limit): keep waiting for a finished one, also while closing.
      ready_.wait(lock, [this, &next] {
        next = queue_.pop(std::chrono::steady_clock::now());
        return next.has_value() || (closing_ && queue_.empty());
      });
      if (!next) return;  // closing and drained
    }
    try {
      next->second();
    } catch (const std::exception& e) {
      spdlog::error("{} task failed: {}", name_, e.what());
    } catch (...) {
      spdlog::error("{} task failed with a non-standard exception", name_);
    }
    if (next->first == Lane::background) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.finished(Lane::background);
      }
      ready_.notify_one();  // a background task held back by the in-flight limit may start now
    }
  }
}

}  // namespace troupe::watch
