#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "sim/synthetic/pod_mix.hpp"

using namespace troupe;
using namespace troupe::sim::synthetic;

namespace {

std::map<std::string, size_t> kinds_of(const std::vector<Pod>& pods) {
  std::map<std::string, size_t> counts;
  for (const auto& p : pods) ++counts[*p.meta.label(kBenchKindLabel)];
  return counts;
}

const ResourceList& requests(const Pod& pod) { return pod.spec.containers.at(0).resources.requests; }

}  // namespace

TEST_CASE("pod mixes: proportions", "[synthetic][mix]") {
  struct Case {
    PodMix mix;
    size_t count;
    std::map<std::string, size_t> expected;
  };
  const std::vector<Case> cases = {
      {PodMix::cpu, 100, {{"cpu", 100}}},
      {PodMix::lsr, 10, {{"lsr", 10}}},
      {PodMix::gpu_share, 7, {{"gpu-share", 7}}},
      {PodMix::gpu_whole, 3, {{"gpu-whole", 3}}},
      {PodMix::gpu_rdma, 1, {{"gpu-rdma", 1}}},
      {PodMix::mixed, 1000, {{"cpu", 400}, {"lsr", 100}, {"gpu-share", 200}, {"gpu-whole", 150}, {"gpu-rdma", 150}}},
      // 13 pods: exact shares 5.2, 1.3, 2.6, 1.95, 1.95 -> the largest remainders get the 3 left over.
      {PodMix::mixed, 13, {{"cpu", 5}, {"lsr", 1}, {"gpu-share", 3}, {"gpu-whole", 2}, {"gpu-rdma", 2}}},
      {PodMix::mixed, 0, {}},
      {PodMix::spread, 5, {{"spread", 5}}},
      {PodMix::replicas, 5, {{"replica", 5}}},
  };
  for (const auto& c : cases) {
    INFO(pod_mix_name(c.mix) << " x " << c.count);
    PodMixOptions options;
    options.count = c.count;
    auto pods = make_pods(c.mix, options);
    REQUIRE(pods.ok());
    CHECK(pods->size() == c.count);
    CHECK(kinds_of(*pods) == c.expected);
  }
}

TEST_CASE("pod mixes: replicas belong to the mix's ReplicaSets, which select them", "[synthetic][mix]") {
  PodMixOptions options;
  options.count = 200;
  auto pods = make_pods(PodMix::replicas, options);
  REQUIRE(pods.ok());
  const auto sets = mix_replica_sets(PodMix::replicas, options);
  CHECK(sets.size() == static_cast<size_t>(kSpreadApps));
  CHECK(mix_replica_sets(PodMix::cpu, options).empty());
  std::map<std::string, const WorkloadSelector*> by_name;
  for (const auto& rs : sets) by_name[rs.name] = &rs;
  for (const auto& pod : *pods) {
    INFO(pod.meta.name);
    CHECK(pod.spec.topology_spread_constraints.empty());
    const OwnerReference* owner = pod.meta.controller_ref();
    REQUIRE(owner != nullptr);
    CHECK(owner->api_version == "apps/v1");
    CHECK(owner->kind == "ReplicaSet");
    REQUIRE(by_name.count(owner->name) == 1);
    const WorkloadSelector& rs = *by_name[owner->name];
    CHECK(rs.namespace_name == pod.meta.namespace_name);
    CHECK(LabelSelector(rs.requirements).matches(pod.meta.labels));
  }
}

