// HttpClient against the scripted fake server: headers, keep-alive pool,
// stale connections, bounds, timeouts, cancellation, streaming, TLS.
#include <catch2/catch.hpp>

#include <atomic>
#include <future>
#include <thread>
#include <vector>

#include "fake_apiserver.hpp"
#include "test_data.hpp"
#include "test_pki.hpp"
#include "watch/http_client.hpp"
#include "watch/token_source.hpp"

using namespace troupe::watch;
using troupe::test::FakeApiServer;
using troupe::test::RecordedRequest;
using troupe::test::ResponseWriter;
using namespace std::chrono_literals;

namespace {

std::shared_ptr<HttpClient> client_for(const std::string& server, ClusterConfig config = {},
                                       HttpClientOptions options = {}) {
  config.server = server;
  auto client = HttpClient::create(config, options);
  REQUIRE(client.ok());
  return *client;
}

HttpRequest get(const std::string& target) {
  HttpRequest request;
  request.target = target;
  return request;
}

void ok_handler(const RecordedRequest& request, ResponseWriter& out) {
  out.respond(200, R"({"path":")" + request.path + "\"}");
}

troupe::test::FakeServerTls server_tls(bool require_client_cert = false) {
  const auto& pki = troupe::test::test_pki();
  return {pki.server_cert_pem, pki.server_key_pem, require_client_cert ? pki.ca_pem : ""};
}

}  // namespace

TEST_CASE("http client: request line, headers and body", "[http_client]") {
  FakeApiServer server([](const RecordedRequest& request, ResponseWriter& out) {
    if (request.method == "POST") {
      out.respond(201, request.body, "application/json", {{"X-Test", "yes"}});
    } else {
      out.respond_status(404, "NotFound", "pods \"x\" not found");
    }
  });
  ClusterConfig config;
  config.token = "secret-token";
  auto client = client_for(server.url(), config);

  HttpRequest post;
  post.method = "POST";
  post.target = "/api/v1/namespaces/default/pods/x/binding";
  post.body = R"({"kind":"Binding"})";
  post.content_type = "application/json";
  const HttpResponse created = client->request(post);
  CHECK(created.status == 201);
  CHECK(created.body == post.body);
  CHECK(created.content_type == "application/json");

  const HttpResponse missing = client->request(get("/api/v1/namespaces/default/pods/x"));
  CHECK(missing.status == 404);
  CHECK(missing.body.find("NotFound") != std::string::npos);

  const auto requests = server.requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].method == "POST");
  CHECK(requests[0].path == "/api/v1/namespaces/default/pods/x/binding");
  CHECK(requests[0].headers.at("authorization") == "Bearer secret-token");
  CHECK(requests[0].headers.at("content-type") == "application/json");
  CHECK(requests[0].headers.at("user-agent") == "troupe");
  CHECK(requests[0].headers.at("accept") == "application/json");
  CHECK(requests[0].headers.at("host") == "127.0.0.1:" + std::to_string(server.port()));
  CHECK(requests[0].body == post.body);
  CHECK(requests[1].method == "GET");
  CHECK(requests[1].headers.count("content-type") == 0);
}

TEST_CASE("http client: no token means no Authorization header, and bad requests fail cleanly", "[http_client]") {
  FakeApiServer server(ok_handler);
  auto client = client_for(server.url());
  CHECK(client->request(get("/version")).status == 200);
  CHECK(server.requests().at(0).headers.count("authorization") == 0);

  HttpRequest bad_method = get("/x");
  bad_method.method = "FROB";
  HttpResponse r = client->request(bad_method);
  CHECK(r.status == 0);
  CHECK(r.error.find("FROB") != std::string::npos);
  r = client->request(get("no-slash"));
  CHECK(r.status == 0);
  CHECK(r.error.find("must start with '/'") != std::string::npos);
  CHECK(server.request_count() == 1);
}

TEST_CASE("http client: a server path prefix is put before every target", "[http_client]") {
  FakeApiServer server(ok_handler);
  auto client = client_for(server.url() + "/k8s/clusters/c-1/");
  CHECK(client->request(get("/api/v1/pods?limit=1")).status == 200);
  CHECK(server.requests().at(0).target == "/k8s/clusters/c-1/api/v1/pods?limit=1");
}

TEST_CASE("http client: sequential requests reuse one kept-alive connection", "[http_client]") {
  FakeApiServer server(ok_handler);
  auto client = client_for(server.url());
  for (int i = 0; i < 5; ++i) REQUIRE(client->request(get("/api/v1/nodes")).status == 200);
  CHECK(server.connections_accepted() == 1);
  const PoolStats stats = client->pool_stats();
  CHECK(stats.open == 1);
  CHECK(stats.idle == 1);
  CHECK(stats.created == 1);
}

