#include <catch2/catch.hpp>

#include "model/pod.hpp"

using namespace troupe;

namespace {

// A pod as the API server returns it, with fields the view does not model
// (image, env, volumes, managedFields, containerStatuses, ...).
const char* kPodJson = R"({
  "apiVersion": "v1",
  "kind": "Pod",
  "metadata": {
    "name": "web-7d4b9c6f5-x2x9k",
    "generateName": "web-7d4b9c6f5-",
    "namespace": "shop",
    "uid": "5a1e2b0c-7f3d-4c2a-9e8b-1d2c3b4a5f60",
    "resourceVersion": "81723",
    "creationTimestamp": "2026-03-01T10:00:00Z",
    "labels": {"app": "web", "pod-template-hash": "7d4b9c6f5"},
    "annotations": {"scheduling.koordinator.sh/resource-spec": "{\"preferredCPUBindPolicy\":\"FullPCPUs\"}"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d4b9c6f5",
                         "uid": "0f9e8d7c-6b5a-4321-8765-432109876543", "controller": true, "blockOwnerDeletion": true}],
    "managedFields": [{"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1"}]
  },
  "spec": {
    "schedulerName": "troupe",
    "priority": 9500,
    "priorityClassName": "koord-prod",
    "preemptionPolicy": "Never",
    "volumes": [{"name": "cache", "emptyDir": {}}, {"name": "data", "persistentVolumeClaim": {"claimName": "data-0"}},
                {"name": "kube-api-access", "projected": {"sources": []}}],
    "initContainers": [
      {"name": "setup", "image": "busybox:1.36", "resources": {"requests": {"cpu": "2", "memory": "1Gi"}}},
      {"name": "proxy", "image": "envoy:1.30", "restartPolicy": "Always",
       "resources": {"requests": {"cpu": "250m", "memory": "128Mi"}}}
    ],
    "containers": [
      {"name": "app", "image": "shop/web:4.2", "env": [{"name": "MODE", "value": "prod"}],
       "ports": [{"name": "http", "containerPort": 8080, "hostPort": 80, "hostIP": "0.0.0.0", "protocol": "TCP"},
                 {"containerPort": 9090}],
       "resources": {"requests": {"cpu": "1.5", "memory": "2Gi", "nvidia.com/gpu": 1},
                     "limits": {"cpu": "2", "memory": "2Gi", "nvidia.com/gpu": "1"}}}
    ],
    "overhead": {"cpu": "100m"},
    "nodeSelector": {"kubernetes.io/os": "linux"},
    "affinity": {
      "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
          {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", "b"]}],
           "matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["node-9"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [
          {"weight": 20, "preference": {"matchExpressions": [{"key": "gpu-model", "operator": "Exists"}]}}]
      },
      "podAntiAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [
          {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}},
                                              "topologyKey": "kubernetes.io/hostname"}}]
      }
    },
    "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                     "tolerationSeconds": 300},
                    {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}],
    "schedulingGates": [{"name": "example.com/quota"}, {"name": "example.com/volumes"}],
    "dnsPolicy": "ClusterFirst"
  },
  "status": {
    "phase": "Pending",
    "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                    "message": "0/3 nodes are available", "lastProbeTime": null,
                    "lastTransitionTime": "2026-03-01T10:00:01Z"}],
    "nominatedNodeName": "node-2",
    "qosClass": "Burstable"
  }
})";

Pod must_decode(const std::string& text) {
  Result<Pod> pod = decode_pod_json(text);
  INFO(text);
  if (!pod) FAIL(pod.message());
  return *pod;
}

}  // namespace

