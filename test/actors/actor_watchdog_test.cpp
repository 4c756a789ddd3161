// The watchdog reports a core actor that stops for any reason but the
// shutdown, with the actor's name, and nothing else.
#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "actors/actor_watchdog.hpp"
#include "test/actors/test_actor_system.hpp"

using namespace troupe::actors;
using troupe::actors::testing::TestSystemConfig;

namespace {

/// An actor that throws when told to (as a handler's uncaught exception).
/// It takes an argument: CAF 0.17 dereferences a null argument tuple when it
/// spawns a function actor without any, which UBSan reports.
caf::behavior fragile(caf::event_based_actor*, std::string /*name*/) {
  return {[](int) { throw std::runtime_error("boom"); }};
}

/// Polls until the failure is recorded, at most a few seconds.
std::string wait_for_failure(const ActorFailure& failure) {
  for (int i = 0; i < 500 && failure.what().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return failure.what();
}

}  // namespace

TEST_CASE("the watchdog reports a watched actor that stopped on an exception, by name", "[watchdog]") {
  TestSystemConfig config;
  caf::actor_system system{config};
  auto failure = std::make_shared<ActorFailure>();
  auto shut_down = system.spawn(fragile, std::string("queue"));
  auto thrower = system.spawn(fragile, std::string("node partition 1"));
  auto watchdog = spawn_actor_watchdog(system, {{"queue", shut_down}, {"node partition 1", thrower}}, failure);
  // The runtime's shutdown is no failure.
  caf::anon_send_exit(shut_down, caf::exit_reason::user_shutdown);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(failure->what().empty());
  caf::anon_send(thrower, 1);
  const std::string what = wait_for_failure(*failure);
  CHECK_THAT(what, Catch::StartsWith("node partition 1 stopped: "));
  // The first failure is the one kept.
  failure->record("later");
  CHECK(failure->what() == what);
  caf::anon_send_exit(watchdog, caf::exit_reason::user_shutdown);
}
