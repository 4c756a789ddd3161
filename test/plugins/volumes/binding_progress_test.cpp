#include <catch2/catch.hpp>

#include "plugins/volumes/binding_progress.hpp"
#include "volume_fixtures.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::volumes;
using namespace troupe::plugins::volumes::testing;

namespace {

ClaimToBind to_volume(std::string claim, std::string volume) {
  ClaimToBind c;
  c.namespace_name = "default";
  c.name = std::move(claim);
  c.uid = "uid-" + c.name;
  c.volume = std::move(volume);
  return c;
}

PersistentVolume volume_at(std::string name, std::string version, bool claimed) {
  PersistentVolume v = volume(std::move(name));
  v.meta.resource_version = std::move(version);
  if (claimed) {
    v.claim_ref = ObjectReference{};
    v.claim_ref->name = "data";
    v.claim_ref->uid = "uid-data";
  }
  return v;
}

PersistentVolumeClaim claim_at(std::string version, std::string bound_to, std::string selected_node,
                               bool provisioner_annotated = false) {
  PersistentVolumeClaim c = claim("data", std::move(bound_to), std::string("csi"));
  c.meta.resource_version = std::move(version);
  if (provisioner_annotated) c.meta.annotations["volume.kubernetes.io/storage-provisioner"] = "csi.example.com";
  if (!selected_node.empty()) c.meta.annotations[kAnnotationSelectedNode] = std::move(selected_node);
  return c;
}

}  // namespace

TEST_CASE("check_claim_bindings: a static binding", "[volumes]") {
  struct Case {
    const char* name;
    PersistentVolume volume;
    PersistentVolumeClaim claim;
    Progress progress;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"written, the PV controller not done yet", volume_at("pv", "12", true), claim_at("5", "", ""),
       Progress::waiting, ""},
      {"bound", volume_at("pv", "13", true), claim_at("14", "pv", ""), Progress::bound, ""},
      {"the watch has not shown the write yet", volume_at("pv", "9", false), claim_at("5", "", ""), Progress::waiting,
       ""},
      {"claimRef dropped after the write", volume_at("pv", "15", false), claim_at("5", "", ""), Progress::failed,
       "ClaimRef got reset for pv \"pv\""},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto observed = CatalogBuilder().add(c.volume).add(c.claim).build();
    auto progress = check_claim_bindings(*observed, {to_volume("data", "pv")}, {"12"}, "n-1");
    CHECK(progress.progress == c.progress);
    CHECK(progress.message == c.message);
  }
  SECTION("a provisioned claim gone") {
    auto none = CatalogBuilder().build();
    CHECK(check_claim_bindings(*none, {to_volume("data", "")}, {"12"}, "n-1").message ==
          "failed to check provisioning pvc: could not find v1.PersistentVolumeClaim \"default/data\"");
  }
  SECTION("the volume or the claim gone") {
    auto no_volume = CatalogBuilder().add(claim_at("5", "", "")).build();
    CHECK(check_claim_bindings(*no_volume, {to_volume("data", "pv")}, {"12"}, "n-1").message ==
          "failed to check binding: could not find v1.PersistentVolume \"pv\"");
    auto no_claim = CatalogBuilder().add(volume_at("pv", "12", true)).build();
    CHECK(check_claim_bindings(*no_claim, {to_volume("data", "pv")}, {"12"}, "n-1").message ==
          "failed to check binding: could not find v1.PersistentVolumeClaim \"default/data\"");
  }
}

TEST_CASE("check_claim_bindings: a provisioned claim", "[volumes]") {
  struct Case {
    const char* name;
    PersistentVolumeClaim claim;
    Progress progress;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"annotated, not provisioned yet", claim_at("20", "", "n-1"), Progress::waiting, ""},
      {"provisioned and bound", claim_at("23", "pvc-1234", "n-1"), Progress::bound, ""},
      {"the watch has not shown the write yet", claim_at("19", "", ""), Progress::waiting, ""},
      {"every annotation gone", claim_at("21", "", ""), Progress::failed,
       "selectedNode annotation reset for PVC \"data\""},
      {"the provisioner gave up: its other annotations stay", claim_at("21", "", "", true), Progress::failed,
       "provisioning failed for PVC \"data\""},
      {"headed to another node now", claim_at("21", "", "n-2"), Progress::failed,
       "provisioning failed for PVC \"data\""},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto observed = CatalogBuilder().add(c.claim).build();
    auto progress = check_claim_bindings(*observed, {to_volume("data", "")}, {"20"}, "n-1");
    CHECK(progress.progress == c.progress);
    CHECK(progress.message == c.message);
  }
}

TEST_CASE("check_claim_bindings: every claim must be bound", "[volumes]") {
  auto observed = CatalogBuilder()
                      .add(claim_at("30", "pv", ""))
                      .add(volume_at("pv", "30", true))
                      .add(claim("other", "", std::string("csi")))
                      .build();
  CHECK(check_claim_bindings(*observed, {to_volume("data", "pv")}, {"30"}, "n-1").progress == Progress::bound);
  CHECK(check_claim_bindings(*observed, {to_volume("data", "pv"), to_volume("other", "")}, {"30", ""}, "n-1").progress ==
        Progress::failed);
  CHECK(check_claim_bindings(*observed, {}, {}, "n-1").progress == Progress::bound);
}

TEST_CASE("older_than orders etcd revisions, and nothing else", "[volumes]") {
  CHECK(older_than("9", "10"));
  CHECK_FALSE(older_than("10", "10"));
  CHECK_FALSE(older_than("11", "10"));
  CHECK_FALSE(older_than("", "10"));
  CHECK_FALSE(older_than("abc", "10"));
  CHECK_FALSE(older_than("9", ""));
}