TEST_CASE("decode_pod reads every modelled field of a real-looking pod", "[pod]") {
  Pod pod = must_decode(kPodJson);
  CHECK(pod.meta.name == "web-7d4b9c6f5-x2x9k");
  CHECK(pod.meta.namespace_name == "shop");
  CHECK(pod.meta.key() == "shop/web-7d4b9c6f5-x2x9k");
  CHECK(pod.meta.labels.at("app") == "web");
  REQUIRE(pod.meta.controller_ref() != nullptr);
  CHECK(pod.meta.controller_ref()->kind == "ReplicaSet");
  CHECK(pod.meta.creation_timestamp.has_value());

  CHECK(pod.spec.scheduler_name == "troupe");
  CHECK(pod.spec.priority == 9500);
  CHECK(pod.spec.priority_class_name == "koord-prod");
  CHECK(pod.spec.preemption_policy == PreemptionPolicy::never);
  REQUIRE(pod.spec.init_containers.size() == 2);
  CHECK_FALSE(pod.spec.init_containers[0].is_restartable());
  CHECK(pod.spec.init_containers[1].is_restartable());
  REQUIRE(pod.spec.containers.size() == 1);
  const Container& app = pod.spec.containers[0];
  CHECK(app.resources.requests.at("cpu").milli_value() == 1500);
  CHECK(app.resources.requests.at("nvidia.com/gpu").value() == 1);
  REQUIRE(app.ports.size() == 2);
  CHECK(app.ports[0].host_port == 80);
  CHECK(app.ports[0].host_ip == "0.0.0.0");
  CHECK(app.ports[1].container_port == 9090);
  CHECK(app.ports[1].protocol == Protocol::tcp);
  CHECK(pod.spec.overhead.at("cpu").milli_value() == 100);
  CHECK(pod.spec.node_selector.at("kubernetes.io/os") == "linux");

  REQUIRE(pod.spec.affinity.has_value());
  REQUIRE(pod.spec.affinity->node_affinity.has_value());
  const NodeAffinity& na = *pod.spec.affinity->node_affinity;
  REQUIRE(na.required.has_value());
  REQUIRE(na.required->terms.size() == 1);
  CHECK(na.required->terms[0].match_expressions[0].key == "zone");
  CHECK(na.required->terms[0].match_expressions[0].op == LabelRequirement::Op::in);
  CHECK(na.required->terms[0].match_fields[0].op == LabelRequirement::Op::not_in);
  REQUIRE(na.preferred.size() == 1);
  CHECK(na.preferred[0].weight == 20);
  CHECK_FALSE(pod.spec.affinity->pod_affinity.has_value());
  REQUIRE(pod.spec.affinity->pod_anti_affinity.has_value());
  const auto& anti = pod.spec.affinity->pod_anti_affinity->preferred;
  REQUIRE(anti.size() == 1);
  CHECK(anti[0].weight == 100);
  CHECK(anti[0].term.topology_key == "kubernetes.io/hostname");
  REQUIRE(anti[0].term.label_selector.has_value());
  CHECK(anti[0].term.label_selector->matches({{"app", "web"}}));
  CHECK_FALSE(anti[0].term.label_selector->matches({{"app", "db"}}));

  REQUIRE(pod.spec.tolerations.size() == 2);
  CHECK(pod.spec.tolerations[0].op == TolerationOperator::exists);
  CHECK(pod.spec.tolerations[0].effect == TaintEffect::no_execute);
  CHECK(pod.spec.tolerations[0].toleration_seconds == 300);
  CHECK(pod.spec.has_local_storage);
  CHECK(pod.spec.has_pvc);
  REQUIRE(pod.spec.scheduling_gates.size() == 2);
  CHECK(pod.spec.scheduling_gates[0].name == "example.com/quota");
  CHECK(pod.spec.scheduling_gates[1].name == "example.com/volumes");

  CHECK(pod.status.phase == "Pending");
  REQUIRE(pod.status.conditions.size() == 1);
  CHECK(pod.status.conditions[0].reason == "Unschedulable");
  CHECK_FALSE(pod.status.conditions[0].last_probe_time.has_value());
  CHECK(pod.status.nominated_node_name == "node-2");
  CHECK(pod.status.qos_class == "Burstable");
}

TEST_CASE("encode of an unchanged pod gives back its input", "[pod]") {
  auto input = parse_json(kPodJson);
  REQUIRE(input);
  Pod pod = must_decode(kPodJson);
  auto output = parse_json(encode(pod));
  REQUIRE(output);
  CHECK(json_equal(**input, **output));
  // Byte for byte too: nothing was rewritten, not even "1.5" or key order.
  CHECK(encode(pod) == to_json(**input));
}

