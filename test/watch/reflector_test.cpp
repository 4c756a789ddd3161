// Reflector against the scripted fake server: paging, watch resumption,
// bookmarks, 410 re-list with diff, cuts, throttling, short watches, stop.
#include <catch2/catch.hpp>

#include <atomic>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

#include "fake_apiserver.hpp"
#include "test_data.hpp"
#include "watch/json_util.hpp"
#include "watch/reflector.hpp"

using namespace troupe::watch;
using troupe::test::eventually;
using troupe::test::FakeApiServer;
using troupe::test::RecordedRequest;
using troupe::test::ResponseWriter;
using namespace std::chrono_literals;

namespace {

using Script = std::function<void(const RecordedRequest&, ResponseWriter&)>;

std::string pod(const std::string& name, int rv, const std::string& uid = "") {
  return R"({"metadata":{"name":")" + name + R"(","namespace":"default","uid":")" + (uid.empty() ? "u-" + name : uid) +
         R"(","resourceVersion":")" + std::to_string(rv) + R"("},"spec":{"containers":[{"name":"c"}]}})";
}

std::string pod_list(int rv, const std::vector<std::string>& items, const std::string& continue_token = "") {
  std::string json = R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":")" + std::to_string(rv) + "\"";
  if (!continue_token.empty()) json += R"(,"continue":")" + continue_token + "\"";
  json += R"(},"items":[)";
  for (std::size_t i = 0; i < items.size(); ++i) json += (i ? "," : "") + items[i];
  return json + "]}";
}

std::string event(const std::string& type, const std::string& object) {
  return R"({"type":")" + type + R"(","object":)" + object + "}\n";
}

std::string bookmark(int rv) {
  return event("BOOKMARK", R"({"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":")" + std::to_string(rv) +
                               "\"}}");
}

std::string expired_event() {
  return event("ERROR", R"json({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 10 (15)","reason":"Expired","code":410})json");
}

// Sends `bytes` as chunks of `step` bytes: event boundaries land mid-chunk.
void send_in_pieces(ResponseWriter& out, const std::string& bytes, std::size_t step) {
  for (std::size_t at = 0; at < bytes.size(); at += step) out.chunk(std::string_view(bytes).substr(at, step));
}

Script respond_json(std::string body) {
  return [body](const RecordedRequest&, ResponseWriter& out) { out.respond(200, body); };
}

// A watch that stays open (no events) until the client goes away.
void idle_watch(const RecordedRequest&, ResponseWriter& out) {
  out.begin_stream();
  out.wait_for_client_close(60s);
}

// Scripted list and watch answers, consumed in order. When the list script
// runs out, the last answer repeats; when the watch script runs out, watches idle.
class Cluster {
 public:
  Cluster() : server_([this](const RecordedRequest& r, ResponseWriter& w) { handle(r, w); }) {}

  void on_list(Script s) {
    std::lock_guard<std::mutex> lock(mutex_);
    lists_.push_back(std::move(s));
  }
  void on_watch(Script s) {
    std::lock_guard<std::mutex> lock(mutex_);
    watches_.push_back(std::move(s));
  }
  std::vector<RecordedRequest> lists() const { return filter(false); }
  std::vector<RecordedRequest> watches() const { return filter(true); }
  std::string url() const { return server_.url(); }

 private:
  void handle(const RecordedRequest& request, ResponseWriter& out) {
    Script script;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const bool watch = request.query.count("watch") > 0;
      auto& queue = watch ? watches_ : lists_;
      if (!queue.empty()) {
        script = queue.front();
        if (watch || queue.size() > 1) queue.pop_front();
      }
    }
    if (script) {
      script(request, out);
    } else {
      idle_watch(request, out);
    }
  }
  std::vector<RecordedRequest> filter(bool watch) const {
    std::vector<RecordedRequest> out;
    for (auto& r : server_.requests())
      if ((r.query.count("watch") > 0) == watch) out.push_back(r);
    return out;
  }

  mutable std::mutex mutex_;
  std::deque<Script> lists_;
  std::deque<Script> watches_;
  FakeApiServer server_;  // last: stopped before the scripts go away
};

