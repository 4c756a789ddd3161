// VolumeRestrictions' inline disk conflicts: which pairs of in-tree disks one
// node cannot mount together, and the Filter over a node's pods.
#include <catch2/catch.hpp>

#include "../builders.hpp"
#include "plugins/volumes/disk_conflicts.hpp"
#include "plugins/volumes/volume_restrictions.hpp"
#include "volume_fixtures.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::volumes;
using namespace troupe::plugins::volumes::testing;
using troupe::plugins::testing::NodeBuilder;
using Kind = PodInlineDisk::Kind;

namespace {

PodInlineDisk disk(Kind kind, std::string id, bool read_only = false, std::vector<std::string> monitors = {}) {
  return PodInlineDisk{kind, std::move(id), std::move(monitors), read_only};
}

std::shared_ptr<const PodInfo> pod_with_disks(std::string name, std::vector<PodInlineDisk> disks) {
  Pod pod = pod_with_claims({});
  pod.meta.name = name;
  pod.meta.uid = "uid-" + name;
  pod.spec.inline_disks = std::move(disks);
  return PodInfo::make(std::move(pod));
}

}  // namespace

TEST_CASE("disks_conflict: the same disk, unless every mount may share it", "[volumes]") {
  struct Case {
    const char* name;
    PodInlineDisk disk, existing;
    bool conflict;
  };
  const std::vector<Case> cases = {
      {"GCE PD, same name", disk(Kind::gce_persistent_disk, "a"), disk(Kind::gce_persistent_disk, "a"), true},
      {"GCE PD, both read-only", disk(Kind::gce_persistent_disk, "a", true), disk(Kind::gce_persistent_disk, "a", true),
       false},
      {"GCE PD, one read-only", disk(Kind::gce_persistent_disk, "a", true), disk(Kind::gce_persistent_disk, "a"), true},
      {"GCE PD, other name", disk(Kind::gce_persistent_disk, "a"), disk(Kind::gce_persistent_disk, "b"), false},
      {"EBS, same volume", disk(Kind::aws_elastic_block_store, "v"), disk(Kind::aws_elastic_block_store, "v"), true},
      {"EBS, both read-only still conflict", disk(Kind::aws_elastic_block_store, "v", true),
       disk(Kind::aws_elastic_block_store, "v", true), true},
      {"EBS, other volume", disk(Kind::aws_elastic_block_store, "v"), disk(Kind::aws_elastic_block_store, "w"), false},
      {"iSCSI, same iqn", disk(Kind::iscsi, "iqn.a"), disk(Kind::iscsi, "iqn.a"), true},
      {"iSCSI, both read-only", disk(Kind::iscsi, "iqn.a", true), disk(Kind::iscsi, "iqn.a", true), false},
      {"iSCSI, other iqn", disk(Kind::iscsi, "iqn.a"), disk(Kind::iscsi, "iqn.b"), false},
      {"RBD, same image on a shared monitor", disk(Kind::rbd, "rbd/img", false, {"m1", "m2"}),
       disk(Kind::rbd, "rbd/img", false, {"m2", "m3"}), true},
      {"RBD, no monitor in common", disk(Kind::rbd, "rbd/img", false, {"m1"}),
       disk(Kind::rbd, "rbd/img", false, {"m2"}), false},
      {"RBD, other pool", disk(Kind::rbd, "rbd/img", false, {"m1"}), disk(Kind::rbd, "kube/img", false, {"m1"}), false},
      {"RBD, both read-only", disk(Kind::rbd, "rbd/img", true, {"m1"}), disk(Kind::rbd, "rbd/img", true, {"m1"}), false},
      {"RBD, one read-only", disk(Kind::rbd, "rbd/img", false, {"m1"}), disk(Kind::rbd, "rbd/img", true, {"m1"}), true},
      {"different kinds with the same id", disk(Kind::gce_persistent_disk, "x"), disk(Kind::aws_elastic_block_store, "x"),
       false},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(disks_conflict(c.disk, c.existing) == c.conflict);
    CHECK(disks_conflict(c.existing, c.disk) == c.conflict);
  }
}

TEST_CASE("VolumeRestrictions: a node whose pods hold one of the pod's disks does not fit it", "[volumes]") {
  VolumeRestrictions plugin;
  const auto catalog = CatalogBuilder().build();
  auto run = [&](const PodInfo& pod, const NodeInfo& node) {
    CycleState state(4);
    state.share_input(catalog, 1);
    PreFilterResult result;
    PluginStatus pre = plugin.pre_filter(state, pod, result);
    if (!pre.ok()) return pre;
    return plugin.filter(state, pod, node);
  };
  const auto writer = pod_with_disks("writer", {disk(Kind::gce_persistent_disk, "data")});
  const auto reader = pod_with_disks("reader", {disk(Kind::gce_persistent_disk, "logs", true)});
  const NodeInfo busy = NodeBuilder("n-1").info({writer, reader});
  const NodeInfo empty = NodeBuilder("n-2").info();
  struct Case {
    const char* name;
    std::vector<PodInlineDisk> disks;
    Code on_busy;
  };
  const std::vector<Case> cases = {
      {"no disks: skip", {}, Code::skip},
      {"a disk another pod writes", {disk(Kind::gce_persistent_disk, "data", true)}, Code::unschedulable},
      {"a disk the other pod only reads, read-only", {disk(Kind::gce_persistent_disk, "logs", true)}, Code::success},
      {"a disk the other pod only reads, read-write", {disk(Kind::gce_persistent_disk, "logs")}, Code::unschedulable},
      {"an unrelated disk", {disk(Kind::gce_persistent_disk, "other")}, Code::success},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const auto pod = pod_with_disks("new", c.disks);
    const PluginStatus on_busy = run(*pod, busy);
    CHECK(on_busy.code == c.on_busy);
    if (c.on_busy == Code::unschedulable) CHECK(on_busy.message() == "node(s) had no available disk");
    const PluginStatus on_empty = run(*pod, empty);
    CHECK((on_empty.ok() || on_empty.code == Code::skip));
  }
}
