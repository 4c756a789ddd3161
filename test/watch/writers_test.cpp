// Writers: the exact requests for bindings, status patches, metadata patches,
// evictions, deletions, events, leases and PodGroup status, and how each treats
// failures.
#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>

#include "fake_apiserver.hpp"
#include "test_data.hpp"
#include "watch/event_writer.hpp"
#include "watch/json_util.hpp"
#include "watch/lease_client.hpp"
#include "watch/object_writes.hpp"
#include "watch/pod_group_writes.hpp"
#include "watch/pod_writes.hpp"
#include "watch/task_pool.hpp"
#include "watch/volume_writes.hpp"

using namespace troupe::watch;
using troupe::test::FakeApiServer;
using troupe::test::RecordedRequest;
using troupe::test::ResponseWriter;
using namespace std::chrono_literals;

namespace {

std::shared_ptr<ApiClient> api_for(const FakeApiServer& server) {
  ClusterConfig config;
  config.server = server.url();
  auto http = HttpClient::create(config);
  REQUIRE(http.ok());
  return std::make_shared<ApiClient>(*http, RateLimits{0, 1});
}

std::shared_ptr<rapidjson::Document> body_of(const RecordedRequest& request) {
  auto doc = parse_document(request.body);
  REQUIRE(doc.ok());
  return *doc;
}

troupe::PodGroupStatus group_status(const char* phase, int32_t scheduled, int32_t running, int32_t succeeded,
                                    bool with_start, const char* occupied_by = "") {
  troupe::PodGroupStatus s;
  s.phase = phase;
  s.scheduled = scheduled;
  s.running = running;
  s.succeeded = succeeded;
  s.occupied_by = occupied_by;
  if (with_start) s.schedule_start_time = troupe::parse_timestamp("2026-11-27T12:00:00Z").value();
  return s;
}

/// A FailedScheduling event about team-a/web-0.
EventSpec failed_scheduling_event() {
  EventSpec spec;
  spec.regarding = {"Pod", "team-a", "web-0", "uid-1", "v1", "77"};
  spec.type = "Warning";
  spec.reason = "FailedScheduling";
  spec.action = "Scheduling";
  spec.note = "0/3 nodes are available: 3 Insufficient cpu.";
  return spec;
}

const char* kCreated = R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201})";

}  // namespace

TEST_CASE("bind_pod posts a Binding that carries uid and annotations", "[writers]") {
  FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) { out.respond(201, kCreated); });
  auto api = api_for(server);
  BindRequest request{"team-a", "web-0", "uid-123", "node-7",
                      {{"scheduling.koordinator.sh/device-allocated", R"({"gpu":[{"minor":0}]})"}}};
  const ApiResult result = bind_pod(*api, request);
  CHECK(result.ok);
  CHECK(result.code == 201);
  const RecordedRequest sent = server.requests().at(0);
  CHECK(sent.method == "POST");
  CHECK(sent.path == "/api/v1/namespaces/team-a/pods/web-0/binding");
  CHECK(sent.headers.at("content-type") == "application/json");
  auto body = body_of(sent);
  CHECK(string_at(*body, {"kind"}) == "Binding");
  CHECK(string_at(*body, {"apiVersion"}) == "v1");
  CHECK(string_at(*body, {"metadata", "name"}) == "web-0");
  CHECK(string_at(*body, {"metadata", "namespace"}) == "team-a");
  CHECK(string_at(*body, {"metadata", "uid"}) == "uid-123");
  CHECK(string_at(*body, {"metadata", "annotations", "scheduling.koordinator.sh/device-allocated"}) ==
        R"({"gpu":[{"minor":0}]})");
  CHECK(string_at(*body, {"target", "kind"}) == "Node");
  CHECK(string_at(*body, {"target", "name"}) == "node-7");
}

