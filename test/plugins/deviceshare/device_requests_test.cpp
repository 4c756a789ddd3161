#include <catch2/catch.hpp>

#include "plugins/deviceshare/device_requests.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

// "gpu={a: 1, b: 2} rdma={...}" or the error message.
std::string normalised(const Amounts& requests) {
  auto r = device_requests_from(list(requests));
  if (!r) return "error: " + r.message();
  std::string out;
  for (DeviceType t : kAllDeviceTypes) {
    const TypeRequest* req = r->get(t);
    if (req == nullptr) continue;
    if (!out.empty()) out += ' ';
    out += std::string(device_type_name(t)) + "=" + req->resources.to_string();
    CHECK(req->amounts == DeviceAmounts::from_list(req->resources));
  }
  return out.empty() ? "none" : out;
}

}  // namespace

TEST_CASE("GetPodDeviceRequests normalises every allowed combination", "[deviceshare][requests]") {
  struct Case {
    Amounts requests;
    std::string expected;
  };
  const std::vector<Case> cases = {
      // whole cards from device-plugin names: 100 per card of core and ratio
      {{{"nvidia.com/gpu", "1"}}, "gpu={koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory-ratio: 100}"},
      {{{"nvidia.com/gpu", "2"}}, "gpu={koordinator.sh/gpu-core: 200, koordinator.sh/gpu-memory-ratio: 200}"},
      {{{"amd.com/gpu", "1"}}, "gpu={koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory-ratio: 100}"},
      {{{"dcu.com/gpu", "3"}}, "gpu={koordinator.sh/gpu-core: 300, koordinator.sh/gpu-memory-ratio: 300}"},
      // koordinator.sh/gpu: percent of a card, core = ratio = the value
      {{{"koordinator.sh/gpu", "50"}}, "gpu={koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory-ratio: 50}"},
      {{{"koordinator.sh/gpu", "100"}}, "gpu={koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory-ratio: 100}"},
      {{{"koordinator.sh/gpu", "200"}}, "gpu={koordinator.sh/gpu-core: 200, koordinator.sh/gpu-memory-ratio: 200}"},
      // memory alone consumes no gpu-core
      {{{"koordinator.sh/gpu-memory", "16Gi"}}, "gpu={koordinator.sh/gpu-memory: 16Gi}"},
      {{{"koordinator.sh/gpu-memory-ratio", "50"}}, "gpu={koordinator.sh/gpu-memory-ratio: 50}"},
      {{{"koordinator.sh/gpu-memory-ratio", "300"}}, "gpu={koordinator.sh/gpu-memory-ratio: 300}"},
      {{{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory", "8Gi"}},
       "gpu={koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory: 8Gi}"},
      {{{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory-ratio", "60"}},
       "gpu={koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory-ratio: 60}"},
      {{{"koordinator.sh/gpu-core", "200"}, {"koordinator.sh/gpu-memory-ratio", "200"}},
       "gpu={koordinator.sh/gpu-core: 200, koordinator.sh/gpu-memory-ratio: 200}"},
      {{{"huawei.com/npu-core", "4"}, {"koordinator.sh/gpu-memory-ratio", "50"}},
       "gpu={huawei.com/npu-core: 4, koordinator.sh/gpu-memory-ratio: 50}"},
      // gpu.shared combinations pass through
      {{{"koordinator.sh/gpu.shared", "1"}, {"koordinator.sh/gpu-memory", "8Gi"}},
       "gpu={koordinator.sh/gpu-memory: 8Gi, koordinator.sh/gpu.shared: 1}"},
      {{{"koordinator.sh/gpu.shared", "2"}, {"koordinator.sh/gpu-memory-ratio", "100"}},
       "gpu={koordinator.sh/gpu-memory-ratio: 100, koordinator.sh/gpu.shared: 2}"},
      {{{"koordinator.sh/gpu.shared", "2"}, {"koordinator.sh/gpu-core", "100"}, {"koordinator.sh/gpu-memory", "32Gi"}},
       "gpu={koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory: 32Gi, koordinator.sh/gpu.shared: 2}"},
      {{{"koordinator.sh/gpu.shared", "4"},
        {"koordinator.sh/gpu-core", "400"},
        {"koordinator.sh/gpu-memory-ratio", "200"}},
       "gpu={koordinator.sh/gpu-core: 400, koordinator.sh/gpu-memory-ratio: 200, koordinator.sh/gpu.shared: 4}"},
      {{{"koordinator.sh/gpu.shared", "1"},
        {"huawei.com/npu-core", "2"},
        {"huawei.com/npu-cpu", "1"},
        {"koordinator.sh/gpu-memory", "6Gi"}},
       "gpu={huawei.com/npu-core: 2, huawei.com/npu-cpu: 1, koordinator.sh/gpu-memory: 6Gi, "
       "koordinator.sh/gpu.shared: 1}"},
      {{{"koordinator.sh/gpu.shared", "1"},
        {"huawei.com/npu-core", "2"},
        {"huawei.com/npu-cpu", "1"},
        {"huawei.com/npu-dvpp", "100"},
        {"koordinator.sh/gpu-memory", "6Gi"}},
       "gpu={huawei.com/npu-core: 2, huawei.com/npu-cpu: 1, huawei.com/npu-dvpp: 100, "
       "koordinator.sh/gpu-memory: 6Gi, koordinator.sh/gpu.shared: 1}"},
      // RDMA / FPGA, alone and with a GPU
      {{{"koordinator.sh/rdma", "100"}}, "rdma={koordinator.sh/rdma: 100}"},
      {{{"koordinator.sh/rdma", "1"}}, "rdma={koordinator.sh/rdma: 1}"},
      {{{"koordinator.sh/rdma", "300"}}, "rdma={koordinator.sh/rdma: 300}"},
      {{{"koordinator.sh/fpga", "50"}}, "fpga={koordinator.sh/fpga: 50}"},
      {{{"koordinator.sh/gpu", "100"}, {"koordinator.sh/rdma", "100"}, {"cpu", "4"}},
       "gpu={koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory-ratio: 100} rdma={koordinator.sh/rdma: 100}"},
      // zero requests are dropped; non-device resources ignored
      {{{"nvidia.com/gpu", "0"}, {"cpu", "1"}}, "none"},
      {{{"koordinator.sh/gpu-memory-ratio", "0"}, {"koordinator.sh/gpu-core", "50"},
        {"koordinator.sh/gpu-memory", "1Gi"}},
       "gpu={koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory: 1Gi}"},
      // deprecated kubernetes.io/ device names read as koordinator.sh/
      {{{"kubernetes.io/gpu", "50"}}, "gpu={koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory-ratio: 50}"},
      {{{"kubernetes.io/rdma", "100"}}, "rdma={koordinator.sh/rdma: 100}"},
  };
  for (const auto& c : cases) {
    INFO(ResourceList(list(c.requests)).to_string());
    CHECK(normalised(c.requests) == c.expected);
  }
}

TEST_CASE("GetPodDeviceRequests rejects invalid units and combinations with Koordinator's messages",
          "[deviceshare][requests]") {
  struct Case {
    Amounts requests;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{{"koordinator.sh/gpu", "150"}}, "invalid resource unit koordinator.sh/gpu: 150"},
      {{{"koordinator.sh/gpu", "101"}}, "invalid resource unit koordinator.sh/gpu: 101"},
      {{{"koordinator.sh/rdma", "250"}}, "invalid resource unit koordinator.sh/rdma: 250"},
      {{{"koordinator.sh/fpga", "1500m"}, {"koordinator.sh/rdma", "100"}}, "none"},  // 2 ≤ 100: valid, see below
      {{{"koordinator.sh/fpga", "120"}}, "invalid resource unit koordinator.sh/fpga: 120"},
      {{{"koordinator.sh/gpu-memory-ratio", "150"}},
       "invalid resource device requests: [koordinator.sh/gpu-memory-ratio]"},
      {{{"koordinator.sh/gpu-core", "150"}, {"koordinator.sh/gpu-memory", "1Gi"}},
       "invalid resource device requests: [koordinator.sh/gpu-core koordinator.sh/gpu-memory]"},
      {{{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory-ratio", "120"}},
       "invalid resource device requests: [koordinator.sh/gpu-core koordinator.sh/gpu-memory-ratio]"},
      {{{"huawei.com/npu-core", "4"}, {"koordinator.sh/gpu-memory-ratio", "120"}},
       "invalid resource device requests: [huawei.com/npu-core koordinator.sh/gpu-memory-ratio]"},
      // combinations outside the table
      {{{"nvidia.com/gpu", "1"}, {"koordinator.sh/gpu-core", "50"}},
       "invalid resource device requests: [koordinator.sh/gpu-core nvidia.com/gpu]"},
      {{{"koordinator.sh/gpu-core", "50"}}, "invalid resource device requests: [koordinator.sh/gpu-core]"},
      {{{"koordinator.sh/gpu", "50"}, {"koordinator.sh/gpu-memory", "1Gi"}},
       "invalid resource device requests: [koordinator.sh/gpu koordinator.sh/gpu-memory]"},
      {{{"koordinator.sh/gpu.shared", "1"}}, "invalid resource device requests: [koordinator.sh/gpu.shared]"},
      {{{"huawei.com/npu-core", "2"}}, "invalid resource device requests: [huawei.com/npu-core]"},
      {{{"nvidia.com/gpu", "1"}, {"amd.com/gpu", "1"}},
       "invalid resource device requests: [amd.com/gpu nvidia.com/gpu]"},
      {{{"koordinator.sh/gpu-memory", "1Gi"}, {"koordinator.sh/gpu-memory-ratio", "50"}},
       "invalid resource device requests: [koordinator.sh/gpu-memory koordinator.sh/gpu-memory-ratio]"},
      // gpu.shared: core and ratio must split evenly, at most 100 per card
      {{{"koordinator.sh/gpu.shared", "3"}, {"koordinator.sh/gpu-memory-ratio", "100"}},
       "invalid resource device requests: [koordinator.sh/gpu-memory-ratio koordinator.sh/gpu.shared]"},
      {{{"koordinator.sh/gpu.shared", "1"}, {"koordinator.sh/gpu-memory-ratio", "200"}},
       "invalid resource device requests: [koordinator.sh/gpu-memory-ratio koordinator.sh/gpu.shared]"},
      {{{"koordinator.sh/gpu.shared", "2"}, {"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory", "1Gi"}},
       "none"},  // 50 % 2 == 0 and 25 ≤ 100: valid
      {{{"koordinator.sh/gpu.shared", "3"}, {"koordinator.sh/gpu-core", "100"}, {"koordinator.sh/gpu-memory", "1Gi"}},
       "invalid resource device requests: [koordinator.sh/gpu-core koordinator.sh/gpu-memory koordinator.sh/gpu.shared]"},
      // Huawei NPU share: one card only, dvpp at most 100
      {{{"koordinator.sh/gpu.shared", "2"},
        {"huawei.com/npu-core", "2"},
        {"huawei.com/npu-cpu", "1"},
        {"koordinator.sh/gpu-memory", "6Gi"}},
       "invalid resource device requests: [huawei.com/npu-core huawei.com/npu-cpu koordinator.sh/gpu-memory "
       "koordinator.sh/gpu.shared]"},
      {{{"koordinator.sh/gpu.shared", "1"},
        {"huawei.com/npu-core", "2"},
        {"huawei.com/npu-cpu", "1"},
        {"huawei.com/npu-dvpp", "101"},
        {"koordinator.sh/gpu-memory", "6Gi"}},
       "invalid resource device requests: [huawei.com/npu-core huawei.com/npu-cpu huawei.com/npu-dvpp "
       "koordinator.sh/gpu-memory koordinator.sh/gpu.shared]"},
  };
  for (const auto& c : cases) {
    INFO(ResourceList(list(c.requests)).to_string());
    auto r = device_requests_from(list(c.requests));
    if (c.message == "none") {
      CHECK(r.ok());
    } else {
      REQUIRE_FALSE(r.ok());
      CHECK(r.message() == c.message);
    }
  }
}

TEST_CASE("GetPodDeviceRequests uses the pod's effective requests", "[deviceshare][requests]") {
  Pod pod = PodSpecBuilder("p").requests({{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory", "4Gi"}})
                .requests({{"koordinator.sh/gpu-core", "30"}, {"koordinator.sh/gpu-memory", "2Gi"}})
                .pod();
  Container init;
  init.name = "init";
  init.resources.requests = list({{"koordinator.sh/gpu-core", "100"}, {"koordinator.sh/gpu-memory", "1Gi"}});
  pod.spec.init_containers.push_back(init);
  auto r = get_pod_device_requests(pod.spec);
  REQUIRE(r);
  // max(init, Σ containers) per resource: core max(100, 80), memory max(1Gi, 6Gi)
  CHECK(r->get(DeviceType::gpu)->resources.to_string() == "{koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory: 6Gi}");
  CHECK(r->get(DeviceType::rdma) == nullptr);
}

TEST_CASE("The per-card split of a GPU request", "[deviceshare][requests]") {
  struct Case {
    Amounts gpu;  // a normalised request
    int64_t count;
    std::string per_card;
    bool shared;
  };
  const std::vector<Case> cases = {
      {{{"koordinator.sh/gpu-core", "200"}, {"koordinator.sh/gpu-memory-ratio", "200"}},
       2, "{koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory-ratio: 100}", false},
      {{{"koordinator.sh/gpu-core", "50"}, {"koordinator.sh/gpu-memory-ratio", "50"}},
       1, "{koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory-ratio: 50}", true},
      {{{"koordinator.sh/gpu-core", "100"}, {"koordinator.sh/gpu-memory-ratio", "100"}},
       1, "{koordinator.sh/gpu-core: 100, koordinator.sh/gpu-memory-ratio: 100}", false},
      // a memory request always shares the card, even a whole card's worth
      {{{"koordinator.sh/gpu-memory", "80Gi"}}, 1, "{koordinator.sh/gpu-memory: 80Gi}", true},
      {{{"koordinator.sh/gpu.shared", "2"}, {"koordinator.sh/gpu-memory", "32Gi"}}, 2,
       "{koordinator.sh/gpu-memory: 16Gi}", true},
      {{{"koordinator.sh/gpu.shared", "2"}, {"koordinator.sh/gpu-core", "100"}, {"koordinator.sh/gpu-memory-ratio", "200"}},
       2, "{koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory-ratio: 100}", false},
      {{{"koordinator.sh/gpu.shared", "4"}, {"koordinator.sh/gpu-core", "200"}, {"koordinator.sh/gpu-memory-ratio", "200"}},
       4, "{koordinator.sh/gpu-core: 50, koordinator.sh/gpu-memory-ratio: 50}", true},
      // ratio > 100 and a multiple of 100 decides the count without gpu.shared
      {{{"koordinator.sh/gpu-memory-ratio", "300"}}, 3, "{koordinator.sh/gpu-memory-ratio: 100}", false},
      {{{"koordinator.sh/gpu-core", "200"}, {"koordinator.sh/gpu-memory", "16Gi"}}, 1,
       "{koordinator.sh/gpu-core: 200, koordinator.sh/gpu-memory: 16Gi}", true},
      {{{"koordinator.sh/gpu.shared", "1"}, {"huawei.com/npu-core", "2"}, {"huawei.com/npu-cpu", "1"},
        {"koordinator.sh/gpu-memory", "6Gi"}},
       1, "{huawei.com/npu-core: 2, huawei.com/npu-cpu: 1, koordinator.sh/gpu-memory: 6Gi}", true},
  };
  for (const auto& c : cases) {
    INFO(ResourceList(list(c.gpu)).to_string());
    GpuPerCard split = split_gpu_request(list(c.gpu));
    CHECK(split.count == c.count);
    CHECK(split.per_gpu.to_string() == c.per_card);
    CHECK(split.shared == c.shared);
  }
}

TEST_CASE("Percentage units: at most 100 or a multiple of 100", "[deviceshare][requests]") {
  for (const char* ok : {"0", "1", "50", "100", "200", "1000", "500m"}) CHECK(is_percentage_amount(*Quantity::parse(ok)));
  for (const char* bad : {"101", "150", "199", "1001"}) CHECK_FALSE(is_percentage_amount(*Quantity::parse(bad)));
}
