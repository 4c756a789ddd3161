#include <catch2/catch.hpp>

#include "plugins/node_numa_resource/pod_annotations.hpp"
#include "plugins/node_numa_resource/qos.hpp"
#include "plugins/node_numa_resource/topology_options.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins::numa;

TEST_CASE("resource-spec decodes leniently and encodes Go's bytes", "[numa][codec]") {
  auto spec = decode_resource_spec_json(
      R"({"PreferredCPUBindPolicy":"SpreadByPCPUs","requiredCPUBindPolicy":"FullPCPUs","unknown":1,"preferredCPUExclusivePolicy":null})");
  REQUIRE(spec);
  CHECK(spec->required() == CpuBindPolicy::full_pcpus);
  CHECK(spec->preferred() == CpuBindPolicy::spread_by_pcpus);
  CHECK(spec->exclusive() == CpuExclusivePolicy::unset);
  CHECK(encode(*spec) == R"({"requiredCPUBindPolicy":"FullPCPUs","preferredCPUBindPolicy":"SpreadByPCPUs"})");
  CHECK(encode(ResourceSpec{}) == "{}");
  CHECK(decode_resource_spec({})->required() == CpuBindPolicy::unset);

  const std::vector<std::pair<std::string, std::string>> errors = {
      {"{", "scheduling.koordinator.sh/resource-spec: invalid JSON"},
      {"[]", "scheduling.koordinator.sh/resource-spec: expected an object, got array"},
      {R"({"requiredCPUBindPolicy":1})", "scheduling.koordinator.sh/resource-spec: requiredCPUBindPolicy: expected a string"},
  };
  for (const auto& [text, want] : errors) {
    auto r = decode_resource_spec_json(text);
    REQUIRE_FALSE(r);
    CHECK(r.message().rfind(want, 0) == 0);
  }
}

TEST_CASE("resource-spec written back at PreBind, as appendResourceSpecIfMissed", "[numa][codec]") {
  using P = CpuBindPolicy;
  struct Case {
    const char* what;
    ResourceSpec pod;  // required, preferred, exclusive as the pod's annotation has them
    P required;        // the pod's (resolved) or the node's forced policy
    P preferred;       // the pod's preferred policy, resolved
    const char* want;  // nullptr: nothing written
  };
  const Case cases[] = {
      {"no spec, preferred by default", {}, P::unset, P::full_pcpus, R"({"preferredCPUBindPolicy":"FullPCPUs"})"},
      {"no spec, the node forces full PCPUs", {}, P::full_pcpus, P::full_pcpus,
       R"({"requiredCPUBindPolicy":"FullPCPUs"})"},
      {"no spec, the node forces spread", {}, P::spread_by_pcpus, P::full_pcpus,
       R"({"requiredCPUBindPolicy":"SpreadByPCPUs"})"},
      {"required given: nothing to add", {"FullPCPUs", "", ""}, P::full_pcpus, P::full_pcpus, nullptr},
      {"required Default is resolved", {"Default", "", ""}, P::full_pcpus, P::full_pcpus,
       R"({"requiredCPUBindPolicy":"FullPCPUs"})"},
      {"preferred given: nothing to add", {"", "SpreadByPCPUs", ""}, P::unset, P::spread_by_pcpus, nullptr},
      {"preferred Default is resolved", {"", "Default", ""}, P::unset, P::full_pcpus,
       R"({"preferredCPUBindPolicy":"FullPCPUs"})"},
      {"preferred given, the node forces another: required added, preferred kept", {"", "SpreadByPCPUs", ""},
       P::full_pcpus, P::spread_by_pcpus, R"({"requiredCPUBindPolicy":"FullPCPUs","preferredCPUBindPolicy":"SpreadByPCPUs"})"},
      {"both Default", {"Default", "Default", ""}, P::spread_by_pcpus, P::spread_by_pcpus,
       R"({"requiredCPUBindPolicy":"SpreadByPCPUs","preferredCPUBindPolicy":"SpreadByPCPUs"})"},
      {"exclusivity is kept", {"", "", "PCPULevel"}, P::unset, P::full_pcpus,
       R"({"preferredCPUBindPolicy":"FullPCPUs","preferredCPUExclusivePolicy":"PCPULevel"})"},
      {"no policy at all: nothing", {}, P::unset, P::unset, nullptr},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    auto written = resource_spec_to_write_back(c.pod, c.required, c.preferred);
    if (c.want == nullptr) {
      CHECK_FALSE(written);
    } else {
      REQUIRE(written);
      CHECK(encode(*written) == c.want);
    }
  }
}

