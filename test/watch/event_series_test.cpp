// Event series aggregation: the EventSeriesCache's decisions, the exact
// writes EventWriter::record makes for repeats (events.k8s.io/v1 series
// PATCH, core/v1 count PATCH, re-create after a 404), and the result on the
// real `troupe apiserver`.
#include <catch2/catch.hpp>

#include <atomic>

#include "child_process.hpp"
#include "fake_apiserver.hpp"
#include "test_data.hpp"
#include "watch/event_writer.hpp"
#include "watch/json_util.hpp"
#include "watch/kube_config.hpp"
#include "watch/object_writes.hpp"

using namespace troupe::watch;
using troupe::test::ChildProcess;
using troupe::test::FakeApiServer;
using troupe::test::RecordedRequest;
using troupe::test::ResponseWriter;
using troupe::test::TempDir;
using namespace std::chrono_literals;

namespace {

using Clock = EventSeriesCache::Clock;

std::function<std::string()> names_from(int& counter) {
  return [&counter] { return "ev-" + std::to_string(++counter); };
}

std::shared_ptr<ApiClient> api_for_url(const std::string& url) {
  ClusterConfig config;
  config.server = url;
  auto http = HttpClient::create(config);
  REQUIRE(http.ok());
  return std::make_shared<ApiClient>(*http, RateLimits{0, 1});
}

EventSpec failed_scheduling(const std::string& note, const std::string& ns = "team-a") {
  EventSpec spec;
  spec.regarding = {"Pod", ns, "web-0", "uid-1", "v1", ""};
  spec.type = "Warning";
  spec.reason = "FailedScheduling";
  spec.action = "Scheduling";
  spec.note = note;
  return spec;
}

std::shared_ptr<rapidjson::Document> body_of(const RecordedRequest& request) {
  auto doc = parse_document(request.body);
  REQUIRE(doc.ok());
  return *doc;
}

}  // namespace

TEST_CASE("series cache: repeats within the idle limit join the series", "[events][series]") {
  struct Step {
    const char* key;
    std::chrono::seconds at;
    bool create;
    const char* name;
    int count;
  };
  // Idle limit 60 s, room for 2 keys.
  const std::vector<Step> steps = {
      {"a", 0s, true, "ev-1", 1},     // first occurrence
      {"a", 10s, false, "ev-1", 2},   // repeat: patch
      {"a", 70s, false, "ev-1", 3},   // 60 s after the last one: still the series
      {"b", 71s, true, "ev-2", 1},    // another key
      {"a", 140s, true, "ev-3", 1},   // idle 70 s: the series finished, a new Event
      {"a", 141s, false, "ev-3", 2},
      {"c", 142s, true, "ev-4", 1},   // third key evicts the least recent ("b")
      {"b", 143s, true, "ev-5", 1},   // "b" was forgotten: a new Event (and "a" goes)
      {"c", 144s, false, "ev-4", 2},
      {"a", 145s, true, "ev-6", 1},
  };
  EventSeriesCache cache(60s, 2);
  int counter = 0;
  const auto t0 = Clock::time_point{};
  for (size_t i = 0; i < steps.size(); ++i) {
    INFO("step " << i);
    auto o = cache.observe(steps[i].key, t0 + steps[i].at, names_from(counter));
    CHECK(o.create == steps[i].create);
    CHECK(o.name == steps[i].name);
    CHECK(o.count == steps[i].count);
    CHECK(cache.size() <= 2);
  }
}

TEST_CASE("series cache: a failed write is forgotten, so the next occurrence creates again", "[events][series]") {
  EventSeriesCache cache(60s);
  int counter = 0;
  const auto t0 = Clock::time_point{};
  auto first = cache.observe("k", t0, names_from(counter));
  cache.forget("k", "someone-else");  // not the key's Event: no effect
  CHECK(cache.size() == 1);
  cache.forget("k", first.name);
  CHECK(cache.size() == 0);
  auto again = cache.observe("k", t0 + 1s, names_from(counter));
  CHECK(again.create);
  CHECK(again.name == "ev-2");
}

TEST_CASE("record: events.k8s.io/v1 repeats PATCH series, a lost event is re-created", "[events][series]") {
  std::atomic<bool> lose_next_patch{false};
  FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
    if (request.method == "GET") {
      out.respond(200, R"({"kind":"APIResourceList","groupVersion":"events.k8s.io/v1","resources":[]})");
    } else if (request.method == "PATCH" && lose_next_patch.exchange(false)) {
      out.respond_status(404, "NotFound", "events not found");
    } else {
      out.respond(request.method == "POST" ? 201 : 200, "{}");
    }
  });
  EventWriter writer(api_for_url(server.url()), "troupe", "troupe-host-a");
  REQUIRE(writer.record(failed_scheduling("0/3 nodes are available: 3 Insufficient cpu.")).ok);
  // The note is not part of an events.k8s.io series' identity.
  REQUIRE(writer.record(failed_scheduling("0/4 nodes are available: 4 Insufficient cpu.")).ok);
  REQUIRE(writer.record(failed_scheduling("0/4 nodes are available: 4 Insufficient cpu.")).ok);
  lose_next_patch = true;
  REQUIRE(writer.record(failed_scheduling("0/4 nodes are available: 4 Insufficient cpu.")).ok);

  const auto requests = server.requests();
  REQUIRE(requests.size() == 6);  // probe, POST, PATCH, PATCH, PATCH (404), POST
  CHECK(requests[1].method == "POST");
  const std::string name = string_at(*body_of(requests[1]), {"metadata", "name"});
  CHECK(find_path(*body_of(requests[1]), {"series"}) == nullptr);
  for (int i : {2, 3}) {
    INFO("request " << i);
    CHECK(requests[i].method == "PATCH");
    CHECK(requests[i].path == "/apis/events.k8s.io/v1/namespaces/team-a/events/" + name);
    CHECK(requests[i].headers.at("content-type") == "application/strategic-merge-patch+json");
    auto patch = body_of(requests[i]);
    CHECK(int_at(*patch, {"series", "count"}) == i);
    CHECK(string_at(*patch, {"series", "lastObservedTime"}).size() == 27);
  }
  CHECK(requests[4].method == "PATCH");
  CHECK(requests[5].method == "POST");
  auto recreated = body_of(requests[5]);
  CHECK(string_at(*recreated, {"metadata", "name"}) == name);
  CHECK(int_at(*recreated, {"series", "count"}) == 4);
}

