// The reservation controller's settings from the scheduler configuration:
// ReservationArgs' gcDurationSeconds and disableGarbageCollection, defaults,
// and errors that name the profile and the field.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "actors/reservation_actor.hpp"
#include "plugins/registry.hpp"

namespace troupe::actors {

namespace {

std::string configuration(const std::string& plugin_config) {
  return "apiVersion: kubescheduler.config.k8s.io/v1\n"
         "kind: KubeSchedulerConfiguration\n"
         "profiles:\n"
         "- schedulerName: troupe-scheduler\n" +
         plugin_config;
}

}  // namespace

TEST_CASE("reservation controller settings from ReservationArgs", "[reservation][actors]") {
  struct Case {
    const char* what;
    std::string plugin_config;
    long retention_seconds;
    bool garbage_collection;
    const char* error_part;  // "" when valid
  };
  const std::vector<Case> cases = {
      {"no pluginConfig: Koordinator's 24h", "", 86400, true, ""},
      {"gcDurationSeconds sets the retention",
       "  pluginConfig:\n  - name: Reservation\n    args: {gcDurationSeconds: 120}\n", 120, true, ""},
      {"disableGarbageCollection switches GC off",
       "  pluginConfig:\n  - name: Reservation\n    args: {disableGarbageCollection: true}\n", 86400, false, ""},
      {"another plugin's args are not ours",
       "  pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: MostAllocated}}\n", 86400, true,
       ""},
      {"a non-positive retention is refused",
       "  pluginConfig:\n  - name: Reservation\n    args: {gcDurationSeconds: 0}\n", 0, true, "gcDurationSeconds"},
      {"a retention that is not a number is refused",
       "  pluginConfig:\n  - name: Reservation\n    args: {gcDurationSeconds: soon}\n", 0, true, "gcDurationSeconds"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto cfg = plugins::parse_scheduler_configuration(configuration(c.plugin_config));
    if (!cfg) {
      // The configuration parser may validate the args itself: the error must still name the field.
      REQUIRE(std::string(c.error_part) != "");
      CHECK(cfg.message().find(c.error_part) != std::string::npos);
      continue;
    }
    auto settings = reservation_controller_settings(*cfg);
    if (std::string(c.error_part) != "") {
      REQUIRE_FALSE(settings);
      CHECK(settings.message().find(c.error_part) != std::string::npos);
      CHECK(settings.message().find("troupe-scheduler") != std::string::npos);
      continue;
    }
    REQUIRE(settings);
    CHECK(settings->retention.count() == c.retention_seconds);
    CHECK(settings->garbage_collection == c.garbage_collection);
  }
}

}  // namespace troupe::actors
