#include <catch2/catch.hpp>

#include "../builders.hpp"
#include "plugins/volumes/node_volume_limits.hpp"
#include "volume_fixtures.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::volumes;
using namespace troupe::plugins::volumes::testing;
using troupe::plugins::testing::NodeBuilder;

namespace {

PersistentVolume csi_volume(std::string name, std::string driver) {
  PersistentVolume v = volume(name);
  v.csi_driver = std::move(driver);
  v.csi_volume_handle = "handle-" + name;
  return v;
}

CsiNode csi_node(std::string node, std::vector<CsiNodeDriver> drivers) {
  CsiNode n;
  n.meta.name = std::move(node);
  n.drivers = std::move(drivers);
  return n;
}

std::shared_ptr<const PodInfo> placed(std::string name, std::vector<std::string> claims) {
  Pod pod = pod_with_claims(claims);
  pod.meta.name = name;
  pod.meta.uid = "uid-" + name;
  return PodInfo::make(pod);
}

}  // namespace

TEST_CASE("NodeVolumeLimits: a node attaches at most its CSINode's count of each driver's volumes", "[volumes]") {
  CatalogBuilder builder;
  for (int i = 1; i <= 4; ++i) {
    const std::string n = std::to_string(i);
    builder.add(claim("ebs-" + n, "pv-ebs-" + n)).add(csi_volume("pv-ebs-" + n, "ebs.csi"));
  }
  builder.add(claim("efs-1", "pv-efs-1")).add(csi_volume("pv-efs-1", "efs.csi"));
  builder.add(claim("nfs", "pv-nfs")).add(volume("pv-nfs"));                   // not CSI: not counted
  builder.add(claim("pending-ebs", "", std::string("ebs-class")));             // counted by its provisioner
  builder.add(claim("other-pending-ebs", "", std::string("ebs-class")));
  StorageClass ebs_class = storage_class("ebs-class", "WaitForFirstConsumer");
  ebs_class.provisioner = "ebs.csi";
  builder.add(ebs_class);
  builder.add(csi_node("n-1", {{"ebs.csi", 2}, {"efs.csi", std::nullopt}}));
  builder.add(csi_node("n-unlimited", {{"ebs.csi", std::nullopt}}));
  const auto catalog = builder.build();

  const NodeVolumeLimits plugin;
  const auto holds_ebs_1 = placed("holder", {"ebs-1"});
  const auto holds_ebs_1_again = placed("sharer", {"ebs-1"});
  struct Case {
    const char* name;
    std::vector<std::string> claims;
    std::vector<std::shared_ptr<const PodInfo>> on_node;
    std::string node;
    Code code;
  };
  const Code no = Code::unschedulable;
  const std::vector<Case> cases = {
      {"within the count", {"ebs-1", "ebs-2"}, {}, "n-1", Code::success},
      {"one over", {"ebs-1", "ebs-2", "ebs-3"}, {}, "n-1", no},
      {"placed pods' volumes count", {"ebs-2", "ebs-3"}, {holds_ebs_1}, "n-1", no},
      {"a volume the node has already is not counted again", {"ebs-1", "ebs-2"}, {holds_ebs_1}, "n-1",
       Code::success},
      {"a volume two placed pods share counts once", {"ebs-2"}, {holds_ebs_1, holds_ebs_1_again}, "n-1",
       Code::success},
      {"a driver without count has no limit", {"efs-1", "ebs-1"}, {}, "n-1", Code::success},
      {"no CSINode: no limit", {"ebs-1", "ebs-2", "ebs-3"}, {}, "n-2", Code::success},
      {"a CSINode without counts: no limit", {"ebs-1", "ebs-2", "ebs-3"}, {}, "n-unlimited", Code::success},
      {"an unbound claim counts as a new volume of its provisioner", {"ebs-1", "ebs-2", "pending-ebs"}, {}, "n-1",
       no},
      {"two unbound claims are two volumes", {"pending-ebs", "other-pending-ebs"}, {holds_ebs_1}, "n-1", no},
      {"a volume that is not CSI is not counted", {"ebs-1", "ebs-2", "nfs"}, {}, "n-1", Code::success},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CycleState state(4);
    state.share_input(catalog, 1);
    auto pod = PodInfo::make(pod_with_claims(c.claims));
    PreFilterResult result;
    REQUIRE(plugin.pre_filter(state, *pod, result).ok());
    const NodeInfo node = NodeBuilder(c.node).info(c.on_node);
    PluginStatus status = plugin.filter(state, *pod, node);
    CHECK(status.code == c.code);
    if (c.code == no) CHECK(status.message() == "node(s) exceed max volume count");
  }
  SECTION("PreFilter skips pods without CSI volumes") {
    for (const auto& claims : std::vector<std::vector<std::string>>{{}, {"nfs"}}) {
      CycleState state(4);
      state.share_input(catalog, 1);
      PreFilterResult result;
      CHECK(plugin.pre_filter(state, *PodInfo::make(pod_with_claims(claims)), result).code == Code::skip);
    }
  }
  SECTION("a missing claim fails the pod on every node; a placed pod's is left out") {
    CycleState state(4);
    state.share_input(catalog, 1);
    auto pod = PodInfo::make(pod_with_claims({"ebs-1", "gone"}));
    PreFilterResult result;
    REQUIRE(plugin.pre_filter(state, *pod, result).ok());
    PluginStatus status = plugin.filter(state, *pod, NodeBuilder("n-1").info());
    CHECK(status.code == Code::unschedulable_and_unresolvable);
    CHECK(status.message() == "looking up PVC default/gone: persistentvolumeclaim \"gone\" not found");
    NodeVolumeLimits::CsiVolumes volumes;
    CHECK(csi_volumes_of(pod_with_claims({"ebs-1", "gone"}), *catalog, false, volumes).ok());
    CHECK(volumes == NodeVolumeLimits::CsiVolumes{{"ebs.csi/handle-pv-ebs-1", "ebs.csi"}});
  }
}
