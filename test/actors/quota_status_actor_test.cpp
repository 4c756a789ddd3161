// The quota status controller against the embedded API server over real
// HTTP: it writes a quota's runtime and used only once the scheduler's view
// has synced (the cycle's figures before that are partial), and only while
// leading.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
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

/// A stand-in for the cycle: answers every request for figures with `figures`.
caf::behavior figures_answer(caf::event_based_actor*, QuotaFiguresPtr figures) {
  return {[=](atom::quota_figures) { return figures; }};
}

}  // namespace

TEST_CASE("quota status controller: writes only once the scheduler's view has synced, and while leading",
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

  auto figures = std::make_shared<QuotaFigures>();
  auto& team = (*figures)["team"];
  team.name = "team";
  team.max = {{"cpu", 8000}};
  team.runtime = {{"cpu", 6000}};
  team.used = {{"cpu", 3000}};

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
  deps.cycle = caf::actor_cast<cycle_actor>(system.spawn(figures_answer, QuotaFiguresPtr(figures)));
  deps.reflectors = &reflectors;
  deps.period = 50ms;
  auto controller = QuotaStatusController::start(deps);
  REQUIRE(controller);
  reflectors.start();

  // Leading, but the scheduler's informers have not synced: nothing written.
  leading->store(true);
  std::this_thread::sleep_for(500ms);
  CHECK(used_cpu().empty());
  // Synced: the figures go out.
  ready->store(true);
  REQUIRE(eventually([&] { return used_cpu() == "3"; }));

  (*controller)->stop();
  reflectors.stop();
  server.stop();
}