TEST_CASE("http client: a pooled connection the server dropped is replaced transparently", "[http_client]") {
  FakeApiServer server([](const RecordedRequest& request, ResponseWriter& out) {
    out.respond(200, "{}");
    out.keep_connection(false);  // close silently, like an idle timeout on the server
  });
  auto client = client_for(server.url());
  for (int i = 0; i < 4; ++i) {
    // Give the server time to close so the client really meets a dead connection.
    REQUIRE(troupe::test::eventually([&] { return server.connections_open() == 0; }));
    const HttpResponse r = client->request(get("/api/v1/pods"));
    INFO(r.error);
    REQUIRE(r.status == 200);
  }
  CHECK(server.request_count() == 4);  // never sent twice
  CHECK(server.connections_accepted() == 4);
}

TEST_CASE("http client: a reused connection that dies unanswered resends only what is safe to repeat",
          "[http_client]") {
  struct Case {
    const char* method;
    bool resent;
  };
  const Case cases[] = {{"GET", true}, {"HEAD", true}, {"OPTIONS", true},
                        {"POST", false}, {"PUT", false}, {"PATCH", false}, {"DELETE", false}};
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.method) {
      std::atomic<int> seen{0};
      FakeApiServer server([&](const RecordedRequest&, ResponseWriter& out) {
        if (++seen == 2) return out.cut();  // took the request, then went away without a word
        out.respond(200, "{}");
      });
      auto client = client_for(server.url());
      REQUIRE(client->request(get("/api/v1/pods")).status == 200);
      HttpRequest second = get("/api/v1/namespaces/default/pods/p/binding");
      second.method = c.method;
      const HttpResponse r = client->request(second);
      INFO(r.error);
      CHECK(r.resent == c.resent);
      CHECK((r.status == 200) == c.resent);
      CHECK(server.request_count() == (c.resent ? 3u : 2u));
    }
  }
}

TEST_CASE("http client: an idle connection the server closed is not used for the next request", "[http_client]") {
  FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) {
    out.respond(200, "{}");
    out.keep_connection(false);
  });
  auto client = client_for(server.url());
  REQUIRE(client->request(get("/api/v1/pods")).status == 200);
  REQUIRE(troupe::test::eventually([&] { return server.connections_open() == 0; }));
  HttpRequest post = get("/api/v1/namespaces/default/pods/p/binding");
  post.method = "POST";
  const HttpResponse r = client->request(post);
  INFO(r.error);
  CHECK(r.status == 200);
  CHECK_FALSE(r.resent);  // the dead connection was noticed before sending
  CHECK(server.request_count() == 2);
}

TEST_CASE("http client: the pool never opens more than max_connections", "[http_client]") {
  std::atomic<int> in_flight{0};
  std::atomic<int> most{0};
  FakeApiServer server([&](const RecordedRequest&, ResponseWriter& out) {
    const int now = ++in_flight;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(30ms);
    --in_flight;
    out.respond(200, "{}");
  });
  HttpClientOptions options;
  options.max_connections = 2;
  auto client = client_for(server.url(), {}, options);
  std::vector<std::future<int>> results;
  for (int i = 0; i < 8; ++i)
    results.push_back(std::async(std::launch::async, [&] { return client->request(get("/x")).status; }));
  for (auto& r : results) CHECK(r.get() == 200);
  CHECK(most.load() <= 2);
  CHECK(server.connections_accepted() <= 2);
  CHECK(client->pool_stats().open <= 2);
}

TEST_CASE("http client: a request past its deadline fails with a timeout", "[http_client]") {
  FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) { out.wait_for_client_close(10s); });
  auto client = client_for(server.url());
  HttpRequest slow = get("/slow");
  slow.timeout = 150ms;
  const HttpResponse r = client->request(slow);
  CHECK(r.status == 0);
  CHECK(r.error.find("timed out") != std::string::npos);
  CHECK_FALSE(r.cancelled);
  CHECK(client->pool_stats().open == 0);  // a timed-out connection is not reused
}

TEST_CASE("http client: a request can be cancelled from another thread", "[http_client]") {
  std::promise<void> arrived;
  FakeApiServer server([&](const RecordedRequest&, ResponseWriter& out) {
    arrived.set_value();
    out.wait_for_client_close(10s);
  });
  auto client = client_for(server.url());
  CancelToken cancel;
  auto pending = std::async(std::launch::async, [&] { return client->request(get("/hang"), &cancel); });
  arrived.get_future().wait();
  cancel.cancel();
  const HttpResponse r = pending.get();
  CHECK(r.status == 0);
  CHECK(r.cancelled);
}