TEST_CASE("bind_pod: a 409 is final, unless an unanswered attempt already bound it here", "[writers]") {
  const std::string conflict_message = "Operation cannot be fulfilled on pods/binding \"web-0\": pod web-0 is already assigned to node \"node-1\"";
  SECTION("plain conflict") {
    FakeApiServer server([&](const RecordedRequest&, ResponseWriter& out) {
      out.respond_status(409, "Conflict", conflict_message);
    });
    const ApiResult result = bind_pod(*api_for(server), BindRequest{"default", "web-0", "u", "node-1", {}});
    CHECK_FALSE(result.ok);
    CHECK(result.code == 409);
    CHECK(result.reason == "Conflict");
    CHECK(result.message == conflict_message);
    CHECK(server.request_count() == 1);
  }
  SECTION("the first attempt's answer was lost") {
    std::atomic<int> calls{0};
    FakeApiServer server([&](const RecordedRequest&, ResponseWriter& out) {
      if (calls++ == 0) {
        out.cut();  // processed, but the answer never arrives
      } else {
        out.respond_status(409, "Conflict", conflict_message);
      }
    });
    auto api = api_for(server);
    const ApiResult same_node = bind_pod(*api, BindRequest{"default", "web-0", "u", "node-1", {}});
    CHECK(same_node.ok);
    CHECK(same_node.attempts == 2);
    calls = 0;
    const ApiResult other_node = bind_pod(*api, BindRequest{"default", "web-0", "u", "node-2", {}});
    CHECK_FALSE(other_node.ok);  // bound elsewhere: a real conflict
  }
  SECTION("other failures keep their code and reason") {
    FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) {
      out.respond_status(404, "NotFound", "pods \"web-0\" not found");
    });
    const ApiResult result = bind_pod(*api_for(server), BindRequest{"default", "web-0", "u", "n", {}});
    CHECK(result.code == 404);
    CHECK(result.reason == "NotFound");
  }
}

TEST_CASE("annotate_pod_before_binding: a merge patch of the annotations, refused for a pod being deleted",
          "[writers]") {
  struct Case {
    const char* name;
    std::map<std::string, std::string> annotations;
    int code;               // the server's answer
    const char* answer;     // the patched pod, or a Status message
    bool ok;
    const char* message;
    int requests;
  };
  const std::map<std::string, std::string> allocated = {{"scheduling.koordinator.sh/device-allocated", "{}"}};
  const std::vector<Case> cases = {
      {"patched", allocated, 200, R"({"metadata":{"name":"web-0","uid":"u"}})", true, "", 1},
      {"a null deletionTimestamp is none", allocated, 200, R"({"metadata":{"deletionTimestamp":null}})", true, "", 1},
      {"being deleted", allocated, 200, R"({"metadata":{"deletionTimestamp":"2026-12-05T08:00:00Z"}})", false,
       "pod is being deleted", 1},
      {"gone", allocated, 404, "pods \"web-0\" not found", false, "pods \"web-0\" not found", 1},
      {"nothing to write sends nothing", {}, 200, "{}", true, "", 0},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    FakeApiServer server([&](const RecordedRequest&, ResponseWriter& out) {
      if (c.code == 200) return out.respond(200, c.answer);
      out.respond_status(c.code, "NotFound", c.answer);
    });
    const ApiResult result = annotate_pod_before_binding(*api_for(server), "team-a", "web-0", "u", c.annotations);
    CHECK(result.ok == c.ok);
    CHECK(result.message == c.message);
    REQUIRE(server.request_count() == static_cast<size_t>(c.requests));
    if (c.requests == 0) continue;
    const RecordedRequest sent = server.requests().at(0);
    CHECK(sent.method == "PATCH");
    CHECK(sent.path == "/api/v1/namespaces/team-a/pods/web-0");
    CHECK(sent.headers.at("content-type") == "application/merge-patch+json");
    auto body = body_of(sent);
    CHECK(string_at(*body, {"metadata", "uid"}) == "u");  // a pod re-created under the name refuses it
    CHECK(string_at(*body, {"metadata", "annotations", "scheduling.koordinator.sh/device-allocated"}) == "{}");
  }
}

