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
  CHECK(is_volume_collection("persistentvolumeclaims"));
  CHECK_FALSE(is_volume_collection("pods"));
}
