#include "watch/task_pool.hpp"

#include <exception>

#include <spdlog/spdlog.h>

namespace troupe::watch {

TaskPool::TaskPool(std::size_t threads, std::string name) : name_(std::move(name)) {
  if (threads == 0) threads = 1;
  threads_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

TaskPool::~TaskPool() { shutdown(); }

bool TaskPool::post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_) return false;
    queue_.push_back(std::move(task));
  }
  ready_.notify_one();
  return true;
}

void TaskPool::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_) return;  // the first caller joins
    closing_ = true;
  }
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
  return queue_.size();
}

void TaskPool::work() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [this] { return closing_ || !queue_.empty(); });
      if (queue_.empty()) return;  // closing and drained
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    try {
      task();
    } catch (const std::exception& e) {
      spdlog::error("{} task failed: {}", name_, e.what());
    } catch (...) {
      spdlog::error("{} task failed with a non-standard exception", name_);
    }
  }
}

}  // namespace troupe::watch