TEST_CASE("encode writes changed fields and keeps unknown ones", "[pod]") {
  Pod pod = must_decode(kPodJson);
  pod.spec.node_name = "node-7";
  pod.status.nominated_node_name.clear();
  pod.meta.annotations["scheduling.koordinator.sh/device-allocated"] = "{}";
  pod.spec.containers[0].resources.requests["cpu"] = *Quantity::parse("3");
  pod.spec.tolerations.pop_back();
  auto out = parse_json(encode(pod));
  REQUIRE(out);
  const auto& doc = **out;
  CHECK(get_string(doc, "spec", "nodeName") == "node-7");
  CHECK(find_path(doc, "status", "nominatedNodeName") == nullptr);
  CHECK(get_string(doc, "metadata", "annotations", "scheduling.koordinator.sh/device-allocated") == "{}");
  CHECK(get_string(doc, "spec", "containers") == "");
  const auto& app = doc["spec"]["containers"][0];
  CHECK(get_string(app, "resources", "requests", "cpu") == "3");
  CHECK(get_string(app, "resources", "requests", "memory") == "2Gi");
  CHECK(get_string(app, "image") == "shop/web:4.2");
  CHECK(doc["spec"]["tolerations"].Size() == 1);
  CHECK(get_string(doc, "spec", "dnsPolicy") == "ClusterFirst");
  CHECK(find_path(doc, "metadata", "managedFields") != nullptr);
  // And it decodes again to the changed view.
  Pod again = must_decode(to_json(doc));
  CHECK(again.spec.node_name == "node-7");
  CHECK(again.spec.containers[0].resources.requests.at("cpu").value() == 3);
}

