#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "model/pod_requests.hpp"

using namespace troupe;

namespace {

// A pod around a spec fragment, e.g. R"("containers": [...])".
PodSpec spec_of(const std::string& spec_fields) {
  std::string text = R"({"metadata": {"name": "p"}, "spec": {)" + spec_fields + "}}";
  Result<Pod> pod = decode_pod_json(text);
  INFO(text);
  if (!pod) FAIL(pod.message());
  return pod->spec;
}

ResourceList resources(std::vector<std::pair<std::string, std::string>> entries) {
  ResourceList out;
  for (const auto& [name, text] : entries) {
    auto q = Quantity::parse(text);
    REQUIRE(q.ok());
    out[name] = *q;
  }
  return out;
}

std::string container(const char* name, const char* requests, const char* limits = "{}",
                      const char* restart_policy = nullptr) {
  std::string out = std::string(R"({"name": ")") + name + R"(", "resources": {"requests": )" + requests +
                    R"(, "limits": )" + limits + "}";
  if (restart_policy != nullptr) out += std::string(R"(, "restartPolicy": ")") + restart_policy + "\"";
  return out + "}";
}

std::string sidecar(const char* name, const char* requests) { return container(name, requests, "{}", "Always"); }

struct RequestCase {
  const char* what;
  std::string spec;
  ResourceList expected;
};

}  // namespace

TEST_CASE("pod_requests matches PodRequests", "[pod_requests]") {
  const std::vector<RequestCase> cases = {
      {"one container",
       R"("containers": [)" + container("a", R"({"cpu": "500m", "memory": "1Gi"})") + "]",
       resources({{"cpu", "500m"}, {"memory", "1Gi"}})},
      {"containers are summed",
       R"("containers": [)" + container("a", R"({"cpu": "500m", "memory": "1Gi"})") + "," +
           container("b", R"({"cpu": "1.5", "memory": "512Mi"})") + "]",
       resources({{"cpu", "2"}, {"memory", "1536Mi"}})},
      {"a larger init container wins",
       R"("initContainers": [)" + container("i", R"({"cpu": "4", "memory": "8Gi"})") + R"(], "containers": [)" +
           container("a", R"({"cpu": "1", "memory": "1Gi"})") + "]",
       resources({{"cpu", "4"}, {"memory", "8Gi"}})},
      {"a smaller init container changes nothing",
       R"("initContainers": [)" + container("i", R"({"cpu": "100m", "memory": "64Mi"})") + R"(], "containers": [)" +
           container("a", R"({"cpu": "1", "memory": "1Gi"})") + "]",
       resources({{"cpu", "1"}, {"memory", "1Gi"}})},
      {"the maximum is taken per resource",
       R"("initContainers": [)" + container("i", R"({"cpu": "3", "memory": "64Mi"})") + R"(], "containers": [)" +
           container("a", R"({"cpu": "1", "memory": "1Gi"})") + "]",
       resources({{"cpu", "3"}, {"memory", "1Gi"}})},
      {"init containers run one at a time: their maximum, not their sum",
       R"("initContainers": [)" + container("i1", R"({"cpu": "2"})") + "," + container("i2", R"({"cpu": "3"})") +
           R"(], "containers": [)" + container("a", R"({"cpu": "1"})") + "]",
       resources({{"cpu", "3"}})},
      {"a sidecar adds to the app containers",
       R"("initContainers": [)" + sidecar("proxy", R"({"cpu": "250m", "memory": "128Mi"})") +
           R"(], "containers": [)" + container("a", R"({"cpu": "1", "memory": "1Gi"})") + "]",
       resources({{"cpu", "1250m"}, {"memory", "1152Mi"}})},
      {"an init container after a sidecar runs next to it",
       R"("initContainers": [)" + sidecar("proxy", R"({"cpu": "500m"})") + "," + container("migrate", R"({"cpu": "2"})") +
           R"(], "containers": [)" + container("a", R"({"cpu": "1"})") + "]",
       resources({{"cpu", "2500m"}})},
      {"an init container before a sidecar does not",
       R"("initContainers": [)" + container("migrate", R"({"cpu": "2"})") + "," + sidecar("proxy", R"({"cpu": "500m"})") +
           R"(], "containers": [)" + container("a", R"({"cpu": "1"})") + "]",
       resources({{"cpu", "2"}})},
      {"sidecars accumulate for later init containers",
       R"("initContainers": [)" + sidecar("s1", R"({"cpu": "1"})") + "," + sidecar("s2", R"({"cpu": "1"})") + "," +
           container("late", R"({"cpu": "2"})") + R"(], "containers": [)" + container("a", R"({"cpu": "500m"})") + "]",
       resources({{"cpu", "4"}})},
      {"overhead is added on top",
       R"("overhead": {"cpu": "250m", "memory": "120Mi"}, "containers": [)" +
           container("a", R"({"cpu": "1", "memory": "1Gi"})") + "]",
       resources({{"cpu", "1250m"}, {"memory", "1144Mi"}})},
      {"extended resources are summed and maxed like the others",
       R"("initContainers": [)" + container("i", R"({"nvidia.com/gpu": "2"})") + R"(], "containers": [)" +
           container("a", R"({"nvidia.com/gpu": "1", "koordinator.sh/gpu-memory-ratio": "50"})") + "," +
           container("b", R"({"koordinator.sh/gpu-memory-ratio": "50"})") + "]",
       resources({{"nvidia.com/gpu", "2"}, {"koordinator.sh/gpu-memory-ratio", "100"}})},
      {"a resource only an init container asks for is kept",
       R"("initContainers": [)" + container("i", R"({"ephemeral-storage": "10Gi"})") + R"(], "containers": [)" +
           container("a", R"({"cpu": "1"})") + "]",
       resources({{"cpu", "1"}, {"ephemeral-storage", "10Gi"}})},
      {"no requests: nothing", R"("containers": [{"name": "a"}])", ResourceList{}},
      {"an explicit zero stays", R"("containers": [)" + container("a", R"({"cpu": "0"})") + "]",
       resources({{"cpu", "0"}})},
      {"pod-level requests replace cpu and memory, not extended resources",
       R"("resources": {"requests": {"cpu": "3", "memory": "4Gi"}}, "containers": [)" +
           container("a", R"({"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "1"})") + "]",
       resources({{"cpu", "3"}, {"memory", "4Gi"}, {"nvidia.com/gpu", "1"}})},
      {"pod-level limits alone do not replace requests",
       R"("resources": {"limits": {"cpu": "3"}}, "containers": [)" + container("a", R"({"cpu": "1"})") + "]",
       resources({{"cpu", "1"}})},
      {"pod-level requests then overhead",
       R"("resources": {"requests": {"cpu": "2"}}, "overhead": {"cpu": "100m"}, "containers": [)" +
           container("a", R"({"cpu": "1"})") + "]",
       resources({{"cpu", "2100m"}})},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    ResourceList got = pod_requests(spec_of(c.spec));
    INFO("got " << got.to_string() << ", want " << c.expected.to_string());
    CHECK(got == c.expected);
  }
}

