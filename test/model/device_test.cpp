#include <catch2/catch.hpp>

#include <vector>

#include "codec_test_support.hpp"
#include "model/device.hpp"

using namespace troupe;
using namespace troupe::test;

namespace {

const char* kDeviceJson = R"({
  "apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Device",
  "metadata": {"name": "gpu-node-3", "resourceVersion": "5501",
               "labels": {"node.koordinator.sh/gpu-model": "H100", "node.koordinator.sh/gpu-vendor": "nvidia"},
               "annotations": {"scheduling.koordinator.sh/gpu-partitions":
                               "{\"1\":[{\"minors\":[0],\"gpuLinkType\":\"NVLink\",\"allocationScore\":1}]}"}},
  "spec": {"devices": [
    {"type": "gpu", "id": "GPU-6f1c2b7a-0c1d-4e2f-9a8b-7c6d5e4f3a21", "minor": 0, "moduleID": 0, "health": true,
     "resources": {"koordinator.sh/gpu-core": "100", "koordinator.sh/gpu-memory": "80Gi",
                   "koordinator.sh/gpu-memory-ratio": "100"},
     "topology": {"socketID": 0, "nodeID": 0, "pcieID": "pci0000:16", "busID": "0000:18:00.0"}},
    {"type": "gpu", "id": "GPU-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d", "minor": 1, "moduleID": 1, "health": false,
     "resources": {"koordinator.sh/gpu-core": "100", "koordinator.sh/gpu-memory": "80Gi",
                   "koordinator.sh/gpu-memory-ratio": "100"},
     "topology": {"socketID": 1, "nodeID": -1, "pcieID": "pci0000:98"},
     "conditions": [{"type": "Healthy", "status": "False", "reason": "XidError", "lastTransitionTime": "2026-03-01T09:00:00Z"}]},
    {"type": "rdma", "id": "0000:1f:00.1", "minor": 1, "health": true, "labels": {"vendor": "mellanox"},
     "resources": {"koordinator.sh/rdma": "100"},
     "topology": {"socketID": 0, "nodeID": 0, "pcieID": "pci0000:16", "busID": "0000:1f:00.1"},
     "vfGroups": [{"labels": {"type": "general"},
                   "vfs": [{"minor": 0, "busID": "0000:1f:00.2"}, {"minor": 1, "busID": "0000:1f:00.3"}]}]},
    {"type": "fpga", "minor": 0, "health": true, "resources": {"koordinator.sh/fpga": "100"}}
  ]},
  "status": {"allocations": [{"type": "gpu", "entries": [{"name": "train-0", "namespace": "ml", "uuid": "p-1",
                                                          "minors": [0]}]}]}
})";

}  // namespace

TEST_CASE("decode_device reads devices, topology and virtual functions", "[device]") {
  Device device = must(decode_device_json(kDeviceJson), kDeviceJson);
  CHECK(device.meta.name == "gpu-node-3");
  CHECK(device.meta.labels.at("node.koordinator.sh/gpu-model") == "H100");
  CHECK(device.meta.annotation("scheduling.koordinator.sh/gpu-partitions") != nullptr);
  REQUIRE(device.devices.size() == 4);

  const DeviceInfo& gpu0 = device.devices[0];
  CHECK(gpu0.type == kDeviceTypeGpu);
  CHECK(gpu0.id == "GPU-6f1c2b7a-0c1d-4e2f-9a8b-7c6d5e4f3a21");
  CHECK(gpu0.minor == 0);
  CHECK(gpu0.module_id == 0);
  CHECK(gpu0.health);
  CHECK(gpu0.resources.at("koordinator.sh/gpu-memory").value() == 80LL * 1024 * 1024 * 1024);
  REQUIRE(gpu0.topology.has_value());
  CHECK(gpu0.topology->pcie_id == "pci0000:16");
  CHECK(gpu0.topology->bus_id == "0000:18:00.0");

  CHECK_FALSE(device.devices[1].health);
  CHECK(device.devices[1].topology->socket_id == 1);
  CHECK(device.devices[1].topology->node_id == -1);
  CHECK(device.devices[1].topology->bus_id.empty());

  const DeviceInfo& rdma = device.devices[2];
  CHECK(rdma.type == kDeviceTypeRdma);
  CHECK(rdma.labels.at("vendor") == "mellanox");
  REQUIRE(rdma.vf_groups.size() == 1);
  CHECK(rdma.vf_groups[0].labels.at("type") == "general");
  REQUIRE(rdma.vf_groups[0].vfs.size() == 2);
  CHECK(rdma.vf_groups[0].vfs[1].minor == 1);
  CHECK(rdma.vf_groups[0].vfs[1].bus_id == "0000:1f:00.3");

  const DeviceInfo& fpga = device.devices[3];
  CHECK(fpga.type == kDeviceTypeFpga);
  CHECK_FALSE(fpga.topology.has_value());
  CHECK(fpga.id.empty());
}