TEST_CASE("patch_pod_status sends a strategic merge patch of the condition and nominated node", "[writers]") {
  FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) { out.respond(200, "{}"); });
  auto api = api_for(server);
  PodCondition condition;
  condition.message = "0/5 nodes are available: 5 Insufficient cpu.";
  condition.last_transition_time = std::chrono::system_clock::time_point(std::chrono::seconds(1795304251));
  CHECK(patch_pod_status(*api, "default", "web-0", condition, std::string("node-3")).ok);
  CHECK(patch_pod_status(*api, "default", "web-0", std::nullopt, std::string("")).ok);
  const ApiResult nothing = patch_pod_status(*api, "default", "web-0", std::nullopt, std::nullopt);
  CHECK_FALSE(nothing.ok);
  CHECK(nothing.reason == "BadRequest");

  const auto requests = server.requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].method == "PATCH");
  CHECK(requests[0].path == "/api/v1/namespaces/default/pods/web-0/status");
  CHECK(requests[0].headers.at("content-type") == "application/strategic-merge-patch+json");
  CHECK(requests[0].body ==
        R"({"status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable",)"
        R"("message":"0/5 nodes are available: 5 Insufficient cpu.","lastProbeTime":null,)"
        R"("lastTransitionTime":"2026-11-21T23:37:31Z"}],"nominatedNodeName":"node-3"}})");
  CHECK(requests[1].body == R"({"status":{"nominatedNodeName":null}})");
}

TEST_CASE("status patches resend on 409, and metadata merge patches delete with null", "[writers]") {
  std::atomic<int> calls{0};
  FakeApiServer server([&](const RecordedRequest&, ResponseWriter& out) {
    if (calls++ == 0) {
      out.respond_status(409, "Conflict", "the object has been modified");
    } else {
      out.respond(200, "{}");
    }
  });
  auto api = api_for(server);
  const ApiResult patched =
      merge_patch_metadata(*api, "/apis/scheduling.koordinator.sh/v1alpha1/reservations/r1",
                           {{"troupe/keep", std::string("yes")}, {"troupe/drop", std::nullopt}}, {{"tier", std::string("gpu")}});
  CHECK(patched.ok);
  CHECK(patched.attempts == 2);
  const RecordedRequest sent = server.requests().at(1);
  CHECK(sent.headers.at("content-type") == "application/merge-patch+json");
  CHECK(sent.body == R"({"metadata":{"annotations":{"troupe/drop":null,"troupe/keep":"yes"},"labels":{"tier":"gpu"}}})");
}

TEST_CASE("update_status reads again after a 409 and writes the fresh object", "[writers]") {
  std::atomic<int> version{1};
  std::atomic<int> puts{0};
  FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
    if (request.method == "GET") {
      out.respond(200, R"({"kind":"Reservation","metadata":{"name":"r1","resourceVersion":")" +
                           std::to_string(version.load()) + R"("},"status":{"phase":"Pending"}})");
      return;
    }
    if (puts++ == 0) {
      version = 2;  // someone else wrote in between
      out.respond_status(409, "Conflict", "the object has been modified; please apply your changes to the latest version and try again");
      return;
    }
    out.respond(200, request.body);
  });
  auto api = api_for(server);
  const std::string path = "/apis/scheduling.koordinator.sh/v1alpha1/reservations/r1";
  const ApiResult result = update_status(*api, path, [](rapidjson::Document& object) {
    object["status"]["phase"].SetString("Available");
    return true;
  });
  CHECK(result.ok);
  const auto requests = server.requests();
  REQUIRE(requests.size() == 4);  // GET, PUT (409), GET, PUT
  CHECK(requests[1].method == "PUT");
  CHECK(requests[1].path == path + "/status");
  auto last = body_of(requests[3]);
  CHECK(string_at(*last, {"metadata", "resourceVersion"}) == "2");
  CHECK(string_at(*last, {"status", "phase"}) == "Available");

  // A mutation that decides nothing needs writing sends nothing.
  const ApiResult skipped = update_status(*api, path, [](rapidjson::Document&) { return false; });
  CHECK(skipped.ok);
  CHECK(server.request_count() == 5);
}

