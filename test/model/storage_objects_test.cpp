#include <catch2/catch.hpp>

#include "model/pod.hpp"
#include "model/storage_objects.hpp"

using namespace troupe;

TEST_CASE("PersistentVolumeClaim: the fields volume scheduling reads", "[model]") {
  auto claim = decode_persistent_volume_claim_json(R"({
    "apiVersion": "v1", "kind": "PersistentVolumeClaim",
    "metadata": {"name": "data", "namespace": "db", "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
    "spec": {"volumeName": "pv-1", "storageClassName": "local", "accessModes": ["ReadWriteOncePod"],
             "resources": {"requests": {"storage": "1Gi"}}},
    "status": {"phase": "Bound"}})");
  REQUIRE(claim);
  CHECK(claim->meta.key() == "db/data");
  CHECK(claim->volume_name == "pv-1");
  CHECK(claim->storage_class_name == std::optional<std::string>("local"));
  CHECK(claim->has_access_mode(kReadWriteOncePod));
  CHECK_FALSE(claim->has_access_mode("ReadWriteOnce"));
  CHECK(claim->phase == "Bound");
  SECTION("no storage class is not the empty one") {
    auto bare = decode_persistent_volume_claim_json(R"({"metadata": {"name": "c"}, "spec": {}})");
    REQUIRE(bare);
    CHECK_FALSE(bare->storage_class_name.has_value());
    auto empty = decode_persistent_volume_claim_json(R"({"metadata": {"name": "c"}, "spec": {"storageClassName": ""}})");
    REQUIRE(empty);
    CHECK(empty->storage_class_name == std::optional<std::string>(""));
  }
}

TEST_CASE("PersistentVolume and StorageClass: the fields volume scheduling reads", "[model]") {
  auto volume = decode_persistent_volume_json(R"({
    "metadata": {"name": "pv-1", "labels": {"topology.kubernetes.io/zone": "a"}},
    "spec": {"storageClassName": "local", "accessModes": ["ReadWriteOnce"],
             "claimRef": {"namespace": "db", "name": "data", "uid": "u-1"},
             "nodeAffinity": {"required": {"nodeSelectorTerms": [
               {"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": ["n-1"]}]}]}}},
    "status": {"phase": "Bound"}})");
  REQUIRE(volume);
  REQUIRE(volume->node_affinity.has_value());
  REQUIRE(volume->node_affinity->terms.size() == 1);
  CHECK(volume->node_affinity->terms[0].match_expressions[0].key == "kubernetes.io/hostname");
  REQUIRE(volume->claim_ref.has_value());
  CHECK(volume->claim_ref->name == "data");
  CHECK(volume->meta.labels.at("topology.kubernetes.io/zone") == "a");
  auto anywhere = decode_persistent_volume_json(R"({"metadata": {"name": "pv-2"}, "spec": {}})");
  REQUIRE(anywhere);
  CHECK_FALSE(anywhere->node_affinity.has_value());

  auto storage_class = decode_storage_class_json(
      R"({"metadata": {"name": "local"}, "provisioner": "kubernetes.io/no-provisioner",
          "volumeBindingMode": "WaitForFirstConsumer"})");
  REQUIRE(storage_class);
  CHECK(storage_class->waits_for_first_consumer());
  auto immediate = decode_storage_class_json(R"({"metadata": {"name": "fast"}, "provisioner": "x"})");
  REQUIRE(immediate);
  CHECK_FALSE(immediate->waits_for_first_consumer());
}

