// The quota status controller against the embedded API server over real
// HTTP: it writes a quota's runtime and used only while the scheduler's view
// is synced (the cycle's figures before that are partial).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "actors/cycle_actor.hpp"
#include "actors/quota_status_actor.hpp"
#include "actors/shared_reflectors.hpp"
#include "model/json.hpp"
#include "sim/api_server.hpp"
#include "embedded_api.hpp"
#include "test_actor_system.hpp"
#include "watch/api_client.hpp"
#include "watch/json_util.hpp"
#include "watch/object_writes.hpp"
#include "watch/task_pool.hpp"

using namespace troupe;
using namespace troupe::actors;
using namespace std::chrono_literals;

using troupe::actors::testing::eventually;

namespace {

constexpr const char* kQuotas = "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/default/elasticquotas";

/// The figures the stand-in cycle answers with; the test changes them.
struct SharedFigures {
  std::mutex mutex;
  QuotaFigures figures;
};

/// A stand-in for the cycle: answers every request for figures with a copy of `shared`'s.
caf::behavior figures_answer(caf::event_based_actor*, std::shared_ptr<SharedFigures> shared) {
  return {[=](atom::quota_figures) {
    std::lock_guard<std::mutex> lock(shared->mutex);
    return QuotaFiguresPtr(std::make_shared<const QuotaFigures>(shared->figures));
  }};
}

}  // namespace

TEST_CASE("quota status controller: writes only while the scheduler's view is synced",
          "[quota_status]") {
  sim::ApiServer server;
  REQUIRE(server.start());
  auto api = actors::testing::client_of(server.url());
  REQUIRE(watch::create_object(*api, kQuotas,
                               R"({"apiVersion":"scheduling.sigs.k8s.io/v1alpha1","kind":"ElasticQuota",)"
                               R"("metadata":{"name":"team","namespace":"default"},)"
                               R"("spec":{"min":{"cpu":"2"},"max":{"cpu":"8"}}})")
              .ok);
  auto used_cpu = [&] {
    auto got = watch::get_object(*api, std::string(kQuotas) + "/team");
    REQUIRE(got.ok);
    auto doc = watch::parse_document(got.body);
    REQUIRE(doc.ok());
    const rapidjson::Value* cpu = troupe::find_path(**doc, "status", "used", "cpu");
    return cpu != nullptr && cpu->IsString() ? std::string(cpu->GetString()) : std::string();
  };

  auto shared = std::make_shared<SharedFigures>();
  auto set_used = [&](int64_t milli_cpu) {
    std::lock_guard<std::mutex> lock(shared->mutex);
    auto& team = shared->figures["team"];
    team.name = "team";
    team.max = {{"cpu", 8000}};
    team.runtime = {{"cpu", 6000}};
    team.used = {{"cpu", milli_cpu}};
  };
  set_used(3000);

  actors::testing::TestSystemConfig config;
  caf::actor_system system{config};
  auto leading = std::make_shared<std::atomic<bool>>(false);
  auto ready = std::make_shared<std::atomic<bool>>(false);
  auto io = std::make_shared<watch::TaskPool>(2);
  SharedReflectors reflectors(api);
  QuotaStatusDeps deps;
  deps.system = &system;
  deps.api = api;
  deps.io = io;
  deps.leading = leading;
  deps.ready = ready;
  deps.cycle = caf::actor_cast<cycle_actor>(system.spawn(figures_answer, shared));
  deps.reflectors = &reflectors;
  deps.period = 50ms;
  auto controller = QuotaStatusController::start(deps);
  REQUIRE(controller);
  reflectors.start();

  // Leading and synced: the figures go out (the controller has its quotas).
  leading->store(true);
  ready->store(true);
  REQUIRE(eventually([&] { return used_cpu() == "3"; }));
  // The scheduler's view out of sync again (as after a restart, before its
  // informers list): new figures wait.
  ready->store(false);
  set_used(5000);
  std::this_thread::sleep_for(500ms);
  CHECK(used_cpu() == "3");
  ready->store(true);
  REQUIRE(eventually([&] { return used_cpu() == "5"; }));

  (*controller)->stop();
  reflectors.stop();
  server.stop();
}
