// kube-apiserver's defaulting of container requests from limits.
#include <catch2/catch.hpp>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>

#include "sim/pod_resource_defaults.hpp"

using namespace troupe::sim;

namespace {

std::string defaulted(const std::string& spec) {
  rapidjson::Document d;
  d.Parse((R"({"metadata":{"name":"p"},"spec":)" + spec + "}").c_str());
  REQUIRE_FALSE(d.HasParseError());
  default_requests_from_limits(d);
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer> writer(out);
  d["spec"].Accept(writer);
  return out.GetString();
}

}  // namespace

TEST_CASE("a limit without a request becomes the request", "[sim][defaults]") {
  struct Case {
    const char* name;
    const char* spec;
    const char* want;
  };
  const Case cases[] = {
      {"limits only", R"({"containers":[{"name":"c","resources":{"limits":{"cpu":"3","nvidia.com/gpu":"1"}}}]})",
       R"({"containers":[{"name":"c","resources":{"limits":{"cpu":"3","nvidia.com/gpu":"1"},"requests":{"cpu":"3","nvidia.com/gpu":"1"}}}]})"},
      {"a request kept, the other resource defaulted",
       R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"1"},"limits":{"cpu":"3","memory":"1Gi"}}}]})",
       R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"3","memory":"1Gi"}}}]})"},
      {"init containers too, null requests",
       R"({"initContainers":[{"name":"i","resources":{"requests":null,"limits":{"cpu":"2"}}}],"containers":[{"name":"c"}]})",
       R"({"initContainers":[{"name":"i","resources":{"requests":{"cpu":"2"},"limits":{"cpu":"2"}}}],"containers":[{"name":"c"}]})"},
      {"no limits: untouched", R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]})",
       R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]})"},
      {"malformed shapes: untouched", R"({"containers":[{"name":"c","resources":{"limits":["cpu"]}},"x"]})",
       R"({"containers":[{"name":"c","resources":{"limits":["cpu"]}},"x"]})"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(defaulted(c.spec) == c.want);
  }
}
