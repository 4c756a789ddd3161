// The POD GROUP actor against the embedded API server over real HTTP: it
// writes a PodGroup's status only while leading, follows its members as they
// bind and move to another group, starts afresh for a re-created PodGroup,
// and leaves alone a PodGroup none of whose pods is ours.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "actors/pod_group_actor.hpp"
#include "actors/shared_reflectors.hpp"
#include "model/json.hpp"
#include "sim/api_server.hpp"
#include "embedded_api.hpp"
#include "test_actor_system.hpp"
#include "watch/api_client.hpp"
#include "watch/json_util.hpp"
#include "watch/object_writes.hpp"
#include "watch/pod_writes.hpp"
#include "watch/task_pool.hpp"

using namespace troupe;
using namespace troupe::actors;
using namespace std::chrono_literals;

using troupe::actors::testing::eventually;

namespace {

constexpr const char* kGroups = "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/default/podgroups";
constexpr const char* kPods = "/api/v1/namespaces/default/pods";

std::string pod_group_json(const std::string& name, int min_member) {
  return R"({"apiVersion":"scheduling.sigs.k8s.io/v1alpha1","kind":"PodGroup","metadata":{"name":")" + name +
         R"(","namespace":"default"},"spec":{"minMember":)" + std::to_string(min_member) + "}}";
}

std::string member_json(const std::string& name, const std::string& group, const std::string& scheduler,
                        const std::string& node = "") {
  std::string spec = R"("schedulerName":")" + scheduler + R"(","containers":[{"name":"c","image":"x"}])";
  if (!node.empty()) spec += R"(,"nodeName":")" + node + "\"";
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default","labels":{"pod-group.scheduling.sigs.k8s.io":")" + group + R"("}},"spec":{)" +
         spec + "}}";
}

}  // namespace

TEST_CASE("pod group actor: writes while leading, follows members, leaves other schedulers' groups alone",
          "[pod_group_actor]") {
  sim::ApiServer server;
  REQUIRE(server.start());
  auto api = actors::testing::client_of(server.url());
  auto status_of = [&](const std::string& name, const char* field) {
    auto got = watch::get_object(*api, std::string(kGroups) + "/" + name);
    if (!got.ok) return std::string("<") + std::to_string(got.code) + ">";
    auto doc = watch::parse_document(got.body);
    REQUIRE(doc.ok());
    const rapidjson::Value* status = troupe::find_path(**doc, "status", field);
    if (status == nullptr) return std::string();
    return status->IsString() ? std::string(status->GetString()) : std::to_string(status->GetInt64());
  };
  REQUIRE(watch::create_object(*api, kGroups, pod_group_json("pg", 2)).ok);
  REQUIRE(watch::create_object(*api, kPods, member_json("pg-0", "pg", "troupe-scheduler", "n1")).ok);
  REQUIRE(watch::create_object(*api, kPods, member_json("pg-1", "pg", "troupe-scheduler")).ok);
  REQUIRE(watch::create_object(*api, kPods, member_json("stranger", "pg", "default-scheduler", "n1")).ok);
  // Another scheduler's PodGroup, with a status of its own.
  REQUIRE(watch::create_object(*api, kGroups, pod_group_json("theirs", 1)).ok);
  auto running = [](rapidjson::Document& group) {
    auto& alloc = group.GetAllocator();
    rapidjson::Value status(rapidjson::kObjectType);
    status.AddMember("phase", "Running", alloc);
    status.AddMember("running", 1, alloc);
    group.RemoveMember("status");
    group.AddMember("status", status, alloc);
    return true;
  };
  REQUIRE(watch::update_status(*api, std::string(kGroups) + "/theirs", running).ok);
  REQUIRE(watch::create_object(*api, kPods, member_json("theirs-0", "theirs", "default-scheduler", "n1")).ok);

  actors::testing::TestSystemConfig config;
  caf::actor_system system{config};
  auto leading = std::make_shared<std::atomic<bool>>(false);
  auto io = std::make_shared<watch::TaskPool>(2);
  SharedReflectors reflectors(api);
  auto controller = PodGroupController::start(
      PodGroupControllerDeps{&system, api, io, leading, {"troupe-scheduler"}, &reflectors, 50ms});
  REQUIRE(controller);
  reflectors.start();

  // A standby replica writes nothing.
  std::this_thread::sleep_for(500ms);
  CHECK(status_of("pg", "phase").empty());

  // Leading: one of minMember bound (the stranger is another scheduler's pod and does not count).
  leading->store(true);
  REQUIRE(eventually([&] { return status_of("pg", "phase") == "Scheduling"; }));
  CHECK(status_of("pg", "scheduled") == "1");
  CHECK_FALSE(status_of("pg", "scheduleStartTime").empty());

  REQUIRE(watch::bind_pod(*api, watch::BindRequest{"default", "pg-1", "", "n2", {}}).ok);
  REQUIRE(eventually([&] { return status_of("pg", "phase") == "Scheduled"; }));
  CHECK(status_of("pg", "scheduled") == "2");

  // A member relabelled into another group leaves this one.
  auto relabel = [](rapidjson::Document& pod) {
    pod["metadata"]["labels"]["pod-group.scheduling.sigs.k8s.io"].SetString("elsewhere");
    return true;
  };
  REQUIRE(watch::update_object(*api, std::string(kPods) + "/pg-1", relabel).ok);
  REQUIRE(eventually([&] { return status_of("pg", "phase") == "Scheduling" && status_of("pg", "scheduled") == "1"; }));

  // A PodGroup deleted and made again starts afresh from its members.
  watch::HttpRequest deletion;
  deletion.method = "DELETE";
  deletion.target = std::string(kGroups) + "/pg";
  REQUIRE(api->call(deletion).ok);
  REQUIRE(eventually([&] { return status_of("pg", "phase") == "<404>"; }));
  REQUIRE(watch::create_object(*api, kGroups, pod_group_json("pg", 1)).ok);
  REQUIRE(eventually([&] { return status_of("pg", "phase") == "Scheduled"; }));
  CHECK(status_of("pg", "scheduled") == "1");

  // None of its pods is ours: another scheduler's PodGroup keeps the status it has.
  CHECK(status_of("theirs", "phase") == "Running");
  CHECK(status_of("theirs", "running") == "1");

  controller->reset();
  reflectors.stop();
  server.stop();
}
