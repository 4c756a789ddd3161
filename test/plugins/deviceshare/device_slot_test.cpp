#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "plugins/deviceshare/device_slot.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

DeviceAmounts amounts(const Amounts& a) { return DeviceAmounts::from_list(list(a)); }

std::string text(const DeviceAmounts& a) { return a.to_list().to_string(); }

const DeviceSlotInfo& card() {
  static const DeviceSlotInfo info = [] {
    DeviceSlotInfo i;
    i.minor = 2;
    i.health = true;
    i.capacity = amounts({{"koordinator.sh/gpu-core", "100"}, {"koordinator.sh/gpu-memory", "80Gi"}});
    return i;
  }();
  return info;
}

struct Allocation {
  Amounts amounts;
  std::vector<std::string> vfs;
};

}  // namespace

TEST_CASE("DeviceSlot: free and the allocator's view from capacity and allocations", "[deviceshare][slot]") {
  struct Case {
    std::string name;
    bool counted;                  // the capacity counts (healthy, Device present)
    std::vector<Allocation> adds;  // accounted in order
    std::string total, used, free, view_free;
    bool view_used, has_capacity, has_free, has_view_free;
    uint32_t allocations;
  };
  const std::string cap = "{koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory: 80Gi}";
  const std::vector<Case> cases = {
      {"idle: everything free is the capacity", true, {}, cap, "{}", cap, cap, false, true, true, true, 0},
      {"unhealthy or deleted: no capacity", false, {}, "{}", "{}", "{}", "{}", false, false, false, false, 0},
      {"half used",
       true,
       {{{{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory", "40Gi"}}, {}}},
       cap,
       "{koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory: 40Gi}",
       "{koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory: 40Gi}",
       "{koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory: 40Gi}",
       true, true, true, true, 1},
      {"a name the device lacks: free gains a zero name, the view keeps the capacity",
       true,
       {{{{"koordinator.sh/rdma", "1"}}, {}}},
       cap,
       "{koordinator.sh/rdma: 1}",
       "{koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory: 80Gi, koordinator.sh/rdma: 0}",
       cap, false, true, true, true, 1},
      {"two allocations fill it",
       true,
       {{{{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory", "40Gi"}}, {}},
        {{{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory", "40Gi"}}, {}}},
       cap, cap,
       "{koordinator.sh/gpu-core: 0, koordinator.sh/gpu-memory: 0}",
       "{koordinator.sh/gpu-core: 0, koordinator.sh/gpu-memory: 0}",
       true, true, false, false, 2},
      {"used without capacity: nothing free",
       false,
       {{{{"koordinator.sh/gpu-core", "50"}}, {}}},
       "{}", "{koordinator.sh/gpu-core: 50}", "{koordinator.sh/gpu-core: 0}", "{}", false, false, false, false, 1},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    DeviceSlot slot(&card(), c.counted);
    for (const auto& a : c.adds) slot.add(amounts(a.amounts), a.vfs);
    CHECK(slot.minor == 2);
    CHECK(text(slot.total()) == c.total);
    CHECK(text(slot.used()) == c.used);
    CHECK(text(slot.free()) == c.free);
    CHECK(text(slot.view_free()) == c.view_free);
    CHECK(slot.view_used() == c.view_used);
    CHECK(slot.has_capacity() == c.has_capacity);
    CHECK(slot.has_free() == c.has_free);
    CHECK(slot.has_view_free() == c.has_view_free);
    CHECK(slot.allocations() == c.allocations);

    // Removing in reverse order gives the idle slot back exactly.
    for (auto it = c.adds.rbegin(); it != c.adds.rend(); ++it) slot.remove(amounts(it->amounts), it->vfs);
    const DeviceSlot idle(&card(), c.counted);
    CHECK(slot.used() == idle.used());
    CHECK(slot.used().empty());
    CHECK(slot.free() == idle.free());
    CHECK(slot.view_free() == idle.view_free());
    CHECK(slot.view_used() == idle.view_used());
    CHECK(slot.has_free() == idle.has_free());
    CHECK(slot.allocations() == 0);
  }
}

TEST_CASE("DeviceSlot: a VF stays taken while any allocation holds it", "[deviceshare][slot]") {
  DeviceSlot slot(&card(), true);
  const DeviceAmounts one = amounts({{"koordinator.sh/gpu-core", "10"}});
  CHECK_FALSE(slot.vf_taken("0000:11:00.2"));
  slot.add(one, {"0000:11:00.2"});
  slot.add(one, {"0000:11:00.2", "0000:11:00.3"});
  CHECK(slot.used_vfs() == VfHolders{{"0000:11:00.2", 2}, {"0000:11:00.3", 1}});
  slot.remove(one, {"0000:11:00.2", "0000:11:00.3"});
  CHECK(slot.vf_taken("0000:11:00.2"));
  CHECK_FALSE(slot.vf_taken("0000:11:00.3"));
  slot.remove(one, {"0000:11:00.2"});
  CHECK_FALSE(slot.vf_taken("0000:11:00.2"));
  CHECK(slot.used_vfs().empty());
}

TEST_CASE("DeviceSlot: copies are independent; capacity can stop and start counting", "[deviceshare][slot]") {
  DeviceSlot slot(&card(), true);
  slot.add(amounts({{"koordinator.sh/gpu-core", "30"}}), {"bus-a"});
  DeviceSlot copy = slot;
  copy.add(amounts({{"koordinator.sh/gpu-core", "30"}}), {"bus-b"});
  CHECK(slot.allocations() == 1);
  CHECK(copy.allocations() == 2);
  CHECK(text(slot.used()) == "{koordinator.sh/gpu-core: 30}");
  CHECK_FALSE(slot.vf_taken("bus-b"));

  slot.set_capacity_counted(false);  // the Device was deleted
  CHECK_FALSE(slot.has_capacity());
  CHECK(text(slot.free()) == "{koordinator.sh/gpu-core: 0}");
  slot.set_capacity_counted(true);  // and came back
  CHECK(text(slot.free()) == "{koordinator.sh/gpu-core: 70, koordinator.sh/gpu-memory: 80Gi}");

  const DeviceSlot phantom = DeviceSlot::phantom(9);
  CHECK(phantom.minor == 9);
  CHECK(phantom.info == nullptr);
  CHECK(phantom.vfs().empty());
  CHECK_FALSE(phantom.has_capacity());
}

TEST_CASE("DeviceSlot: a rebuilt slot takes over what pods use of the old one", "[deviceshare][slot]") {
  DeviceSlot old(&card(), true);
  old.add(amounts({{"koordinator.sh/gpu-core", "30"}, {"koordinator.sh/gpu-memory", "20Gi"}}), {"0000:1f:00.2"});
  DeviceSlot rebuilt(&card(), true);
  rebuilt.set_id_span(7, 5);
  rebuilt.take_use(old);
  CHECK(rebuilt.allocations() == 1);
  CHECK(text(rebuilt.used()) == "{koordinator.sh/gpu-core: 30, koordinator.sh/gpu-memory: 20Gi}");
  CHECK(text(rebuilt.free()) == "{koordinator.sh/gpu-core: 70, koordinator.sh/gpu-memory: 60Gi}");
  CHECK(rebuilt.vf_taken("0000:1f:00.2"));
  CHECK((rebuilt.id_at() == 7 && rebuilt.id_size() == 5));
  // The old slot is left idle, its summaries refreshed.
  CHECK(old.allocations() == 0);
  CHECK(text(old.free()) == text(old.total()));
  CHECK(old.has_free());
  CHECK_FALSE(old.vf_taken("0000:1f:00.2"));
}