TEST_CASE("pod_requests options: overhead and pod-level resources can be left out", "[pod_requests]") {
  PodSpec spec = spec_of(R"("overhead": {"cpu": "250m"}, "resources": {"requests": {"cpu": "4"}}, "containers": [)" +
                         container("a", R"({"cpu": "1"})") + "]");
  PodResourcesOptions no_overhead;
  no_overhead.exclude_overhead = true;
  CHECK(pod_requests(spec, no_overhead) == resources({{"cpu", "4"}}));
  PodResourcesOptions containers_only;
  containers_only.skip_pod_level_resources = true;
  CHECK(pod_requests(spec, containers_only) == resources({{"cpu", "1250m"}}));
}

TEST_CASE("pod_non_zero_requests fills missing cpu and memory per container", "[pod_requests]") {
  const std::vector<RequestCase> cases = {
      {"no requests at all", R"("containers": [{"name": "a"}])", resources({{"cpu", "100m"}, {"memory", "200Mi"}})},
      {"each container gets the defaults", R"("containers": [{"name": "a"}, {"name": "b"}])",
       resources({{"cpu", "200m"}, {"memory", "400Mi"}})},
      {"an explicit zero is not missing", R"("containers": [)" + container("a", R"({"cpu": "0"})") + "]",
       resources({{"cpu", "0"}, {"memory", "200Mi"}})},
      {"set values are kept", R"("containers": [)" + container("a", R"({"cpu": "2", "memory": "1Gi"})") + "]",
       resources({{"cpu", "2"}, {"memory", "1Gi"}})},
      {"extended-only containers still count cpu and memory",
       R"("containers": [)" + container("a", R"({"nvidia.com/gpu": "1"})") + "]",
       resources({{"cpu", "100m"}, {"memory", "200Mi"}, {"nvidia.com/gpu", "1"}})},
      {"init containers get the defaults too",
       R"("initContainers": [)" + container("i", R"({"cpu": "50m"})") + R"(], "containers": [)" +
           container("a", R"({"cpu": "20m"})") + "]",
       resources({{"cpu", "50m"}, {"memory", "200Mi"}})},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    ResourceList got = pod_non_zero_requests(spec_of(c.spec));
    INFO("got " << got.to_string() << ", want " << c.expected.to_string());
    CHECK(got == c.expected);
  }
}