TEST_CASE("pod mixes: each kind's shape", "[synthetic][mix]") {
  PodMixOptions options;
  options.count = 400;
  auto pods = make_pods(PodMix::mixed, options);
  REQUIRE(pods.ok());
  std::map<int64_t, size_t> whole_sizes, share_sizes;
  for (const auto& pod : *pods) {
    const std::string kind = *pod.meta.label(kBenchKindLabel);
    INFO(pod.meta.name << " " << kind);
    CHECK(pod.meta.namespace_name == "bench");
    CHECK(pod.spec.scheduler_name == "troupe");
    const auto& r = requests(pod);
    const auto* hint = pod.meta.annotation("scheduling.koordinator.sh/device-allocate-hint");
    if (kind == "cpu") {
      CHECK(r.size() == 2);
      CHECK(r.get("cpu").milli_value() <= 2000);
      CHECK(pod.spec.containers[0].resources.limits.empty());
    } else if (kind == "lsr") {
      CHECK(*pod.meta.label("koordinator.sh/qosClass") == "LSR");
      CHECK(*pod.meta.annotation("scheduling.koordinator.sh/resource-spec") == R"({"requiredCPUBindPolicy":"FullPCPUs"})");
      CHECK(r.get("cpu").milli_value() % 2000 == 0);  // whole physical cores (2 threads each)
      CHECK(pod.spec.containers[0].resources.limits == r);
    } else if (kind == "gpu-share") {
      const int64_t percent = r.get("koordinator.sh/gpu").value();
      CHECK((percent == 25 || percent == 50));
      ++share_sizes[percent];
      CHECK(r.get("nvidia.com/gpu").value() == 0);
    } else if (kind == "gpu-whole") {
      const int64_t gpus = r.get("nvidia.com/gpu").value();
      ++whole_sizes[gpus];
      if (gpus == 2) {
        REQUIRE(hint);
        CHECK(*hint == R"({"gpu":{"requiredTopologyScope":"PCIe"}})");
      } else if (gpus == 4) {
        REQUIRE(hint);
        CHECK(*hint == R"({"gpu":{"requiredTopologyScope":"NUMANode"}})");
      } else {
        CHECK(hint == nullptr);
      }
      CHECK(r.get("koordinator.sh/rdma").value() == 0);
    } else {
      REQUIRE(kind == "gpu-rdma");
      CHECK(r.get("nvidia.com/gpu").value() >= 1);
      CHECK(r.get("koordinator.sh/rdma").value() == 1);
      REQUIRE(hint);
      CHECK(*hint == R"({"rdma":{"vfSelector":{}}})");
      CHECK(*pod.meta.annotation("scheduling.koordinator.sh/device-joint-allocate") ==
            R"({"deviceTypes":["gpu","rdma"]})");
    }
    CHECK(decode_pod_json(encode(pod)).ok());
  }
  // Every size is drawn.
  CHECK(whole_sizes.size() == 4);
  CHECK(share_sizes.size() == 2);
}

TEST_CASE("pod mixes: deterministic by seed; names and errors", "[synthetic][mix]") {
  PodMixOptions options;
  options.count = 50;
  options.seed = 3;
  auto a = make_pods(PodMix::mixed, options), b = make_pods(PodMix::mixed, options);
  options.seed = 4;
  auto c = make_pods(PodMix::mixed, options);
  REQUIRE((a.ok() && b.ok() && c.ok()));
  std::string ea, eb, ec;
  for (size_t i = 0; i < 50; ++i) {
    ea += encode((*a)[i]);
    eb += encode((*b)[i]);
    ec += encode((*c)[i]);
  }
  CHECK(ea == eb);
  CHECK(ea != ec);
  CHECK((*a)[7].meta.name == "pod-7");

  for (auto mix : {PodMix::cpu, PodMix::lsr, PodMix::gpu_share, PodMix::gpu_whole, PodMix::gpu_rdma, PodMix::mixed,
                   PodMix::spread})
    CHECK(*parse_pod_mix(pod_mix_name(mix)) == mix);
  auto bad = parse_pod_mix("gpu");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message() == "unknown pod mix 'gpu' (known: cpu, lsr, gpu-share, gpu-whole, gpu-rdma, mixed, spread, replicas)");
  PodMixOptions no_prefix;
  no_prefix.name_prefix = "";
  CHECK_THAT(make_pods(PodMix::cpu, no_prefix).message(), Catch::Contains("empty pod name prefix"));
  PodMixOptions no_namespace;
  no_namespace.namespace_name = "";
  CHECK_THAT(make_pods(PodMix::cpu, no_namespace).message(), Catch::Contains("empty namespace"));
}

TEST_CASE("pod mixes: spread replicas carry a hostname spread constraint and preferred anti-affinity",
          "[synthetic][mix]") {
  PodMixOptions options;
  options.count = 200;
  auto pods = make_pods(PodMix::spread, options);
  REQUIRE(pods.ok());
  std::set<std::string> apps;
  for (const auto& pod : *pods) {
    INFO(pod.meta.name);
    const auto app = pod.meta.label("app");
    REQUIRE(app);
    apps.insert(*app);
    REQUIRE(pod.spec.topology_spread_constraints.size() == 1);
    const auto& c = pod.spec.topology_spread_constraints[0];
    CHECK(c.max_skew == 1);
    CHECK(c.topology_key == "kubernetes.io/hostname");
    CHECK(c.when_unsatisfiable == UnsatisfiableAction::do_not_schedule);
    REQUIRE(c.label_selector);
    CHECK(c.label_selector->matches(pod.meta.labels));
    REQUIRE(pod.spec.affinity);
    REQUIRE(pod.spec.affinity->pod_anti_affinity);
    const auto& preferred = pod.spec.affinity->pod_anti_affinity->preferred;
    REQUIRE(preferred.size() == 1);
    CHECK(preferred[0].weight == 50);
    CHECK(preferred[0].term.label_selector->matches(pod.meta.labels));
    CHECK(pod.spec.affinity->pod_anti_affinity->required.empty());
  }
  CHECK(apps.size() > 1);
  CHECK(apps.size() <= static_cast<size_t>(kSpreadApps));
}
