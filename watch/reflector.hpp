#pragma once
// Reflector: keeps a consumer in step with one API collection, the way
// client-go's Reflector does (k8s-protocol.md §2.4):
//   1. paged list (limit + continue) → ADDED for every object, then on_synced();
//   2. watch from the list's resourceVersion with bookmarks and a randomised
//      timeoutSeconds; every event (and bookmark) advances the resourceVersion;
//   3. a watch that ends normally or loses its connection resumes from the last
//      resourceVersion without a re-list;
//   4. 410 Expired/Gone → re-list and diff against what it had: synthetic
//      DELETED for objects that vanished, MODIFIED for changed ones, ADDED for
//      new ones, then on_synced() again;
//   5. failures back off exponentially (0.8 s doubling to 30 s, jittered, reset
//      after 2 healthy minutes); 429 waits at least Retry-After; a watch that
//      ends within a second with no events counts as a failure.
//
// Threading: each Reflector runs on its own thread. Callbacks are invoked on
// that thread, one at a time, in order; they must be quick and must not block
// (forward with caf::anon_send). start() and stop() may be called from any
// thread; stop() from inside a callback only requests the stop (the thread ends
// after the callback returns). Never destroy a Reflector from its own callback.

#include <atomic>
#include <chrono>
#include <functional>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "watch/api_client.hpp"
#include "watch/backoff.hpp"
#include "watch/cancel_token.hpp"
#include "watch/object_store.hpp"
#include "watch/watch_event.hpp"

namespace troupe::watch {

struct ReflectorCallbacks {
  /// Every change, live or synthesised by a re-list. `change.object` is
  /// immutable and may be kept; DELETED carries the last state known.
  std::function<void(const Change& change)> on_event;
  /// After the first complete list and after every re-list has been delivered.
  std::function<void()> on_synced;
  /// Problems worth a log line (the reflector also logs them and recovers by itself).
  std::function<void(const std::string& message)> on_error;
};

struct ReflectorOptions {
  std::string name;            // for log lines, e.g. "pods"; defaults to the path
  std::string path;            // collection path, e.g. "/api/v1/pods"
  std::string label_selector;  // e.g. "app=web,tier!=db"
  std::string field_selector;  // e.g. "status.phase!=Succeeded,status.phase!=Failed"
  int page_size = 500;
  /// Watches ask for timeoutSeconds drawn from [min, 2 × min), as client-go.
  std::chrono::seconds min_watch_timeout{300};
  /// The stream is abandoned after this much silence beyond timeoutSeconds.
  std::chrono::seconds watch_silence_grace{30};
  std::chrono::milliseconds list_timeout{120'000};
  BackoffOptions backoff;  // 800 ms → 30 s, reset after 2 min
  /// A watch that ends this soon with no events is treated as a failure.
  std::chrono::milliseconds short_watch{1000};
};

class Reflector {
 public:
  Reflector(std::shared_ptr<ApiClient> api, ReflectorOptions options, ReflectorCallbacks callbacks);
  ~Reflector();  // stops
  Reflector(const Reflector&) = delete;
  Reflector& operator=(const Reflector&) = delete;

  /// Starts the list/watch thread; does nothing if already running. A restart
  /// after stop() diffs the new list against what was known before.
  void start();
  /// Cancels the current request or wait and joins the thread. Prompt: it does
  /// not wait for a watch or list to finish. Called from a callback, it does
  /// not join (it cannot); the loop ends when the callback returns.
  void stop();

  bool running() const;
  /// True once a complete list has been delivered.
  bool has_synced() const { return synced_.load(); }
  /// The resourceVersion the next watch would start from.
  std::string resource_version() const;
  /// When the last list page or watch event (bookmarks included) arrived; for liveness checks.
  std::chrono::steady_clock::time_point last_activity() const;
  const ReflectorOptions& options() const { return options_; }

 private:
  struct ListResult;
  enum class WatchEnd;
  struct WatchResult;

  void run(const CancelToken* cancel);
  ListResult list_all(const CancelToken* cancel);
  WatchResult watch_once(const CancelToken* cancel);
  bool handle_line(std::string_view line, WatchResult& result);
  void deliver(const Change& change);
  void report(const std::string& message);
  void touch();
  void set_resource_version(const std::string& rv);
  std::string list_target(const std::string& continue_token) const;
  std::string watch_target(const std::string& rv, std::chrono::seconds timeout) const;

  std::shared_ptr<ApiClient> api_;
  ReflectorOptions options_;
  ReflectorCallbacks callbacks_;
  Backoff backoff_;
  ObjectStore store_;  // only touched by the reflector thread

  std::mutex lifecycle_mutex_;  // one start() at a time: the old loop's token lives until it is joined
  mutable std::mutex mutex_;    // guards thread_, cancel_, resource_version_, stops_
  uint64_t stops_ = 0;          // stop() calls, so that a start() joining an old loop yields to one
  std::thread thread_;
  std::unique_ptr<CancelToken> cancel_;
  std::string resource_version_;
  std::atomic<bool> synced_{false};
  std::atomic<std::chrono::steady_clock::rep> last_activity_{0};
};

}  // namespace troupe::watch
