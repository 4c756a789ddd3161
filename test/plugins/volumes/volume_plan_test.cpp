#include <catch2/catch.hpp>

#include "plugins/volumes/volume_plan.hpp"
#include "volume_fixtures.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::volumes;
using namespace troupe::plugins::volumes::testing;

namespace {

PersistentVolume local_volume(std::string name, int64_t size, std::string host) {
  PersistentVolume v = volume(std::move(name), {}, node_in("kubernetes.io/hostname", {std::move(host)}));
  v.storage_class_name = "local";
  v.phase = "Available";
  v.capacity_storage = Quantity::from_value(size);
  v.meta.resource_version = "7";
  return v;
}

PersistentVolumeClaim delayed(std::string name, std::string storage_class, int64_t size = 1) {
  PersistentVolumeClaim c = claim(std::move(name), "", std::move(storage_class));
  c.meta.uid = "uid-" + c.meta.name;
  c.meta.resource_version = "5";
  c.requested_storage = Quantity::from_value(size);
  return c;
}

StorageClass with_provisioner(std::string name, std::string provisioner) {
  StorageClass sc = storage_class(std::move(name), "WaitForFirstConsumer");
  sc.provisioner = std::move(provisioner);
  return sc;
}

/// "claim→volume" or "claim→provision" per planned claim, in order.
std::vector<std::string> describe(const VolumePlan& plan) {
  std::vector<std::string> out;
  for (const auto& c : plan.claims) out.push_back(c.name + "→" + (c.provisions() ? "provision" : c.volume));
  return out;
}

const Labels kN1 = {{"kubernetes.io/hostname", "n-1"}, {"zone", "a"}};

}  // namespace

