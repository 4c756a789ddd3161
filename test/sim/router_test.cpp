#include <catch2/catch.hpp>

#include "sim/router.hpp"

using troupe::sim::ParsedPath;
using troupe::sim::RouteKind;

namespace {

ParsedPath route(RouteKind kind, std::string group = "", std::string version = "", std::string ns = "",
                 std::string plural = "", std::string name = "", std::string sub = "", bool watch = false) {
  ParsedPath p;
  p.kind = kind;
  p.group = std::move(group);
  p.version = std::move(version);
  p.ns = std::move(ns);
  p.plural = std::move(plural);
  p.name = std::move(name);
  p.subresource = std::move(sub);
  p.watch_prefix = watch;
  return p;
}

}  // namespace

TEST_CASE("parse_path maps request paths to endpoints", "[router]") {
  struct Case {
    const char* path;
    ParsedPath want;
  };
  const Case cases[] = {
      {"/version", route(RouteKind::version)},
      {"/version/", route(RouteKind::version)},
      {"/healthz", route(RouteKind::health)},
      {"/livez", route(RouteKind::health)},
      {"/readyz/ping", route(RouteKind::health)},
      {"/openapi/v2", route(RouteKind::openapi)},
      {"/openapi/v3/apis/apps/v1", route(RouteKind::openapi)},
      {"/swagger-2.0.0.pb-v1", route(RouteKind::openapi)},
      {"/api", route(RouteKind::api_versions)},
      {"/apis", route(RouteKind::api_group_list)},
      {"/apis/", route(RouteKind::api_group_list)},
      {"/api/v1", route(RouteKind::resource_list, "", "v1")},
      {"/apis/policy", route(RouteKind::api_group, "policy")},
      {"/apis/policy/v1", route(RouteKind::resource_list, "policy", "v1")},
      {"/api/v1/pods", route(RouteKind::resource, "", "v1", "", "pods")},
      {"/api/v1/nodes/n1", route(RouteKind::resource, "", "v1", "", "nodes", "n1")},
      {"/api/v1/nodes/n1/status", route(RouteKind::resource, "", "v1", "", "nodes", "n1", "status")},
      {"/api/v1/namespaces", route(RouteKind::resource, "", "v1", "", "namespaces")},
      {"/api/v1/namespaces/default", route(RouteKind::resource, "", "v1", "", "namespaces", "default")},
      {"/api/v1/namespaces/default/pods", route(RouteKind::resource, "", "v1", "default", "pods")},
      {"/api/v1/namespaces/default/pods/", route(RouteKind::resource, "", "v1", "default", "pods")},
      {"/api/v1/namespaces/ns1/pods/p1", route(RouteKind::resource, "", "v1", "ns1", "pods", "p1")},
      {"/api/v1/namespaces/ns1/pods/p1/binding",
       route(RouteKind::resource, "", "v1", "ns1", "pods", "p1", "binding")},
      {"/api/v1/namespaces/ns1/bindings", route(RouteKind::resource, "", "v1", "ns1", "bindings")},
      {"/apis/scheduling.koordinator.sh/v1alpha1/devices/d1",
       route(RouteKind::resource, "scheduling.koordinator.sh", "v1alpha1", "", "devices", "d1")},
      {"/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/team/podgroups/g",
       route(RouteKind::resource, "scheduling.sigs.k8s.io", "v1alpha1", "team", "podgroups", "g")},
      {"/apis/scheduling.koordinator.sh/v1alpha1/reservations/r1/status",
       route(RouteKind::resource, "scheduling.koordinator.sh", "v1alpha1", "", "reservations", "r1", "status")},
      {"/api/v1/watch/pods", route(RouteKind::resource, "", "v1", "", "pods", "", "", true)},
      {"/api/v1/watch/namespaces/a/pods/b", route(RouteKind::resource, "", "v1", "a", "pods", "b", "", true)},
      {"/api/v1/namespaces/a/pods/b%2Dc", route(RouteKind::resource, "", "v1", "a", "pods", "b-c")},
      // Not found: empty segments, too deep, junk, bad escapes.
      {"", route(RouteKind::not_found)},
      {"/", route(RouteKind::not_found)},
      {"relative/path", route(RouteKind::not_found)},
      {"/api//v1", route(RouteKind::not_found)},
      {"/api/v1/namespaces/a/pods/b/status/extra", route(RouteKind::not_found)},
      {"/api/v1/pods/p/status/x", route(RouteKind::not_found)},
      {"/foo", route(RouteKind::not_found)},
      {"/versions", route(RouteKind::not_found)},
      {"/api/v1/pods/%zz", route(RouteKind::not_found)},
      {"/api/v1/pods/%4", route(RouteKind::not_found)},
  };
  for (const auto& c : cases) {
    INFO("path: " << c.path);
    auto got = troupe::sim::parse_path(c.path);
    CHECK(static_cast<int>(got.kind) == static_cast<int>(c.want.kind));
    CHECK(got.group == c.want.group);
    CHECK(got.version == c.want.version);
    CHECK(got.ns == c.want.ns);
    CHECK(got.plural == c.want.plural);
    CHECK(got.name == c.want.name);
    CHECK(got.subresource == c.want.subresource);
    CHECK(got.watch_prefix == c.want.watch_prefix);
  }
}

TEST_CASE("parse_query decodes like Go's url.ParseQuery", "[router]") {
  auto q = troupe::sim::parse_query("labelSelector=app%3Dweb%2Cenv+in+(a%2Cb)&watch=True&limit=500&limit=7&flag&bad=%zz");
  CHECK(q["labelSelector"] == "app=web,env in (a,b)");
  CHECK(q["watch"] == "True");
  CHECK(q["limit"] == "500"); // the first occurrence wins
  CHECK(q.count("flag") == 1);
  CHECK(q["flag"].empty());
  CHECK(q.count("bad") == 0);
  CHECK(troupe::sim::parse_query("").empty());
  CHECK(troupe::sim::parse_query("&&").empty());
}

TEST_CASE("parse_go_bool accepts exactly strconv.ParseBool's spellings", "[router]") {
  for (const char* t : {"1", "t", "T", "TRUE", "true", "True"}) CHECK(troupe::sim::parse_go_bool(t) == true);
  for (const char* f : {"0", "f", "F", "FALSE", "false", "False"}) CHECK(troupe::sim::parse_go_bool(f) == false);
  for (const char* bad : {"", "yes", "tRUE", "2", " true", "on"}) CHECK_FALSE(troupe::sim::parse_go_bool(bad).has_value());
}

TEST_CASE("parse_non_negative_int rejects signs, junk and overflow", "[router]") {
  CHECK(troupe::sim::parse_non_negative_int("0") == 0);
  CHECK(troupe::sim::parse_non_negative_int("12345") == 12345);
  for (const char* bad : {"", "-1", "+1", "1.5", "12a", "9999999999999999999999"})
    CHECK_FALSE(troupe::sim::parse_non_negative_int(bad).has_value());
}
