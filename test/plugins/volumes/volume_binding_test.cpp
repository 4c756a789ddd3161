#include <catch2/catch.hpp>

#include "../builders.hpp"
#include "plugins/volumes/volume_binding.hpp"
#include "volume_fixtures.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::volumes;
using namespace troupe::plugins::volumes::testing;
using troupe::plugins::testing::NodeBuilder;

namespace {

const Code uu = Code::unschedulable_and_unresolvable;

struct Run {
  PluginStatus pre_filter;
  CycleState state;
};

Run pre_filter(const VolumeBinding& plugin, const Pod& pod, std::shared_ptr<const VolumeCatalog> catalog) {
  Run run{{}, CycleState(4)};
  if (catalog) run.state.share_input(std::move(catalog), 1);
  PreFilterResult result;
  run.pre_filter = plugin.pre_filter(run.state, *PodInfo::make(pod), result);
  return run;
}

NodeSelector name_not_in(std::string name) {
  LabelRequirement r;
  r.key = "metadata.name";
  r.op = LabelRequirement::Op::not_in;
  r.values = {std::move(name)};
  NodeSelectorTerm term;
  term.match_fields.push_back(std::move(r));
  return NodeSelector{{std::move(term)}};
}

NodeSelector name_in(std::string name) {
  NodeSelector selector = name_not_in(std::move(name));
  selector.terms[0].match_fields[0].op = LabelRequirement::Op::in;
  return selector;
}

}  // namespace

TEST_CASE("VolumeBinding PreFilter: skip, reject or go on to the nodes", "[volumes]") {
  const auto catalog = CatalogBuilder()
                           .add(claim("plain", "pv-plain"))
                           .add(claim("local", "pv-local"))
                           .add(claim("orphan", "pv-gone"))
                           .add(claim("immediate", "", std::string("fast")))
                           .add(claim("later", "", std::string("wffc")))
                           .add(volume("pv-plain"))
                           .add(volume("pv-local", {}, node_in("kubernetes.io/hostname", {"n-1"})))
                           .add(storage_class("fast", "Immediate"))
                           .add(storage_class("wffc", "WaitForFirstConsumer"))
                           .build();
  struct Case {
    const char* name;
    Pod pod;
    Code code;
    const char* message;  // "" for none
  };
  const std::vector<Case> cases = {
      {"no claims: skip", pod_with_claims({}), Code::skip, ""},
      {"bound volumes without node affinity: skip", pod_with_claims({"plain"}), Code::skip, ""},
      {"a bound volume with node affinity: Filter runs", pod_with_claims({"plain", "local"}), Code::success, ""},
      {"a claim bound to a missing volume: Filter runs", pod_with_claims({"orphan"}), Code::success, ""},
      {"a missing claim", pod_with_claims({"nope"}), uu, "persistentvolumeclaim \"nope\" not found"},
      {"an unbound Immediate claim", pod_with_claims({"plain", "immediate"}), uu,
       "pod has unbound immediate PersistentVolumeClaims"},
      {"unbound immediate is reported before a delayed one", pod_with_claims({"later", "immediate"}), uu,
       "pod has unbound immediate PersistentVolumeClaims"},
      {"a WaitForFirstConsumer claim to bind: Filter runs", pod_with_claims({"later"}), Code::success, ""},
  };
  const VolumeBinding plugin{std::chrono::seconds(600)};
  for (const auto& c : cases) {
    INFO(c.name);
    Run run = pre_filter(plugin, c.pod, catalog);
    CHECK(run.pre_filter.code == c.code);
    CHECK(run.pre_filter.message() == c.message);
  }
  SECTION("without the catalog every claim is missing") {
    Run run = pre_filter(plugin, pod_with_claims({"plain"}), nullptr);
    CHECK(run.pre_filter.message() == "persistentvolumeclaim \"plain\" not found");
  }
}