TEST_CASE("encode of a device keeps conditions, allocations and annotations", "[device]") {
  Device device = must(decode_device_json(kDeviceJson), kDeviceJson);
  check_round_trip(device, kDeviceJson);

  device.devices[1].health = true;
  device.devices.pop_back();
  auto out = parse_json(encode(device));
  REQUIRE(out.ok());
  const auto& devices = (**out)["spec"]["devices"];
  REQUIRE(devices.Size() == 3);
  CHECK(devices[1]["health"].GetBool());
  CHECK(devices[1]["conditions"].IsArray());
  CHECK(find_path(**out, "status", "allocations") != nullptr);

  Device fresh;
  fresh.meta.name = "node-x";
  DeviceInfo gpu;
  gpu.type = "gpu";
  gpu.minor = 0;
  gpu.health = false;
  gpu.resources["koordinator.sh/gpu-core"] = Quantity::from_value(100);
  fresh.devices.push_back(gpu);
  CHECK(encode(fresh) ==
        R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Device","metadata":{"name":"node-x"},)"
        R"("spec":{"devices":[{"type":"gpu","minor":0,"health":false,"resources":{"koordinator.sh/gpu-core":"100"}}]}})");
}

TEST_CASE("decode_device: a device without health is unhealthy, as Go decodes it", "[device]") {
  auto out = decode_device_json(
      R"({"metadata": {"name": "n"}, "spec": {"devices": [{"type": "gpu", "minor": 0, "resources": {"koordinator.sh/gpu-core": "100"}}]}})");
  REQUIRE(out);
  REQUIRE(out->devices.size() == 1);
  CHECK_FALSE(out->devices[0].health);
}

TEST_CASE("decode_device: an entry without a type decodes (Koordinator skips it), the others are kept", "[device]") {
  auto out = decode_device_json(
      R"({"metadata": {"name": "n"}, "spec": {"devices": [{"minor": 0, "health": true}, {"type": "", "minor": 1},)"
      R"( {"type": "gpu", "minor": 2, "health": true}]}})");
  REQUIRE(out);
  REQUIRE(out->devices.size() == 3);
  CHECK(out->devices[0].type.empty());
  CHECK(out->devices[1].type.empty());
  CHECK(out->devices[2].type == "gpu");
}

TEST_CASE("decode_device errors name the device and field", "[device]") {
  struct Case {
    std::string json;
    std::string error;
  };
  auto device = [](const std::string& entry) {
    return R"({"metadata": {"name": "n"}, "spec": {"devices": [)" + entry + "]}}";
  };
  const std::vector<Case> cases = {
      {device(R"({"type": 7, "health": true})"), "spec.devices[0].type: Invalid value: number: must be a string"},
      {device(R"({"type": "gpu", "health": "yes"})"), "spec.devices[0].health: Invalid value: string: must be a boolean"},
      {device(R"({"type": "gpu", "health": true, "minor": "0"})"),
       "spec.devices[0].minor: Invalid value: string: must be an integer"},
      {device(R"({"type": "gpu", "health": true, "resources": {"koordinator.sh/gpu-memory": "80GB"}})"),
       "spec.devices[0].resources.koordinator.sh/gpu-memory: invalid quantity \"80GB\": ..."},
      {device(R"({"type": "gpu", "health": true, "topology": [0]})"),
       "spec.devices[0].topology: Invalid value: array: must be an object"},
      {device(R"({"type": "gpu", "health": true, "topology": {"nodeID": "0"}})"),
       "spec.devices[0].topology.nodeID: Invalid value: string: must be an integer"},
      {device(R"({"type": "rdma", "health": true, "vfGroups": [{"vfs": [{"minor": 0}, {"minor": "1"}]}]})"),
       "spec.devices[0].vfGroups[0].vfs[1].minor: Invalid value: string: must be an integer"},
      {device(R"({"type": "rdma", "health": true, "labels": ["a"]})"),
       "spec.devices[0].labels: Invalid value: array: must be an object"},
      {R"({"metadata": {"name": "n"}, "spec": {"devices": {}}})", "spec.devices: Invalid value: object: must be an array"},
  };
  for (const auto& c : cases) check_error(decode_device_json(c.json), c.json, c.error);
}
