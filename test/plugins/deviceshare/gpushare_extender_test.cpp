#include <catch2/catch.hpp>

#include "plugins/deviceshare/gpushare_extender.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::plugins::deviceshare;
using namespace troupe::plugins::deviceshare::testing;

namespace {

Pod bound(const std::string& name, int index, int64_t memory, const std::string& phase = "Running") {
  Pod p = PodSpecBuilder(name).pod();
  p.meta.annotations["ALIYUN_COM_GPU_MEM_IDX"] = std::to_string(index);
  p.meta.annotations["ALIYUN_COM_GPU_MEM_POD"] = std::to_string(memory);
  p.status.phase = phase;
  return p;
}

Pod asking(int64_t memory, int containers = 1) {
  PodSpecBuilder b("new");
  for (int i = 0; i < containers; ++i) b.requests({{"aliyun.com/gpu-mem", std::to_string(memory)}});
  return b.pod();
}

}  // namespace

TEST_CASE("gpushare: pod demand is the sum of container limits", "[deviceshare][gpushare]") {
  CHECK(gpushare_pod_request(asking(3, 2).spec) == 6);
  Pod requests_only = PodSpecBuilder().pod();
  Container c;
  c.resources.requests = list({{"aliyun.com/gpu-mem", "4"}});
  requests_only.spec.containers.push_back(c);
  CHECK(gpushare_pod_request(requests_only.spec) == 0);
}

TEST_CASE("gpushare: filter and binpack choice", "[deviceshare][gpushare]") {
  // 4 GPUs of 16276 MiB; the design document's example: GPU0 12207 free,
  // GPU1 8138, GPU2 4069, GPU3 16276.
  GpuShareNode n(gpushare_node("65104", "4"));
  n.on_pod_added(bound("a", 0, 4069));
  n.on_pod_added(bound("b", 1, 8138));
  n.on_pod_added(bound("c", 2, 12207));
  CHECK(n.filter(8138).ok());
  CHECK(n.choose_device(8138) == 1);   // least free that fits
  CHECK(n.choose_device(12207) == 0);
  CHECK(n.choose_device(16276) == 3);
  CHECK(n.choose_device(4069) == 2);
  CHECK(n.choose_device(0) == std::nullopt);
  CHECK(n.filter(16277).message() == "Insufficient GPU Memory in one device");

  n.set_unhealthy(GpuShareNode::parse_unhealthy("3,x,1"));
  CHECK(n.choose_device(8138) == 0);
  CHECK(n.filter(16276).message() == "Insufficient GPU Memory in one device");

  // Completed pods free their memory; removal undoes the add.
  n.set_unhealthy({});
  n.on_pod_added(bound("c", 2, 12207, "Succeeded"));
  CHECK(n.choose_device(16000) == 2);
  n.on_pod_removed(bound("b", 1, 8138));
  CHECK(n.devices()[1].used == 0);
  // Pods naming a GPU the node does not list, or no valid index, count on no GPU.
  Pod stray = bound("stray", 9, 100);
  n.on_pod_added(stray);
  Pod garbage = bound("garbage", 0, 100);
  garbage.meta.annotations["ALIYUN_COM_GPU_MEM_IDX"] = "zero";
  n.on_pod_added(garbage);
  CHECK(n.devices()[0].used == 4069);

  GpuShareNode plain(gpushare_node("0", "0"));
  CHECK(plain.filter(1).message() == "The node gpu-node is not for GPU share, need skip");
}

TEST_CASE("gpushare: bind annotations", "[deviceshare][gpushare]") {
  GpuShareNode n(gpushare_node("32552", "2"));
  n.on_pod_added(bound("a", 1, 15000));  // GPU 1 has 1276 left: the tightest fit
  auto a = n.bind(asking(200, 2), 1234);
  REQUIRE(a);
  CHECK(*a == std::map<std::string, std::string>{{"ALIYUN_COM_GPU_MEM_IDX", "1"},
                                                 {"ALIYUN_COM_GPU_MEM_DEV", "16276"},
                                                 {"ALIYUN_COM_GPU_MEM_POD", "400"},
                                                 {"ALIYUN_COM_GPU_MEM_ASSIGNED", "false"},
                                                 {"ALIYUN_COM_GPU_MEM_ASSUME_TIME", "1234"}});
  auto none = n.bind(asking(17000), 1);
  REQUIRE_FALSE(none);
  CHECK(none.message() == "The node gpu-node can't place the pod new in ns default");
  // An over-committed GPU has nothing free (no unsigned wrap-around).
  n.on_pod_added(bound("huge", 0, 20000));
  CHECK(n.devices()[0].free() == 0);
  CHECK(n.choose_device(1) == 1);
}

TEST_CASE("gpushare: a pod seen before its node counts once the node's GPUs are known", "[deviceshare][gpushare]") {
  // The pods list can arrive before the nodes list (a restart): the node is
  // made with no GPU capacity yet.
  GpuShareNode n(gpushare_node("0", "0"));
  n.on_pod_added(bound("early", 1, 8000));
  CHECK(n.devices().empty());
  n.set_node(gpushare_node("32552", "2"));
  REQUIRE(n.devices().size() == 2);
  CHECK(n.devices()[1].used == 8000);
  CHECK(n.choose_device(9000) == 0);
}

TEST_CASE("gpushare: a pod's own leftover annotations do not count against it at bind", "[deviceshare][gpushare]") {
  // One GPU of 16276; the pod carries IDX/POD from an earlier Binding that failed.
  GpuShareNode n(gpushare_node("16276", "1"));
  Pod pod = asking(10000);
  pod.meta.annotations["ALIYUN_COM_GPU_MEM_IDX"] = "0";
  pod.meta.annotations["ALIYUN_COM_GPU_MEM_POD"] = "10000";
  n.on_pod_added(pod);  // as the assumed pod is added to its node before Reserve
  CHECK(n.devices()[0].used == 10000);
  auto annotations = n.bind(pod, 1);
  REQUIRE(annotations);
  CHECK(annotations->at("ALIYUN_COM_GPU_MEM_IDX") == "0");
  // Another pod's use still counts.
  n.on_pod_added(bound("other", 0, 8000));
  CHECK_FALSE(n.bind(pod, 1));
}
