// Inputs an actor shares with a cycle's plugins (CycleState::share_input)
// and their version, which a pod's scheduling class carries so that the
// evaluation cache never reuses results computed under other inputs.
#include <catch2/catch.hpp>

#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/scheduling_class.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using troupe::plugins::testing::PodBuilder;

namespace {

struct Mix {
  int classes = 0;
};
struct Other {
  double weight = 0;
};

}  // namespace

TEST_CASE("a cycle's shared inputs, one per type, and their version", "[framework][cycle-inputs]") {
  CycleState state;
  CHECK(state.input<Mix>() == nullptr);
  CHECK(state.inputs_version() == 0);

  auto first = std::make_shared<const Mix>(Mix{3});
  state.share_input(first, 17);
  REQUIRE(state.input<Mix>() != nullptr);
  CHECK(state.input<Mix>()->classes == 3);
  CHECK(state.input<Other>() == nullptr);
  CHECK(state.inputs_version() == 17);  // one input: its own version

  state.share_input(std::make_shared<const Mix>(Mix{5}), 18);  // replaces the input of that type
  CHECK(state.input<Mix>()->classes == 5);
  CHECK(state.inputs_version() == 18);
  CHECK(first->classes == 3);  // the old one is untouched (immutable, maybe still used elsewhere)

  state.share_input(std::make_shared<const Other>(Other{0.5}), 4);
  CHECK(state.input<Other>()->weight == 0.5);
  const uint64_t both = state.inputs_version();
  CHECK(both != 0);
  CHECK(both != 18);
  state.share_input(std::make_shared<const Other>(Other{0.5}), 5);
  CHECK(state.inputs_version() != both);  // any input's new version is a new combination
}

TEST_CASE("a scheduling class carries the inputs' version", "[framework][cycle-inputs]") {
  const Pod pod = PodBuilder("web-1").container({{"cpu", "1"}}).pod();
  Pod twin = pod;
  twin.meta.name = "web-2";
  struct Case {
    const char* what;
    uint64_t a, b;
    bool same;
  };
  const std::vector<Case> cases = {
      {"no inputs", 0, 0, true},
      {"the same inputs", 7, 7, true},
      {"other inputs", 7, 8, false},
      {"inputs against none", 7, 0, false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const auto a = scheduling_class_of(pod, c.a);
    const auto b = scheduling_class_of(twin, c.b);
    CHECK((*a == *b) == c.same);
    CHECK((a->hash == b->hash) == c.same);  // the evaluation cache's seen-once ring goes by hash
  }
}

TEST_CASE("a queued pod's class moved to the cycle's inputs", "[framework][cycle-inputs]") {
  // The QUEUE computes a pod's class once (version 0); the cycle moves it to
  // its inputs' version: the result must equal the class computed afresh.
  const Pod pod = PodBuilder("web-1").container({{"cpu", "1"}}).pod();
  struct Case {
    const char* what;
    uint64_t from, to;
  };
  const std::vector<Case> cases = {
      {"no inputs: the same class", 0, 0},
      {"learned inputs", 0, 17},
      {"other inputs", 17, 18},
      {"back to none", 17, 0},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const auto base = scheduling_class_of(pod, c.from);
    const auto moved = with_inputs_version(base, c.to);
    const auto fresh = scheduling_class_of(pod, c.to);
    CHECK(*moved == *fresh);
    CHECK(moved->hash == fresh->hash);
    CHECK(moved->inputs_version == c.to);
    CHECK((moved == base) == (c.from == c.to));  // the same object when nothing moves
    CHECK(moved->key == base->key);              // the key text is shared, not copied
  }
  CHECK(with_inputs_version(nullptr, 3) == nullptr);
}

TEST_CASE("inputs no Filter reads leave the filter inputs' version alone", "[framework][cycle-inputs]") {
  CycleState state;
  state.share_input(std::make_shared<const Mix>(Mix{3}), 17, /*read_by_filter=*/false);
  CHECK(state.inputs_version() == 17);
  CHECK(state.filter_inputs_version() == 0);  // Filter reads none of them

  state.share_input(std::make_shared<const Other>(Other{0.5}), 4);  // read by Filter
  CHECK(state.filter_inputs_version() == 4);
  const uint64_t all = state.inputs_version();
  CHECK(all != 4);
  state.share_input(std::make_shared<const Mix>(Mix{5}), 18, false);  // a new learned snapshot
  CHECK(state.filter_inputs_version() == 4);
  CHECK(state.inputs_version() != all);

  // Classes under the two states: other classes, but Filter's verdicts carry over.
  const Pod pod = PodBuilder("web-1").container({{"cpu", "1"}}).pod();
  const auto before = scheduling_class_of(pod, all, 4);
  const auto after = with_inputs_version(before, state.inputs_version(), state.filter_inputs_version());
  CHECK_FALSE(*before == *after);
  CHECK(before->same_filter_inputs(*after));
  CHECK(after->key == before->key);
  const auto other_filter_inputs = with_inputs_version(before, state.inputs_version(), 5);
  CHECK_FALSE(before->same_filter_inputs(*other_filter_inputs));
  CHECK_FALSE(before->same_filter_inputs(*scheduling_class_of(PodBuilder("db").container({{"cpu", "2"}}).pod(), all, 4)));
}
