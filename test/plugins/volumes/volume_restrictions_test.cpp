#include <catch2/catch.hpp>

#include "../builders.hpp"
#include "plugins/volumes/claims_in_use.hpp"
#include "plugins/volumes/volume_restrictions.hpp"
#include "volume_fixtures.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::volumes;
using namespace troupe::plugins::volumes::testing;
using troupe::plugins::testing::NodeBuilder;

namespace {

PersistentVolumeClaim once_pod(PersistentVolumeClaim c) {
  c.access_modes = {kReadWriteOncePod};
  return c;
}

/// A placed pod named `name` using these claims.
std::shared_ptr<const PodInfo> user(std::string name, const std::vector<std::string>& claims) {
  Pod pod = pod_with_claims(claims);
  pod.meta.name = name;
  pod.meta.uid = "uid-" + name;
  return PodInfo::make(std::move(pod));
}

struct Run {
  PluginStatus pre_filter;
  CycleState state;
};

Run pre_filter(const VolumeRestrictions& plugin, const Pod& pod, std::shared_ptr<const VolumeCatalog> catalog,
               const ClusterPods& cluster) {
  Run run{{}, CycleState(4)};
  auto in_use = std::make_shared<const ClaimsInUse>(claims_in_use(pod, cluster, *catalog));
  if (!in_use->in_use.empty()) {
    const uint64_t version = in_use->version();
    run.state.share_input(std::move(in_use), version);
  }
  run.state.share_input(std::move(catalog), 1);
  PreFilterResult result;
  run.pre_filter = plugin.pre_filter(run.state, *PodInfo::make(pod), result);
  return run;
}

}  // namespace

TEST_CASE("ClusterPods counts the placed pods using each claim", "[volumes]") {
  ClusterPods cluster;
  cluster.add_pod(user("a", {"data", "logs"}), "n-1");
  cluster.assume_pod(user("b", {"data"}), "n-2");
  cluster.assume_nominated(user("nominee", {"data", "other"}), "n-3");  // counted at Filter upstream, not here
  CHECK(cluster.claim_users("default/other") == 0);
  cluster.forget_assumed("uid-nominee");
  CHECK(cluster.claim_users("default/data") == 2);
  CHECK(cluster.claim_users("default/logs") == 1);
  CHECK(cluster.claim_users("other/data") == 0);
  cluster.add_pod(user("a", {"data"}), "n-1");  // updated: no longer uses logs
  CHECK(cluster.claim_users("default/logs") == 0);
  cluster.forget_assumed("uid-b");
  CHECK(cluster.claim_users("default/data") == 1);
  cluster.remove_pod("uid-a");
  CHECK(cluster.claim_users("default/data") == 0);
}

TEST_CASE("ClaimsInUse: only the ReadWriteOncePod claims, and only whether each is used", "[volumes]") {
  const auto catalog = CatalogBuilder()
                           .add(once_pod(claim("solo", "pv-1")))
                           .add(once_pod(claim("spare", "pv-2")))
                           .add(claim("shared", "pv-3"))
                           .build();
  ClusterPods cluster;
  cluster.add_pod(user("a", {"solo", "shared"}), "n-1");
  const Pod pod = pod_with_claims({"solo", "spare", "shared", "missing"});
  const ClaimsInUse first = claims_in_use(pod, cluster, *catalog);
  CHECK(first.in_use == std::map<std::string, bool>{{"default/solo", true}, {"default/spare", false}});
  // Another user of the shared claim changes nothing the pod's class depends on.
  cluster.add_pod(user("b", {"shared"}), "n-2");
  CHECK(claims_in_use(pod, cluster, *catalog).version() == first.version());
  cluster.remove_pod("uid-a");
  CHECK(claims_in_use(pod, cluster, *catalog).version() != first.version());
  CHECK(claims_in_use(pod_with_claims({"shared"}), cluster, *catalog).in_use.empty());
}

TEST_CASE("VolumeRestrictions: a ReadWriteOncePod claim serves one pod in the cluster", "[volumes]") {
  const auto catalog = CatalogBuilder()
                           .add(once_pod(claim("solo", "pv-1")))
                           .add(once_pod(claim("spare", "pv-2")))
                           .add(claim("shared", "pv-3"))
                           .build();
  ClusterPods cluster;
  cluster.add_pod(user("holder", {"solo", "shared"}), "n-1");
  struct Case {
    const char* name;
    std::vector<std::string> claims;
    Code pre_filter;
    std::string filter;  // "" = fits
  };
  const std::string conflict =
      "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";
  const std::vector<Case> cases = {
      {"no claims: skip", {}, Code::skip, ""},
      {"an ordinary claim in use: skip", {"shared"}, Code::skip, ""},
      {"a ReadWriteOncePod claim nobody uses: skip, as upstream", {"spare"}, Code::skip, ""},
      {"a ReadWriteOncePod claim in use", {"solo"}, Code::success, conflict},
      {"one of several", {"spare", "solo", "shared"}, Code::success, conflict},
  };
  VolumeRestrictions plugin;
  const NodeInfo node = NodeBuilder("n-2").info();
  for (const auto& c : cases) {
    INFO(c.name);
    const Pod pod = pod_with_claims(c.claims);
    Run run = pre_filter(plugin, pod, catalog, cluster);
    CHECK(run.pre_filter.code == c.pre_filter);
    if (!run.pre_filter.ok()) continue;
    PluginStatus status = plugin.filter(run.state, *PodInfo::make(pod), node);
    CHECK(status.message() == c.filter);
    if (!c.filter.empty()) CHECK(status.code == Code::unschedulable);
  }
  SECTION("a claim that does not exist, whatever its mode") {
    Run run = pre_filter(plugin, pod_with_claims({"spare", "nope"}), catalog, cluster);
    CHECK(run.pre_filter.code == Code::unschedulable_and_unresolvable);
    CHECK(run.pre_filter.message() == "persistentvolumeclaim \"nope\" not found");
  }
  SECTION("ephemeral volumes are not looked at") {
    Run run = pre_filter(plugin, with_ephemeral(pod_with_claims({})), catalog, cluster);
    CHECK(run.pre_filter.code == Code::skip);
  }
  SECTION("preemption's dry run: taking the holder off frees the claim, putting it back takes it") {
    const Pod pod = pod_with_claims({"solo"});
    Run run = pre_filter(plugin, pod, catalog, cluster);
    REQUIRE(run.pre_filter.ok());
    auto info = PodInfo::make(pod);
    auto holder = user("holder", {"solo", "shared"});
    CHECK_FALSE(plugin.filter(run.state, *info, node).ok());
    REQUIRE(plugin.remove_pod(run.state, *info, *holder, node).ok());
    CHECK(plugin.filter(run.state, *info, node).ok());
    REQUIRE(plugin.add_pod(run.state, *info, *user("other", {"shared"}), node).ok());
    CHECK(plugin.filter(run.state, *info, node).ok());
    REQUIRE(plugin.add_pod(run.state, *info, *holder, node).ok());
    CHECK_FALSE(plugin.filter(run.state, *info, node).ok());
  }
}
