#include <catch2/catch.hpp>

#include <random>

#include "plugins/deviceshare/device_allocated.hpp"
#include "plugins/deviceshare/go_json.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

TEST_CASE("device-allocated encodes exactly as Go's json.Marshal", "[deviceshare][annotation]") {
  DeviceAllocations a;
  DeviceAllocation g0;
  g0.minor = 0;
  g0.resources = list({{"koordinator.sh/gpu-core", "100"},
                       {"koordinator.sh/gpu-memory-ratio", "100"},
                       {"koordinator.sh/gpu-memory", "80Gi"}});
  g0.id = "GPU-6f1c";
  DeviceAllocation g1 = g0;
  g1.minor = 1;
  g1.id.clear();
  a["gpu"] = {g0, g1};
  DeviceAllocation nic;
  nic.minor = 1;
  nic.resources = list({{"koordinator.sh/rdma", "1"}});
  nic.id = "0000:1f:00.1";
  nic.extension = DeviceAllocationExtension{{{3, "0000:1f:00.4"}}, ""};
  a["rdma"] = {nic};
  DeviceAllocation fpga;
  fpga.minor = 2;
  fpga.resources = list({{"koordinator.sh/fpga", "100"}});
  a["fpga"] = {fpga};

  const std::string expected =
      R"({"fpga":[{"minor":2,"resources":{"koordinator.sh/fpga":"100"}}],)"
      R"("gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"80Gi",)"
      R"("koordinator.sh/gpu-memory-ratio":"100"},"id":"GPU-6f1c"},)"
      R"({"minor":1,"resources":{"koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"80Gi",)"
      R"("koordinator.sh/gpu-memory-ratio":"100"}}],)"
      R"("rdma":[{"minor":1,"resources":{"koordinator.sh/rdma":"1"},"id":"0000:1f:00.1",)"
      R"("extension":{"vfs":[{"minor":3,"busID":"0000:1f:00.4"}]}}]})";
  CHECK(encode_device_allocations(a) == expected);

  auto decoded = decode_device_allocations(expected);
  REQUIRE(decoded);
  CHECK(*decoded == a);
  CHECK(encode_device_allocations(*decoded) == expected);
  CHECK(gpu_minors(a) == "0,1");
}

TEST_CASE("device-allocated encoding details", "[deviceshare][annotation]") {
  struct Case {
    const char* name;
    DeviceAllocations input;
    std::string json;
  };
  auto entry = [](int32_t minor, Amounts r, std::optional<DeviceAllocationExtension> ext = std::nullopt,
                  std::string id = "") {
    DeviceAllocation a;
    a.minor = minor;
    a.resources = list(r);
    a.extension = std::move(ext);
    a.id = std::move(id);
    return a;
  };
  const std::vector<Case> cases = {
      {"empty", {}, "{}"},
      {"VF minor 0 is omitted", {{"rdma", {entry(0, {{"koordinator.sh/rdma", "100"}}, DeviceAllocationExtension{{{0, "0000:01:00.2"}}, ""})}}},
       R"({"rdma":[{"minor":0,"resources":{"koordinator.sh/rdma":"100"},"extension":{"vfs":[{"busID":"0000:01:00.2"}]}}]})"},
      {"VF minor -1 is kept", {{"rdma", {entry(0, {{"koordinator.sh/rdma", "1"}}, DeviceAllocationExtension{{{-1, "x"}}, ""})}}},
       R"({"rdma":[{"minor":0,"resources":{"koordinator.sh/rdma":"1"},"extension":{"vfs":[{"minor":-1,"busID":"x"}]}}]})"},
      {"template only", {{"gpu", {entry(3, {{"huawei.com/npu-core", "2"}}, DeviceAllocationExtension{{}, "vir02"})}}},
       R"({"gpu":[{"minor":3,"resources":{"huawei.com/npu-core":"2"},"extension":{"gpuSharedResourceTemplate":"vir02"}}]})"},
      {"empty extension object", {{"gpu", {entry(1, {{"koordinator.sh/gpu-core", "50"}}, DeviceAllocationExtension{})}}},
       R"({"gpu":[{"minor":1,"resources":{"koordinator.sh/gpu-core":"50"},"extension":{}}]})"},
      {"canonical quantities", {{"gpu", {entry(0, {{"koordinator.sh/gpu-memory", "1024Mi"}, {"koordinator.sh/gpu-memory-ratio", "1000"}})}}},
       R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-memory":"1Gi","koordinator.sh/gpu-memory-ratio":"1k"}}]})"},
      {"Go escaping of ids", {{"gpu", {entry(0, {}, std::nullopt, "<a&b>\"\\\n")}}},
       R"({"gpu":[{"minor":0,"resources":{},"id":"\u003ca\u0026b\u003e\"\\\n"}]})"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(encode_device_allocations(c.input) == c.json);
    auto back = decode_device_allocations(c.json);
    REQUIRE(back);
    CHECK(*back == c.input);
  }
}

