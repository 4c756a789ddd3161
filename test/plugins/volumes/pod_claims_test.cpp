#include <catch2/catch.hpp>

#include "plugins/volumes/pod_claims.hpp"
#include "volume_fixtures.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::volumes;
using namespace troupe::plugins::volumes::testing;

namespace {

PersistentVolumeClaim owned_by_pod(PersistentVolumeClaim c, std::string uid) {
  OwnerReference owner;
  owner.kind = "Pod";
  owner.name = "p";
  owner.uid = std::move(uid);
  owner.controller = true;
  c.meta.owner_references.push_back(std::move(owner));
  return c;
}

PersistentVolumeClaim lost(PersistentVolumeClaim c) {
  c.phase = "Lost";
  return c;
}

PersistentVolumeClaim deleting(PersistentVolumeClaim c) {
  c.meta.deletion_timestamp = Timestamp{};
  return c;
}

PersistentVolumeClaim pre_bound(PersistentVolumeClaim c, std::string volume) {
  c.volume_name = std::move(volume);  // no bind-completed annotation yet
  return c;
}

PersistentVolumeClaim with_beta_class(PersistentVolumeClaim c, std::string name) {
  c.meta.annotations[kAnnotationBetaStorageClass] = std::move(name);
  return c;
}

}  // namespace

TEST_CASE("a pod's claims: sorted into bound, delayed and unbound immediate", "[volumes]") {
  const auto catalog = CatalogBuilder()
                           .add(claim("bound", "pv-1"))
                           .add(claim("no-class"))
                           .add(claim("empty-class", "", std::string("")))
                           .add(claim("unknown-class", "", std::string("nope")))
                           .add(claim("immediate", "", std::string("fast")))
                           .add(claim("waits", "", std::string("local")))
                           .add(pre_bound(claim("pre-bound", "", std::string("local")), "pv-2"))
                           .add(with_beta_class(claim("beta", "", std::string("fast")), "local"))
                           .add(owned_by_pod(claim("p-scratch", "pv-3"), "uid-p"))
                           .add(storage_class("fast", "Immediate"))
                           .add(storage_class("local", "WaitForFirstConsumer"))
                           .build();
  struct Case {
    const char* name;
    Pod pod;
    std::vector<ClaimBinding> expected;
  };
  using B = ClaimBinding;
  const std::vector<Case> cases = {
      {"no claims", pod_with_claims({}), {}},
      {"bound: volumeName and bind-completed", pod_with_claims({"bound"}), {B::bound}},
      {"no class: immediate", pod_with_claims({"no-class"}), {B::unbound_immediate}},
      {"empty class: immediate", pod_with_claims({"empty-class"}), {B::unbound_immediate}},
      {"a class that does not exist: immediate", pod_with_claims({"unknown-class"}), {B::unbound_immediate}},
      {"an Immediate class", pod_with_claims({"immediate"}), {B::unbound_immediate}},
      {"WaitForFirstConsumer: delayed", pod_with_claims({"waits"}), {B::delayed}},
      {"pre-bound, not completed: immediate whatever its class", pod_with_claims({"pre-bound"}), {B::unbound_immediate}},
      {"the beta annotation wins over spec", pod_with_claims({"beta"}), {B::delayed}},
      {"an ephemeral volume's own claim", with_ephemeral(pod_with_claims({})), {B::bound}},
      {"in the pod's order", pod_with_claims({"waits", "bound", "immediate"}), {B::delayed, B::bound, B::unbound_immediate}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    PodClaims claims = resolve_pod_claims(c.pod, *catalog);
    REQUIRE(claims.failure.ok());
    std::vector<ClaimBinding> got;
    for (const auto& pod_claim : claims.claims) got.push_back(pod_claim.binding);
    CHECK(got == c.expected);
  }
}

TEST_CASE("a pod's claims: what stops it before any node is looked at", "[volumes]") {
  const auto catalog = CatalogBuilder()
                           .add(claim("bound", "pv-1"))
                           .add(lost(claim("lost", "pv-gone")))
                           .add(deleting(claim("going", "pv-1")))
                           .add(owned_by_pod(claim("p-scratch", "pv-3"), "uid-other"))
                           .add(claim("modeless", "", std::string("old")))
                           .add(storage_class("old", ""))
                           .build();
  struct Case {
    const char* name;
    Pod pod;
    Code code;
    const char* message;
  };
  const Code uu = Code::unschedulable_and_unresolvable;
  const std::vector<Case> cases = {
      {"missing", pod_with_claims({"bound", "nope"}), uu, "persistentvolumeclaim \"nope\" not found"},
      {"Lost", pod_with_claims({"lost"}), uu,
       "persistentvolumeclaim \"lost\" bound to non-existent persistentvolume \"pv-gone\""},
      {"being deleted", pod_with_claims({"going"}), uu, "persistentvolumeclaim \"going\" is being deleted"},
      {"the first problem in volume order", pod_with_claims({"going", "nope"}), uu,
       "persistentvolumeclaim \"going\" is being deleted"},
      {"a storage class without a binding mode", pod_with_claims({"modeless"}), Code::error,
       "VolumeBindingMode not set for StorageClass \"old\""},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    PodClaims claims = resolve_pod_claims(c.pod, *catalog);
    CHECK(claims.failure.code == c.code);
    CHECK(claims.failure.message() == c.message);
  }
  SECTION("an ephemeral volume's claim made for another pod") {
    PodClaims claims = resolve_pod_claims(with_ephemeral(pod_with_claims({})), *catalog);
    CHECK(claims.failure.code == uu);
    CHECK(claims.failure.message() == "PVC default/p-scratch was not created for pod default/p (pod is not owner)");
  }
  SECTION("an ephemeral volume's claim not created yet") {
    PodClaims claims = resolve_pod_claims(with_ephemeral(pod_with_claims({})), *CatalogBuilder().build());
    CHECK(claims.failure.message() ==
          "waiting for ephemeral volume controller to create the persistentvolumeclaim \"p-scratch\"");
  }
}