TEST_CASE("local_volume_node_names: the hostnames a volume pins, as GetLocalPersistentVolumeNodeNames",
          "[volumes]") {
  using Op = LabelRequirement::Op;
  auto req = [](std::string key, Op op, std::vector<std::string> values) {
    LabelRequirement r;
    r.key = std::move(key);
    r.op = op;
    r.values = std::move(values);
    return r;
  };
  const std::string host = kLabelHostname;
  struct Case {
    const char* what;
    std::vector<std::vector<LabelRequirement>> terms;
    std::set<std::string> names;
  };
  const std::vector<Case> cases = {
      {"one hostname", {{req(host, Op::in, {"n-1"})}}, {"n-1"}},
      {"two expressions intersect", {{req(host, Op::in, {"n-1", "n-2"}), req(host, Op::in, {"n-2", "n-3"})}}, {"n-2"}},
      {"terms join", {{req(host, Op::in, {"n-1"})}, {req(host, Op::in, {"n-2"})}}, {"n-1", "n-2"}},
      {"a term without a hostname adds nothing", {{req(host, Op::in, {"n-1"})}, {req("zone", Op::in, {"a"})}}, {"n-1"}},
      {"NotIn pins nothing", {{req(host, Op::not_in, {"n-1"})}}, {}},
      {"another key pins nothing", {{req("zone", Op::in, {"a"})}}, {}},
      {"no terms", {}, {}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    NodeSelector selector;
    for (const auto& expressions : c.terms) selector.terms.push_back(NodeSelectorTerm{expressions, {}});
    CHECK(local_volume_node_names(selector) == c.names);
  }
}

TEST_CASE("VolumeBinding PreFilter narrows the nodes to those its bound local volumes pin", "[volumes]") {
  const auto catalog = CatalogBuilder()
                           .add(claim("on-1", "pv-1"))
                           .add(claim("on-1-or-2", "pv-12"))
                           .add(claim("on-2", "pv-2"))
                           .add(claim("zone-a", "pv-a"))
                           .add(volume("pv-1", {}, node_in("kubernetes.io/hostname", {"n-1"})))
                           .add(volume("pv-12", {}, node_in("kubernetes.io/hostname", {"n-1", "n-2"})))
                           .add(volume("pv-2", {}, node_in("kubernetes.io/hostname", {"n-2"})))
                           .add(volume("pv-a", {}, node_in("zone", {"a"})))
                           .build();
  struct Case {
    const char* what;
    std::vector<std::string> claims;
    std::optional<std::set<std::string>> nodes;
  };
  const std::vector<Case> cases = {
      {"one local volume", {"on-1"}, std::set<std::string>{"n-1"}},
      {"two intersect", {"on-1-or-2", "on-2"}, std::set<std::string>{"n-2"}},
      {"nothing in common: no node", {"on-1", "on-2"}, std::set<std::string>{}},
      {"a zonal volume pins no node", {"zone-a"}, std::nullopt},
      {"with a local one", {"zone-a", "on-1"}, std::set<std::string>{"n-1"}},
  };
  const VolumeBinding plugin{std::chrono::seconds(600)};
  for (const auto& c : cases) {
    INFO(c.what);
    CycleState state(4);
    state.share_input(catalog, 1);
    PreFilterResult result;
    REQUIRE(plugin.pre_filter(state, *PodInfo::make(pod_with_claims(c.claims)), result).ok());
    CHECK(result.node_names == c.nodes);
  }
}

TEST_CASE("VolumeBinding Filter: bound volumes must exist and reach the node", "[volumes]") {
  const auto catalog = CatalogBuilder()
                           .add(claim("zone-a", "pv-a"))
                           .add(claim("host-1", "pv-1"))
                           .add(claim("orphan", "pv-gone"))
                           .add(claim("not-n2", "pv-not-n2"))
                           .add(claim("named-n1", "pv-named-n1"))
                           .add(volume("pv-a", {}, node_in("zone", {"a"})))
                           .add(volume("pv-1", {}, node_in("kubernetes.io/hostname", {"n-1"})))
                           .add(volume("pv-not-n2", {}, name_not_in("n-2")))
                           .add(volume("pv-named-n1", {}, name_in("n-1")))
                           .build();
  const NodeInfo n1 = NodeBuilder("n-1").label("zone", "a").label("kubernetes.io/hostname", "n-1").info();
  const NodeInfo n2 = NodeBuilder("n-2").label("zone", "b").label("kubernetes.io/hostname", "n-2").info();
  const std::string conflict = "node(s) had volume node affinity conflict";
  const std::string missing = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
  struct Case {
    const char* name;
    std::vector<std::string> claims;
    std::string on_n1, on_n2;  // "" = fits
  };
  const std::vector<Case> cases = {
      {"zone label", {"zone-a"}, "", conflict},
      {"hostname label", {"host-1"}, "", conflict},
      {"every volume must reach the node", {"zone-a", "host-1"}, "", conflict},
      {"a missing volume fits nowhere", {"orphan"}, missing, missing},
      {"the first problem decides", {"zone-a", "orphan"}, missing, conflict},
      // Matched against the node's labels alone, as upstream: field requirements are not checked.
      {"metadata.name NotIn is not checked", {"not-n2"}, "", ""},
      {"metadata.name In is not checked", {"named-n1"}, "", ""},
  };
  const VolumeBinding plugin{std::chrono::seconds(600)};
  for (const auto& c : cases) {
    INFO(c.name);
    Run run = pre_filter(plugin, pod_with_claims(c.claims), catalog);
    REQUIRE(run.pre_filter.ok());
    auto pod = PodInfo::make(pod_with_claims(c.claims));
    PluginStatus on_n1 = plugin.filter(run.state, *pod, n1);
    PluginStatus on_n2 = plugin.filter(run.state, *pod, n2);
    CHECK(on_n1.message() == c.on_n1);
    CHECK(on_n2.message() == c.on_n2);
    if (!c.on_n2.empty()) CHECK(on_n2.code == uu);
  }
}

TEST_CASE("VolumeBinding: claims to bind are planned per node, decided at Reserve and written at PreBind",
          "[volumes]") {
  PersistentVolume local = volume("pv-local-1", {}, node_in("kubernetes.io/hostname", {"n-1"}));
  local.storage_class_name = "local";
  local.phase = "Available";
  local.capacity_storage = Quantity::from_value(10);
  StorageClass by_hand = storage_class("local", "WaitForFirstConsumer");
  by_hand.provisioner = kNoProvisioner;
  const auto catalog = CatalogBuilder()
                           .add(claim("data", "", std::string("local")))
                           .add(claim("scratch", "", std::string("csi")))
                           .add(claim("zone-a", "pv-a"))
                           .add(volume("pv-a", {}, node_in("zone", {"a"})))
                           .add(local)
                           .add(by_hand)
                           .add(storage_class("csi", "WaitForFirstConsumer"))
                           .build();
  const NodeInfo n1 = NodeBuilder("n-1").label("zone", "b").label("kubernetes.io/hostname", "n-1").info();
  const NodeInfo n2 = NodeBuilder("n-2").label("zone", "a").label("kubernetes.io/hostname", "n-2").info();
  const std::string bind_conflict = "node(s) didn't find available persistent volumes to bind";
  const VolumeBinding plugin{std::chrono::seconds(42)};

  SECTION("a local volume: only its node fits") {
    Run run = pre_filter(plugin, pod_with_claims({"data"}), catalog);
    REQUIRE(run.pre_filter.ok());
    auto pod = PodInfo::make(pod_with_claims({"data"}));
    CHECK(plugin.filter(run.state, *pod, n1).ok());
    CHECK(plugin.filter(run.state, *pod, n2).message() == bind_conflict);
    CHECK(plugin.filter(run.state, *pod, n2).code == uu);
    auto decided = plugin.decide_plan(run.state, "n-1", n1.node()->meta.labels);
    REQUIRE(decided);
    REQUIRE(decided->status.ok());
    BindingChanges changes;
    REQUIRE(plugin.pre_bind(run.state, *pod, "n-1", changes).ok());
    REQUIRE(changes.claim_bindings.claims.size() == 1);
    CHECK(changes.claim_bindings.claims[0].name == "data");
    CHECK(changes.claim_bindings.claims[0].volume == "pv-local-1");
    CHECK(changes.claim_bindings.timeout == std::chrono::seconds(42));
  }
  SECTION("every reason, in upstream's order") {
    Run run = pre_filter(plugin, pod_with_claims({"zone-a", "scratch"}), catalog);
    auto pod = PodInfo::make(pod_with_claims({"zone-a", "scratch"}));
    CHECK(plugin.filter(run.state, *pod, n1).message() == "node(s) had volume node affinity conflict");
    CHECK(plugin.filter(run.state, *pod, n2).ok());
    Run both = pre_filter(plugin, pod_with_claims({"data", "zone-a"}), catalog);
    auto pod_both = PodInfo::make(pod_with_claims({"data", "zone-a"}));
    const NodeInfo n3 = NodeBuilder("n-3").label("zone", "b").label("kubernetes.io/hostname", "n-3").info();
    PluginStatus on_n3 = plugin.filter(both.state, *pod_both, n3);
    CHECK(on_n3.reasons == std::vector<std::string>{"node(s) had volume node affinity conflict", bind_conflict});
    CHECK(on_n3.code == uu);
  }
  SECTION("no plan on a node the claims cannot use") {
    Run run = pre_filter(plugin, pod_with_claims({"data"}), catalog);
    auto decided = plugin.decide_plan(run.state, "n-2", n2.node()->meta.labels);
    REQUIRE(decided);
    CHECK(decided->status.message() == bind_conflict);
    BindingChanges changes;
    CHECK(plugin.pre_bind(run.state, *PodInfo::make(pod_with_claims({"data"})), "n-2", changes).code == Code::error);
  }
  SECTION("bound claims: nothing to decide or write") {
    Run run = pre_filter(plugin, pod_with_claims({"zone-a"}), catalog);
    CHECK_FALSE(plugin.decide_plan(run.state, "n-2", n2.node()->meta.labels));
    BindingChanges changes;
    CHECK(plugin.pre_bind(run.state, *PodInfo::make(pod_with_claims({"zone-a"})), "n-2", changes).ok());
    CHECK(changes.claim_bindings.claims.empty());
  }
}

TEST_CASE("VolumeBindingArgs", "[volumes]") {
  CHECK(VolumeBinding::make(YAML::Load("{bindTimeoutSeconds: 30}")));
  auto shape = VolumeBinding::make(YAML::Load("{shape: [{utilization: 0, score: 0}]}"));
  REQUIRE_FALSE(shape);
  CHECK(shape.message() ==
        "shape: Invalid value: unexpected field `shape`, remove it or turn on the feature gate VolumeCapacityPriority");
  CHECK(VolumeBinding::make(YAML::Node()));
  auto negative = VolumeBinding::make(YAML::Load("{bindTimeoutSeconds: -1}"));
  REQUIRE_FALSE(negative);
  CHECK(negative.message() ==
        "bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value");
  auto unknown = VolumeBinding::make(YAML::Load("{timeout: 1}"));
  REQUIRE_FALSE(unknown);
  CHECK(unknown.message() == "timeout: unknown field");
}