TEST_CASE("device-allocated decoding is as lenient as encoding/json", "[deviceshare][annotation]") {
  auto d = decode_device_allocations(
      R"({"GPU_IGNORED_TYPE":[],"gpu":[{"Minor":1,"RESOURCES":{"koordinator.sh/gpu-core":100,"koordinator.sh/gpu-memory":"8Gi",)"
      R"("koordinator.sh/gpu-memory-ratio":null},"unknown":{"x":1},"id":null},null],)"
      R"("rdma":[{"minor":2,"resources":{"koordinator.sh/rdma":"1"},"extension":{"VFS":[{"busid":"b","Minor":5}],"other":1}}]})");
  REQUIRE(d);
  REQUIRE(d->at("gpu").size() == 1);
  const DeviceAllocation& g = d->at("gpu")[0];
  CHECK(g.minor == 1);
  CHECK(g.id.empty());
  CHECK(g.resources.to_string() ==
        "{koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory: 8Gi, koordinator.sh/gpu-memory-ratio: 0}");
  const DeviceAllocation& r = d->at("rdma")[0];
  REQUIRE(r.extension);
  REQUIRE(r.extension->vfs.size() == 1);
  CHECK(r.extension->vfs[0].bus_id == "b");
  CHECK(r.extension->vfs[0].minor == 5);
  CHECK(d->at("GPU_IGNORED_TYPE").empty());

  auto null_doc = decode_device_allocations("null");
  REQUIRE(null_doc);
  CHECK(null_doc->empty());
}

TEST_CASE("device-allocated decoding errors name the path", "[deviceshare][annotation]") {
  struct Case {
    const char* json;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"[]", "expected an object of device types, got array"},
      {R"({"gpu":{}})", "gpu: expected an array, got object"},
      {R"({"gpu":[1]})", "gpu[0]: expected an object, got number"},
      {R"({"gpu":[{"minor":"0"}]})", "gpu[0].minor: expected an integer, got string \"0\""},
      {R"({"gpu":[{"minor":1.5}]})", "gpu[0].minor: expected an integer, got number"},
      {R"({"gpu":[{"minor":4294967296}]})", "gpu[0].minor: integer 4294967296 out of range for int32"},
      {R"({"gpu":[{"minor":0,"resources":[]}]})", "gpu[0].resources: expected an object, got array"},
      {R"({"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":true}}]})",
       "gpu[0].resources.koordinator.sh/gpu-core: expected a quantity, got boolean"},
      {R"({"rdma":[{"minor":0,"extension":{"vfs":[{"busID":7}]}}]})",
       "rdma[0].extension.vfs[0].busID: expected a string, got number"},
      {R"({"rdma":[{"minor":0,"extension":[]}]})", "rdma[0].extension: expected an object, got array"},
      {R"({"gpu":[{"id":["a"]}]})", "gpu[0].id: expected a string, got array"},
  };
  for (const auto& c : cases) {
    INFO(c.json);
    auto d = decode_device_allocations(c.json);
    REQUIRE_FALSE(d);
    CHECK(d.message() == c.error);
  }
  auto bad_quantity = decode_device_allocations(R"({"gpu":[{"resources":{"koordinator.sh/gpu-core":"1x"}}]})");
  REQUIRE_FALSE(bad_quantity);
  CHECK_THAT(bad_quantity.message(), Catch::StartsWith("gpu[0].resources.koordinator.sh/gpu-core: "));
  auto not_json = decode_device_allocations("{");
  REQUIRE_FALSE(not_json);
  CHECK_THAT(not_json.message(), Catch::StartsWith("invalid JSON"));

  std::map<std::string, std::string> annotations{{"scheduling.koordinator.sh/device-allocated", "[]"}};
  auto from = device_allocations_from(annotations);
  REQUIRE_FALSE(from);
  CHECK(from.message() == "scheduling.koordinator.sh/device-allocated: expected an object of device types, got array");
  CHECK_FALSE(*device_allocations_from({}));
}

