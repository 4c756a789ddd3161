// The defaults of Koordinator's CRD schemas that the embedded API server
// applies as a real one does: a Reservation's ttl and allocateOnce.
#include <catch2/catch.hpp>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>

#include "sim/crd_defaults.hpp"

using namespace troupe::sim;

namespace {

ResourceInfo resource(const char* group, const char* kind) {
  ResourceInfo r;
  r.group = group;
  r.version = "v1alpha1";
  r.kind = kind;
  return r;
}

std::string defaulted(const ResourceInfo& r, const std::string& object) {
  rapidjson::Document d;
  d.Parse(object.c_str());
  REQUIRE_FALSE(d.HasParseError());
  apply_crd_defaults(r, d);
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer> writer(out);
  d.Accept(writer);
  return out.GetString();
}

}  // namespace

TEST_CASE("a Reservation gets Koordinator's ttl and allocateOnce defaults", "[sim][defaults]") {
  const ResourceInfo reservation = resource("scheduling.koordinator.sh", "Reservation");
  struct Case {
    const char* name;
    const char* object;
    const char* want;
  };
  const Case cases[] = {
      {"neither set", R"({"spec":{"owners":[]}})", R"({"spec":{"owners":[],"ttl":"24h","allocateOnce":true}})"},
      {"set ones kept, even ttl 0 and allocateOnce false", R"({"spec":{"ttl":"0s","allocateOnce":false}})",
       R"({"spec":{"ttl":"0s","allocateOnce":false}})"},
      {"expires does not stop the ttl default (upstream checks expires first)",
       R"({"spec":{"expires":"2030-01-01T00:00:00Z"}})",
       R"({"spec":{"expires":"2030-01-01T00:00:00Z","ttl":"24h","allocateOnce":true}})"},
      {"null is pruned, then defaulted", R"({"spec":{"ttl":null,"allocateOnce":null}})",
       R"({"spec":{"ttl":"24h","allocateOnce":true}})"},
      {"no spec: nothing to default", R"({"metadata":{"name":"r"}})", R"({"metadata":{"name":"r"}})"},
      {"a spec that is not an object is left to validation", R"({"spec":"x"})", R"({"spec":"x"})"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(defaulted(reservation, c.object) == c.want);
  }
}

TEST_CASE("other kinds get no Reservation defaults", "[sim][defaults]") {
  const char* object = R"({"spec":{}})";
  CHECK(defaulted(resource("scheduling.koordinator.sh", "PodMigrationJob"), object) == object);
  CHECK(defaulted(resource("example.com", "Reservation"), object) == object);
  CHECK(defaulted(resource("", "Pod"), object) == object);
}
