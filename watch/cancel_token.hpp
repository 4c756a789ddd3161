#pragma once
// CancelToken: lets one thread stop another thread's blocking work promptly —
// a sleep (backoff, Retry-After, rate limit) or an HTTP exchange in flight.
// Like C++20's std::stop_token + std::stop_callback, which C++17 lacks.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace troupe::watch {

class CancelToken {
 public:
  CancelToken() = default;
  CancelToken(const CancelToken&) = delete;
  CancelToken& operator=(const CancelToken&) = delete;

  /// Thread-safe and idempotent: wakes every sleeper and runs every hook once.
  void cancel();
  bool cancelled() const;

  /// Sleeps for `duration` unless cancelled first. Returns false when cancelled.
  bool sleep_for(std::chrono::nanoseconds duration) const;

  /// While a Hook lives, cancel() calls its function (under the token's lock, so
  /// the function must be short and must not touch the token). Destroying the
  /// Hook waits for a concurrent call to finish, so after it is gone the function
  /// is never running and never will run.
  class [[nodiscard]] Hook {
   public:
    Hook() = default;
    Hook(Hook&& other) noexcept;
    Hook& operator=(Hook&& other) noexcept;
    Hook(const Hook&) = delete;
    Hook& operator=(const Hook&) = delete;
    ~Hook();

   private:
    friend class CancelToken;
    Hook(const CancelToken* token, std::uint64_t id) : token_(token), id_(id) {}
    void release();
    const CancelToken* token_ = nullptr;
    std::uint64_t id_ = 0;
  };

  /// Registers `fn`. If the token is already cancelled, `fn` runs right away.
  Hook on_cancel(std::function<void()> fn) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable wake_;
  mutable std::map<std::uint64_t, std::function<void()>> hooks_;
  mutable std::uint64_t next_hook_id_ = 1;
  bool cancelled_ = false;
};

/// Sleeps unless `token` (which may be null: plain sleep) is cancelled.
/// Returns false when cancelled.
bool sleep_unless_cancelled(const CancelToken* token, std::chrono::nanoseconds duration);

}  // namespace troupe::watch
