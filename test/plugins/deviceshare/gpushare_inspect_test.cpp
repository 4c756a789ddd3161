// The gpushare extender's inspect answer (plugins/deviceshare/gpushare_inspect.hpp):
// which pods are listed under which GPU, the memory totals, and the envelope.
#include <catch2/catch.hpp>

#include "plugins/deviceshare/gpushare_inspect.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

/// A pod asking for `limit` of gpu-mem, annotated as bound to GPU `index`
/// with `annotated` memory (the extender's ALIYUN_COM_GPU_MEM_POD).
Pod placed(const std::string& name, const std::string& index, int64_t limit, int64_t annotated,
           const std::string& phase = "Running") {
  Pod p = PodSpecBuilder(name).requests({{"aliyun.com/gpu-mem", std::to_string(limit)}}).pod();
  p.meta.namespace_name = "team-a";
  p.meta.uid = "uid-" + name;
  p.meta.annotations["ALIYUN_COM_GPU_MEM_IDX"] = index;
  p.meta.annotations["ALIYUN_COM_GPU_MEM_POD"] = std::to_string(annotated);
  p.status.phase = phase;
  return p;
}

std::string device(int id, int64_t total, int64_t used, const std::string& pods) {
  return "{\"id\":" + std::to_string(id) + ",\"totalGPU\":" + std::to_string(total) +
         ",\"usedGPU\":" + std::to_string(used) + ",\"pods\":[" + pods + "]}";
}

std::string pod_json(const std::string& name, int64_t used) {
  return "{\"name\":\"" + name + "\",\"namespace\":\"team-a\",\"usedGPU\":" + std::to_string(used) + "}";
}

}  // namespace

TEST_CASE("gpushare inspect: pods under the GPU they are accounted on", "[deviceshare][gpushare]") {
  struct Case {
    const char* what;
    std::vector<Pod> pods;
    std::vector<std::string> devices;  // the expected "devs" elements
    int64_t used;
  };
  const std::vector<Case> cases = {
      {"no pods", {}, {device(0, 16, 0, ""), device(1, 16, 0, "")}, 0},
      {"one pod: its limits as its usedGPU, the annotation as the GPU's",
       {placed("a", "1", 6, 5)},
       {device(0, 16, 0, ""), device(1, 16, 5, pod_json("a", 6))},
       5},
      {"two pods on one GPU, one on the other",
       {placed("a", "0", 4, 4), placed("b", "0", 8, 8), placed("c", "1", 2, 2)},
       {device(0, 16, 12, pod_json("a", 4) + "," + pod_json("b", 8)), device(1, 16, 2, pod_json("c", 2))},
       14},
      {"finished pods are neither listed nor counted",
       {placed("done", "0", 4, 4, "Succeeded"), placed("failed", "1", 4, 4, "Failed"), placed("a", "1", 3, 3)},
       {device(0, 16, 0, ""), device(1, 16, 3, pod_json("a", 3))},
       3},
      {"an index the node does not have, or that is no number: not accounted",
       {placed("far", "2", 4, 4), placed("bad", "x", 4, 4), placed("neg", "-1", 4, 4)},
       {device(0, 16, 0, ""), device(1, 16, 0, "")},
       0},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    GpuShareNode gpus(gpushare_node("32", "2"));
    std::vector<const Pod*> on_node;
    for (const auto& p : c.pods) {
      gpus.on_pod_added(p);
      on_node.push_back(&p);
    }
    std::string devs;
    for (const auto& d : c.devices) devs += (devs.empty() ? "" : ",") + d;
    CHECK(gpushare_inspect_node_json(gpus, on_node) ==
          "{\"name\":\"gpu-node\",\"totalGPU\":32,\"usedGPU\":" + std::to_string(c.used) + ",\"devs\":[" + devs + "]}");
  }
}

TEST_CASE("gpushare inspect: a pod the node does not account is not listed", "[deviceshare][gpushare]") {
  GpuShareNode gpus(gpushare_node("32", "2"));
  Pod accounted = placed("a", "0", 4, 4);
  Pod unknown = placed("b", "1", 4, 4);  // on the node's pod list, never accounted
  gpus.on_pod_added(accounted);
  CHECK(gpushare_inspect_node_json(gpus, {&accounted, &unknown, nullptr}) ==
        "{\"name\":\"gpu-node\",\"totalGPU\":32,\"usedGPU\":4,\"devs\":[" + device(0, 16, 4, pod_json("a", 4)) + "," +
            device(1, 16, 0, "") + "]}");
}

TEST_CASE("gpushare inspect: a node without GPU-share capacity has no GPUs", "[deviceshare][gpushare]") {
  Node plain;
  plain.meta.name = "cpu-node";
  CHECK(gpushare_inspect_node_json(GpuShareNode(plain), {}) ==
        "{\"name\":\"cpu-node\",\"totalGPU\":0,\"usedGPU\":0,\"devs\":[]}");
}

TEST_CASE("gpushare inspect: the envelope, with and without an error", "[deviceshare][gpushare]") {
  CHECK(gpushare_inspect_json({}, "") == "{\"nodes\":[]}");
  CHECK(gpushare_inspect_json({"{\"name\":\"a\"}", "{\"name\":\"b\"},{\"name\":\"c\"}"}, "") ==
        "{\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}]}");
  CHECK(gpushare_inspect_json({}, "node \"x\" not found") == "{\"nodes\":[],\"error\":\"node \\\"x\\\" not found\"}");
}