TEST_CASE("evict_pod and delete_pod", "[writers]") {
  SECTION("eviction body; a PodDisruptionBudget 429 is returned at once") {
    FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) {
      out.respond_status(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.");
    });
    const ApiResult result = evict_pod(*api_for(server), "default", "victim", 30);
    CHECK(result.code == 429);
    CHECK(server.request_count() == 1);
    const RecordedRequest sent = server.requests().at(0);
    CHECK(sent.path == "/api/v1/namespaces/default/pods/victim/eviction");
    CHECK(sent.body ==
          R"({"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"victim","namespace":"default"},)"
          R"("deleteOptions":{"gracePeriodSeconds":30}})");
  }
  SECTION("delete with preconditions") {
    FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) { out.respond(200, "{}"); });
    CHECK(delete_pod(*api_for(server), "default", "victim", {"uid-1", "42"}, 0).ok);
    const RecordedRequest sent = server.requests().at(0);
    CHECK(sent.method == "DELETE");
    CHECK(sent.path == "/api/v1/namespaces/default/pods/victim");
    CHECK(sent.body == R"({"apiVersion":"v1","kind":"DeleteOptions","preconditions":{"uid":"uid-1","resourceVersion":"42"},"gracePeriodSeconds":0})");
  }
  SECTION("names are escaped in paths") {
    CHECK(pod_path("ns", "a b/c") == "/api/v1/namespaces/ns/pods/a%20b%2Fc");
    CHECK(object_path("/apis/x/v1", "things", "", "n") == "/apis/x/v1/things/n");
  }
}

TEST_CASE("event writer: events.k8s.io/v1 when served, probed once", "[writers][events]") {
  FakeApiServer server([](const RecordedRequest& request, ResponseWriter& out) {
    if (request.method == "GET") {
      out.respond(200, R"({"kind":"APIResourceList","groupVersion":"events.k8s.io/v1","resources":[]})");
    } else {
      out.respond(201, request.body);
    }
  });
  EventWriter writer(api_for(server), "troupe", "troupe-host-a");
  const EventSpec spec = failed_scheduling_event();
  CHECK(writer.create(spec).ok);
  CHECK(writer.create(spec).ok);
  const auto requests = server.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].path == "/apis/events.k8s.io/v1");
  CHECK(requests[1].path == "/apis/events.k8s.io/v1/namespaces/team-a/events");
  auto body = body_of(requests[1]);
  CHECK(string_at(*body, {"apiVersion"}) == "events.k8s.io/v1");
  CHECK(string_at(*body, {"reportingController"}) == "troupe");
  CHECK(string_at(*body, {"reportingInstance"}) == "troupe-host-a");
  CHECK(string_at(*body, {"regarding", "name"}) == "web-0");
  CHECK(string_at(*body, {"regarding", "uid"}) == "uid-1");
  CHECK(string_at(*body, {"note"}) == spec.note);
  CHECK(string_at(*body, {"type"}) == "Warning");
  const std::string event_time = string_at(*body, {"eventTime"});
  CHECK(event_time.size() == 27);  // 2026-11-21T23:37:31.123456Z
  const std::string name = string_at(*body, {"metadata", "name"});
  CHECK(name.rfind("web-0.", 0) == 0);
  CHECK(name != string_at(*body_of(requests[2]), {"metadata", "name"}));
}

