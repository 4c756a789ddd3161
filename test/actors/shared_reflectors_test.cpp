// SharedReflectors and ObjectEvent::pod(): one list/watch per collection,
// every subscriber gets the same event (and the same decoded Pod), against
// the embedded API server over real HTTP on loopback.
#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <caf/all.hpp>

#include "actors/atoms.hpp"
#include "actors/messages.hpp"
#include "actors/shared_reflectors.hpp"
#include "model/json.hpp"
#include "sim/api_server.hpp"
#include "watch/api_client.hpp"
#include "watch/json_util.hpp"
#include "watch/object_writes.hpp"
#include "test/watch/fake_apiserver.hpp"
#include "embedded_api.hpp"
#include "test_actor_system.hpp"

using namespace troupe;
using namespace troupe::actors;
using namespace std::chrono_literals;
using troupe::actors::testing::TestSystemConfig;
using troupe::actors::testing::eventually;

namespace {

// What one subscriber received, in order.
struct Seen {
  std::mutex mutex;
  std::vector<ObjectEventPtr> events;
  std::vector<std::string> synced;

  std::vector<ObjectEventPtr> of(const std::string& resource) {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<ObjectEventPtr> out;
    for (const auto& e : events)
      if (e->resource == resource) out.push_back(e);
    return out;
  }
  std::size_t synced_count(const std::string& resource) {
    std::lock_guard<std::mutex> lock(mutex);
    return static_cast<std::size_t>(std::count(synced.begin(), synced.end(), resource));
  }
};

caf::behavior collector(caf::event_based_actor*, std::shared_ptr<Seen> seen) {
  return {
      [seen](atom::watch_event, const ObjectEventPtr& event) {
        std::lock_guard<std::mutex> lock(seen->mutex);
        seen->events.push_back(event);
      },
      [seen](atom::synced, const std::string& resource) {
        std::lock_guard<std::mutex> lock(seen->mutex);
        seen->synced.push_back(resource);
      },
  };
}

std::string pod_json(const std::string& name, const std::string& node = "") {
  std::string spec = R"("containers":[{"name":"c","image":"x","resources":{"requests":{"cpu":"100m"}}}])";
  if (!node.empty()) spec += R"(,"nodeName":")" + node + "\"";
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default"},"spec":{)" +
         spec + "}}";
}

std::string name_of(const ObjectEventPtr& event) { return watch::string_at(*event->object, {"metadata", "name"}); }

}  // namespace

