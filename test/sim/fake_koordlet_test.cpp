#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <rapidjson/document.h>

#include "sim/api_handler.hpp"
#include "sim/fake_koordlet.hpp"

using namespace troupe::sim;

namespace {

struct Cluster {
  ObjectStore store{ResourceRegistry::standard()};
  ApiHandler handler{store};
  const ResourceInfo& metrics = *store.registry().find("slo.koordinator.sh", "v1alpha1", "nodemetrics");
  Cluster() { handler.create_system_namespaces(); }

  void load(const std::string& json) {
    rapidjson::Document doc;
    doc.Parse(json.c_str());
    REQUIRE(handler.create_loaded_object(doc).ok());
  }
  void add_node(const std::string& name) {
    load(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name +
         R"("},"status":{"allocatable":{"cpu":"4","memory":"8Gi"}}})");
  }
  void add_pod(const std::string& name, const std::string& node, const std::string& ratio) {
    load(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default","annotations":{"sim.troupe.dev/usage-ratio":")" + ratio +
         R"("}},"spec":{"nodeName":")" + node +
         R"(","containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"2","memory":"2Gi"}}}]}})");
  }
  void remove(const std::string& path) {
    ApiRequest request;
    request.method = "DELETE";
    request.path = path;
    REQUIRE(handler.handle(request).status == 200);
  }
  /// status.nodeMetric.nodeUsage.resources.cpu of the node's metric; "" when there is none.
  std::string node_cpu(const std::string& node) {
    ObjectPtr object = store.get(metrics, "", node);
    if (!object) return "";
    rapidjson::Document d;
    d.Parse(object->json.c_str());
    return d["status"]["nodeMetric"]["nodeUsage"]["resources"]["cpu"].GetString();
  }
  std::vector<std::string> event_types(Watcher& watcher) {
    std::vector<WatchItem> items;
    watcher.take(items);
    std::vector<std::string> out;
    for (const WatchItem& item : items) {
      rapidjson::Document d;
      d.Parse(watcher.render(item).c_str());
      out.push_back(std::string(d["type"].GetString()) + " " + d["object"]["metadata"]["name"].GetString());
    }
    return out;
  }
};

}  // namespace

TEST_CASE("the fake koordlet writes through the store: ADDED, then MODIFIED, and cleans up after nodes",
          "[koordlet]") {
  Cluster c;
  c.add_node("n1");
  c.add_node("n2");
  c.add_pod("hot", "n1", "1.5");
  auto watcher = std::make_shared<Watcher>(c.metrics, ObjectFilter{}, 100);
  c.store.watch(watcher, c.store.resource_version());
  FakeKoordlet koordlet(c.handler, {std::chrono::milliseconds(1000), 1.0});

  KoordletRound first = koordlet.publish_once();
  CHECK(first.published == 2);
  CHECK(first.errors.empty());
  CHECK(c.node_cpu("n1") == "3");
  CHECK(c.node_cpu("n2") == "0");
  CHECK(c.event_types(*watcher) == std::vector<std::string>{"ADDED n1", "ADDED n2"});

  // A second pod on n2: the next round replaces both statuses (n1's only its updateTime may change).
  c.add_pod("warm", "n2", "0.5");
  koordlet.publish_once();
  CHECK(c.node_cpu("n2") == "1");
  auto second = c.event_types(*watcher);
  CHECK(std::count(second.begin(), second.end(), "MODIFIED n2") == 1);
  CHECK(std::count(second.begin(), second.end(), "ADDED n2") == 0);

  // n2 goes: no metric is written for it and the one published is deleted.
  c.remove("/api/v1/nodes/n2");
  KoordletRound third = koordlet.publish_once();
  CHECK(third.published == 1);
  CHECK(third.removed == 1);
  CHECK(c.node_cpu("n2").empty());
  CHECK(c.event_types(*watcher).back() == "DELETED n2");
}

TEST_CASE("the fake koordlet fills in the status of a NodeMetric a user created and leaves others alone",
          "[koordlet]") {
  Cluster c;
  c.add_node("n1");
  c.load(R"({"apiVersion":"slo.koordinator.sh/v1alpha1","kind":"NodeMetric","metadata":{"name":"n1"},
             "spec":{"metricCollectPolicy":{"reportIntervalSeconds":60}}})");
  c.load(R"({"apiVersion":"slo.koordinator.sh/v1alpha1","kind":"NodeMetric","metadata":{"name":"gone"}})");
  c.add_pod("p", "n1", "1");
  FakeKoordlet koordlet(c.handler, {std::chrono::milliseconds(1000), 1.0});
  KoordletRound round = koordlet.publish_once();
  CHECK(round.published == 1);
  CHECK(round.removed == 0);  // "gone" was not published by this koordlet
  CHECK(c.node_cpu("n1") == "2");
  rapidjson::Document d;
  d.Parse(c.store.get(c.metrics, "", "n1")->json.c_str());
  CHECK(d["spec"]["metricCollectPolicy"]["reportIntervalSeconds"].GetInt() == 60);  // spec kept
  CHECK(c.store.get(c.metrics, "", "gone"));
}

TEST_CASE("the fake koordlet's thread publishes at start and stops promptly", "[koordlet]") {
  Cluster c;
  c.add_node("n1");
  FakeKoordlet koordlet(c.handler, {std::chrono::milliseconds(60000), 1.0});
  koordlet.start();
  for (int i = 0; i < 200 && c.node_cpu("n1").empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(c.node_cpu("n1") == "0");
  auto started = std::chrono::steady_clock::now();
  koordlet.stop();
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}
