#pragma once
// The CAF actor system configuration of the actor tests that spawn real
// actors: troupe's message types, two scheduler threads, CAF's logger quiet.

#include <caf/all.hpp>

#include "actors/atoms.hpp"

namespace troupe::actors::testing {

struct TestSystemConfig : caf::actor_system_config {
  TestSystemConfig() {
    add_message_types<caf::id_block::troupe_atoms>();
    set("scheduler.max-threads", 2);
    set("logger.verbosity", caf::atom("quiet"));
  }
};

}  // namespace troupe::actors::testing
