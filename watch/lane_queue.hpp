#pragma once
// LaneQueue: the order in which a TaskPool's threads take work, without the
// threads (so it is tested on its own, test/watch/lane_queue_test.cpp).
//
// Two lanes. The foreground lane (Bindings, status patches: what the API
// server must see now) is unbounded and always served first. The background
// lane (Events: best effort, as kube-scheduler's recorder, whose broadcaster
// drops under pressure) is bounded and runs only when no foreground task
// waits, with at most `background_in_flight` of its tasks running at once so
// that foreground work arriving after a lull always finds a free thread. A
// background task that has waited `background_max_wait` goes ahead of the
// foreground lane, so a steady stream of bindings delays events, never
// starves them. A push beyond the background capacity is refused: the caller
// counts it (nothing is dropped silently).
//
// Not thread-safe: the TaskPool calls it under its mutex.

#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>
#include <utility>

namespace troupe::watch {

enum class Lane { foreground, background };

struct LaneLimits {
  /// Background tasks queued at most (running ones not counted); 0 = none accepted.
  std::size_t background_capacity = 10'000;
  /// Background tasks running at once at most; 0 = no limit.
  std::size_t background_in_flight = 0;
  /// A background task queued this long runs before the foreground lane.
  std::chrono::milliseconds background_max_wait{5'000};
};

template <class T>
class LaneQueue {
 public:
  using Clock = std::chrono::steady_clock;

  explicit LaneQueue(LaneLimits limits = {}) : limits_(limits) {}

  /// Queues `task`; false (task not taken) when the background lane is full.
  bool push(Lane lane, T task, Clock::time_point now) {
    if (lane == Lane::foreground) {
      foreground_.push_back(std::move(task));
      return true;
    }
    if (background_.size() >= limits_.background_capacity) return false;
    background_.push_back({std::move(task), now});
    return true;
  }

  /// The task to run next and its lane, or nullopt when nothing may start now
  /// (both lanes empty, or only background work while its in-flight limit is
  /// reached). The caller reports the end of a background task with finished().
  std::optional<std::pair<Lane, T>> pop(Clock::time_point now) {
    const bool background_may_start = !background_.empty() && (limits_.background_in_flight == 0 ||
                                                                background_running_ < limits_.background_in_flight);
    const bool overdue = background_may_start && now - background_.front().queued >= limits_.background_max_wait;
    if (!foreground_.empty() && !overdue) {
      std::pair<Lane, T> out{Lane::foreground, std::move(foreground_.front())};
      foreground_.pop_front();
      return out;
    }
    if (background_may_start) {
      std::pair<Lane, T> out{Lane::background, std::move(background_.front().task)};
      background_.pop_front();
      ++background_running_;
      return out;
    }
    return std::nullopt;
  }

  /// A task pop() gave out has finished.
  void finished(Lane lane) {
    if (lane == Lane::background && background_running_ > 0) --background_running_;
  }

  /// Drops the background tasks not started yet; how many.
  std::size_t drop_background() {
    const std::size_t dropped = background_.size();
    background_.clear();
    return dropped;
  }

  std::size_t queued(Lane lane) const { return lane == Lane::foreground ? foreground_.size() : background_.size(); }
  std::size_t background_running() const { return background_running_; }
  bool empty() const { return foreground_.empty() && background_.empty(); }
  const LaneLimits& limits() const { return limits_; }

 private:
  struct Waiting {
    T task;
    Clock::time_point queued;
  };
  LaneLimits limits_;
  std::deque<T> foreground_;
  std::deque<Waiting> background_;
  std::size_t background_running_ = 0;
};

}  // namespace troupe::watch