TEST_CASE("shared reflectors: one list and watch, the same event and Pod for every subscriber",
          "[shared_reflectors]") {
  sim::ApiServer server;
  REQUIRE(server.start());
  auto api = actors::testing::client_of(server.url());
  for (const char* name : {"a", "b"})
    REQUIRE(watch::create_object(*api, "/api/v1/namespaces/default/pods", pod_json(name)).ok);
  REQUIRE(watch::create_object(*api, "/api/v1/nodes",
                               R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}})")
              .ok);

  TestSystemConfig config;
  caf::actor_system system{config};
  auto informer_seen = std::make_shared<Seen>();
  auto migration_seen = std::make_shared<Seen>();
  auto informer = system.spawn(collector, informer_seen);
  auto migration = system.spawn(collector, migration_seen);

  const CollectionSpec pods{"pods", "/api/v1/pods", "status.phase!=Succeeded,status.phase!=Failed", false};
  const CollectionSpec nodes{"nodes", "/api/v1/nodes", "", false};
  const CollectionSpec absent{"widgets", "/apis/example.com/v1/widgets", "", true};
  // A sink (as preemption's PdbStore): every change, on the reflector's thread.
  std::mutex sunk_mutex;
  std::vector<watch::ObjectPtr> sunk;
  auto sink = [&](const watch::Change& change) {
    std::lock_guard<std::mutex> lock(sunk_mutex);
    sunk.push_back(change.object);
  };
  {
    SharedReflectors reflectors(api);
    REQUIRE(reflectors.subscribe(pods, informer));
    REQUIRE(reflectors.subscribe(pods, migration));
    REQUIRE(reflectors.subscribe(pods, sink));
    REQUIRE(reflectors.subscribe(nodes, informer));
    REQUIRE(reflectors.subscribe(absent, migration));
    CHECK(reflectors.size() == 3);
    CHECK(reflectors.subscribers("pods") == 3);
    CHECK(reflectors.subscribers("nodes") == 1);
    CHECK(reflectors.subscribers("devices") == 0);

    SECTION("subscriptions to one resource must agree") {
      auto other = pods;
      other.field_selector = "";
      auto refused = reflectors.subscribe(other, informer);
      REQUIRE_FALSE(refused);
      CHECK_THAT(refused.message(), Catch::Contains("two subscriptions to pods disagree"));
      other = pods;
      other.label_selector = "app=web";
      CHECK_FALSE(reflectors.subscribe(other, informer));
      other = pods;
      other.optional = true;
      CHECK_FALSE(reflectors.subscribe(other, informer));
      CHECK_FALSE(reflectors.subscribe(other, sink));
    }

    SECTION("every subscriber gets the same events, synced, and the same decoded Pod") {
      reflectors.start();
      CHECK_FALSE(reflectors.subscribe(nodes, migration));  // too late: the list is under way
      REQUIRE(eventually([&] {
        return informer_seen->synced_count("pods") == 1 && migration_seen->synced_count("pods") == 1 &&
               informer_seen->synced_count("nodes") == 1 && migration_seen->synced_count("widgets") == 1;
      }));
      CHECK(informer_seen->synced_count("widgets") == 0);  // only its subscribers hear of a collection
      CHECK(migration_seen->synced_count("nodes") == 0);
      CHECK(migration_seen->of("nodes").empty());
      CHECK(informer_seen->of("nodes").size() == 1);

      // A change after the list reaches both subscribers too.
      REQUIRE(watch::create_object(*api, "/api/v1/namespaces/default/pods", pod_json("c", "n1")).ok);
      REQUIRE(eventually([&] { return informer_seen->of("pods").size() == 3 && migration_seen->of("pods").size() == 3; }));
      const auto mine = informer_seen->of("pods");
      const auto theirs = migration_seen->of("pods");
      std::vector<std::string> names;
      for (std::size_t i = 0; i < mine.size(); ++i) {
        CHECK(mine[i].get() == theirs[i].get());  // one ObjectEvent, not a copy per subscriber
        names.push_back(name_of(mine[i]));
        const auto& pod = mine[i]->pod();
        REQUIRE(pod);
        CHECK((*pod)->meta.name == names.back());
        CHECK((*pod)->raw == mine[i]->object);   // the Pod views the event's own document
        CHECK(theirs[i]->pod()->get() == pod->get());  // decoded once, shared
      }
      CHECK(names == std::vector<std::string>{"a", "b", "c"});
      std::lock_guard<std::mutex> lock(sunk_mutex);
      REQUIRE(sunk.size() == mine.size());
      for (std::size_t i = 0; i < mine.size(); ++i) CHECK(sunk[i] == mine[i]->object);  // the same documents
      CHECK((*mine[2]->pod())->spec.node_name == "n1");
      CHECK(mine[2]->type == watch::EventType::added);
    }
  }
  caf::anon_send_exit(informer, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(migration, caf::exit_reason::user_shutdown);
  server.stop();
}

TEST_CASE("shared reflectors: a collection with a label selector gets the labelled objects only",
          "[shared_reflectors]") {
  sim::ApiServer server;
  REQUIRE(server.start());
  auto api = actors::testing::client_of(server.url());
  auto labelled = [](const std::string& name) {
    std::string json = pod_json(name);
    return json.replace(json.find(R"("namespace")"), 0, R"("labels":{"pod-group.scheduling.sigs.k8s.io":"g"},)");
  };
  REQUIRE(watch::create_object(*api, "/api/v1/namespaces/default/pods", labelled("in-list")).ok);
  REQUIRE(watch::create_object(*api, "/api/v1/namespaces/default/pods", pod_json("plain")).ok);

  TestSystemConfig config;
  caf::actor_system system{config};
  auto seen = std::make_shared<Seen>();
  auto subscriber = system.spawn(collector, seen);
  SharedReflectors reflectors(api);
  CollectionSpec members{"podgroup-pods", "/api/v1/pods", "", false, "pod-group.scheduling.sigs.k8s.io"};
  REQUIRE(reflectors.subscribe(members, subscriber));
  reflectors.start();
  REQUIRE(eventually([&] { return seen->synced_count("podgroup-pods") == 1; }));
  REQUIRE(watch::create_object(*api, "/api/v1/namespaces/default/pods", pod_json("plain-2")).ok);
  REQUIRE(watch::create_object(*api, "/api/v1/namespaces/default/pods", labelled("watched")).ok);
  REQUIRE(eventually([&] { return seen->of("podgroup-pods").size() == 2; }));
  std::vector<std::string> names;
  for (const auto& event : seen->of("podgroup-pods")) names.push_back(name_of(event));
  CHECK(names == std::vector<std::string>{"in-list", "watched"});
  reflectors.stop();
  caf::anon_send_exit(subscriber, caf::exit_reason::user_shutdown);
  server.stop();
}

