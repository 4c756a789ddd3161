#include <catch2/catch.hpp>

#include <random>

#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/node_info.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

TEST_CASE("ResourceVector reads the tracked resources in scheduler units", "[resources]") {
  auto v = ResourceVector::from(resources({{"cpu", "1500m"},
                                           {"memory", "1Gi"},
                                           {"ephemeral-storage", "1k"},
                                           {"pods", "110"},
                                           {"nvidia.com/gpu", "2"},
                                           {"hugepages-2Mi", "4Mi"},
                                           {"kubernetes.io/batch-cpu", "500"},
                                           {"storage", "10Gi"},
                                           {"example.com/fraction", "100m"}}));
  CHECK(v.milli_cpu == 1500);
  CHECK(v.memory == 1073741824);
  CHECK(v.ephemeral_storage == 1000);
  CHECK(v.allowed_pods == 110);
  CHECK(v.scalar("nvidia.com/gpu") == 2);
  CHECK(v.scalar("hugepages-2Mi") == 4194304);
  CHECK(v.scalar("kubernetes.io/batch-cpu") == 500);
  CHECK(v.scalar("example.com/fraction") == 1);  // Value() rounds up
  CHECK_FALSE(v.has_scalar("storage"));         // not a scalar resource
  CHECK(v.get("cpu") == 1500);
  CHECK(v.get("absent.io/x") == 0);
}

TEST_CASE("PodInfo precomputes effective and non-zero requests", "[pod_info]") {
  auto pod = PodBuilder("web")
                 .container({{"cpu", "500m"}})
                 .container({{"memory", "1Gi"}, {"nvidia.com/gpu", "1"}})
                 .init_container({{"cpu", "2"}})
                 .priority(7)
                 .host_port(8080)
                 .info();
  CHECK(pod->key == "default/web");
  CHECK(pod->priority == 7);
  CHECK(pod->requests.milli_cpu == 2000);  // the init container's peak wins
  CHECK(pod->requests.memory == 1073741824);
  CHECK(pod->requests.scalar("nvidia.com/gpu") == 1);
  CHECK(pod->non_zero_requests.milli_cpu == 2000);
  CHECK(pod->non_zero_requests.memory == 1073741824 + 200 * 1024 * 1024);  // first container gets 200Mi
  REQUIRE(pod->host_ports.size() == 1);
  CHECK(pod->host_ports[0].ip == "0.0.0.0");
  CHECK(pod->host_ports[0].port == 8080);

  auto empty = PodBuilder("empty").container({}).info();
  CHECK(empty->requests.is_zero());
  CHECK(empty->non_zero_requests.milli_cpu == 100);
  CHECK(empty->non_zero_requests.memory == 200 * 1024 * 1024);
}

TEST_CASE("HostPortUsage conflicts as HostPortInfo.CheckConflict", "[host_ports]") {
  HostPortUsage used;
  used.add({"127.0.0.1", Protocol::tcp, 8080});
  used.add({"0.0.0.0", Protocol::udp, 53});
  struct Case {
    HostPort wanted;
    bool conflict;
  };
  const std::vector<Case> cases = {
      {{"127.0.0.1", Protocol::tcp, 8080}, true},   // same ip
      {{"0.0.0.0", Protocol::tcp, 8080}, true},     // wildcard wants every ip
      {{"127.0.0.2", Protocol::tcp, 8080}, false},  // another ip
      {{"127.0.0.1", Protocol::udp, 8080}, false},  // another protocol
      {{"127.0.0.1", Protocol::tcp, 8081}, false},  // another port
      {{"10.0.0.1", Protocol::udp, 53}, true},      // held on 0.0.0.0
      {{"10.0.0.1", Protocol::tcp, 53}, false},
      {{"0.0.0.0", Protocol::tcp, 0}, false},       // no host port
  };
  for (const auto& c : cases) {
    INFO(c.wanted.ip << " " << c.wanted.port);
    CHECK(used.conflicts(c.wanted) == c.conflict);
  }
  used.add({"127.0.0.1", Protocol::tcp, 8080});
  used.remove({"127.0.0.1", Protocol::tcp, 8080});
  CHECK(used.conflicts({"127.0.0.1", Protocol::tcp, 8080}));  // still held once
  used.remove({"127.0.0.1", Protocol::tcp, 8080});
  CHECK_FALSE(used.conflicts({"127.0.0.1", Protocol::tcp, 8080}));
}

