#include <catch2/catch.hpp>

#include "actors/volume_store.hpp"
#include "model/json.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

watch::ObjectPtr object(const std::string& text) {
  auto doc = parse_json(text);
  REQUIRE(doc);
  return *doc;
}

}  // namespace

TEST_CASE("VolumeStore: claims, volumes and storage classes from watch events", "[volumes]") {
  VolumeStore store;
  const auto empty = store.snapshot();
  CHECK(empty->claims.empty());
  CHECK(store.snapshot() == empty);  // unchanged: the same snapshot

  store.apply("persistentvolumeclaims", watch::EventType::added,
              object(R"({"metadata": {"name": "data", "namespace": "db"}, "spec": {"volumeName": "pv-1"}})"));
  store.apply("persistentvolumes", watch::EventType::added, object(R"({"metadata": {"name": "pv-1"}, "spec": {}})"));
  store.apply("storageclasses", watch::EventType::added,
              object(R"({"metadata": {"name": "local"}, "volumeBindingMode": "WaitForFirstConsumer"})"));
  const auto full = store.snapshot();
  CHECK(full != empty);
  CHECK(empty->claims.empty());  // a snapshot taken earlier keeps what it held
  REQUIRE(full->claim("db", "data") != nullptr);
  CHECK(full->claim("db", "data")->volume_name == "pv-1");
  CHECK(full->volume("pv-1") != nullptr);
  REQUIRE(full->storage_class("local") != nullptr);
  CHECK(full->storage_class("local")->waits_for_first_consumer());
  CHECK(full->generation == empty->generation + 3);

  SECTION("an update replaces, a deletion removes") {
    store.apply("persistentvolumeclaims", watch::EventType::modified,
                object(R"({"metadata": {"name": "data", "namespace": "db"}, "spec": {"volumeName": "pv-2"}})"));
    CHECK(store.snapshot()->claim("db", "data")->volume_name == "pv-2");
    store.apply("persistentvolumes", watch::EventType::deleted, object(R"({"metadata": {"name": "pv-1"}})"));
    CHECK(store.snapshot()->volume("pv-1") == nullptr);
  }
  SECTION("an object that does not decode is left out, not kept as it was") {
    store.apply("persistentvolumeclaims", watch::EventType::modified,
                object(R"({"metadata": {"name": "data", "namespace": "db"}, "spec": {"volumeName": 7}})"));
    CHECK(store.snapshot()->claim("db", "data") == nullptr);
  }
  SECTION("other collections change nothing") {
    store.apply("configmaps", watch::EventType::added, object(R"({"metadata": {"name": "x"}})"));
    CHECK(store.snapshot() == full);
  }
  SECTION("CSINodes, by node name") {
    store.apply("csinodes", watch::EventType::added,
                object(R"({"metadata": {"name": "n-1"}, "spec": {"drivers": [{"name": "d", "allocatable": {"count": 3}}]}})"));
    REQUIRE(store.snapshot()->csi_node("n-1") != nullptr);
    CHECK(store.snapshot()->csi_node("n-1")->drivers.at(0).allocatable_count == std::optional<int64_t>(3));
  }
  CHECK(is_volume_collection("persistentvolumeclaims"));
  CHECK(is_volume_collection("csinodes"));
  CHECK_FALSE(is_volume_collection("pods"));
}

TEST_CASE("VolumeStore: assumed bindings show in snapshots until forgotten", "[volumes]") {
  VolumeStore store;
  store.apply("persistentvolumeclaims", watch::EventType::added,
              object(R"({"metadata": {"name": "data", "namespace": "db", "resourceVersion": "4"}, "spec": {}})"));
  store.apply("persistentvolumeclaims", watch::EventType::added,
              object(R"({"metadata": {"name": "logs", "namespace": "db"}, "spec": {}})"));
  store.apply("persistentvolumes", watch::EventType::added, object(R"({"metadata": {"name": "pv-1"}, "spec": {}})"));
  const auto before = store.snapshot();

  plugins::ClaimToBind to_volume;
  to_volume.namespace_name = "db";
  to_volume.name = "data";
  to_volume.uid = "u-data";
  to_volume.volume = "pv-1";
  plugins::ClaimToBind to_provision;
  to_provision.namespace_name = "db";
  to_provision.name = "logs";
  store.assume("pod-1", "n-1", {to_volume, to_provision});

  const auto assumed = store.snapshot();
  CHECK(assumed->generation > before->generation);  // verdicts cached under the old catalog do not hold
  REQUIRE(assumed->volume("pv-1")->claim_ref.has_value());
  CHECK(assumed->volume("pv-1")->claim_ref->name == "data");
  CHECK(assumed->volume("pv-1")->claim_ref->uid == "u-data");
  CHECK(*assumed->volume("pv-1")->meta.annotation("pv.kubernetes.io/bound-by-controller") == "yes");
  CHECK(*assumed->claim("db", "logs")->meta.annotation("volume.kubernetes.io/selected-node") == "n-1");
  CHECK(assumed->claim("db", "data")->meta.resource_version == "4");
  // What the API server showed stays apart, for the writer to follow.
  CHECK_FALSE(store.observed()->volume("pv-1")->claim_ref.has_value());
  CHECK(store.observed()->claim("db", "logs")->meta.annotation("volume.kubernetes.io/selected-node") == nullptr);
  CHECK_FALSE(before->volume("pv-1")->claim_ref.has_value());

  SECTION("an event keeps the assumption on top") {
    store.apply("persistentvolumes", watch::EventType::modified,
                object(R"({"metadata": {"name": "pv-1", "labels": {"a": "b"}}, "spec": {}})"));
    CHECK(store.snapshot()->volume("pv-1")->claim_ref.has_value());
    CHECK(store.snapshot()->volume("pv-1")->meta.labels.count("a") == 1);
  }
  SECTION("forgetting restores the observed objects") {
    store.forget("pod-1");
    const auto forgotten = store.snapshot();
    CHECK(forgotten->generation > assumed->generation);
    CHECK_FALSE(forgotten->volume("pv-1")->claim_ref.has_value());
    CHECK(forgotten->claim("db", "logs")->meta.annotation("volume.kubernetes.io/selected-node") == nullptr);
    store.forget("pod-1");  // twice: nothing changes
    CHECK(store.snapshot() == forgotten);
  }
}