TEST_CASE("event writer: falls back to core/v1 when the group is absent", "[writers][events]") {
  std::atomic<bool> discovery_broken{true};
  FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
    if (request.method == "GET") {
      if (discovery_broken) {
        out.respond_status(503, "ServiceUnavailable", "try later");
      } else {
        out.respond_status(404, "NotFound", "the server could not find the requested resource");
      }
    } else {
      out.respond(201, request.body);
    }
  });
  auto api = api_for(server);
  EventWriter writer(api, "troupe", "troupe-host-a");
  EventSpec spec;
  spec.regarding = {"Node", "", "node-1", "", "v1", ""};
  spec.reason = "Scheduled";
  spec.note = "Successfully assigned default/web-0 to node-1";
  // An unclear probe: core/v1 this time, probe again next time.
  CHECK(writer.create(spec).ok);
  CHECK(writer.api() == EventWriter::Api::unknown);
  discovery_broken = false;
  CHECK(writer.create(spec).ok);
  CHECK(writer.api() == EventWriter::Api::core_v1);
  const auto requests = server.requests();
  const RecordedRequest& post = requests.back();
  CHECK(post.path == "/api/v1/namespaces/default/events");  // cluster objects' events go to default
  auto body = body_of(post);
  CHECK(string_at(*body, {"involvedObject", "kind"}) == "Node");
  CHECK(string_at(*body, {"message"}) == spec.note);
  CHECK(string_at(*body, {"source", "component"}) == "troupe");
  CHECK(int_at(*body, {"count"}) == 1);
  CHECK(string_at(*body, {"firstTimestamp"}).size() == 20);  // 2026-11-21T23:37:31Z
}

TEST_CASE("event writer: a repeat that races the series' first write folds into it", "[writers][events]") {
  // Two occurrences written at once: the repeat's PATCH comes before the first POST has landed (404),
  // its own POST after (409). It patches the Event then, instead of dropping the occurrence.
  std::mutex mutex;
  int posts = 0;
  FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
    std::lock_guard<std::mutex> lock(mutex);
    if (request.method == "GET") {
      out.respond(200, R"({"kind":"APIResourceList","groupVersion":"events.k8s.io/v1","resources":[]})");
    } else if (request.method == "POST") {
      if (posts++ == 0) {
        out.respond(201, request.body);
      } else {
        out.respond_status(409, "AlreadyExists", "events.events.k8s.io \"web-0.x\" already exists");
      }
    } else if (request.method == "PATCH" && posts < 2) {
      out.respond_status(404, "NotFound", "events.events.k8s.io \"web-0.x\" not found");
    } else {
      out.respond(200, request.body);
    }
  });
  EventWriter writer(api_for(server), "troupe", "troupe-host-a");
  const EventSpec spec = failed_scheduling_event();
  CHECK(writer.record(spec).ok);   // POST
  CHECK(writer.record(spec).ok);   // PATCH 404, POST 409, PATCH
  const auto requests = server.requests();
  REQUIRE(requests.size() == 5);   // the probe first
  CHECK(requests[1].method == "POST");
  CHECK(requests[2].method == "PATCH");
  CHECK(requests[3].method == "POST");
  CHECK(requests[4].method == "PATCH");
  CHECK(requests[4].path == requests[2].path);
  CHECK(int_at(*body_of(requests[4]), {"series", "count"}) == 2);
  // The series goes on under the same Event.
  CHECK(writer.record(spec).ok);
  const auto later = server.requests();
  CHECK(later.back().method == "PATCH");
  CHECK(later.back().path == requests[2].path);
  CHECK(int_at(*body_of(later.back()), {"series", "count"}) == 3);
}

TEST_CASE("event notes are cut to 1024 bytes on a character boundary", "[writers][events]") {
  CHECK(truncate_note("short") == "short");
  CHECK(truncate_note(std::string(1024, 'x')) == std::string(1024, 'x'));
  const std::string cut = truncate_note(std::string(2000, 'x'));
  CHECK(cut.size() == 1024);
  CHECK(cut.substr(1020) == " ...");
  std::string wide;
  while (wide.size() < 1100) wide += "日";  // 3 bytes each
  const std::string cut_wide = truncate_note(wide);
  CHECK(cut_wide.size() <= 1024);
  CHECK((cut_wide.size() - 4) % 3 == 0);  // whole characters only
}