// Records what the reflector delivers, as "ADDED default/a@5" lines ("DELETED?"
// for a deletion a re-list found, whose final state is unknown).
class Recorder {
 public:
  ReflectorCallbacks callbacks() {
    ReflectorCallbacks cb;
    cb.on_event = [this](const Change& change) {
      std::lock_guard<std::mutex> lock(mutex_);
      const rapidjson::Value& object = *change.object;
      events_.push_back(std::string(to_string(change.type)) + (change.final_state_unknown ? "?" : "") + " " +
                        string_at(object, {"metadata", "namespace"}) + "/" + string_at(object, {"metadata", "name"}) +
                        "@" + resource_version_of(object));
      kinds_.push_back(string_at(object, {"kind"}));
    };
    cb.on_synced = [this] {
      std::lock_guard<std::mutex> lock(mutex_);
      events_.push_back("SYNCED");
    };
    cb.on_error = [this](const std::string& message) {
      std::lock_guard<std::mutex> lock(mutex_);
      errors_.push_back(message);
    };
    return cb;
  }
  std::vector<std::string> events() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return events_;
  }
  std::vector<std::string> kinds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return kinds_;
  }
  std::vector<std::string> errors() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return errors_;
  }
  bool has(std::size_t n) const { return events().size() >= n; }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> events_;
  std::vector<std::string> kinds_;
  std::vector<std::string> errors_;
};

std::shared_ptr<ApiClient> api_for(const std::string& url) {
  ClusterConfig config;
  config.server = url;
  auto http = HttpClient::create(config);
  REQUIRE(http.ok());
  return std::make_shared<ApiClient>(*http, RateLimits{0, 1});
}

ReflectorOptions test_options() {
  ReflectorOptions options;
  options.name = "pods";
  options.path = "/api/v1/pods";
  options.min_watch_timeout = 1s;
  options.backoff = {5ms, 20ms, 60'000ms, 2.0, 0.0};
  return options;
}

using Events = std::vector<std::string>;

}  // namespace

TEST_CASE("reflector: paged list, then watch events split at awkward offsets", "[reflector]") {
  Cluster cluster;
  cluster.on_list([](const RecordedRequest& request, ResponseWriter& out) {
    if (request.query.count("continue") == 0) {
      out.respond(200, pod_list(100, {pod("a", 1), pod("b", 2)}, "page-2"));
    } else {
      out.respond(200, pod_list(100, {pod("c", 3)}));
    }
  });
  const std::string recorded = troupe::test::read_data_file("pod_watch_stream.jsonl");
  const std::string without_error = recorded.substr(0, recorded.rfind("{\"type\":\"ERROR\""));
  cluster.on_watch([&](const RecordedRequest&, ResponseWriter& out) {
    out.begin_stream();
    send_in_pieces(out, without_error, 7);
    out.end_stream();
  });
  Recorder recorder;
  ReflectorOptions options = test_options();
  options.page_size = 2;
  Reflector reflector(api_for(cluster.url()), options, recorder.callbacks());
  reflector.start();
  REQUIRE(eventually([&] { return cluster.watches().size() >= 2; }));
  reflector.stop();

  CHECK(recorder.events() == Events{"ADDED default/a@1", "ADDED default/b@2", "ADDED default/c@3", "SYNCED",
                                    "ADDED default/web-0@101", "MODIFIED default/web-0@102",
                                    "ADDED default/日本-pod@111", "MODIFIED default/web-1@112",
                                    "DELETED default/web-0@113"});
  // List items get the kind the list implies; watch objects carry their own.
  CHECK(recorder.kinds().front() == "Pod");

  const auto lists = cluster.lists();
  REQUIRE(lists.size() == 2);
  CHECK(lists[0].query.at("limit") == "2");
  CHECK(lists[0].query.count("resourceVersion") == 0);
  CHECK(lists[1].query.at("continue") == "page-2");

  const auto watches = cluster.watches();
  CHECK(watches[0].query.at("resourceVersion") == "100");
  CHECK(watches[0].query.at("allowWatchBookmarks") == "true");
  CHECK(watches[0].query.at("timeoutSeconds") == "1");  // drawn from [1 s, 2 s)
  CHECK(watches[1].query.at("resourceVersion") == "113");  // resumed, not re-listed
  CHECK(reflector.has_synced());
  CHECK(recorder.errors().empty());
}

