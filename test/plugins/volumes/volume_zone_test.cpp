#include <catch2/catch.hpp>

#include "../builders.hpp"
#include "plugins/volumes/volume_zone.hpp"
#include "volume_fixtures.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::volumes;
using namespace troupe::plugins::volumes::testing;
using troupe::plugins::testing::NodeBuilder;

namespace {

const char* kBetaZone = "failure-domain.beta.kubernetes.io/zone";
const char* kBetaRegion = "failure-domain.beta.kubernetes.io/region";
const char* kZone = "topology.kubernetes.io/zone";
const char* kRegion = "topology.kubernetes.io/region";
const Code uu = Code::unschedulable_and_unresolvable;

}  // namespace

TEST_CASE("VolumeZone: a label's zones", "[volumes]") {
  using Zones = std::optional<std::set<std::string>>;
  struct Case {
    const char* value;
    Zones zones;
  };
  const std::vector<Case> cases = {
      {"us-east-1a", std::set<std::string>{"us-east-1a"}},
      {"us-east-1a__us-east-1b", std::set<std::string>{"us-east-1a", "us-east-1b"}},
      {" a __ b ", std::set<std::string>{"a", "b"}},
      {"a__a", std::set<std::string>{"a"}},
      {"", std::nullopt},
      {"a__", std::nullopt},
      {"__b", std::nullopt},
      {"a____b", std::nullopt},
      {"a_b", std::set<std::string>{"a_b"}},
  };
  for (const auto& c : cases) {
    INFO(c.value);
    CHECK(zones_of_label(c.value) == c.zones);
  }
}

TEST_CASE("VolumeZone PreFilter: which claims it reads and how it fails", "[volumes]") {
  const auto catalog = CatalogBuilder()
                           .add(claim("zoned", "pv-zoned"))
                           .add(claim("plain", "pv-plain"))
                           .add(claim("orphan", "pv-gone"))
                           .add(claim("classless"))
                           .add(claim("unknown-class", "", std::string("nope")))
                           .add(claim("modeless", "", std::string("old")))
                           .add(claim("later", "", std::string("wffc")))
                           .add(claim("immediate", "", std::string("fast")))
                           .add(volume("pv-zoned", {{kZone, "a"}}))
                           .add(volume("pv-plain"))
                           .add(storage_class("old", ""))
                           .add(storage_class("wffc", "WaitForFirstConsumer"))
                           .add(storage_class("fast", "Immediate"))
                           .build();
  struct Case {
    const char* name;
    Pod pod;
    Code code;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"no claims: skip", pod_with_claims({}), Code::skip, ""},
      {"volumes without zone labels: skip", pod_with_claims({"plain"}), Code::skip, ""},
      {"a zoned volume", pod_with_claims({"plain", "zoned"}), Code::success, ""},
      {"ephemeral volumes are not read", with_ephemeral(pod_with_claims({})), Code::skip, ""},
      {"a claim without a name", pod_with_claims({""}), uu, "PersistentVolumeClaim had no name"},
      {"a missing claim", pod_with_claims({"nope"}), uu, "persistentvolumeclaim \"nope\" not found"},
      {"a missing volume", pod_with_claims({"orphan"}), uu, "persistentvolume \"pv-gone\" not found"},
      {"unbound without a class", pod_with_claims({"classless"}), uu,
       "PersistentVolumeClaim had no pv name and storageClass name"},
      {"unbound with a missing class", pod_with_claims({"unknown-class"}), uu,
       "storageclass.storage.k8s.io \"nope\" not found"},
      {"unbound, a class without a binding mode", pod_with_claims({"modeless"}), uu,
       "VolumeBindingMode not set for StorageClass \"old\""},
      {"unbound WaitForFirstConsumer: left alone", pod_with_claims({"later"}), Code::skip, ""},
      {"unbound Immediate", pod_with_claims({"immediate"}), uu, "PersistentVolume had no name"},
  };
  VolumeZone plugin;
  for (const auto& c : cases) {
    INFO(c.name);
    CycleState state(4);
    state.share_input(catalog, 1);
    PreFilterResult result;
    PluginStatus status = plugin.pre_filter(state, *PodInfo::make(c.pod), result);
    CHECK(status.code == c.code);
    CHECK(status.message() == c.message);
  }
}

TEST_CASE("VolumeZone Filter: the node must be in the volumes' zones and regions", "[volumes]") {
  struct Case {
    const char* name;
    Labels volume_labels;
    Labels node_labels;
    bool fits;
  };
  const std::vector<Case> cases = {
      {"same zone", {{kZone, "a"}}, {{kZone, "a"}}, true},
      {"other zone", {{kZone, "a"}}, {{kZone, "b"}}, false},
      {"a node without any zone or region label passes", {{kZone, "a"}}, {{"other", "x"}}, true},
      {"a node with a region only lacks the zone", {{kZone, "a"}}, {{kRegion, "r"}}, false},
      {"one of several zones", {{kZone, "a__b__c"}}, {{kZone, "b"}}, true},
      {"none of several zones", {{kZone, "a__b"}}, {{kZone, "c"}}, false},
      {"zone and region both", {{kZone, "a"}, {kRegion, "r"}}, {{kZone, "a"}, {kRegion, "r"}}, true},
      {"zone right, region wrong", {{kZone, "a"}, {kRegion, "r"}}, {{kZone, "a"}, {kRegion, "s"}}, false},
      {"a volume's beta key, the node's GA label", {{kBetaZone, "a"}}, {{kZone, "a"}}, true},
      {"a volume's beta region, the node's GA label", {{kBetaRegion, "r"}}, {{kRegion, "r"}}, true},
      {"a volume's GA key, the node's beta label only", {{kZone, "a"}}, {{kBetaZone, "a"}}, false},
      {"a malformed value is ignored", {{kZone, "a__"}, {kRegion, "r"}}, {{kZone, "z"}, {kRegion, "r"}}, true},
  };
  VolumeZone plugin;
  for (const auto& c : cases) {
    INFO(c.name);
    const auto catalog = CatalogBuilder().add(claim("data", "pv")).add(volume("pv", c.volume_labels)).build();
    CycleState state(4);
    state.share_input(catalog, 1);
    PreFilterResult result;
    const Pod pod = pod_with_claims({"data"});
    REQUIRE(plugin.pre_filter(state, *PodInfo::make(pod), result).ok());
    NodeBuilder node("n");
    for (const auto& [key, value] : c.node_labels) node.label(key, value);
    PluginStatus status = plugin.filter(state, *PodInfo::make(pod), node.info());
    CHECK(status.ok() == c.fits);
    if (!c.fits) {
      CHECK(status.code == uu);
      CHECK(status.message() == "node(s) had no available volume zone");
    }
  }
}
