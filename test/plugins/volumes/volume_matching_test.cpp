#include <catch2/catch.hpp>

#include "plugins/volumes/volume_matching.hpp"
#include "volume_fixtures.hpp"

using namespace troupe;
using namespace troupe::plugins::volumes;
using namespace troupe::plugins::volumes::testing;

namespace {

/// An Available volume of class "local" with 10 units, ReadWriteOnce, reachable from hostname n-1.
PersistentVolume local_volume(std::string name, int64_t size = 10) {
  PersistentVolume v = volume(std::move(name), {{"tier", "fast"}}, node_in("kubernetes.io/hostname", {"n-1"}));
  v.storage_class_name = "local";
  v.phase = "Available";
  v.capacity_storage = Quantity::from_value(size);
  v.access_modes = {"ReadWriteOnce"};
  return v;
}

PersistentVolumeClaim local_claim(int64_t size = 5) {
  PersistentVolumeClaim c = claim("data", "", std::string("local"));
  c.meta.uid = "uid-data";
  c.requested_storage = Quantity::from_value(size);
  c.access_modes = {"ReadWriteOnce"};
  return c;
}

ObjectReference ref_to(std::string name, std::string uid) {
  ObjectReference ref;
  ref.kind = "PersistentVolumeClaim";
  ref.namespace_name = "default";
  ref.name = std::move(name);
  ref.uid = std::move(uid);
  return ref;
}

const Labels kN1 = {{"kubernetes.io/hostname", "n-1"}};
const Labels kN2 = {{"kubernetes.io/hostname", "n-2"}};

}  // namespace

TEST_CASE("find_matching_volume: which volume an unbound claim would take on a node", "[volumes]") {
  struct Case {
    const char* name;
    std::function<void(PersistentVolume&)> change_volume;
    std::function<void(PersistentVolumeClaim&)> change_claim;
    bool on_n1;  // the volume matches on n-1
  };
  auto none = [](auto&) {};
  const std::vector<Case> cases = {
      {"a fitting volume", none, none, true},
      {"bound to another claim", [](auto& v) { v.claim_ref = ref_to("other", "uid-other"); }, none, false},
      {"too small", none, [](auto& c) { c.requested_storage = Quantity::from_value(11); }, false},
      {"exactly the size asked", none, [](auto& c) { c.requested_storage = Quantity::from_value(10); }, true},
      {"no size asked", none, [](auto& c) { c.requested_storage = Quantity(); }, true},
      {"Block volume, Filesystem claim", [](auto& v) { v.volume_mode = "Block"; }, none, false},
      {"Block on both sides", [](auto& v) { v.volume_mode = "Block"; }, [](auto& c) { c.volume_mode = "Block"; }, true},
      {"an explicit Filesystem equals an unset mode", [](auto& v) { v.volume_mode = "Filesystem"; }, none, true},
      {"being deleted", [](auto& v) { v.meta.deletion_timestamp = Timestamp(); }, none, false},
      {"Released", [](auto& v) { v.phase = "Released"; }, none, false},
      {"another class", [](auto& v) { v.storage_class_name = "other"; }, none, false},
      {"the volume's beta class annotation wins",
       [](auto& v) {
         v.storage_class_name = "other";
         v.meta.annotations[kAnnotationBetaStorageClass] = "local";
       },
       none, true},
      {"selector matches", none, [](auto& c) { c.selector = *parse_label_selector("tier=fast"); }, true},
      {"selector does not match", none, [](auto& c) { c.selector = *parse_label_selector("tier=slow"); },
       false},
      {"access mode not offered", none, [](auto& c) { c.access_modes = {"ReadWriteMany"}; }, false},
      {"pre-bound to the claim: taken whatever its phase or selector",
       [](auto& v) {
         v.claim_ref = ref_to("data", "");
         v.phase = "Pending";
       },
       [](auto& c) { c.selector = *parse_label_selector("tier=slow"); }, true},
      {"pre-bound to the claim but of another class: not a candidate",
       [](auto& v) {
         v.claim_ref = ref_to("data", "uid-data");
         v.storage_class_name = "other";
       },
       none, false},
      {"pre-bound to an older claim of the same name", [](auto& v) { v.claim_ref = ref_to("data", "uid-old"); }, none,
       false},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    PersistentVolume v = local_volume("pv-1");
    c.change_volume(v);
    PersistentVolumeClaim pvc = local_claim();
    c.change_claim(pvc);
    auto catalog = CatalogBuilder().add(v).build();
    auto found = find_matching_volume(pvc, *catalog, kN1, {});
    CHECK((found != nullptr) == c.on_n1);
    CHECK(find_matching_volume(pvc, *catalog, kN2, {}) == nullptr);  // never reachable from n-2
  }
}