TEST_CASE("http client: connection refused is reported, not thrown", "[http_client]") {
  int port = 0;
  {
    FakeApiServer closed(ok_handler);
    port = closed.port();
  }
  auto client = client_for("http://127.0.0.1:" + std::to_string(port));
  const HttpResponse r = client->request(get("/x"));
  CHECK(r.status == 0);
  CHECK(r.error.find("connect") != std::string::npos);
}

TEST_CASE("http client: a 401 re-reads a rotated token file and retries once", "[http_client]") {
  troupe::test::TempDir dir;
  const std::string token_file = dir.write("token", "old");
  std::atomic<bool> refuse_all{false};
  FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
    if (!refuse_all && request.headers.count("authorization") && request.headers.at("authorization") == "Bearer new") {
      out.respond(200, "{}");
    } else {
      out.respond_status(401, "Unauthorized", "Unauthorized");
    }
  });
  ClusterConfig config;
  config.token_file = token_file;
  auto client = client_for(server.url(), config);
  dir.write("token", "new");  // rotated after the client cached "old"
  CHECK(client->request(get("/api/v1/pods")).status == 200);
  auto requests = server.requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].headers.at("authorization") == "Bearer old");
  CHECK(requests[1].headers.at("authorization") == "Bearer new");

  refuse_all = true;
  dir.write("token", "newer");
  CHECK(client->request(get("/api/v1/pods")).status == 401);  // changed but still refused: one retry only
  requests = server.requests();
  REQUIRE(requests.size() == 4);
  CHECK(requests[2].headers.at("authorization") == "Bearer new");
  CHECK(requests[3].headers.at("authorization") == "Bearer newer");
  CHECK(client->request(get("/api/v1/pods")).status == 401);  // unchanged file: no pointless retry
  CHECK(server.request_count() == 5);
}

TEST_CASE("http client: streams hand over body pieces as they arrive", "[http_client]") {
  std::promise<void> first_seen;
  auto first_seen_future = first_seen.get_future().share();
  FakeApiServer server([&](const RecordedRequest&, ResponseWriter& out) {
    out.begin_stream();
    out.chunk("{\"a\":1}\n{\"b\"");
    // The second piece is only sent after the client has the first: proof it is not buffered.
    if (first_seen_future.wait_for(10s) != std::future_status::ready) return;
    out.chunk(":2}\n");
    out.end_stream();
  });
  auto client = client_for(server.url());
  std::string received;
  bool signalled = false;
  const StreamResult result = client->stream(get("/api/v1/pods?watch=true"), [&](std::string_view bytes) {
    received.append(bytes);
    if (!signalled && received.find('\n') != std::string::npos) {
      signalled = true;
      first_seen.set_value();
    }
    return true;
  });
  CHECK(result.status == 200);
  CHECK(result.clean_end);
  CHECK(result.error.empty());
  CHECK(received == "{\"a\":1}\n{\"b\":2}\n");
  CHECK(result.body_bytes == received.size());
}

TEST_CASE("http client: a stream is cancelled promptly from another thread", "[http_client]") {
  FakeApiServer server([&](const RecordedRequest&, ResponseWriter& out) {
    out.begin_stream();
    out.chunk("{}\n");
    out.wait_for_client_close(20s);
  });
  auto client = client_for(server.url());
  CancelToken cancel;
  std::atomic<bool> got_data{false};
  auto pending = std::async(std::launch::async, [&] {
    return client->stream(get("/watch"), [&](std::string_view) {
      got_data = true;
      return true;
    }, &cancel);
  });
  REQUIRE(troupe::test::eventually([&] { return got_data.load(); }));
  cancel.cancel();
  REQUIRE(pending.wait_for(5s) == std::future_status::ready);
  const StreamResult result = pending.get();
  CHECK(result.cancelled);
  CHECK_FALSE(result.clean_end);
}

TEST_CASE("http client: stream outcomes other than a clean 200", "[http_client]") {
  SECTION("an error status is read whole") {
    FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) {
      out.respond_status(410, "Expired", "too old resource version: 1 (5)");
    });
    const StreamResult r = client_for(server.url())->stream(get("/w"), [](std::string_view) { return true; });
    CHECK(r.status == 410);
    CHECK(r.body.find("too old resource version") != std::string::npos);
    CHECK(r.body_bytes == 0);
  }
  SECTION("429 carries Retry-After") {
    FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) {
      out.respond_status(429, "TooManyRequests", "slow down", {{"Retry-After", "7"}});
    });
    const StreamResult r = client_for(server.url())->stream(get("/w"), [](std::string_view) { return true; });
    CHECK(r.status == 429);
    REQUIRE(r.retry_after_seconds);
    CHECK(*r.retry_after_seconds == 7);
  }
  SECTION("a connection cut mid-stream") {
    FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) {
      out.begin_stream();
      out.chunk("{\"x\":");
      out.cut();
    });
    std::string received;
    const StreamResult r = client_for(server.url())->stream(get("/w"), [&](std::string_view b) {
      received.append(b);
      return true;
    });
    CHECK(r.status == 200);
    CHECK_FALSE(r.clean_end);
    CHECK_FALSE(r.error.empty());
    CHECK(received == "{\"x\":");
  }
  SECTION("the handler stops the stream") {
    FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) {
      out.begin_stream();
      out.chunk("a\n");
      out.wait_for_client_close(10s);
    });
    const StreamResult r = client_for(server.url())->stream(get("/w"), [](std::string_view) { return false; });
    CHECK(r.stopped_by_handler);
  }
  SECTION("silence longer than the idle timeout") {
    FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) {
      out.begin_stream();
      out.wait_for_client_close(10s);
    });
    HttpRequest quiet = get("/w");
    quiet.timeout = 150ms;
    const StreamResult r = client_for(server.url())->stream(quiet, [](std::string_view) { return true; });
    CHECK(r.status == 200);
    CHECK(r.error.find("timed out") != std::string::npos);
  }
}