TEST_CASE("Go string escaping and quoting", "[deviceshare][annotation]") {
  CHECK(go_json_string("plain") == "\"plain\"");
  CHECK(go_json_string("a<b>&c") == "\"a\\u003cb\\u003e\\u0026c\"");
  CHECK(go_json_string(std::string("\x01\b\f\t", 4)) == "\"\\u0001\\b\\f\\t\"");
  CHECK(go_json_string("\xe2\x80\xa8") == "\"\\u2028\"");
  CHECK(go_json_string("h\xc3\xa9") == "\"h\xc3\xa9\"");
  CHECK(go_json_string("\xff") == "\"\\ufffd\"");
  CHECK(go_json_string("\xc0\xaf") == "\"\\ufffd\\ufffd\"");  // overlong encoding
  CHECK(go_quote("A10") == "\"A10\"");
  CHECK(go_quote("a\"b\\c\n") == "\"a\\\"b\\\\c\\n\"");
  CHECK(go_quote(std::string("\x01", 1)) == "\"\\x01\"");
}

TEST_CASE("device-allocated round-trips random allocations and survives garbage", "[deviceshare][annotation]") {
  std::mt19937 rng(7);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  const char* names[] = {"koordinator.sh/gpu-core", "koordinator.sh/gpu-memory", "koordinator.sh/gpu-memory-ratio",
                         "koordinator.sh/rdma", "huawei.com/npu-core", "vendor.example/x"};
  const char* values[] = {"0", "1", "50", "100", "1k", "16Gi", "500m", "97871Mi", "1.5"};
  const char* ids[] = {"", "GPU-1", "0000:1f:00.1", "<&>", "\xc3\xa9"};
  const char* types[] = {"gpu", "rdma", "fpga", "npu"};
  for (int round = 0; round < 300; ++round) {
    DeviceAllocations a;
    for (int t = pick(4); t > 0; --t) {
      auto& entries = a[types[pick(4)]];
      for (int e = pick(3); e >= 0; --e) {
        DeviceAllocation d;
        d.minor = pick(20) - 2;
        for (int r = pick(4); r > 0; --r) d.resources[names[pick(6)]] = *Quantity::parse(values[pick(9)]);
        d.id = ids[pick(5)];
        if (pick(3) == 0) {
          d.extension.emplace();
          for (int v = pick(3); v > 0; --v)
            d.extension->vfs.push_back({pick(4) - 1, "0000:1" + std::to_string(pick(9)) + ":00." + std::to_string(pick(8))});
          if (pick(2) == 0) d.extension->gpu_shared_resource_template = "vir0" + std::to_string(pick(4));
        }
        entries.push_back(std::move(d));
      }
    }
    const std::string json = encode_device_allocations(a);
    auto back = decode_device_allocations(json);
    INFO(json);
    REQUIRE(back);
    // Quantities come back in canonical form; compare through a second encoding.
    CHECK(encode_device_allocations(*back) == json);
    // Every truncation and every single-byte corruption decodes or fails cleanly.
    for (size_t cut = 0; cut < json.size(); cut += 7) (void)decode_device_allocations(json.substr(0, cut));
    std::string corrupt = json;
    corrupt[static_cast<size_t>(pick(static_cast<int>(json.size())))] = "{}[]:,\"0a-"[pick(11)];
    auto result = decode_device_allocations(corrupt);
    if (!result) CHECK_FALSE(result.message().empty());
  }
}