TEST_CASE("find_matching_volume: the smallest that fits, never an excluded one", "[volumes]") {
  auto catalog = CatalogBuilder()
                     .add(local_volume("pv-big", 100))
                     .add(local_volume("pv-mid-b", 20))
                     .add(local_volume("pv-mid-a", 20))
                     .add(local_volume("pv-small", 4))
                     .build();
  PersistentVolumeClaim pvc = local_claim(5);
  CHECK(find_matching_volume(pvc, *catalog, kN1, {})->meta.name == "pv-mid-a");  // ties: the first name
  CHECK(find_matching_volume(pvc, *catalog, kN1, {"pv-mid-a"})->meta.name == "pv-mid-b");
  CHECK(find_matching_volume(pvc, *catalog, kN1, {"pv-mid-a", "pv-mid-b"})->meta.name == "pv-big");
  CHECK(find_matching_volume(pvc, *catalog, kN1, {"pv-mid-a", "pv-mid-b", "pv-big"}) == nullptr);
  SECTION("a pre-bound volume wins over a smaller one, and fails the node it cannot reach") {
    PersistentVolume prebound = local_volume("pv-prebound", 100);
    prebound.claim_ref = ref_to("data", "uid-data");
    auto with_prebound = CatalogBuilder().add(local_volume("pv-small-fit", 6)).add(prebound).build();
    CHECK(find_matching_volume(pvc, *with_prebound, kN1, {})->meta.name == "pv-prebound");
    PersistentVolume elsewhere = prebound;
    elsewhere.node_affinity = node_in("kubernetes.io/hostname", {"n-2"});
    auto unreachable = CatalogBuilder().add(local_volume("pv-small-fit", 6)).add(elsewhere).build();
    CHECK(find_matching_volume(pvc, *unreachable, kN1, {}) == nullptr);
  }
}

TEST_CASE("matches_allowed_topologies", "[volumes]") {
  auto term = [](std::vector<TopologyLabelRequirement> requirements) {
    return TopologySelectorTerm{std::move(requirements)};
  };
  const Labels zone_a = {{"zone", "a"}, {"rack", "1"}};
  struct Case {
    const char* name;
    std::vector<TopologySelectorTerm> terms;
    bool matches;
  };
  const std::vector<Case> cases = {
      {"no terms: anywhere", {}, true},
      {"one requirement met", {term({{"zone", {"a", "b"}}})}, true},
      {"value not listed", {term({{"zone", {"b"}}})}, false},
      {"key missing", {term({{"region", {"x"}}})}, false},
      {"every requirement of a term", {term({{"zone", {"a"}}, {"rack", {"2"}}})}, false},
      {"any term", {term({{"zone", {"b"}}}), term({{"rack", {"1"}}})}, true},
      {"an empty term selects nothing", {term({})}, false},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    StorageClass sc = storage_class("csi", "WaitForFirstConsumer");
    sc.allowed_topologies = c.terms;
    CHECK(matches_allowed_topologies(sc, zone_a) == c.matches);
  }
}
