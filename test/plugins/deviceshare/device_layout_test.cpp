#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "plugins/deviceshare/device_layout.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

// The canonical node's Device as node `name` reports it: its own device ids.
Device named(const std::string& name, std::vector<DeviceInfo> infos = canonical_infos()) {
  Device d = *device(std::move(infos), {{"node.koordinator.sh/gpu-model", "A100"}});
  d.meta.name = name;
  for (auto& info : d.devices) info.id = name + "/" + info.id;
  return d;
}

}  // namespace

TEST_CASE("DeviceLayout keeps what DeviceShare reads of the Device", "[deviceshare][layout]") {
  auto infos = canonical_infos();
  infos[0].labels = {{"gpu-class", "fast"}};
  infos.push_back(gpu(3, pcie_of_gpu(3), "40Gi"));  // a later duplicate minor replaces the earlier entry
  Device d = named("n1", infos);
  d.meta.labels["node.koordinator.sh/gpu-vendor"] = "nvidia";
  const DeviceLayout layout = build_device_layout(d);

  const auto& gpus = layout.devices[type_index(DeviceType::gpu)];
  REQUIRE(gpus.size() == 8);
  CHECK(gpus[0].labels == Labels{{"gpu-class", "fast"}});
  CHECK(gpus[3].capacity.to_list().to_string() ==
        "{koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory: 40Gi, koordinator.sh/gpu-memory-ratio: 100}");
  REQUIRE(gpus[5].placement);
  CHECK(gpus[5].placement->numa_node == 1);
  CHECK(gpus[5].placement->pcie_id == "pci2");
  const auto& nics = layout.devices[type_index(DeviceType::rdma)];
  REQUIRE(nics.size() == 4);
  REQUIRE(nics[1].vfs.size() == 4);
  CHECK(nics[1].vfs.front().bus_id == "0000:11:00.2");  // sorted by bus id
  CHECK(nics[1].has_vf_groups());
  CHECK(layout.gpu_model == std::optional<std::string>("A100"));
  CHECK(layout.gpu_vendor == "nvidia");
  CHECK(layout.gpu_topology.has_value());
  CHECK(layout.numa.size() == 2);

  const auto ids = device_ids(d);
  REQUIRE(ids[type_index(DeviceType::gpu)].size() == 8);
  CHECK(ids[type_index(DeviceType::gpu)][0] == "n1/GPU-0");
  CHECK(ids[type_index(DeviceType::gpu)][3] == "n1/GPU-3");  // the entry that replaced the earlier one
  CHECK(ids[type_index(DeviceType::rdma)][2] == "n1/0000:12:00.0");
}

TEST_CASE("Devices that differ only in names and ids share one layout", "[deviceshare][layout]") {
  struct Case {
    std::string name;
    void (*change)(Device&);
    bool shared;
  };
  const std::vector<Case> cases = {
      {"another node's ids", [](Device&) {}, true},
      {"a device label", [](Device& d) { d.devices[1].labels["x"] = "y"; }, false},
      {"a Device label", [](Device& d) { d.meta.labels["node.koordinator.sh/gpu-model"] = "H100"; }, false},
      {"health", [](Device& d) { d.devices[2].health = false; }, false},
      {"a capacity", [](Device& d) { d.devices[2].resources["koordinator.sh/gpu-memory"] = *Quantity::parse("40Gi"); }, false},
      {"a PCIe switch", [](Device& d) { d.devices[2].topology->pcie_id = "pci9"; }, false},
      {"a VF bus id", [](Device& d) { d.devices[9].vf_groups[0].vfs[0].bus_id = "0000:99:00.1"; }, false},
      {"the partition table", [](Device& d) { d.meta.annotations["scheduling.koordinator.sh/gpu-partitions"] = "{}"; }, false},
  };
  const Device base = named("n1");
  const auto shared_base = shared_device_layout(base);
  for (const auto& c : cases) {
    INFO(c.name);
    Device other = named("n2");
    c.change(other);
    CHECK((device_layout_key(other) == device_layout_key(base)) == c.shared);
    CHECK((shared_device_layout(other) == shared_base) == c.shared);
  }
}

TEST_CASE("A shared layout is freed once no node holds it", "[deviceshare][layout]") {
  Device d1 = named("n1"), d2 = named("n2");
  d1.meta.labels["only-in-this-test"] = d2.meta.labels["only-in-this-test"] = "1";
  const size_t before = shared_device_layouts_in_use();
  auto a = shared_device_layout(d1);
  auto b = shared_device_layout(d2);
  CHECK(a == b);
  CHECK(shared_device_layouts_in_use() == before + 1);
  std::weak_ptr<const DeviceLayout> held = a;
  a.reset();
  CHECK_FALSE(held.expired());  // n2 still holds it
  b.reset();
  CHECK(held.expired());
  CHECK(shared_device_layouts_in_use() == before);
}