TEST_CASE("NodeInfo accounts pods and remove_pod is the exact inverse of add_pod", "[node_info]") {
  auto node = NodeBuilder("n1").allocatable({{"cpu", "8"}, {"memory", "16Gi"}, {"pods", "110"}, {"nvidia.com/gpu", "4"}});
  std::vector<std::shared_ptr<const PodInfo>> pods;
  std::mt19937 rng(42);
  const char* cpus[] = {"", "100m", "250m", "1", "3"};
  const char* gpus[] = {"", "1", "2"};
  for (int i = 0; i < 40; ++i) {
    Amounts req;
    if (*cpus[i % 5]) req.push_back({"cpu", cpus[i % 5]});
    if (*gpus[i % 3]) req.push_back({"nvidia.com/gpu", gpus[i % 3]});
    if (i % 4 == 0) req.push_back({"memory", std::to_string(i + 1) + "Mi"});
    auto b = PodBuilder("p" + std::to_string(i)).container(req);
    if (i % 6 == 0) b.host_port(9000 + i % 2);
    pods.push_back(b.info());
  }
  NodeInfo info = node.info();
  const NodeInfo empty = info;
  // Random interleavings of adds and removes; every state must equal the one
  // reached by adding the same set of pods from scratch.
  std::vector<bool> present(pods.size(), false);
  for (int step = 0; step < 500; ++step) {
    size_t i = rng() % pods.size();
    if (present[i]) {
      REQUIRE(info.remove_pod(pod_identity(*pods[i])));
    } else {
      REQUIRE(info.add_pod(pods[i]));
    }
    present[i] = !present[i];
  }
  NodeInfo rebuilt = node.info();
  for (size_t i = 0; i < pods.size(); ++i)
    if (present[i]) REQUIRE(rebuilt.add_pod(pods[i]));
  CHECK(info.requested() == rebuilt.requested());
  CHECK(info.non_zero_requested() == rebuilt.non_zero_requested());
  CHECK(info.used_ports() == rebuilt.used_ports());
  CHECK(info.pod_count() == rebuilt.pod_count());
  for (size_t i = 0; i < pods.size(); ++i)
    if (present[i]) REQUIRE(info.remove_pod(pod_identity(*pods[i])));
  CHECK(info.requested() == empty.requested());
  CHECK(info.requested().is_zero());
  CHECK(info.non_zero_requested().is_zero());
  CHECK(info.used_ports().empty());
  CHECK(info.pod_count() == 0);
}

TEST_CASE("NodeInfo refuses a pod twice and keeps pods across a node update", "[node_info]") {
  auto pod = PodBuilder("a").container({{"cpu", "1"}}).info();
  NodeInfo info = NodeBuilder("n").allocatable({{"cpu", "2"}}).info();
  CHECK(info.add_pod(pod));
  const uint64_t generation = info.generation();
  CHECK_FALSE(info.add_pod(pod));
  CHECK(info.generation() == generation);
  CHECK(info.requested().milli_cpu == 1000);
  info.set_node(std::make_shared<const Node>(NodeBuilder("n").allocatable({{"cpu", "4"}}).node()));
  CHECK(info.allocatable().milli_cpu == 4000);
  CHECK(info.requested().milli_cpu == 1000);
  CHECK_FALSE(info.remove_pod("nope"));
  CHECK(info.remove_pod(pod_identity(*pod)));
}

TEST_CASE("CycleState returns a slot's data only as the type written", "[cycle_state]") {
  struct A : StateData { int x = 1; };
  struct B : StateData { int y = 2; };
  CycleState state(2);
  state.write(0, A{});
  CHECK(state.read<A>(0) != nullptr);
  CHECK(state.read<A>(0)->x == 1);
  CHECK(state.read<B>(0) == nullptr);
  CHECK(state.read<A>(1) == nullptr);
  CHECK(state.read<A>(7) == nullptr);
  state.write(5, B{});
  CHECK(state.read<B>(5)->y == 2);
}