TEST_CASE("record: core/v1 aggregates identical messages by count", "[events][series]") {
  FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
    if (request.method == "GET") {
      out.respond_status(404, "NotFound", "the server could not find the requested resource");
    } else {
      out.respond(request.method == "POST" ? 201 : 200, "{}");
    }
  });
  EventWriter writer(api_for_url(server.url()), "troupe", "troupe-host-a");
  REQUIRE(writer.record(failed_scheduling("0/3 nodes are available: 3 Insufficient cpu.")).ok);
  REQUIRE(writer.record(failed_scheduling("0/3 nodes are available: 3 Insufficient cpu.")).ok);
  REQUIRE(writer.record(failed_scheduling("0/4 nodes are available: 4 Insufficient cpu.")).ok);

  const auto requests = server.requests();
  REQUIRE(requests.size() == 4);
  CHECK(requests[1].method == "POST");
  const std::string name = string_at(*body_of(requests[1]), {"metadata", "name"});
  CHECK(requests[2].method == "PATCH");
  CHECK(requests[2].path == "/api/v1/namespaces/team-a/events/" + name);
  auto patch = body_of(requests[2]);
  CHECK(int_at(*patch, {"count"}) == 2);
  CHECK(string_at(*patch, {"lastTimestamp"}).size() == 20);
  // Another message is another event for the legacy correlator.
  CHECK(requests[3].method == "POST");
  CHECK(string_at(*body_of(requests[3]), {"metadata", "name"}) != name);
}

TEST_CASE("record: a failed create is retried as a create next time", "[events][series]") {
  std::atomic<int> posts{0};
  FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
    if (request.method == "GET") {
      out.respond(200, R"({"kind":"APIResourceList","groupVersion":"events.k8s.io/v1","resources":[]})");
    } else if (request.method == "POST" && posts.fetch_add(1) == 0) {
      out.respond_status(403, "Forbidden", "no events for you");
    } else {
      out.respond(201, "{}");
    }
  });
  EventWriter writer(api_for_url(server.url()), "troupe", "troupe-host-a");
  CHECK_FALSE(writer.record(failed_scheduling("x")).ok);
  CHECK(writer.record(failed_scheduling("x")).ok);
  const auto requests = server.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[2].method == "POST");
}

TEST_CASE("integration: repeated FailedScheduling is one Event with a series on troupe apiserver",
          "[events][series][integration]") {
  TempDir dir;
  const std::string kubeconfig = dir.path() + "/kubeconfig";
  ChildProcess server({TROUPE_BINARY, "apiserver", "--listen", "127.0.0.1:0", "--write-kubeconfig", kubeconfig});
  const auto url = server.read_line(60s);
  REQUIRE(url);
  auto config = load_kubeconfig(kubeconfig);
  REQUIRE(config.ok());
  auto http = HttpClient::create(*config);
  REQUIRE(http.ok());
  auto api = std::make_shared<ApiClient>(*http, RateLimits{0, 1});

  EventWriter writer(api, "troupe", "troupe-host-a");
  for (int i = 0; i < 4; ++i) {
    auto result = writer.record(failed_scheduling("0/3 nodes are available.", "default"));
    INFO("occurrence " << i + 1 << ": " << result.code << " " << result.message);
    REQUIRE(result.ok);
  }
  REQUIRE(writer.api() == EventWriter::Api::events_v1);

  auto list = get_object(*api, "/apis/events.k8s.io/v1/namespaces/default/events");
  REQUIRE(list.ok);
  auto doc = parse_document(list.body);
  REQUIRE(doc.ok());
  const auto* items = find_path(**doc, {"items"});
  REQUIRE(items != nullptr);
  REQUIRE(items->IsArray());
  REQUIRE(items->Size() == 1);
  const auto& event = (*items)[0];
  CHECK(int_at(event, {"series", "count"}) == 4);
  CHECK(string_at(event, {"series", "lastObservedTime"}).size() == 27);
  CHECK(string_at(event, {"reason"}) == "FailedScheduling");
  // core/v1 shows the same one Event (one set of events behind both APIs), in its own schema.
  auto core = get_object(*api, "/api/v1/namespaces/default/events");
  REQUIRE(core.ok);
  auto core_doc = parse_document(core.body);
  REQUIRE(core_doc.ok());
  const auto* core_items = find_path(**core_doc, {"items"});
  REQUIRE(core_items != nullptr);
  REQUIRE(core_items->Size() == 1);
  CHECK(int_at((*core_items)[0], {"series", "count"}) == 4);
  CHECK(string_at((*core_items)[0], {"reason"}) == "FailedScheduling");
  CHECK(string_at((*core_items)[0], {"message"}) == string_at(event, {"note"}));
  CHECK(string_at((*core_items)[0], {"involvedObject", "name"}) == string_at(event, {"regarding", "name"}));
}
