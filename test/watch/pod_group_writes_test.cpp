// PodGroup status writes (Coscheduling): a read-modify-write of /status that
// never goes back, whatever order the writes of one PodGroup arrive in.
#include <catch2/catch.hpp>

#include "fake_apiserver.hpp"
#include "watch/json_util.hpp"
#include "watch/pod_group_writes.hpp"

using namespace troupe::watch;
using troupe::test::FakeApiServer;
using troupe::test::RecordedRequest;
using troupe::test::ResponseWriter;

namespace {

std::shared_ptr<ApiClient> api_for(const FakeApiServer& server) {
  ClusterConfig config;
  config.server = server.url();
  auto http = HttpClient::create(config);
  REQUIRE(http.ok());
  return std::make_shared<ApiClient>(*http, RateLimits{0, 1});
}

PodGroupProgress progress(const char* phase, int32_t scheduled, bool with_start) {
  PodGroupProgress p{"team-a", "job", phase, scheduled, std::nullopt};
  if (with_start) p.schedule_start_time = troupe::parse_timestamp("2026-11-27T12:00:00Z").value();
  return p;
}

}  // namespace

TEST_CASE("patch_pod_group_status: what a write changes, given the status it reads", "[writers][podgroup]") {
  struct Case {
    const char* name;
    const char* status_read;  // the PodGroup's status as the GET returns it
    PodGroupProgress write;
    bool puts;  // false: nothing new, nothing sent after the GET
    const char* phase;
    int64_t scheduled;
    const char* start;
  };
  const std::vector<Case> cases = {
      {"first member: Scheduling, count and start time", "{}", progress("Scheduling", 1, true), true, "Scheduling", 1,
       "2026-11-27T12:00:00Z"},
      {"min members bound: Scheduled",
       R"({"phase":"Scheduling","scheduled":1,"scheduleStartTime":"2026-11-27T11:00:00Z"})",
       progress("Scheduled", 2, false), true, "Scheduled", 2, "2026-11-27T11:00:00Z"},
      {"a late write of an earlier progress changes nothing", R"({"phase":"Scheduled","scheduled":3})",
       progress("Scheduling", 1, true), true, "Scheduled", 3, "2026-11-27T12:00:00Z"},
      {"the same progress again is not sent", R"({"phase":"Scheduled","scheduled":3,"scheduleStartTime":"x"})",
       progress("Scheduled", 3, false), false, nullptr, 0, nullptr},
      {"the start time is never replaced",
       R"({"phase":"Scheduling","scheduled":1,"scheduleStartTime":"2026-01-01T00:00:00Z"})",
       progress("Scheduling", 2, true), true, "Scheduling", 2, "2026-01-01T00:00:00Z"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const std::string object = std::string(R"({"kind":"PodGroup","metadata":{"name":"job","namespace":"team-a",)") +
                               R"("resourceVersion":"7"},"spec":{"minMember":2},"status":)" + c.status_read + "}";
    FakeApiServer server([&](const RecordedRequest& request, ResponseWriter& out) {
      out.respond(200, request.method == "GET" ? object : request.body);
    });
    const ApiResult result = patch_pod_group_status(*api_for(server), c.write);
    CHECK(result.ok);
    const auto requests = server.requests();
    CHECK(requests.at(0).path == "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/team-a/podgroups/job");
    REQUIRE(requests.size() == (c.puts ? 2u : 1u));
    if (!c.puts) continue;
    CHECK(requests[1].method == "PUT");
    CHECK(requests[1].path == "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/team-a/podgroups/job/status");
    auto doc = parse_document(requests[1].body);
    REQUIRE(doc.ok());
    CHECK(string_at(**doc, {"status", "phase"}) == c.phase);
    CHECK((**doc)["status"]["scheduled"].GetInt64() == c.scheduled);
    CHECK(string_at(**doc, {"status", "scheduleStartTime"}) == c.start);
    CHECK(string_at(**doc, {"metadata", "resourceVersion"}) == "7");
  }
}

TEST_CASE("patch_pod_group_status: a PodGroup that is gone is a 404", "[writers][podgroup]") {
  FakeApiServer server([](const RecordedRequest&, ResponseWriter& out) {
    out.respond_status(404, "NotFound", "podgroups.scheduling.sigs.k8s.io \"job\" not found");
  });
  const ApiResult result = patch_pod_group_status(*api_for(server), progress("Scheduling", 1, true));
  CHECK_FALSE(result.ok);
  CHECK(result.code == 404);
}