TEST_CASE("resource-status round-trips and rejects bad input", "[numa][codec]") {
  const std::string text =
      R"({"cpuset":"0-3,8-11","numaNodeResources":[{"node":0,"resources":{"cpu":"4","memory":"8Gi"}},{"node":1}]})";
  auto status = decode_resource_status_json(text);
  REQUIRE(status);
  CHECK(status->cpuset.to_string() == "0-3,8-11");
  REQUIRE(status->numa_node_resources.size() == 2);
  CHECK(status->numa_node_resources[0].resources.at("memory").to_string() == "8Gi");
  CHECK(encode(*status) == text);
  CHECK(encode(ResourceStatus{}) == "{}");
  const std::vector<std::pair<std::string, std::string>> errors = {
      {R"({"cpuset":"3-1"})", "scheduling.koordinator.sh/resource-status: cpuset: "},
      {R"({"cpuset":5})", "scheduling.koordinator.sh/resource-status: cpuset: expected a string"},
      {R"({"numaNodeResources":{}})", "scheduling.koordinator.sh/resource-status: numaNodeResources: expected an array"},
      {R"({"numaNodeResources":[{"node":-1}]})", "scheduling.koordinator.sh/resource-status: numaNodeResources[0].node: NUMA node id -1"},
      {R"({"numaNodeResources":[{"node":0,"resources":{"cpu":"x"}}]})",
       "scheduling.koordinator.sh/resource-status: numaNodeResources[0].resources.cpu: "},
  };
  for (const auto& [bad, want] : errors) {
    auto r = decode_resource_status_json(bad);
    REQUIRE_FALSE(r);
    CHECK(r.message().rfind(want, 0) == 0);
  }
}

TEST_CASE("numa-topology-spec values are checked", "[numa][codec]") {
  auto spec = decode_numa_topology_spec_json(R"({"numaTopologyPolicy":"SingleNUMANode","singleNUMANodeExclusive":"Preferred"})");
  REQUIRE(spec);
  CHECK(spec->policy == troupe::plugins::topology::NumaPolicy::single_numa_node);
  CHECK(encode(*spec) == R"({"numaTopologyPolicy":"SingleNUMANode","singleNUMANodeExclusive":"Preferred"})");
  CHECK(decode_numa_topology_spec_json(R"({"numaTopologyPolicy":"Strict"})").message().rfind(
            "scheduling.koordinator.sh/numa-topology-spec: numaTopologyPolicy: unsupported", 0) == 0);
  CHECK_FALSE(decode_numa_topology_spec_json(R"({"singleNUMANodeExclusive":"Always"})"));
}

TEST_CASE("node annotations give reserved CPUs and kubelet options", "[numa][codec]") {
  auto kubelet = decode_kubelet_cpu_policy(
      R"({"policy":"static","options":{"full-pcpus-only":"true"},"reservedCPUs":"0-1"})");
  REQUIRE(kubelet);
  CHECK(kubelet->full_pcpus_only());
  CHECK_FALSE(kubelet->distribute_cpus_across_numa());
  CHECK(kubelet->reserved_cpus.to_string() == "0-1");
  auto allocs = decode_kubelet_pod_cpus(
      R"([{"uid":"a","cpuset":"2-3","managedByKubelet":true},{"uid":"b","cpuset":"4","managedByKubelet":false},{"uid":"","cpuset":"5","managedByKubelet":true}])");
  REQUIRE(allocs);
  CHECK(allocs->to_string() == "2-3");
  CHECK(decode_system_qos_cpus(R"({"cpuset":"6"})")->to_string() == "6");
  CHECK(decode_system_qos_cpus(R"({"cpuset":"6","cpusetExclusive":false})")->empty());
  CHECK(decode_node_reservation_cpus(R"({"reservedCPUs":"7"})")->to_string() == "7");
  CHECK(decode_kubelet_pod_cpus("{}").message() == "node.koordinator.sh/pod-cpu-allocs: expected an array, got object");
  CHECK(decode_kubelet_cpu_policy(R"({"options":{"a":1}})").message().find("options.a: expected a string") !=
        std::string::npos);
}

