#include "watch/api_client.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

namespace troupe::watch {

namespace {

// A token cancelled by either of two others: the caller's and the client's
// shutdown token. Hooks run under the source token's lock; cancelling the
// linked token takes its own lock only, so the lock order is always source → linked.
class LinkedToken {
 public:
  LinkedToken(const CancelToken& a, const CancelToken* b)
      : hook_a_(a.on_cancel([this] { token_.cancel(); })),
        hook_b_(b != nullptr ? b->on_cancel([this] { token_.cancel(); }) : CancelToken::Hook{}) {}
  const CancelToken* get() const { return &token_; }

 private:
  CancelToken token_;  // declared first: destroyed after the hooks are gone
  CancelToken::Hook hook_a_;
  CancelToken::Hook hook_b_;
};

bool is_server_error(int code) { return code == 500 || code == 502 || code == 503 || code == 504; }

// Why `result` deserves another attempt under `policy`, or nullptr.
const char* retry_reason(const ApiResult& result, const HttpResponse& response, const RetryPolicy& policy) {
  if (result.code == 0) return result.reason != "Cancelled" && policy.retry_transport_errors ? "no response" : nullptr;
  if (result.code == 429) {
    if (response.retry_after_seconds || policy.retry_throttled_without_retry_after) return "throttled";
    return nullptr;
  }
  if (is_server_error(result.code) && policy.retry_server_errors) return "server error";
  if (result.code == 409 && policy.retry_conflict) return "conflict";
  return nullptr;
}

}  // namespace

ApiClient::ApiClient(std::shared_ptr<HttpClient> http, RateLimits limits)
    : http_(std::move(http)), limiter_(limits) {}

ApiClient::~ApiClient() = default;

void ApiClient::shutdown() { shutdown_.cancel(); }

ApiResult ApiClient::call(const HttpRequest& request, const RetryPolicy& policy, const CancelToken* cancel) {
  LinkedToken linked(shutdown_, cancel);
  Backoff backoff(policy.backoff);
  ApiResult result;
  int sent = 0;
  for (int attempt = 1;; ++attempt) {
    if (!limiter_.acquire(linked.get())) {
      result = ApiResult{};
      result.reason = "Cancelled";
      result.message = "cancelled while waiting for the client rate limiter";
      result.attempts = sent;
      return result;
    }
    HttpResponse response = http_->request(request, linked.get());
    result = to_api_result(std::move(response));  // takes the body; the rest of `response` is still read below
    sent += response.resent ? 2 : 1;
    result.attempts = sent;
    const char* why = retry_reason(result, response, policy);
    if (why == nullptr || attempt >= policy.max_attempts) return result;

    std::chrono::milliseconds wait = backoff.next();
    if (response.retry_after_seconds)
      wait = std::min<std::chrono::milliseconds>(std::chrono::seconds(*response.retry_after_seconds),
                                                 policy.max_retry_after);
    spdlog::info("api-client {} ({}); attempt {} of {} in {} ms", describe(result, request.method, request.target),
                 why, attempt + 1, policy.max_attempts, wait.count());
    if (!linked.get()->sleep_for(wait)) {
      result.reason = "Cancelled";
      result.message = "cancelled while waiting to retry after: " + result.message;
      result.ok = false;
      return result;
    }
  }
}

StreamResult ApiClient::stream(const HttpRequest& request, const HttpClient::BodyHandler& on_body,
                               const CancelToken* cancel) {
  LinkedToken linked(shutdown_, cancel);
  if (!limiter_.acquire(linked.get())) {
    StreamResult cancelled;
    cancelled.cancelled = true;
    cancelled.error = "cancelled while waiting for the client rate limiter";
    return cancelled;
  }
  return http_->stream(request, on_body, linked.get());
}

ApiResult ApiClient::get(const std::string& path, const CancelToken* cancel) {
  HttpRequest request;
  request.method = "GET";
  request.target = path;
  return call(request, RetryPolicy{}, cancel);
}

}  // namespace troupe::watch