TEST_CASE("http client: TLS verifies the server against the configured CA", "[http_client][tls]") {
  const auto& pki = troupe::test::test_pki();
  FakeApiServer server(ok_handler, server_tls());
  REQUIRE(server.url().rfind("https://", 0) == 0);

  SECTION("trusted CA") {
    ClusterConfig config;
    config.ca_pem = pki.ca_pem;
    const HttpResponse r = client_for(server.url(), config)->request(get("/version"));
    INFO(r.error);
    CHECK(r.status == 200);
  }
  SECTION("untrusted CA") {
    ClusterConfig config;
    config.ca_pem = pki.other_ca_pem;
    const HttpResponse r = client_for(server.url(), config)->request(get("/version"));
    CHECK(r.status == 0);
    CHECK(r.error.find("tls handshake") != std::string::npos);
    CHECK(server.request_count() == 0);
  }
  SECTION("insecure-skip-tls-verify accepts any certificate") {
    ClusterConfig config;
    config.insecure_skip_tls_verify = true;
    CHECK(client_for(server.url(), config)->request(get("/version")).status == 200);
  }
  SECTION("tls-server-name picks the name checked in the certificate") {
    ClusterConfig config;
    config.ca_pem = pki.ca_pem;
    config.tls_server_name = "apiserver.test";
    CHECK(client_for(server.url(), config)->request(get("/version")).status == 200);
    config.tls_server_name = "wrong.test";
    const HttpResponse r = client_for(server.url(), config)->request(get("/version"));
    CHECK(r.status == 0);
    CHECK(r.error.find("tls handshake") != std::string::npos);
  }
  SECTION("the host name in the URL is checked too") {
    ClusterConfig config;
    config.ca_pem = pki.ca_pem;
    const std::string by_name = "https://localhost:" + std::to_string(server.port());
    CHECK(client_for(by_name, config)->request(get("/version")).status == 200);
  }
  SECTION("streams over TLS") {
    ClusterConfig config;
    config.ca_pem = pki.ca_pem;
    std::string body;
    const StreamResult r = client_for(server.url(), config)->stream(get("/version"), [&](std::string_view b) {
      body.append(b);
      return true;
    });
    CHECK(r.status == 200);
    CHECK(body == R"({"path":"/version"})");
  }
}

TEST_CASE("http client: TLS client certificates", "[http_client][tls]") {
  const auto& pki = troupe::test::test_pki();
  FakeApiServer server(ok_handler, server_tls(true));
  ClusterConfig config;
  config.ca_pem = pki.ca_pem;
  SECTION("presented when configured") {
    config.client_cert_pem = pki.client_cert_pem;
    config.client_key_pem = pki.client_key_pem;
    const HttpResponse r = client_for(server.url(), config)->request(get("/version"));
    INFO(r.error);
    REQUIRE(r.status == 200);
    CHECK(server.requests().at(0).client_certificate_subject.find("troupe-client") != std::string::npos);
  }
  SECTION("refused without one") {
    CHECK(client_for(server.url(), config)->request(get("/version")).status == 0);
  }
  SECTION("a key that does not match its certificate is rejected up front") {
    config.client_cert_pem = pki.client_cert_pem;
    config.client_key_pem = pki.server_key_pem;
    config.server = server.url();
    auto client = HttpClient::create(config);
    REQUIRE_FALSE(client.ok());
    CHECK(client.message().find("client-key") != std::string::npos);
  }
  SECTION("garbage CA PEM is rejected up front") {
    config.ca_pem = "not a certificate";
    config.server = server.url();
    auto client = HttpClient::create(config);
    REQUIRE_FALSE(client.ok());
    CHECK(client.message().find("certificate-authority") != std::string::npos);
  }
}