TEST_CASE("Storage objects: the fields volume binding reads", "[model]") {
  auto claim = decode_persistent_volume_claim_json(R"({
    "metadata": {"name": "data", "namespace": "db", "uid": "u-1"},
    "spec": {"storageClassName": "local", "volumeMode": "Block", "resources": {"requests": {"storage": "1Gi"}},
             "selector": {"matchLabels": {"tier": "fast"}}}})");
  REQUIRE(claim);
  CHECK(claim->requested_storage == Quantity::from_value(1024 * 1024 * 1024));
  CHECK(claim->volume_mode == "Block");
  REQUIRE(claim->selector.has_value());
  CHECK(claim->selector->matches({{"tier", "fast"}}));
  CHECK_FALSE(claim->selector->matches({{"tier", "slow"}}));
  auto bare = decode_persistent_volume_claim_json(R"({"metadata": {"name": "c"}, "spec": {}})");
  REQUIRE(bare);
  CHECK(bare->requested_storage.is_zero());
  CHECK_FALSE(bare->selector.has_value());

  auto volume = decode_persistent_volume_json(
      R"({"metadata": {"name": "pv-1"}, "spec": {"capacity": {"storage": "10Gi"}, "volumeMode": "Filesystem"}})");
  REQUIRE(volume);
  CHECK(volume->capacity_storage == Quantity::from_value(10LL * 1024 * 1024 * 1024));
  CHECK(volume->volume_mode == "Filesystem");

  auto storage_class = decode_storage_class_json(R"({"metadata": {"name": "zoned"}, "provisioner": "csi.x",
      "allowedTopologies": [{"matchLabelExpressions": [{"key": "topology.kubernetes.io/zone", "values": ["a", "b"]}]}]})");
  REQUIRE(storage_class);
  REQUIRE(storage_class->allowed_topologies.size() == 1);
  const auto& requirement = storage_class->allowed_topologies[0].match_label_expressions.at(0);
  CHECK(requirement.key == "topology.kubernetes.io/zone");
  CHECK(requirement.values == std::vector<std::string>{"a", "b"});
}

TEST_CASE("CSINode and a volume's CSI source: what NodeVolumeLimits reads", "[model]") {
  auto node = decode_csi_node_json(R"({"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": "n-1"},
      "spec": {"drivers": [{"name": "ebs.csi.aws.com", "nodeID": "i-1", "allocatable": {"count": 25}},
                           {"name": "efs.csi.aws.com", "nodeID": "i-1"}]}})");
  REQUIRE(node);
  REQUIRE(node->drivers.size() == 2);
  CHECK(node->drivers[0].name == "ebs.csi.aws.com");
  CHECK(node->drivers[0].allocatable_count == std::optional<int64_t>(25));
  CHECK_FALSE(node->drivers[1].allocatable_count.has_value());
  auto bad = decode_csi_node_json(R"({"metadata": {"name": "n-1"}, "spec": {"drivers": [{"allocatable": {"count": "x"}}]}})");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.message(), Catch::Contains("count"));
  auto volume = decode_persistent_volume_json(
      R"({"metadata": {"name": "pv"}, "spec": {"csi": {"driver": "ebs.csi.aws.com", "volumeHandle": "vol-1"}}})");
  REQUIRE(volume);
  CHECK(volume->csi_driver == "ebs.csi.aws.com");
  CHECK(volume->csi_volume_handle == "vol-1");
}

TEST_CASE("CSIDriver and CSIStorageCapacity: what the capacity check reads", "[model]") {
  auto driver = decode_csi_driver_json(R"({"metadata": {"name": "csi.x"}, "spec": {"storageCapacity": true}})");
  REQUIRE(driver);
  CHECK(driver->storage_capacity);
  auto quiet = decode_csi_driver_json(R"({"metadata": {"name": "csi.y"}, "spec": {}})");
  REQUIRE(quiet);
  CHECK_FALSE(quiet->storage_capacity);
  auto capacity = decode_csi_storage_capacity_json(R"({"metadata": {"name": "c", "namespace": "kube-system"},
      "storageClassName": "fast", "nodeTopology": {"matchLabels": {"zone": "a"}},
      "capacity": "100Gi", "maximumVolumeSize": "10Gi"})");
  REQUIRE(capacity);
  CHECK(capacity->storage_class_name == "fast");
  REQUIRE(capacity->node_topology.has_value());
  CHECK(capacity->node_topology->matches({{"zone", "a"}}));
  CHECK(capacity->capacity == Quantity::from_value(100LL << 30));
  CHECK(capacity->maximum_volume_size == Quantity::from_value(10LL << 30));
  auto bare = decode_csi_storage_capacity_json(R"({"metadata": {"name": "c"}, "storageClassName": "fast"})");
  REQUIRE(bare);
  CHECK_FALSE(bare->node_topology.has_value());
  CHECK_FALSE(bare->capacity.has_value());
  auto bad = decode_csi_storage_capacity_json(R"({"metadata": {"name": "c"}, "capacity": "lots"})");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.message(), Catch::Contains("capacity"));
}