TEST_CASE("decode_pod names the offending field and never crashes", "[pod]") {
  struct Case {
    std::string json;
    std::string error;  // the whole message, or its beginning when it ends in "..."
  };
  auto pod = [](const std::string& spec) { return R"({"metadata": {"name": "p"}, "spec": {)" + spec + "}}"; };
  const std::vector<Case> cases = {
      {pod(R"("containers": [{"name": "a", "resources": {"requests": {"cpu": "abc"}}}])"),
       "spec.containers[0].resources.requests.cpu: invalid quantity \"abc\": quantities must match the regular "
       "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {pod(R"("containers": [{"name": "a", "resources": {"limits": {"memory": true}}}])"),
       "spec.containers[0].resources.limits.memory: Invalid value: boolean: must be a quantity string"},
      {pod(R"("containers": [{"name": "a", "resources": {"requests": ["cpu"]}}])"),
       "spec.containers[0].resources.requests: Invalid value: array: must be an object of resource names to "
       "quantities"},
      {pod(R"("priority": "high")"), "spec.priority: Invalid value: string: must be an integer"},
      {pod(R"("priority": 1.5)"), "spec.priority: Invalid value: number: must be an integer"},
      {pod(R"("priority": 3000000000)"), "spec.priority: Invalid value: 3000000000: must fit in a 32-bit integer"},
      {pod(R"("containers": {"name": "a"})"), "spec.containers: Invalid value: object: must be an array"},
      {pod(R"("containers": [{"name": "a"}, "b"])"), "spec.containers[1]: Invalid value: string: must be an object"},
      {pod(R"("containers": [{"image": "nginx"}])"), "spec.containers[0].name: Required value"},
      {pod(R"("initContainers": [{"name": ""}])"), "spec.initContainers[0].name: Required value"},
      {pod(R"("containers": [{"name": "a", "ports": [{"hostPort": 80}]}])"),
       "spec.containers[0].ports[0].containerPort: Required value"},
      {pod(R"("containers": [{"name": "a", "ports": [{"containerPort": "80"}]}])"),
       "spec.containers[0].ports[0].containerPort: Invalid value: string: must be an integer"},
      {pod(R"("containers": [{"name": "a", "ports": [{"containerPort": 80, "protocol": "HTTP"}]}])"),
       "spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported values: \"TCP\", \"UDP\", "
       "\"SCTP\""},
      {pod(R"("tolerations": [{"key": "k", "effect": "Sometimes"}])"),
       "spec.tolerations[0].effect: Unsupported value: \"Sometimes\": supported values: \"NoSchedule\", "
       "\"PreferNoSchedule\", \"NoExecute\""},
      {pod(R"("tolerations": [{"operator": "Maybe"}])"),
       "spec.tolerations[0].operator: Unsupported value: \"Maybe\": supported values: \"Equal\", \"Exists\""},
      {pod(R"("tolerations": [{"key": "k", "tolerationSeconds": "300"}])"),
       "spec.tolerations[0].tolerationSeconds: Invalid value: string: must be an integer"},
      {pod(R"("preemptionPolicy": "Sometimes")"),
       "spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", "
       "\"Never\""},
      {pod(R"("overhead": {"memory": "1Qi"})"), "spec.overhead.memory: invalid quantity \"1Qi\": ..."},
      {pod(R"("containers": [{"name": "a", "resources": {"requests": {"cpu": "-4"}}}])"),
       "spec.containers[0].resources.requests.cpu: Invalid value: \"-4\": must be greater than or equal to 0"},
      {pod(R"("containers": [{"name": "a", "resources": {"limits": {"koordinator.sh/rdma": "-100"}}}])"),
       "spec.containers[0].resources.limits.koordinator.sh/rdma: Invalid value: \"-100\": must be greater than or "
       "equal to 0"},
      {pod(R"("nodeSelector": {"zone": 1})"), "spec.nodeSelector.zone: Invalid value: number: must be a string"},
      {pod(R"("affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms":
              [{"matchExpressions": [{"key": "zone", "operator": "Near", "values": ["a"]}]}]}}})"),
       "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]."
       "matchExpressions[0].operator: Unsupported value: \"Near\": ..."},
      {pod(R"("affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution":
              [{"preference": {}}]}})"),
       "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Required value"},
      {pod(R"("affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
              [{"labelSelector": {"matchLabels": {"app": "db"}}}]}})"),
       "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value"},
      {pod(R"("affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
              [{"labelSelector": {"matchLabels": {"app": 5}}, "topologyKey": "zone"}]}})"),
       "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels"
       "[app]: Invalid value: number: must be a string"},
      {pod(R"("affinity": "none")"), "spec.affinity: Invalid value: string: must be an object"},
      {pod(R"("volumes": {"cache": {}})"), "spec.volumes: Invalid value: object: must be an array"},
      {pod(R"("schedulingGates": {"name": "a"})"), "spec.schedulingGates: Invalid value: object: must be an array"},
      {pod(R"("schedulingGates": [{}])"), "spec.schedulingGates[0].name: Required value"},
      {pod(R"("schedulingGates": [{"name": "a"}, {"name": ""}])"), "spec.schedulingGates[1].name: Required value"},
      {pod(R"("schedulingGates": ["a"])"), "spec.schedulingGates[0]: Invalid value: string: must be an object"},
      {R"({"metadata": {"name": "p", "labels": {"app": 5}}})",
       "metadata.labels.app: Invalid value: number: must be a string"},
      {R"({"metadata": {"name": "p", "creationTimestamp": "yesterday"}})",
       "metadata.creationTimestamp: invalid RFC 3339 time \"yesterday\": expected YYYY-MM-DDTHH:MM:SS"},
      {R"({"metadata": {"name": "p", "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "n"}]}})",
       "metadata.ownerReferences[0].uid: Required value"},
      {R"({"metadata": {"name": "p"}, "status": {"conditions": [{"type": "Ready"}]}})",
       "status.conditions[0].status: Required value"},
      {R"({"metadata": "p"})", "metadata: Invalid value: string: must be an object"},
      {R"({"metadata": {}})", "metadata.name: Required value: name or generateName is required"},
      {R"({})", "metadata.name: Required value: name or generateName is required"},
      {R"({"kind": "Node", "metadata": {"name": "p"}})", "kind: Invalid value: \"Node\": must be Pod"},
      {R"([{"metadata": {"name": "p"}}])", "Pod: Invalid value: array: must be an object"},
      {R"({"metadata": {"name": "p"})", "invalid JSON at offset 26: Missing a comma or '}' after an object member."},
  };
  for (const auto& c : cases) {
    INFO(c.json);
    Result<Pod> decoded = decode_pod_json(c.json);
    REQUIRE_FALSE(decoded.ok());
    const std::string suffix = "...";
    if (c.error.size() > 3 && c.error.compare(c.error.size() - 3, 3, suffix) == 0) {
      CHECK_THAT(decoded.message(), Catch::StartsWith(c.error.substr(0, c.error.size() - 3)));
    } else {
      CHECK(decoded.message() == c.error);
    }
  }
}

