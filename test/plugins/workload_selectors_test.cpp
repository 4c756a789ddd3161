// WorkloadSelectors: the siblings' selector that PodTopologySpread's default
// constraints count (upstream's helper.DefaultSelector), table-driven.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "plugins/framework/workload_selectors.hpp"
#include "test/plugins/builders.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;
using Op = LabelRequirement::Op;

namespace {

WorkloadSelector service(const std::string& ns, const std::string& name, Labels selector) {
  WorkloadSelector w;
  w.kind = WorkloadKind::service;
  w.namespace_name = ns;
  w.name = name;
  w.match_labels = std::move(selector);
  return w;
}
WorkloadSelector rc(const std::string& ns, const std::string& name, Labels selector) {
  WorkloadSelector w = service(ns, name, std::move(selector));
  w.kind = WorkloadKind::replication_controller;
  return w;
}
WorkloadSelector controller(WorkloadKind kind, const std::string& ns, const std::string& name,
                            std::vector<LabelRequirement> requirements) {
  WorkloadSelector w;
  w.kind = kind;
  w.namespace_name = ns;
  w.name = name;
  w.requirements = std::move(requirements);
  return w;
}

OwnerReference owner(std::string api_version, std::string kind, std::string name, bool is_controller = true) {
  OwnerReference o;
  o.api_version = std::move(api_version);
  o.kind = std::move(kind);
  o.name = std::move(name);
  o.uid = "uid-" + o.name;
  o.controller = is_controller;
  return o;
}

Pod pod_in(const std::string& ns, Labels labels, std::vector<OwnerReference> owners = {}) {
  Pod pod = PodBuilder("p", ns).pod();
  pod.meta.labels = std::move(labels);
  pod.meta.owner_references = std::move(owners);
  return pod;
}

}  // namespace

TEST_CASE("WorkloadSelectors::default_selector: Services and the controller select the pod's siblings",
          "[workload_selectors]") {
  const Labels web = {{"app", "web"}, {"tier", "fe"}, {"pod-template-hash", "abc"}};
  const std::vector<WorkloadSelector> cluster = {
      service("shop", "web", {{"app", "web"}}),
      service("shop", "frontends", {{"tier", "fe"}}),
      service("shop", "db", {{"app", "db"}}),
      service("shop", "headless", {}),             // no selector: selects nothing
      service("other", "web", {{"region", "eu"}}),  // another namespace
      rc("shop", "legacy", {{"app", "web"}, {"gen", "1"}}),
      controller(WorkloadKind::replica_set, "shop", "web-abc",
                 {requirement("app", Op::in, {"web"}), requirement("pod-template-hash", Op::in, {"abc"})}),
      controller(WorkloadKind::stateful_set, "shop", "cache", {requirement("app", Op::exists)}),
      controller(WorkloadKind::replica_set, "shop", "open", {}),  // selector {}: adds nothing
  };
  struct Case {
    const char* name;
    Pod pod;
    std::string want;  // LabelSelector::to_string; "" = empty (no default constraints)
  };
  const std::vector<Case> cases = {
      {"no Service, no owner", pod_in("shop", {{"app", "other"}}), ""},
      {"the Services whose selectors match, merged", pod_in("shop", web), "app=web,tier=fe"},
      {"a Service of another namespace does not count", pod_in("other", {{"app", "x"}, {"region", "eu"}}),
       "region=eu"},
      {"a ReplicaSet owner adds its requirements",
       pod_in("shop", web, {owner("apps/v1", "ReplicaSet", "web-abc")}),
       "app=web,tier=fe,app in (web),pod-template-hash in (abc)"},
      {"a StatefulSet owner alone", pod_in("shop", {{"app", "cache"}}, {owner("apps/v1", "StatefulSet", "cache")}),
       "app"},
      {"a ReplicationController owner merges its labels",
       pod_in("shop", {{"app", "web"}, {"gen", "1"}}, {owner("v1", "ReplicationController", "legacy")}),
       "app=web,gen=1"},
      {"an owner that is not the controller is not followed",
       pod_in("shop", {{"app", "cache"}}, {owner("apps/v1", "StatefulSet", "cache", false)}), ""},
      {"an owner of another group version is not followed",
       pod_in("shop", {{"app", "cache"}}, {owner("apps/v1beta2", "StatefulSet", "cache")}), ""},
      {"a Deployment or Job owner is not followed", pod_in("shop", {{"app", "x"}}, {owner("batch/v1", "Job", "j")}),
       ""},
      {"an owner the cluster does not have", pod_in("shop", {{"app", "x"}}, {owner("apps/v1", "ReplicaSet", "gone")}),
       ""},
      {"an owner with an empty selector adds nothing", pod_in("shop", {{"x", "y"}}, {owner("apps/v1", "ReplicaSet", "open")}),
       ""},
      {"the controller of another namespace is not the pod's",
       pod_in("other", {{"app", "cache"}}, {owner("apps/v1", "StatefulSet", "cache")}), ""},
  };
  WorkloadSelectors workloads;
  for (const auto& w : cluster) REQUIRE(workloads.upsert(w));
  for (const auto& c : cases) {
    INFO(c.name);
    LabelSelector selector = workloads.default_selector(c.pod);
    CHECK(selector.to_string() == c.want);
    CHECK(selector.empty() == c.want.empty());
    if (!c.want.empty()) CHECK(selector.matches(c.pod.meta.labels));  // a pod is its own sibling
  }
}

TEST_CASE("WorkloadSelectors: the generation moves only when a selector does", "[workload_selectors]") {
  WorkloadSelectors workloads;
  const uint64_t start = workloads.generation();
  CHECK(workloads.upsert(service("shop", "web", {{"app", "web"}})));
  CHECK(workloads.generation() == start + 1);
  CHECK_FALSE(workloads.upsert(service("shop", "web", {{"app", "web"}})));  // a status update
  CHECK(workloads.generation() == start + 1);
  CHECK(workloads.upsert(service("shop", "web", {{"app", "shop"}})));
  CHECK(workloads.generation() == start + 2);
  CHECK(workloads.upsert(rc("shop", "web", {{"app", "shop"}})));  // same name, another kind
  CHECK(workloads.size() == 2);
  CHECK(workloads.remove(WorkloadKind::service, "shop", "web"));
  CHECK_FALSE(workloads.remove(WorkloadKind::service, "shop", "web"));
  CHECK(workloads.generation() == start + 4);
  CHECK(workloads.size() == 1);
  CHECK(workloads.default_selector(pod_in("shop", {{"app", "shop"}})).empty());  // the Service is gone
}