TEST_CASE("reflector: bookmarks advance the resourceVersion, and a clean end resumes without a re-list", "[reflector]") {
  Cluster cluster;
  cluster.on_list(respond_json(pod_list(10, {})));
  cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
    out.begin_stream();
    out.chunk(bookmark(50));
    out.end_stream();
  });
  Recorder recorder;
  Reflector reflector(api_for(cluster.url()), test_options(), recorder.callbacks());
  reflector.start();
  REQUIRE(eventually([&] { return cluster.watches().size() >= 2; }));
  CHECK(reflector.resource_version() == "50");
  reflector.stop();
  CHECK(cluster.watches()[1].query.at("resourceVersion") == "50");
  CHECK(cluster.lists().size() == 1);
  CHECK(recorder.events() == Events{"SYNCED"});
}

TEST_CASE("reflector: 410 Expired re-lists and diffs against what it had", "[reflector]") {
  Cluster cluster;
  cluster.on_list(respond_json(pod_list(10, {pod("a", 1), pod("b", 2), pod("c", 3)})));
  cluster.on_list(respond_json(pod_list(20, {pod("b", 11), pod("c", 15), pod("d", 16)})));

  SECTION("as an ERROR event inside the stream") {
    cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
      out.begin_stream();
      out.chunk(event("MODIFIED", pod("b", 11)) + expired_event());
      out.wait_for_client_close(10s);  // the server would close; the client must not wait for it
    });
  }
  SECTION("as the HTTP status of the watch") {
    cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
      out.begin_stream();
      out.chunk(event("MODIFIED", pod("b", 11)));
      out.end_stream();
    });
    cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
      out.respond_status(410, "Gone", "too old resource version");
    });
  }
  Recorder recorder;
  Reflector reflector(api_for(cluster.url()), test_options(), recorder.callbacks());
  reflector.start();
  REQUIRE(eventually([&] { return recorder.has(9); }));
  REQUIRE(eventually([&] {
    const auto w = cluster.watches();
    return !w.empty() && w.back().query.at("resourceVersion") == "20";
  }));
  reflector.stop();
  CHECK(recorder.events() == Events{"ADDED default/a@1", "ADDED default/b@2", "ADDED default/c@3", "SYNCED",
                                    "MODIFIED default/b@11",
                                    // re-list: a vanished, c changed, d is new, b is already current
                                    "DELETED? default/a@1", "MODIFIED default/c@15", "ADDED default/d@16", "SYNCED"});
  CHECK(cluster.lists().size() == 2);
}

TEST_CASE("reflector: a connection cut mid-event resumes from the last resourceVersion", "[reflector]") {
  Cluster cluster;
  cluster.on_list(respond_json(pod_list(10, {})));
  cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
    out.begin_stream();
    const std::string b = event("ADDED", pod("b", 12));
    out.chunk(event("ADDED", pod("a", 11)) + b.substr(0, b.size() / 2));
    out.cut();
  });
  cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
    out.begin_stream();
    send_in_pieces(out, event("ADDED", pod("b", 12)), 3);
    out.wait_for_client_close(60s);
  });
  Recorder recorder;
  Reflector reflector(api_for(cluster.url()), test_options(), recorder.callbacks());
  reflector.start();
  REQUIRE(eventually([&] { return recorder.has(3); }));
  reflector.stop();
  CHECK(recorder.events() == Events{"SYNCED", "ADDED default/a@11", "ADDED default/b@12"});
  const auto watches = cluster.watches();
  REQUIRE(watches.size() >= 2);
  CHECK(watches[1].query.at("resourceVersion") == "11");
  CHECK(cluster.lists().size() == 1);
}

TEST_CASE("reflector: throttled or failing watches back off and watch again without a re-list", "[reflector]") {
  Cluster cluster;
  cluster.on_list(respond_json(pod_list(10, {})));
  SECTION("429 with Retry-After") {
    cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
      out.respond_status(429, "TooManyRequests", "slow down", {{"Retry-After", "0"}});
    });
  }
  SECTION("503") {
    cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
      out.respond_status(503, "ServiceUnavailable", "apiserver is shutting down");
    });
  }
  SECTION("an ERROR event with code 500") {
    cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
      out.begin_stream();
      out.chunk(event("ERROR", R"({"kind":"Status","status":"Failure","message":"etcd hiccup","reason":"InternalError","code":500})"));
      out.end_stream();
    });
  }
  SECTION("a line that is not JSON") {
    cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
      out.begin_stream();
      out.chunk("this is not json\n");
      out.end_stream();
    });
  }
  SECTION("a very short watch with no events") {
    cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
      out.begin_stream();
      out.end_stream();
    });
  }
  cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
    out.begin_stream();
    out.chunk(event("ADDED", pod("a", 11)));
    out.wait_for_client_close(60s);
  });
  Recorder recorder;
  Reflector reflector(api_for(cluster.url()), test_options(), recorder.callbacks());
  reflector.start();
  REQUIRE(eventually([&] { return recorder.has(2); }));
  reflector.stop();
  CHECK(recorder.events() == Events{"SYNCED", "ADDED default/a@11"});
  REQUIRE(recorder.errors().size() == 1);
  const auto watches = cluster.watches();
  REQUIRE(watches.size() == 2);
  CHECK(watches[1].query.at("resourceVersion") == "10");
  CHECK(cluster.lists().size() == 1);
}