TEST_CASE("leases: get, create, update, and a 409 is the lock and is not retried", "[writers][leases]") {
  std::mutex mutex;
  std::string stored;  // the lease JSON the server holds
  int version = 0;
  FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
    std::lock_guard<std::mutex> lock(mutex);
    if (request.method == "GET") {
      if (stored.empty()) {
        out.respond_status(404, "NotFound", "leases.coordination.k8s.io \"troupe\" not found");
      } else {
        out.respond(200, stored);
      }
      return;
    }
    auto body = parse_document(request.body);
    const std::string sent_rv = string_at(**body, {"metadata", "resourceVersion"});
    if (request.method == "PUT" && sent_rv != std::to_string(version)) {
      out.respond_status(409, "Conflict", "Operation cannot be fulfilled on leases.coordination.k8s.io \"troupe\": the object has been modified");
      return;
    }
    ++version;
    rapidjson::Document& doc = **body;
    auto& alloc = doc.GetAllocator();
    doc["metadata"].RemoveMember("resourceVersion");
    doc["metadata"].AddMember("resourceVersion", rapidjson::Value(std::to_string(version).c_str(), alloc), alloc);
    stored = to_json(doc);
    out.respond(request.method == "POST" ? 201 : 200, stored);
  });
  auto api = api_for(server);

  LeaseResult missing = get_lease(*api, "kube-system", "troupe");
  CHECK(missing.api.code == 404);
  CHECK_FALSE(missing.lease);

  LeaseRecord mine;
  mine.ns = "kube-system";
  mine.name = "troupe";
  mine.holder_identity = "host-a_1234";
  mine.acquire_time = mine.renew_time = "2026-11-21T23:00:00.000000Z";
  LeaseResult created = create_lease(*api, mine);
  REQUIRE(created.api.ok);
  REQUIRE(created.lease);
  CHECK(created.lease->resource_version == "1");
  CHECK(created.lease->holder_identity == "host-a_1234");
  CHECK(created.lease->lease_duration_seconds == 15);

  LeaseResult read = get_lease(*api, "kube-system", "troupe");
  REQUIRE(read.lease);
  LeaseRecord renewed = *read.lease;
  renewed.renew_time = "2026-11-21T23:00:02.000000Z";
  LeaseResult updated = update_lease(*api, renewed);
  REQUIRE(updated.api.ok);
  CHECK(updated.lease->resource_version == "2");
  CHECK(updated.lease->renew_time == "2026-11-21T23:00:02.000000Z");

  const std::size_t before = server.request_count();
  LeaseResult stale = update_lease(*api, renewed);  // still carries resourceVersion 1
  CHECK(stale.api.code == 409);
  CHECK_FALSE(stale.lease);
  CHECK(server.request_count() == before + 1);

  const RecordedRequest put = server.requests().at(3);
  CHECK(put.method == "PUT");
  CHECK(put.path == "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/troupe");
  CHECK(server.requests().at(1).path == "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases");
}

TEST_CASE("task pool runs posted work on its threads and drains on shutdown", "[writers][task_pool]") {
  std::atomic<int> done{0};
  {
    TaskPool pool(3, "test-pool");
    for (int i = 0; i < 50; ++i) REQUIRE(pool.post([&] { ++done; }));
    pool.post([] { throw std::runtime_error("a failing task must not kill the pool"); });
    for (int i = 0; i < 50; ++i) pool.post([&] { ++done; });
    pool.shutdown();
    CHECK(done.load() == 100);
    CHECK_FALSE(pool.post([&] { ++done; }));
  }
  CHECK(done.load() == 100);
}