TEST_CASE("storage objects that do not decode say where", "[model]") {
  struct Case {
    const char* text;
    const char* message;
  };
  const std::vector<Case> cases = {
      {R"({"metadata": {"name": "c"}, "spec": {"accessModes": "ReadWriteOnce"}})", "spec.accessModes"},
      {R"({"metadata": {"name": "c"}, "spec": {"volumeName": 3}})", "spec.volumeName"},
      {R"({"metadata": {"name": "c"}, "spec": {"resources": {"requests": {"storage": "lots"}}}})",
       "spec.resources.requests.storage"},
      {R"({"metadata": {"name": "c"}, "spec": {"selector": {"matchLabels": {"tier": 1}}}})", "spec.selector"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto claim = decode_persistent_volume_claim_json(c.text);
    REQUIRE_FALSE(claim);
    CHECK_THAT(claim.message(), Catch::Contains(c.message));
  }
  auto volume = decode_persistent_volume_json(R"({"metadata": {"name": "v"}, "spec": {"nodeAffinity": {"required": 1}}})");
  REQUIRE_FALSE(volume);
  CHECK_THAT(volume.message(), Catch::Contains("spec.nodeAffinity.required"));
  auto capacity = decode_persistent_volume_json(R"({"metadata": {"name": "v"}, "spec": {"capacity": {"storage": "1Qi"}}})");
  REQUIRE_FALSE(capacity);
  CHECK_THAT(capacity.message(), Catch::Contains("spec.capacity.storage"));
  auto topologies = decode_storage_class_json(R"({"metadata": {"name": "s"}, "allowedTopologies": [{"matchLabelExpressions": "zone"}]})");
  REQUIRE_FALSE(topologies);
  CHECK_THAT(topologies.message(), Catch::Contains("allowedTopologies"));
}

TEST_CASE("a pod's volume claims: persistentVolumeClaim and ephemeral volumes, in order", "[model]") {
  auto pod = decode_pod_json(R"({"metadata": {"name": "web-0", "namespace": "d"}, "spec": {"containers": [{"name": "c"}],
    "volumes": [{"name": "cache", "emptyDir": {}},
                {"name": "data", "persistentVolumeClaim": {"claimName": "data-web-0", "readOnly": true}},
                {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}},
                {"name": "broken", "persistentVolumeClaim": {}}]}})");
  REQUIRE(pod);
  const auto& claims = pod->spec.volume_claims;
  REQUIRE(claims.size() == 2);
  CHECK(claims[0] == PodVolumeClaim{"data", "data-web-0", false});
  CHECK(claims[0].claim_of("web-0") == "data-web-0");
  CHECK(claims[1] == PodVolumeClaim{"scratch", "", true});
  CHECK(claims[1].claim_of("web-0") == "web-0-scratch");
  CHECK(pod->spec.has_pvc);
  CHECK(pod->spec.has_local_storage);
}

TEST_CASE("a pod's in-tree disks: what VolumeRestrictions compares", "[model]") {
  using Kind = PodInlineDisk::Kind;
  auto pod = decode_pod_json(R"({"metadata": {"name": "db", "namespace": "d"}, "spec": {"containers": [{"name": "c"}],
    "volumes": [{"name": "pd", "gcePersistentDisk": {"pdName": "disk-1", "readOnly": true}},
                {"name": "ebs", "awsElasticBlockStore": {"volumeID": "vol-9"}},
                {"name": "lun", "iscsi": {"targetPortal": "10.0.0.1:3260", "iqn": "iqn.2001-04.com.example:a", "lun": 0}},
                {"name": "ceph", "rbd": {"monitors": ["m1:6789", "m2:6789"], "image": "img", "pool": "kube"}},
                {"name": "ceph-default-pool", "rbd": {"monitors": ["m1:6789"], "image": "img"}},
                {"name": "cache", "emptyDir": {}},
                {"name": "odd", "gcePersistentDisk": "not an object"}]}})");
  REQUIRE(pod);
  const std::vector<PodInlineDisk> want = {
      {Kind::gce_persistent_disk, "disk-1", {}, true},
      {Kind::aws_elastic_block_store, "vol-9", {}, false},
      {Kind::iscsi, "iqn.2001-04.com.example:a", {}, false},
      {Kind::rbd, "kube/img", {"m1:6789", "m2:6789"}, false},
      {Kind::rbd, "rbd/img", {"m1:6789"}, false},
  };
  CHECK(pod->spec.inline_disks == want);
}
