// ApiClient: Status decoding, retry policy, Retry-After, rate limiting, shutdown.
#include <catch2/catch.hpp>

#include <atomic>
#include <future>

#include "fake_apiserver.hpp"
#include "test_data.hpp"
#include "watch/api_client.hpp"

using namespace troupe::watch;
using troupe::test::FakeApiServer;
using troupe::test::RecordedRequest;
using troupe::test::ResponseWriter;
using namespace std::chrono_literals;

namespace {

std::shared_ptr<ApiClient> api_for(const std::string& server, RateLimits limits = {0, 1}) {
  ClusterConfig config;
  config.server = server;
  auto http = HttpClient::create(config);
  REQUIRE(http.ok());
  return std::make_shared<ApiClient>(*http, limits);
}

RetryPolicy fast(int attempts = 5) {
  RetryPolicy policy;
  policy.max_attempts = attempts;
  policy.backoff = {1ms, 5ms, 60'000ms, 2.0, 0.0};
  return policy;
}

HttpRequest request(const std::string& method, const std::string& target) {
  HttpRequest r;
  r.method = method;
  r.target = target;
  return r;
}

// Answers the n-th request (0-based) with script[n], the last entry repeating.
FakeApiServer::Handler scripted(std::vector<std::function<void(ResponseWriter&)>> script) {
  auto counter = std::make_shared<std::atomic<std::size_t>>(0);
  return [script, counter](const RecordedRequest&, ResponseWriter& out) {
    const std::size_t n = counter->fetch_add(1);
    script[std::min(n, script.size() - 1)](out);
  };
}

}  // namespace

TEST_CASE("api result: Status bodies and other answers", "[api_client]") {
  struct Case {
    int status;
    std::string body;
    bool ok;
    const char* reason;
    const char* message;
  };
  const std::vector<Case> cases = {
      {201, R"({"kind":"Status","status":"Success","code":201})", true, "", ""},
      {409, R"({"kind":"Status","status":"Failure","message":"pod x is already assigned to node \"n\"","reason":"Conflict","code":409})",
       false, "Conflict", "pod x is already assigned to node \"n\""},
      {422, R"({"kind":"Status","message":"Pod \"d\" is invalid","reason":"Invalid","code":422})", false, "Invalid",
       "Pod \"d\" is invalid"},
      {404, "<html>not here</html>", false, "NotFound", "<html>not here</html>"},
      {418, "", false, "HTTP418", ""},
      {500, R"({"kind":"Pod"})", false, "InternalError", R"({"kind":"Pod"})"},
  };
  for (const auto& c : cases) {
    INFO(c.status << " " << c.body);
    HttpResponse response;
    response.status = c.status;
    response.body = c.body;
    const ApiResult r = to_api_result(response);
    CHECK(r.ok == c.ok);
    CHECK(r.code == c.status);
    CHECK(r.reason == c.reason);
    CHECK(r.message == c.message);
    CHECK(r.body == c.body);
  }
  HttpResponse lost;
  lost.error = "connect to http://x: Connection refused";
  ApiResult r = to_api_result(lost);
  CHECK_FALSE(r.ok);
  CHECK(r.code == 0);
  CHECK(r.reason == "ConnectionError");
  CHECK(r.message == lost.error);
  lost.cancelled = true;
  CHECK(to_api_result(lost).reason == "Cancelled");
  CHECK(describe(to_api_result(lost), "GET", "/x") == "GET /x: Cancelled: " + lost.error);
}