TEST_CASE("reflector: other watch failures re-list", "[reflector]") {
  Cluster cluster;
  cluster.on_list(respond_json(pod_list(10, {pod("a", 1)})));
  cluster.on_list(respond_json(pod_list(30, {pod("a", 1)})));
  cluster.on_watch([](const RecordedRequest&, ResponseWriter& out) {
    out.respond_status(403, "Forbidden", "pods is forbidden: User cannot watch");
  });
  Recorder recorder;
  Reflector reflector(api_for(cluster.url()), test_options(), recorder.callbacks());
  reflector.start();
  REQUIRE(eventually([&] { return cluster.watches().size() >= 2; }));
  reflector.stop();
  CHECK(cluster.lists().size() == 2);
  CHECK(cluster.watches()[1].query.at("resourceVersion") == "30");
  CHECK(recorder.events() == Events{"ADDED default/a@1", "SYNCED", "SYNCED"});
  REQUIRE_FALSE(recorder.errors().empty());
  CHECK(recorder.errors()[0].find("403") != std::string::npos);
}

TEST_CASE("reflector: list failures are reported and retried", "[reflector]") {
  Cluster cluster;
  cluster.on_list([](const RecordedRequest&, ResponseWriter& out) {
    out.respond_status(500, "InternalError", "etcd unavailable");
  });
  cluster.on_list([](const RecordedRequest&, ResponseWriter& out) { out.respond(200, "{not json"); });
  cluster.on_list(respond_json(pod_list(5, {pod("a", 1)})));
  Recorder recorder;
  Reflector reflector(api_for(cluster.url()), test_options(), recorder.callbacks());
  CHECK_FALSE(reflector.has_synced());
  reflector.start();
  REQUIRE(eventually([&] { return recorder.has(2); }));
  reflector.stop();
  CHECK(recorder.events() == Events{"ADDED default/a@1", "SYNCED"});
  const auto errors = recorder.errors();
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].find("500") != std::string::npos);
  CHECK(errors[1].find("invalid JSON") != std::string::npos);
}

TEST_CASE("reflector: an expired continue token restarts the list", "[reflector]") {
  Cluster cluster;
  auto calls = std::make_shared<std::atomic<int>>(0);
  cluster.on_list([calls](const RecordedRequest& request, ResponseWriter& out) {
    const int n = (*calls)++;
    if (request.query.count("continue") == 0) {
      out.respond(200, pod_list(n == 0 ? 10 : 20, {pod("a", n == 0 ? 1 : 2)}, "next"));
    } else if (n == 1) {
      out.respond_status(410, "Expired", "The provided continue parameter is too old");
    } else {
      out.respond(200, pod_list(20, {pod("b", 3)}));
    }
  });
  Recorder recorder;
  Reflector reflector(api_for(cluster.url()), test_options(), recorder.callbacks());
  reflector.start();
  REQUIRE(eventually([&] { return recorder.has(3); }));
  reflector.stop();
  CHECK(recorder.events() == Events{"ADDED default/a@2", "ADDED default/b@3", "SYNCED"});
  CHECK(recorder.errors().empty());
}

TEST_CASE("reflector: selectors go on both list and watch", "[reflector]") {
  Cluster cluster;
  cluster.on_list(respond_json(pod_list(7, {})));
  ReflectorOptions options = test_options();
  options.label_selector = "app in (web, db),tier!=cache";
  options.field_selector = "spec.schedulerName=troupe,spec.nodeName=";
  Recorder recorder;
  Reflector reflector(api_for(cluster.url()), options, recorder.callbacks());
  reflector.start();
  REQUIRE(eventually([&] { return !cluster.watches().empty(); }));
  reflector.stop();
  for (const auto& request : {cluster.lists().at(0), cluster.watches().at(0)}) {
    CHECK(request.query.at("labelSelector") == options.label_selector);
    CHECK(request.query.at("fieldSelector") == options.field_selector);
  }
}