TEST_CASE("plan_delayed_claims: bind, provision or no room, per node", "[volumes]") {
  StorageClass zoned = with_provisioner("zoned", "csi.example.com");
  zoned.allowed_topologies = {TopologySelectorTerm{{{"zone", {"b"}}}}};
  PersistentVolumeClaim headed_n1 = delayed("headed-n1", "csi");
  headed_n1.meta.annotations[kAnnotationSelectedNode] = "n-1";
  PersistentVolumeClaim headed_n2 = delayed("headed-n2", "csi");
  headed_n2.meta.annotations[kAnnotationSelectedNode] = "n-2";
  const auto catalog = CatalogBuilder()
                           .add(local_volume("pv-small", 5, "n-1"))
                           .add(local_volume("pv-large", 50, "n-1"))
                           .add(local_volume("pv-n2", 50, "n-2"))
                           .add(with_provisioner("local", kNoProvisioner))
                           .add(with_provisioner("csi", "csi.example.com"))
                           .add(with_provisioner("none", ""))
                           .add(zoned)
                           .add(storage_class("waits", "WaitForFirstConsumer"))
                           .build();
  const auto small = delayed("small", "local", 4);
  const auto large = delayed("large", "local", 40);
  const auto huge = delayed("huge", "local", 400);
  const auto dynamic = delayed("dynamic", "csi");
  const auto by_hand_only = delayed("by-hand", "none");
  const auto zone_b = delayed("zone-b", "zoned");
  const auto classless = delayed("classless", "");
  const auto unknown_class = delayed("unknown", "gone");
  const std::string conflict = "node(s) didn't find available persistent volumes to bind";
  struct Case {
    const char* name;
    std::vector<const PersistentVolumeClaim*> claims;
    Code code;
    std::string message;
    std::vector<std::string> plan;
  };
  const std::vector<Case> cases = {
      {"a local volume", {&small}, Code::success, "", {"small→pv-small"}},
      {"claims matched smallest first", {&large, &small}, Code::success, "", {"small→pv-small", "large→pv-large"}},
      {"no local volume large enough, and no provisioner", {&huge}, Code::unschedulable_and_unresolvable, conflict, {}},
      {"provisioned", {&dynamic}, Code::success, "", {"dynamic→provision"}},
      {"bound and provisioned together", {&dynamic, &small}, Code::success, "",
       {"small→pv-small", "dynamic→provision"}},
      {"a class without provisioner", {&by_hand_only}, Code::unschedulable_and_unresolvable, conflict, {}},
      {"allowedTopologies leave the node out", {&zone_b}, Code::unschedulable_and_unresolvable, conflict, {}},
      {"already headed to this node", {&headed_n1}, Code::success, "", {"headed-n1→provision"}},
      {"already headed to another node", {&headed_n2, &small}, Code::unschedulable_and_unresolvable, conflict, {}},
      {"a claim without class", {&classless}, Code::error, "no class for claim \"default/classless\"", {}},
      {"a class that does not exist", {&unknown_class}, Code::error, "failed to find storage class \"gone\"", {}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    PlanOutcome outcome = plan_delayed_claims(c.claims, *catalog, "n-1", kN1);
    CHECK(outcome.status.code == c.code);
    CHECK(outcome.status.message() == c.message);
    if (c.code == Code::success) CHECK(describe(outcome.plan) == c.plan);
  }
  SECTION("the plan carries what the writes need") {
    PlanOutcome outcome = plan_delayed_claims({&small, &dynamic}, *catalog, "n-1", kN1);
    REQUIRE(outcome.plan.claims.size() == 2);
    const ClaimToBind& bound = outcome.plan.claims[0];
    CHECK(bound.namespace_name == "default");
    CHECK(bound.uid == "uid-small");
    CHECK(bound.resource_version == "5");
    CHECK(bound.volume_resource_version == "7");
    CHECK_FALSE(bound.volume_prebound);
  }
  SECTION("two claims never take one volume") {
    const auto other_small = delayed("other-small", "local", 4);
    PlanOutcome outcome = plan_delayed_claims({&small, &other_small}, *catalog, "n-1", kN1);
    CHECK(describe(outcome.plan) == std::vector<std::string>{"small→pv-small", "other-small→pv-large"});
  }
  SECTION("on the other node") {
    const Labels n2 = {{"kubernetes.io/hostname", "n-2"}, {"zone", "b"}};
    CHECK(describe(plan_delayed_claims({&large, &zone_b}, *catalog, "n-2", n2).plan) ==
          std::vector<std::string>{"large→pv-n2", "zone-b→provision"});
  }
}

TEST_CASE("plan_delayed_claims: a driver that publishes its capacity needs room on the node", "[volumes]") {
  auto capacity = [](std::string name, std::string storage_class, std::string zone, std::optional<int64_t> total,
                     std::optional<int64_t> max_volume) {
    CsiStorageCapacity c;
    c.meta.name = std::move(name);
    c.meta.namespace_name = "kube-system";
    c.storage_class_name = std::move(storage_class);
    if (!zone.empty()) c.node_topology = *parse_label_selector("zone=" + zone);
    if (total) c.capacity = Quantity::from_value(*total);
    if (max_volume) c.maximum_volume_size = Quantity::from_value(*max_volume);
    return c;
  };
  auto catalog_with = [&](std::vector<CsiStorageCapacity> capacities, bool publishes = true) {
    CatalogBuilder builder;
    builder.add(with_provisioner("csi", "csi.example.com")).add(with_provisioner("other", "other.example.com"));
    CsiDriver driver;
    driver.meta.name = "csi.example.com";
    driver.storage_capacity = publishes;
    builder.add(driver);
    for (auto& c : capacities) builder.add(std::move(c));
    return builder.build();
  };
  const auto claim_10 = delayed("data", "csi", 10);
  const auto no_request = delayed("any", "csi", 0);
  const auto other_driver = delayed("elsewhere", "other", 10);
  const std::string full = "node(s) did not have enough free storage";
  struct Case {
    const char* name;
    std::shared_ptr<const VolumeCatalog> catalog;
    const PersistentVolumeClaim* claim;
    std::string message;  // "" = fits
  };
  const std::vector<Case> cases = {
      {"room in the node's zone", catalog_with({capacity("a", "csi", "a", 20, {})}), &claim_10, ""},
      {"exactly the room asked", catalog_with({capacity("a", "csi", "a", 10, {})}), &claim_10, ""},
      {"too little room", catalog_with({capacity("a", "csi", "a", 9, {})}), &claim_10, full},
      {"room in another zone only", catalog_with({capacity("b", "csi", "b", 100, {})}), &claim_10, full},
      {"room for another class only", catalog_with({capacity("a", "other", "a", 100, {})}), &claim_10, full},
      {"maximumVolumeSize wins over capacity", catalog_with({capacity("a", "csi", "a", 100, 5)}), &claim_10, full},
      {"no topology: no node has access", catalog_with({capacity("a", "csi", "", 100, {})}), &claim_10, full},
      {"no capacity published yet", catalog_with({}), &claim_10, full},
      {"one of several capacities is enough",
       catalog_with({capacity("a-small", "csi", "a", 1, {}), capacity("a-big", "csi", "a", 50, {})}), &claim_10, ""},
      {"a driver that does not publish its capacity", catalog_with({}, false), &claim_10, ""},
      {"a claim without request", catalog_with({}), &no_request, ""},
      {"another provisioner, without CSIDriver", catalog_with({}), &other_driver, ""},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    PlanOutcome outcome = plan_delayed_claims({c.claim}, *c.catalog, "n-1", kN1);
    CHECK(outcome.status.message() == c.message);
    if (!c.message.empty()) CHECK(outcome.status.code == Code::unschedulable_and_unresolvable);
  }
}