TEST_CASE("write_pod_group_status: the status decided on the object read replaces the old one",
          "[writers][podgroup]") {
  struct Case {
    const char* name;
    const char* status_read;  // the PodGroup's status as the GET returns it
    std::optional<troupe::PodGroupStatus> write;  // what the decision answers; nullopt: nothing
    const char* expected;  // the status PUT, as JSON; nullptr: no PUT
  };
  const std::vector<Case> cases = {
      {"a new group: the phase, no zero counts", "{}", group_status("Pending", 0, 0, 0, false),
       R"({"phase":"Pending"})"},
      {"the counts, the start time and the holders", R"({"phase":"Pending"})",
       group_status("Scheduling", 1, 0, 0, true, "team-a/job"),
       R"({"phase":"Scheduling","scheduled":1,"occupiedBy":"team-a/job","scheduleStartTime":"2026-11-27T12:00:00Z"})"},
      {"counts that fall to zero are left out, the holders replaced",
       R"({"phase":"Running","scheduled":2,"running":2,"occupiedBy":"team-a/old"})",
       group_status("Finished", 2, 0, 2, false, "team-a/new"),
       R"({"phase":"Finished","scheduled":2,"succeeded":2,"occupiedBy":"team-a/new"})"},
      {"nothing decided, nothing sent", R"({"phase":"Scheduled","scheduled":3})", std::nullopt, nullptr},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const std::string object = std::string(R"({"kind":"PodGroup","metadata":{"name":"job","namespace":"team-a",)") +
                               R"("resourceVersion":"7"},"spec":{"minMember":2},"status":)" + c.status_read + "}";
    FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
      out.respond(200, request.method == "GET" ? object : request.body);
    });
    std::optional<troupe::PodGroup> seen;
    auto decide = [&](const troupe::PodGroup& current) {
      seen = current;
      return c.write;
    };
    const ApiResult result = write_pod_group_status(*api_for(server), "team-a", "job", decide);
    CHECK(result.ok);
    REQUIRE(seen);  // the decision saw the object as read
    CHECK(seen->spec.min_member == 2);
    CHECK(seen->meta.name == "job");
    const auto requests = server.requests();
    CHECK(requests.at(0).path == "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/team-a/podgroups/job");
    REQUIRE(requests.size() == (c.expected ? 2u : 1u));
    if (!c.expected) continue;
    CHECK(requests[1].method == "PUT");
    CHECK(requests[1].path == "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/team-a/podgroups/job/status");
    auto doc = parse_document(requests[1].body);
    REQUIRE(doc.ok());
    auto expected = parse_document(c.expected);
    REQUIRE(expected.ok());
    INFO(to_json((**doc)["status"]));
    CHECK((**doc)["status"] == **expected);  // members in any order
    CHECK(string_at(**doc, {"metadata", "resourceVersion"}) == "7");
  }
}

TEST_CASE("write_pod_group_status: a CRD without the status subresource is written through the object",
          "[writers][podgroup]") {
  // Koordinator's own PodGroup CRD has no status subresource: /status is a 404 while the object exists.
  const std::string object = R"({"kind":"PodGroup","metadata":{"name":"job","namespace":"team-a",)"
                             R"("resourceVersion":"7"},"spec":{"minMember":1}})";
  FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
    if (request.method == "GET") return out.respond(200, object);
    if (request.path.size() > 7 && request.path.compare(request.path.size() - 7, 7, "/status") == 0)
      return out.respond_status(404, "NotFound", "the server could not find the requested resource");
    out.respond(200, request.body);
  });
  auto decide = [](const troupe::PodGroup&) { return std::optional(group_status("Pending", 0, 0, 0, false)); };
  std::atomic<bool> status_subresource{true};
  const ApiResult result = write_pod_group_status(*api_for(server), "team-a", "job", decide, &status_subresource);
  CHECK(result.ok);
  auto requests = server.requests();
  REQUIRE(requests.size() == 4);
  CHECK(requests[1].path == "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/team-a/podgroups/job/status");
  CHECK(requests[3].method == "PUT");
  CHECK(requests[3].path == "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/team-a/podgroups/job");
  auto doc = parse_document(requests[3].body);
  REQUIRE(doc.ok());
  CHECK(string_at(**doc, {"status", "phase"}) == "Pending");
  // Remembered: the next write goes to the object at once.
  CHECK_FALSE(status_subresource.load());
  REQUIRE(write_pod_group_status(*api_for(server), "team-a", "job", decide, &status_subresource).ok);
  requests = server.requests();
  REQUIRE(requests.size() == 6);
  CHECK(requests[5].path == "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/team-a/podgroups/job");
}

