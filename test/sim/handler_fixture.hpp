#pragma once
// An ApiHandler over a fresh store with the system namespaces, called the
// way the HTTP server calls it (no sockets), for the handler tests.

#include <catch2/catch.hpp>

#include <string>

#include <rapidjson/document.h>

#include "sim/api_handler.hpp"

namespace troupe::sim::testing {

struct HandlerFixture {
  ObjectStore store{ResourceRegistry::standard()};
  ApiHandler handler{store};
  HandlerFixture() { handler.create_system_namespaces(); }

  ApiResponse call(const std::string& method, const std::string& target, const std::string& body = "",
                   const std::string& content_type = "application/json", const std::string& accept = "") {
    ApiRequest r;
    r.method = method;
    auto q = target.find('?');
    r.path = target.substr(0, q);
    if (q != std::string::npos) r.query = parse_query(target.substr(q + 1));
    r.body = body;
    r.content_type = content_type;
    r.accept = accept;
    return handler.handle(r);
  }
  ApiResponse get(const std::string& target, const std::string& accept) {
    return call("GET", target, "", "application/json", accept);
  }
};

inline rapidjson::Document json(const std::string& text) {
  rapidjson::Document d;
  d.Parse(text.c_str());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

}  // namespace troupe::sim::testing
