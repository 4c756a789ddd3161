// core/v1 and events.k8s.io/v1 Events: one set of objects behind two APIs.

#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include "sim/event_conversion.hpp"
#include "test/sim/handler_fixture.hpp"

using namespace troupe::sim;
using troupe::sim::testing::json;

namespace {

using Fixture = troupe::sim::testing::HandlerFixture;

const std::string kCore =
    R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"e","namespace":"default"},)"
    R"("involvedObject":{"kind":"Pod","name":"web-0","namespace":"default"},"reason":"Scheduled","message":"placed",)"
    R"("source":{"component":"kubelet","host":"n1"},"firstTimestamp":"2026-06-01T11:00:00Z",)"
    R"("lastTimestamp":"2026-06-01T11:30:00Z","count":3,"type":"Normal","reportingComponent":"troupe-scheduler",)"
    R"("reportingInstance":"troupe-0","action":"Binding","eventTime":null})";
const std::string kEventsV1 =
    R"({"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e","namespace":"default"},)"
    R"("reason":"Scheduled","type":"Normal","reportingInstance":"troupe-0","action":"Binding","eventTime":null,)"
    R"("regarding":{"kind":"Pod","name":"web-0","namespace":"default"},"note":"placed",)"
    R"("reportingController":"troupe-scheduler","deprecatedSource":{"component":"kubelet","host":"n1"},)"
    R"("deprecatedFirstTimestamp":"2026-06-01T11:00:00Z","deprecatedLastTimestamp":"2026-06-01T11:30:00Z",)"
    R"("deprecatedCount":3})";

}  // namespace

TEST_CASE("event conversion renames the fields the two schemas name differently, both ways", "[events]") {
  rapidjson::Document event = json(kCore);
  core_event_to_events_v1(event);
  CHECK(event == json(kEventsV1));
  events_v1_to_core_event(event);
  CHECK(event == json(kCore));

  // A field of the other schema is not one of this one: it does not survive.
  rapidjson::Document mixed = json(R"({"apiVersion":"events.k8s.io/v1","kind":"Event","note":"n","message":"stray"})");
  events_v1_to_core_event(mixed);
  CHECK(mixed == json(R"({"apiVersion":"v1","kind":"Event","message":"n"})"));
}

TEST_CASE("an Event written through either API is read through both", "[events]") {
  Fixture f;
  const std::string core_path = "/api/v1/namespaces/default/events";
  const std::string v1_path = "/apis/events.k8s.io/v1/namespaces/default/events";
  REQUIRE(f.call("POST", v1_path, kEventsV1).status == 201);

  auto as_core = json(f.call("GET", core_path + "/e").body);
  CHECK(std::string(as_core["apiVersion"].GetString()) == "v1");
  CHECK(std::string(as_core["message"].GetString()) == "placed");
  CHECK(std::string(as_core["involvedObject"]["name"].GetString()) == "web-0");
  CHECK_FALSE(as_core.HasMember("note"));
  auto by_field = json(f.call("GET", core_path + "?fieldSelector=involvedObject.name%3Dweb-0").body);
  CHECK(by_field["items"].Size() == 1);

  // A merge patch through events.k8s.io is written against its own schema.
  REQUIRE(f.call("PATCH", v1_path + "/e", R"({"series":{"count":2,"lastObservedTime":"2026-06-01T11:40:00.000000Z"},"note":"again"})",
                 "application/merge-patch+json")
              .status == 200);
  auto patched = json(f.call("GET", core_path + "/e").body);
  CHECK(std::string(patched["message"].GetString()) == "again");
  CHECK(patched["series"]["count"].GetInt() == 2);

  REQUIRE(f.call("POST", core_path, R"({"metadata":{"name":"c"},"involvedObject":{"kind":"Node","name":"n1"},"message":"m"})").status == 201);
  auto listed = json(f.call("GET", v1_path).body);
  REQUIRE(listed["items"].Size() == 2);
  for (const auto& item : listed["items"].GetArray()) {
    CHECK(std::string(item["apiVersion"].GetString()) == "events.k8s.io/v1");
    CHECK(item.HasMember("note"));
    CHECK(item.HasMember("regarding"));
    CHECK_FALSE(item.HasMember("message"));
  }

  // A PUT through events.k8s.io replaces the object; the core view follows.
  auto current = json(f.call("GET", v1_path + "/c").body);
  current["note"].SetString("replaced");
  REQUIRE(f.call("PUT", v1_path + "/c", troupe::sim::to_json(current)).status == 200);
  CHECK(std::string(json(f.call("GET", core_path + "/c").body)["message"].GetString()) == "replaced");

  // Watchers of either API see the other's writes in their own schema.
  ApiResponse watch = f.call("GET", v1_path + "?watch=true&resourceVersion=" +
                                        std::string(listed["metadata"]["resourceVersion"].GetString()));
  REQUIRE(watch.watch);
  REQUIRE(f.call("POST", core_path, R"({"metadata":{"name":"w"},"involvedObject":{"kind":"Pod","name":"p"},"message":"hi"})").status == 201);
  std::vector<WatchItem> items;
  watch.watch->watcher->take(items);
  REQUIRE_FALSE(items.empty());
  auto seen = json(watch.watch->watcher->render(items.back()));
  CHECK(std::string(seen["object"]["note"].GetString()) == "hi");
  CHECK(std::string(seen["object"]["apiVersion"].GetString()) == "events.k8s.io/v1");
}
