#pragma once
// TokenSource: the bearer token for the Authorization header. A fixed token
// comes from a kubeconfig; a file token is a projected service-account token
// that the kubelet rotates, so (like client-go's CachedFileTokenSource) it is
// re-read at most every `refresh_period` and immediately after a 401.

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "model/result.hpp"

namespace troupe::watch {

class TokenSource {
 public:
  using Clock = std::chrono::steady_clock;
  using NowFn = std::function<Clock::time_point()>;

  /// A token that never changes ("" = send no Authorization header).
  static std::shared_ptr<TokenSource> fixed(std::string token);

  /// Reads `path` now (error if unreadable or empty) and again when the cached
  /// copy is older than `refresh_period`.
  static Result<std::shared_ptr<TokenSource>> from_file(std::string path,
                                                       std::chrono::seconds refresh_period = std::chrono::minutes(1),
                                                       NowFn now = &Clock::now);

  /// The current token. Thread-safe. A failed periodic re-read keeps the old
  /// token (the file may be mid-rotation) and is logged.
  std::string token();

  /// Called after a 401: re-reads a file token at once. Returns true when the
  /// token changed, i.e. when retrying the request may help.
  bool refresh_after_unauthorized();

  bool file_backed() const { return !path_.empty(); }

 private:
  TokenSource(std::string token, std::string path, std::chrono::seconds period, NowFn now);
  bool reread_locked();

  std::mutex mutex_;
  std::string token_;
  std::string path_;
  std::chrono::seconds refresh_period_;
  NowFn now_;
  Clock::time_point read_at_;
};

/// Reads a whole file, trimming surrounding whitespace (token and namespace
/// files end with a newline when written by hand). `what` names the file's role
/// in the error message.
Result<std::string> read_trimmed_file(const std::string& path, const std::string& what);

}  // namespace troupe::watch