TEST_CASE("decode_pod accepts what the API server accepts", "[pod]") {
  struct Case {
    const char* what;
    const char* json;
  };
  const Case cases[] = {
      {"a list item without apiVersion and kind", R"({"metadata": {"name": "p"}, "spec": {"containers": []}})"},
      {"generateName only (a create request)", R"({"metadata": {"generateName": "web-"}})"},
      {"nulls where objects may be", R"({"metadata": {"name": "p", "labels": null, "ownerReferences": null},
         "spec": {"affinity": null, "nodeSelector": null, "tolerations": null, "containers": [{"name": "a",
         "resources": {"requests": null}, "ports": null}]}, "status": null})"},
      {"quantities written as JSON numbers", R"({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "a",
         "resources": {"requests": {"cpu": 2, "memory": 1073741824, "example.com/dongle": 0.5}}}]}})"},
      {"empty effect and operator on a toleration", R"({"metadata": {"name": "p"}, "spec": {"tolerations":
         [{"operator": "", "effect": ""}]}})"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Result<Pod> decoded = decode_pod_json(c.json);
    if (!decoded) FAIL(decoded.message());
    auto input = parse_json(c.json);
    REQUIRE(input.ok());
    CHECK(encode(*decoded) == to_json(**input));
  }
}

TEST_CASE("numbers as quantities decode by their text", "[pod]") {
  Pod pod = must_decode(R"({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "a",
      "resources": {"requests": {"cpu": 2, "memory": 1073741824, "example.com/dongle": 0.5}}}]}})");
  const ResourceList& requests = pod.spec.containers[0].resources.requests;
  CHECK(requests.at("cpu").milli_value() == 2000);
  CHECK(requests.at("memory").value() == 1073741824);
  CHECK(requests.at("example.com/dongle").milli_value() == 500);
  // As resource.Quantity's UnmarshalJSON, a quoted quantity is trimmed before it is parsed.
  Pod padded = must_decode(R"({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "a",
      "resources": {"requests": {"cpu": " 100m", "memory": "1Gi\n"}}}]}})");
  CHECK(padded.spec.containers[0].resources.requests.at("cpu").milli_value() == 100);
  CHECK(padded.spec.containers[0].resources.requests.at("memory").value() == 1073741824);
}

TEST_CASE("a pod built in code encodes to a complete object", "[pod]") {
  Pod pod;
  pod.meta.name = "built";
  pod.meta.namespace_name = "default";
  pod.meta.labels["app"] = "demo";
  Container c;
  c.name = "main";
  c.resources.requests["cpu"] = Quantity::from_milli(500);
  c.resources.limits["memory"] = Quantity::from_value(256 * 1024 * 1024, Quantity::Format::binary_si);
  ContainerPort port;
  port.container_port = 8080;
  port.host_port = 30080;
  c.ports.push_back(port);
  pod.spec.containers.push_back(c);
  pod.spec.scheduler_name = "troupe";
  Toleration t;
  t.key = "dedicated";
  t.op = TolerationOperator::exists;
  pod.spec.tolerations.push_back(t);
  pod.spec.affinity.emplace();
  pod.spec.affinity->node_affinity.emplace();
  pod.spec.affinity->node_affinity->required.emplace();
  NodeSelectorTerm term;
  term.match_expressions.push_back({"zone", LabelRequirement::Op::in, {"a"}});
  pod.spec.affinity->node_affinity->required->terms.push_back(term);

  const std::string expected =
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"built","namespace":"default","labels":{"app":"demo"}},)"
      R"("spec":{"schedulerName":"troupe","containers":[{"name":"main","resources":{"requests":{"cpu":"500m"},)"
      R"("limits":{"memory":"256Mi"}},"ports":[{"containerPort":8080,"hostPort":30080}]}],)"
      R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":)"
      R"([{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}]}}},)"
      R"("tolerations":[{"key":"dedicated","operator":"Exists"}]}})";
  CHECK(encode(pod) == expected);
  Pod decoded = must_decode(expected);
  CHECK(decoded.spec.containers[0].resources.requests == pod.spec.containers[0].resources.requests);
  CHECK(decoded.spec.tolerations[0].op == TolerationOperator::exists);
}