TEST_CASE("pod_limits matches PodLimits", "[pod_requests]") {
  const std::vector<RequestCase> cases = {
      {"overhead only lands on resources with a limit",
       R"("overhead": {"cpu": "100m", "memory": "64Mi"}, "containers": [)" +
           container("a", R"({})", R"({"cpu": "1"})") + "]",
       resources({{"cpu", "1100m"}})},
      {"sidecars and init containers as for requests",
       R"("initContainers": [)" + container("i", "{}", R"({"memory": "4Gi"})") + "," +
           container("s", "{}", R"({"memory": "1Gi"})", "Always") + R"(], "containers": [)" +
           container("a", "{}", R"({"memory": "2Gi"})") + "]",
       resources({{"memory", "4Gi"}})},
      {"pod-level limits replace container limits",
       R"("resources": {"limits": {"cpu": "8"}}, "containers": [)" + container("a", "{}", R"({"cpu": "1"})") + "]",
       resources({{"cpu", "8"}})},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    ResourceList got = pod_limits(spec_of(c.spec));
    INFO("got " << got.to_string() << ", want " << c.expected.to_string());
    CHECK(got == c.expected);
  }
}

namespace {

// A pod with a spec fragment and a status fragment.
Pod pod_of(const std::string& spec_fields, const std::string& status_fields) {
  std::string text =
      R"({"metadata": {"name": "p"}, "spec": {)" + spec_fields + R"(}, "status": {)" + status_fields + "}}";
  Result<Pod> pod = decode_pod_json(text);
  INFO(text);
  if (!pod) FAIL(pod.message());
  return *pod;
}

// A containerStatuses entry; an empty argument leaves that field out.
std::string reported(const char* name, const char* allocated, const char* running, const char* running_limits = "") {
  std::string out = std::string(R"({"name": ")") + name + "\"";
  if (*allocated != '\0') out += std::string(R"(, "allocatedResources": )") + allocated;
  if (*running != '\0' || *running_limits != '\0') {
    out += R"(, "resources": {)";
    if (*running != '\0') out += std::string(R"("requests": )") + running;
    if (*running != '\0' && *running_limits != '\0') out += ", ";
    if (*running_limits != '\0') out += std::string(R"("limits": )") + running_limits;
    out += "}";
  }
  return out + "}";
}

const char* const kInfeasible = R"("conditions": [{"type": "PodResizePending", "status": "True", "reason": "Infeasible"}])";
const char* const kDeferred = R"("conditions": [{"type": "PodResizePending", "status": "True", "reason": "Deferred"}])";

struct ResizeCase {
  const char* what;
  std::string spec;
  std::string status;
  ResourceList expected;
};

}  // namespace

