#include <catch2/catch.hpp>

#include "plugins/scheduling_gates/scheduling_gates.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

TEST_CASE("SchedulingGates PreEnqueue holds a pod while it has gates, naming them", "[scheduling_gates]") {
  SchedulingGates plugin;
  struct Case {
    const char* name;
    std::vector<std::string> gates;
    std::string reason;  // empty: the pod may be queued
  };
  const std::vector<Case> cases = {
      {"no gates", {}, ""},
      {"one gate", {"example.com/quota"}, "waiting for scheduling gates: [example.com/quota]"},
      {"gates in the pod's order, space-separated", {"b", "a", "c"}, "waiting for scheduling gates: [b a c]"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    PodBuilder pb("p");
    for (const auto& gate : c.gates) pb.scheduling_gate(gate);
    PluginStatus s = plugin.pre_enqueue(*pb.info());
    if (c.reason.empty()) {
      CHECK(s.ok());
    } else {
      CHECK(s.code == Code::unschedulable_and_unresolvable);
      CHECK(s.reasons == std::vector<std::string>{c.reason});
    }
  }
}