TEST_CASE("shared reflectors: an optional collection the API server refuses (404, 403) counts as synced and empty",
          "[shared_reflectors]") {
  // 404 for the CRD that is not installed, 403 for what RBAC does not grant,
  // 500 for a server that fails (not a reason to give up on the list).
  test::FakeApiServer server([](const test::RecordedRequest& request, test::ResponseWriter& out) {
    if (request.path == "/apis/example.com/v1/widgets") return out.respond_status(404, "NotFound", "not found");
    if (request.path == "/api/v1/namespaces/kube-system/configmaps")
      return out.respond_status(403, "Forbidden", "configmaps is forbidden");
    out.respond_status(500, "InternalError", "broken");
  });
  auto api = actors::testing::client_of(server.url());

  TestSystemConfig config;
  caf::actor_system system{config};
  auto seen = std::make_shared<Seen>();
  auto informer = system.spawn(collector, seen);
  SharedReflectors reflectors(api);
  REQUIRE(reflectors.subscribe(CollectionSpec{"widgets", "/apis/example.com/v1/widgets", "", true}, informer));
  REQUIRE(reflectors.subscribe(
      CollectionSpec{"configmaps", "/api/v1/namespaces/kube-system/configmaps", "", true}, informer));
  REQUIRE(reflectors.subscribe(CollectionSpec{"gadgets", "/apis/example.com/v1/gadgets", "", true}, informer));
  reflectors.start();
  CHECK(eventually([&] { return seen->synced_count("widgets") == 1 && seen->synced_count("configmaps") == 1; }));
  std::this_thread::sleep_for(200ms);  // retries of the refused lists
  CHECK(seen->synced_count("widgets") == 1);  // once, however often the list is retried
  CHECK(seen->synced_count("configmaps") == 1);
  CHECK(seen->synced_count("gadgets") == 0);
  reflectors.stop();
  caf::anon_send_exit(informer, caf::exit_reason::user_shutdown);
}

TEST_CASE("object event: the Pod is decoded once, whoever asks first, and errors are shared too",
          "[shared_reflectors]") {
  auto parsed = parse_json(pod_json("p", "n7"));
  REQUIRE(parsed);
  const ObjectEvent good("pods", watch::Change{watch::EventType::modified, watch::ObjectPtr(std::move(*parsed))});
  std::vector<std::shared_ptr<const Pod>> seen(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] {
      const auto& pod = good.pod();
      if (pod) seen[i] = *pod;
    });
  for (auto& t : threads) t.join();
  REQUIRE(seen[0]);
  for (const auto& pod : seen) CHECK(pod.get() == seen[0].get());
  CHECK(seen[0]->meta.name == "p");
  CHECK(seen[0]->spec.node_name == "n7");

  auto bad_doc = parse_json(
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"q","namespace":"default"},)"
      R"("spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"lots"}}}]}})");
  REQUIRE(bad_doc);
  const ObjectEvent bad("pods", watch::Change{watch::EventType::added, watch::ObjectPtr(std::move(*bad_doc))});
  const auto& first = bad.pod();
  REQUIRE_FALSE(first);
  CHECK_THAT(first.message(), Catch::Contains("cpu"));
  CHECK(&bad.pod() == &first);  // the same result, not a second attempt
}
