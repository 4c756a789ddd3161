#pragma once
// ApiClient: the one way watch/ talks to the API server. It puts every
// request through the client-side rate limiter (clientConnection.qps/burst)
// and retries what is worth retrying: 429 (waiting Retry-After when the server
// sends it), 5xx and lost connections with exponential backoff, and 409 only
// where the caller says a blind resend is safe.
//
// Threading: all methods are thread-safe and block the calling thread. Call
// them from I/O threads (see TaskPool), never from an actor's handler.

#include <chrono>
#include <memory>
#include <string>

#include "watch/api_result.hpp"
#include "watch/backoff.hpp"
#include "watch/cancel_token.hpp"
#include "watch/http_client.hpp"
#include "watch/rate_limiter.hpp"

namespace troupe::watch {

struct RetryPolicy {
  int max_attempts = 5;
  bool retry_server_errors = true;  // 500, 502, 503, 504
  /// 429 without a Retry-After header. An eviction blocked by a
  /// PodDisruptionBudget answers exactly that and should go back to the caller.
  bool retry_throttled_without_retry_after = true;
  bool retry_conflict = false;       // 409: resend as is (only for writes without preconditions)
  bool retry_transport_errors = true;  // no response at all (refused, reset, timed out)
  BackoffOptions backoff{std::chrono::milliseconds(200), std::chrono::milliseconds(10'000),
                         std::chrono::milliseconds(120'000), 2.0, 0.5};
  std::chrono::seconds max_retry_after{60};  // a longer Retry-After is cut to this

  /// One attempt, no retries (the reflector runs its own backoff loop).
  static RetryPolicy once() {
    RetryPolicy p;
    p.max_attempts = 1;
    return p;
  }
};

class ApiClient {
 public:
  explicit ApiClient(std::shared_ptr<HttpClient> http, RateLimits limits = {});
  ~ApiClient();

  /// Rate-limited request with retries per `policy`. `cancel` (optional) and
  /// shutdown() both cut waits and in-flight I/O short (result reason "Cancelled").
  ApiResult call(const HttpRequest& request, const RetryPolicy& policy = {}, const CancelToken* cancel = nullptr);

  /// Rate-limited streaming request (one attempt), for watches.
  StreamResult stream(const HttpRequest& request, const HttpClient::BodyHandler& on_body,
                      const CancelToken* cancel = nullptr);

  ApiResult get(const std::string& path, const CancelToken* cancel = nullptr);

  /// Makes every current and future call give up promptly (process exit).
  void shutdown();

  HttpClient& http() { return *http_; }
  RateLimiter& limiter() { return limiter_; }

 private:
  std::shared_ptr<HttpClient> http_;
  RateLimiter limiter_;
  CancelToken shutdown_;
};

}  // namespace troupe::watch