TEST_CASE("api client: retries per policy", "[api_client]") {
  auto ok = [](ResponseWriter& out) { out.respond(200, "{}"); };
  auto status = [](int code, const char* reason, std::vector<std::pair<std::string, std::string>> headers = {}) {
    return [=](ResponseWriter& out) { out.respond_status(code, reason, "scripted", headers); };
  };

  SECTION("429 with Retry-After is retried") {
    FakeApiServer server(scripted({status(429, "TooManyRequests", {{"Retry-After", "0"}}), ok}));
    const ApiResult r = api_for(server.url())->call(request("POST", "/x"), fast());
    CHECK(r.ok);
    CHECK(r.attempts == 2);
  }
  SECTION("5xx is retried with backoff") {
    FakeApiServer server(scripted({status(503, "ServiceUnavailable"), status(500, "InternalError"), ok}));
    const ApiResult r = api_for(server.url())->call(request("GET", "/x"), fast());
    CHECK(r.ok);
    CHECK(r.attempts == 3);
  }
  SECTION("attempts are bounded") {
    FakeApiServer server(scripted({status(500, "InternalError")}));
    const ApiResult r = api_for(server.url())->call(request("GET", "/x"), fast(3));
    CHECK_FALSE(r.ok);
    CHECK(r.code == 500);
    CHECK(r.attempts == 3);
    CHECK(server.request_count() == 3);
  }
  SECTION("409 is final unless the policy allows resending") {
    FakeApiServer server(scripted({status(409, "Conflict"), ok}));
    auto api = api_for(server.url());
    const ApiResult first = api->call(request("PUT", "/x"), fast());
    CHECK(first.code == 409);
    CHECK(first.attempts == 1);
    RetryPolicy resend = fast();
    resend.retry_conflict = true;
    CHECK(api->call(request("PATCH", "/x"), resend).ok);
  }
  SECTION("4xx other than 409/429 is never retried") {
    FakeApiServer server(scripted({status(422, "Invalid"), ok}));
    const ApiResult r = api_for(server.url())->call(request("POST", "/x"), fast());
    CHECK(r.code == 422);
    CHECK(r.reason == "Invalid");
    CHECK(server.request_count() == 1);
  }
  SECTION("429 without Retry-After can be made final (PodDisruptionBudget)") {
    FakeApiServer server(scripted({status(429, "TooManyRequests"), ok}));
    RetryPolicy policy = fast();
    policy.retry_throttled_without_retry_after = false;
    const ApiResult r = api_for(server.url())->call(request("POST", "/evict"), policy);
    CHECK(r.code == 429);
    CHECK(server.request_count() == 1);
  }
  SECTION("lost connections are retried") {
    FakeApiServer server(scripted({[](ResponseWriter& out) { out.cut(); }, ok}));
    const ApiResult r = api_for(server.url())->call(request("GET", "/x"), fast());
    CHECK(r.ok);
    CHECK(r.attempts == 2);
  }
}

TEST_CASE("api client: shutdown interrupts a long Retry-After wait", "[api_client]") {
  std::promise<void> first;
  std::atomic<bool> signalled{false};
  FakeApiServer server([&](const RecordedRequest&, ResponseWriter& out) {
    out.respond_status(429, "TooManyRequests", "busy", {{"Retry-After", "50"}});
    if (!signalled.exchange(true)) first.set_value();
  });
  auto api = api_for(server.url());
  auto pending = std::async(std::launch::async, [&] { return api->call(request("GET", "/x"), fast()); });
  first.get_future().wait();
  api->shutdown();
  REQUIRE(pending.wait_for(10s) == std::future_status::ready);
  const ApiResult r = pending.get();
  CHECK_FALSE(r.ok);
  CHECK(r.reason == "Cancelled");
  CHECK(server.request_count() == 1);
  // After shutdown nothing more goes out.
  CHECK(api->call(request("GET", "/y"), fast()).reason == "Cancelled");
  CHECK(server.request_count() == 1);
}

TEST_CASE("api client: every request takes a rate-limiter token", "[api_client]") {
  FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) { out.respond(200, "{}"); });
  auto api = api_for(server.url(), RateLimits{0.001, 3});
  for (int i = 0; i < 3; ++i) REQUIRE(api->call(request("GET", "/x")).ok);
  CHECK(api->limiter().available() < 0.01);
  CHECK_FALSE(api->limiter().try_acquire());
}