TEST_CASE("reflector: stop is prompt while a watch is open, and a restart diffs", "[reflector]") {
  Cluster cluster;
  cluster.on_list(respond_json(pod_list(10, {pod("a", 1), pod("b", 2)})));
  cluster.on_list(respond_json(pod_list(40, {pod("a", 1), pod("c", 3)})));
  Recorder recorder;
  Reflector reflector(api_for(cluster.url()), test_options(), recorder.callbacks());
  reflector.start();
  REQUIRE(eventually([&] { return !cluster.watches().empty(); }));
  CHECK(reflector.running());
  auto stopped = std::async(std::launch::async, [&] { reflector.stop(); });
  REQUIRE(stopped.wait_for(10s) == std::future_status::ready);  // the idle watch would last a minute
  CHECK_FALSE(reflector.running());

  reflector.start();
  REQUIRE(eventually([&] { return recorder.has(6); }));
  reflector.stop();
  CHECK(recorder.events() == Events{"ADDED default/a@1", "ADDED default/b@2", "SYNCED", "DELETED? default/b@2",
                                    "ADDED default/c@3", "SYNCED"});
}

TEST_CASE("reflector: stopping from inside a callback does not deadlock", "[reflector]") {
  Cluster cluster;
  cluster.on_list(respond_json(pod_list(10, {pod("a", 1)})));
  std::shared_ptr<Reflector> reflector;
  std::promise<void> stopped_inside;
  ReflectorCallbacks callbacks;
  callbacks.on_synced = [&] {
    reflector->stop();
    stopped_inside.set_value();
  };
  reflector = std::make_shared<Reflector>(api_for(cluster.url()), test_options(), callbacks);
  reflector->start();
  REQUIRE(stopped_inside.get_future().wait_for(10s) == std::future_status::ready);
  REQUIRE(eventually([&] { return !reflector->running(); }));
  reflector.reset();  // joins the finished thread
  CHECK(cluster.watches().empty());
}

/// A reflector whose first on_synced stops it from inside, then lingers there
/// for `linger`: the loop is stopped but has not ended yet.
struct StoppedInsideCallback {
  explicit StoppedInsideCallback(std::chrono::milliseconds linger) {
    cluster.on_list(respond_json(pod_list(10, {pod("a", 1)})));
    ReflectorCallbacks callbacks;
    callbacks.on_synced = [this, linger] {
      if (synced++ > 0) return;
      reflector->stop();
      stopped_inside.set_value();
      std::this_thread::sleep_for(linger);
    };
    reflector = std::make_shared<Reflector>(api_for(cluster.url()), test_options(), callbacks);
    reflector->start();
    REQUIRE(stopped_inside.get_future().wait_for(10s) == std::future_status::ready);
  }
  // Declared before the reflector, which is destroyed (and joined) first.
  Cluster cluster;
  std::promise<void> stopped_inside;
  std::atomic<int> synced{0};
  std::shared_ptr<Reflector> reflector;
};

TEST_CASE("reflector: restarted while the loop stopped from its callback is still inside it", "[reflector]") {
  StoppedInsideCallback r(200ms);  // the restart below is waiting for that loop meanwhile
  // The old loop reads the resource version on its way out; start() must not hold it while joining.
  auto restarted = std::async(std::launch::async, [&] { r.reflector->start(); });
  REQUIRE(restarted.wait_for(10s) == std::future_status::ready);
  REQUIRE(eventually([&] { return r.synced.load() == 2; }));
  CHECK(r.reflector->running());
  r.reflector->stop();
}

TEST_CASE("reflector: a stop() while a restart waits for the old loop wins over that restart", "[reflector]") {
  StoppedInsideCallback r(300ms);  // start() below joins that loop meanwhile; stop() comes in between
  auto restarted = std::async(std::launch::async, [&] { r.reflector->start(); });
  std::this_thread::sleep_for(100ms);  // the restart is waiting for the old loop
  r.reflector->stop();
  REQUIRE(restarted.wait_for(10s) == std::future_status::ready);
  CHECK_FALSE(r.reflector->running());
  CHECK(r.synced.load() == 1);
}
