#include <catch2/catch.hpp>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "actors/http_endpoint.hpp"

using namespace troupe::actors;
namespace http = boost::beast::http;

namespace {

std::pair<int, std::string> get(unsigned short port, const std::string& method, const std::string& target,
                                const std::string& body = "") {
  boost::asio::io_context io;
  boost::beast::tcp_stream stream(io);
  stream.connect({boost::asio::ip::make_address("127.0.0.1"), port});
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, "localhost");
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req);
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  return {static_cast<int>(res.result_int()), res.body()};
}

}  // namespace

TEST_CASE("split_host_port accepts the usual spellings and rejects the rest") {
  struct Case { std::string in; bool ok; std::string host; unsigned short port; };
  std::vector<Case> cases = {
      {"0.0.0.0:10259", true, "0.0.0.0", 10259}, {"127.0.0.1:0", true, "127.0.0.1", 0},
      {":8080", true, "", 8080},                  {"[::1]:80", true, "::1", 80},
      {"localhost", false, "", 0},                {"1.2.3.4:", false, "", 0},
      {"1.2.3.4:99999", false, "", 0},            {"1.2.3.4:12a", false, "", 0},
      {"1.2.3.4:-1", false, "", 0},
  };
  for (const auto& c : cases) {
    INFO(c.in);
    auto r = split_host_port(c.in);
    REQUIRE(r.ok() == c.ok);
    if (c.ok) {
      CHECK(r->first == c.host);
      CHECK(r->second == c.port);
    } else {
      CHECK(r.message().find(c.in) != std::string::npos);
    }
  }
}

TEST_CASE("the endpoint serves its handler over HTTP, keeps bodies and survives handler exceptions") {
  HttpEndpoint endpoint;
  REQUIRE(endpoint.start("127.0.0.1:0", [](const HttpRequest& r) -> HttpReply {
    if (r.target == "/boom") throw std::runtime_error("kaput");
    if (r.target == "/echo") return {200, "text/plain", r.method + ":" + r.body};
    return {404, "text/plain", "not found\n"};
  }).ok());
  REQUIRE(endpoint.port() != 0);
  CHECK(get(endpoint.port(), "POST", "/echo", "hello") == std::make_pair(200, std::string("POST:hello")));
  CHECK(get(endpoint.port(), "GET", "/nothing").first == 404);
  auto boom = get(endpoint.port(), "GET", "/boom");
  CHECK(boom.first == 500);
  CHECK(boom.second.find("kaput") != std::string::npos);
  CHECK(get(endpoint.port(), "GET", "/echo").first == 200);  // still serving
  endpoint.stop();
}

TEST_CASE("a taken port is reported, not thrown") {
  HttpEndpoint first;
  REQUIRE(first.start("127.0.0.1:0", [](const HttpRequest&) { return HttpReply{}; }).ok());
  HttpEndpoint second;
  auto status = second.start("127.0.0.1:" + std::to_string(first.port()), [](const HttpRequest&) { return HttpReply{}; });
  CHECK_FALSE(status.ok());
}