TEST_CASE("pod_requests of a Pod reads the kubelet's status as UseStatusResources", "[pod_requests][resize]") {
  const std::string one = R"("containers": [)" + container("a", R"({"cpu": "1", "memory": "1Gi"})") + "]";
  const std::string two = R"("containers": [)" + container("a", R"({"cpu": "1"})") + "," +
                          container("b", R"({"cpu": "2"})") + "]";
  const std::vector<ResizeCase> cases = {
      {"no status: the spec", one, "", resources({{"cpu", "1"}, {"memory", "1Gi"}})},
      {"statuses without resources: the spec", one, R"("containerStatuses": [{"name": "a"}])",
       resources({{"cpu", "1"}, {"memory", "1Gi"}})},
      {"growing: the spec asks for more than the kubelet admitted", one,
       R"("containerStatuses": [)" + reported("a", R"({"cpu": "500m", "memory": "1Gi"})",
                                              R"({"cpu": "500m", "memory": "1Gi"})") + "]",
       resources({{"cpu", "1"}, {"memory", "1Gi"}})},
      {"shrinking, not yet applied: what runs still counts", one,
       R"("containerStatuses": [)" + reported("a", R"({"cpu": "3", "memory": "1Gi"})",
                                              R"({"cpu": "3", "memory": "1Gi"})") + "]",
       resources({{"cpu", "3"}, {"memory", "1Gi"}})},
      {"admitted but not yet actuated: the most of the two", one,
       R"("containerStatuses": [)" + reported("a", R"({"cpu": "500m", "memory": "1Gi"})",
                                              R"({"cpu": "2", "memory": "1Gi"})") + "]",
       resources({{"cpu", "2"}, {"memory", "1Gi"}})},
      {"allocated alone stands for what runs", one,
       R"("containerStatuses": [)" + reported("a", R"({"cpu": "4", "memory": "2Gi"})", "") + "]",
       resources({{"cpu", "4"}, {"memory", "2Gi"}})},
      {"the maximum is taken over the sums, not per container", two,
       R"("containerStatuses": [)" + reported("a", R"({"cpu": "3"})", R"({"cpu": "3"})") + "," +
           reported("b", R"({"cpu": "500m"})", R"({"cpu": "500m"})") + "]",
       resources({{"cpu", "3500m"}})},
      {"a container without a status counts with its spec", two,
       R"("containerStatuses": [)" + reported("a", R"({"cpu": "2"})", R"({"cpu": "2"})") + "]",
       resources({{"cpu", "4"}})},
      {"statuses are matched by name, not position", two,
       R"("containerStatuses": [)" + reported("b", R"({"cpu": "5"})", "") + "," + reported("a", R"({"cpu": "1"})", "") +
           "]",
       resources({{"cpu", "6"}})},
      {"a deferred resize counts like one in progress", one,
       R"("containerStatuses": [)" + reported("a", R"({"cpu": "500m", "memory": "1Gi"})", "") + "], " + kDeferred,
       resources({{"cpu", "1"}, {"memory", "1Gi"}})},
      {"an infeasible resize: the spec is left out", one,
       R"("containerStatuses": [)" + reported("a", R"({"cpu": "500m", "memory": "1Gi"})",
                                              R"({"cpu": "500m", "memory": "1Gi"})") + "], " + kInfeasible,
       resources({{"cpu", "500m"}, {"memory", "1Gi"}})},
      {"an infeasible resize without statuses asks for nothing (as upstream)", one, kInfeasible, ResourceList{}},
      {"init container statuses are read too",
       R"("initContainers": [)" + sidecar("proxy", R"({"cpu": "250m"})") + R"(], "containers": [)" +
           container("a", R"({"cpu": "1"})") + "]",
       R"("initContainerStatuses": [)" + reported("proxy", R"({"cpu": "750m"})", "") + "]",
       resources({{"cpu", "1750m"}})},
      {"overhead still comes on top", R"("overhead": {"cpu": "100m"}, )" + one,
       R"("containerStatuses": [)" + reported("a", R"({"cpu": "2", "memory": "1Gi"})", "") + "]",
       resources({{"cpu", "2100m"}, {"memory", "1Gi"}})},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Pod pod = pod_of(c.spec, c.status);
    ResourceList got = pod_requests(pod);
    INFO("got " << got.to_string() << ", want " << c.expected.to_string());
    CHECK(got == c.expected);
    // The spec alone never reads the status.
    CHECK(pod_requests(pod.spec) == pod_requests(pod_of(c.spec, "").spec));
  }
}