TEST_CASE("one bad cpuset costs only its own entry, as in Koordinator", "[numa][codec]") {
  std::vector<std::string> problems;
  auto allocs = decode_kubelet_pod_cpus(
      R"([{"uid":"a","cpuset":"2-3","managedByKubelet":true},{"uid":"b","cpuset":"x","managedByKubelet":true}])",
      &problems);
  REQUIRE(allocs);
  CHECK(allocs->to_string() == "2-3");  // a's CPUs stay reserved
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("node.koordinator.sh/pod-cpu-allocs: [1].cpuset") == 0);

  problems.clear();
  auto kubelet = decode_kubelet_cpu_policy(
      R"({"policy":"static","options":{"full-pcpus-only":"true"},"reservedCPUs":"0-"})", &problems);
  REQUIRE(kubelet);
  CHECK(kubelet->full_pcpus_only());  // the policy is kept; only the reserved set is lost
  CHECK(kubelet->reserved_cpus.empty());
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("reservedCPUs") != std::string::npos);
}

TEST_CASE("QoS and priority classes", "[numa][qos]") {
  using troupe::plugins::testing::PodBuilder;
  struct Case {
    const char* name;
    std::map<std::string, std::string> labels;
    std::optional<int32_t> priority;
    bool guaranteed;
    KoordQos qos;
    KoordPriorityClass priority_class;
    bool cpuset;
  };
  const std::vector<Case> cases = {
      {"LSR prod by priority", {{"koordinator.sh/qosClass", "LSR"}}, 9100, true, KoordQos::lsr, KoordPriorityClass::prod, true},
      {"LSE defaults to prod", {{"koordinator.sh/qosClass", "LSE"}}, std::nullopt, false, KoordQos::lse, KoordPriorityClass::prod, true},
      {"LSR at batch priority", {{"koordinator.sh/qosClass", "LSR"}}, 5500, true, KoordQos::lsr, KoordPriorityClass::batch, false},
      {"label overrides priority", {{"koordinator.sh/qosClass", "LSR"}, {"koordinator.sh/priority-class", "koord-prod"}}, 5500, true, KoordQos::lsr, KoordPriorityClass::prod, true},
      {"unlabelled guaranteed is LSR but no cpuset", {}, std::nullopt, true, KoordQos::lsr, KoordPriorityClass::prod, false},
      {"unlabelled best effort is BE batch", {}, std::nullopt, false, KoordQos::be, KoordPriorityClass::batch, false},
      {"LS never binds", {{"koordinator.sh/qosClass", "LS"}}, 9500, false, KoordQos::ls, KoordPriorityClass::prod, false},
      {"unknown label falls back", {{"koordinator.sh/qosClass", "gold"}}, 7100, false, KoordQos::be, KoordPriorityClass::mid, false},
      {"free range", {{"koordinator.sh/qosClass", "BE"}}, 3000, false, KoordQos::be, KoordPriorityClass::free, false},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      PodBuilder b;
      if (c.guaranteed) b.container({{"cpu", "1"}, {"memory", "1Gi"}});
      else b.container({});
      Pod pod = b.pod();
      if (c.guaranteed) pod.spec.containers[0].resources.limits = pod.spec.containers[0].resources.requests;
      pod.meta.labels = c.labels;
      pod.spec.priority = c.priority;
      CHECK(pod_qos_with_default(pod) == c.qos);
      CHECK(pod_priority_class_with_default(pod) == c.priority_class);
      CHECK(allow_use_cpuset(pod) == c.cpuset);
    }
  }
  CHECK(default_priority_value(KoordPriorityClass::mid) == 7500);
}