TEST_CASE("write_pod_group_status: a PodGroup that is gone is a 404", "[writers][podgroup]") {
  FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) {
    out.respond_status(404, "NotFound", "podgroups.scheduling.sigs.k8s.io \"job\" not found");
  });
  bool decided = false;
  auto decide = [&](const troupe::PodGroup&) {
    decided = true;
    return std::optional<troupe::PodGroupStatus>();
  };
  const ApiResult result = write_pod_group_status(*api_for(server), "team-a", "job", decide);
  CHECK_FALSE(result.ok);
  CHECK(result.code == 404);
  CHECK_FALSE(decided);
}

TEST_CASE("volume writes: a claimRef or a selected node, under the resourceVersion the decision saw", "[writers]") {
  FakeApiServer server([](const RecordedRequest& request, ResponseWriter& out) {
    if (request.path.find("conflict") != std::string::npos) return out.respond(409, R"({"kind":"Status","apiVersion":"v1",
      "status":"Failure","message":"the object has been modified","reason":"Conflict","code":409})");
    out.respond(200, R"({"metadata":{"name":"x","resourceVersion":"77"}})");
  });
  auto api = api_for(server);
  const ClaimIdentity claim{"db", "data", "uid-data", "12"};

  const ApiResult bound = bind_volume_to_claim(*api, "pv-1", "40", false, claim);
  REQUIRE(bound.ok);
  CHECK(written_resource_version(bound) == "77");
  RecordedRequest sent = server.requests().at(0);
  CHECK(sent.method == "PATCH");
  CHECK(sent.path == "/api/v1/persistentvolumes/pv-1");
  CHECK(sent.headers.at("content-type") == "application/merge-patch+json");
  CHECK(sent.body ==
        R"({"metadata":{"resourceVersion":"40","annotations":{"pv.kubernetes.io/bound-by-controller":"yes"}},)"
        R"("spec":{"claimRef":{"kind":"PersistentVolumeClaim","apiVersion":"v1","namespace":"db","name":"data",)"
        R"("uid":"uid-data","resourceVersion":"12"}}})");

  SECTION("a volume the user pre-bound keeps its own binding mark") {
    REQUIRE(bind_volume_to_claim(*api, "pv-1", "40", true, claim).ok);
    CHECK(server.requests().at(1).body.find("bound-by-controller") == std::string::npos);
  }
  SECTION("a claim to provision gets its node") {
    const ApiResult selected = select_node_for_claim(*api, claim, "n-7");
    REQUIRE(selected.ok);
    sent = server.requests().at(1);
    CHECK(sent.path == "/api/v1/namespaces/db/persistentvolumeclaims/data");
    CHECK(sent.body ==
          R"({"metadata":{"resourceVersion":"12","annotations":{"volume.kubernetes.io/selected-node":"n-7"}}})");
  }
  SECTION("a changed object is a conflict, not resent") {
    const ApiResult conflict = bind_volume_to_claim(*api, "pv-conflict", "40", false, claim);
    CHECK_FALSE(conflict.ok);
    CHECK(conflict.code == 409);
    CHECK(written_resource_version(conflict).empty());
    CHECK(server.request_count() == 2);
  }
}