TEST_CASE("pod_non_zero_requests and pod_limits of a Pod read the status too", "[pod_requests][resize]") {
  const std::string spec = R"("containers": [)" + container("a", R"({"memory": "1Gi"})", R"({"cpu": "1"})") + "]";
  Pod pod = pod_of(spec, R"("containerStatuses": [)" +
                             reported("a", R"({"cpu": "2", "memory": "1Gi"})", R"({"cpu": "2", "memory": "1Gi"})",
                                      R"({"cpu": "3"})") + "]");
  // The status names cpu, so the 100m default no longer applies to it.
  CHECK(pod_non_zero_requests(pod) == resources({{"cpu", "2"}, {"memory", "1Gi"}}));
  CHECK(pod_non_zero_requests(pod.spec) == resources({{"cpu", "100m"}, {"memory", "1Gi"}}));
  CHECK(pod_limits(pod) == resources({{"cpu", "3"}}));
  CHECK(pod_limits(pod.spec) == resources({{"cpu", "1"}}));
  Pod infeasible = pod_of(spec, R"("containerStatuses": [)" + reported("a", "", "", R"({"cpu": "500m"})") + "], " +
                                    kInfeasible);
  CHECK(pod_limits(infeasible) == resources({{"cpu", "500m"}}));
}

TEST_CASE("pod_resize_infeasible reads the PodResizePending condition", "[pod_requests][resize]") {
  CHECK(pod_resize_infeasible(pod_of(R"("containers": [])", kInfeasible).status));
  CHECK_FALSE(pod_resize_infeasible(pod_of(R"("containers": [])", kDeferred).status));
  CHECK_FALSE(pod_resize_infeasible(pod_of(R"("containers": [])", "").status));
}

TEST_CASE("a malformed status quantity is an error naming the field", "[pod_requests][resize]") {
  Result<Pod> pod = decode_pod_json(
      R"({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "a"}]},
          "status": {"containerStatuses": [{"name": "a", "allocatedResources": {"cpu": "lots"}}]}})");
  REQUIRE_FALSE(pod.ok());
  CHECK_THAT(pod.message(), Catch::Contains("status.containerStatuses[0].allocatedResources.cpu"));
}

TEST_CASE("compute_qos matches ComputePodQOS", "[pod_requests][qos]") {
  struct Case {
    const char* what;
    std::string spec;
    QosClass expected;
  };
  const char* guaranteed = R"({"cpu": "1", "memory": "1Gi"})";
  const std::vector<Case> cases = {
      {"no resources", R"("containers": [{"name": "a"}])", QosClass::best_effort},
      {"requests only", R"("containers": [)" + container("a", R"({"cpu": "1"})") + "]", QosClass::burstable},
      {"requests equal limits", R"("containers": [)" + container("a", guaranteed, guaranteed) + "]",
       QosClass::guaranteed},
      {"equal values in different spellings",
       R"("containers": [)" + container("a", R"({"cpu": "1", "memory": "1024Mi"})", R"({"cpu": "1000m", "memory": "1Gi"})") +
           "]",
       QosClass::guaranteed},
      {"limits without requests (not yet defaulted)",
       R"("containers": [)" + container("a", "{}", guaranteed) + "]", QosClass::burstable},
      {"requests below limits",
       R"("containers": [)" + container("a", R"({"cpu": "500m", "memory": "1Gi"})", guaranteed) + "]",
       QosClass::burstable},
      {"cpu pinned but no memory",
       R"("containers": [)" + container("a", R"({"cpu": "1"})", R"({"cpu": "1"})") + "]", QosClass::burstable},
      {"two guaranteed containers",
       R"("containers": [)" + container("a", guaranteed, guaranteed) + "," + container("b", guaranteed, guaranteed) + "]",
       QosClass::guaranteed},
      {"guaranteed next to best-effort",
       R"("containers": [)" + container("a", guaranteed, guaranteed) + R"(, {"name": "b"}])", QosClass::burstable},
      {"guaranteed init and app containers",
       R"("initContainers": [)" + container("i", guaranteed, guaranteed) + R"(], "containers": [)" +
           container("a", guaranteed, guaranteed) + "]",
       QosClass::guaranteed},
      {"best-effort init container with a guaranteed app",
       R"("initContainers": [{"name": "i"}], "containers": [)" + container("a", guaranteed, guaranteed) + "]",
       QosClass::burstable},
      {"extended resources alone are best effort",
       R"("containers": [)" + container("a", R"({"nvidia.com/gpu": "1"})", R"({"nvidia.com/gpu": "1"})") + "]",
       QosClass::best_effort},
      {"extended resources do not spoil guaranteed",
       R"("containers": [)" +
           container("a", R"({"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "1"})",
                     R"({"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "2"})") +
           "]",
       QosClass::guaranteed},
      {"explicit zeros are best effort",
       R"("containers": [)" + container("a", R"({"cpu": "0", "memory": "0"})") + "]", QosClass::best_effort},
      {"pod-level resources decide when set",
       R"("resources": {"requests": )" + std::string(guaranteed) + R"(, "limits": )" + guaranteed +
           R"(}, "containers": [{"name": "a"}])",
       QosClass::guaranteed},
      {"pod-level requests only",
       R"("resources": {"requests": {"cpu": "1"}}, "containers": [)" + container("a", guaranteed, guaranteed) + "]",
       QosClass::burstable},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(compute_qos(spec_of(c.spec)) == c.expected);
  }
}

TEST_CASE("pod_qos prefers the reported class; names are Kubernetes'", "[pod_requests][qos]") {
  Result<Pod> pod = decode_pod_json(R"({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "a"}]},
                                        "status": {"qosClass": "Guaranteed"}})");
  REQUIRE(pod.ok());
  CHECK(pod_qos(*pod) == QosClass::guaranteed);
  CHECK(compute_qos(pod->spec) == QosClass::best_effort);
  pod->status.qos_class.clear();
  CHECK(pod_qos(*pod) == QosClass::best_effort);
  CHECK(std::string(to_string(QosClass::guaranteed)) == "Guaranteed");
  CHECK(std::string(to_string(QosClass::burstable)) == "Burstable");
  CHECK(std::string(to_string(QosClass::best_effort)) == "BestEffort");
}

TEST_CASE("pod_priority defaults to zero", "[pod_requests]") {
  CHECK(pod_priority(spec_of(R"("containers": [])")) == 0);
  CHECK(pod_priority(spec_of(R"("priority": 2000001000)")) == 2000001000);
  CHECK(pod_priority(spec_of(R"("priority": -5)")) == -5);
}
