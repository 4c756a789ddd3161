// Server-side Tables: which Accept headers get one, and their shape, through
// the handlers (list, get, and a watcher's events).

#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include "sim/api_handler.hpp"
#include "sim/server_side_table.hpp"
#include "test/sim/handler_fixture.hpp"

using namespace troupe::sim;

namespace {

constexpr const char* kKubectlAccept =
    "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

using Fixture = troupe::sim::testing::HandlerFixture;
using troupe::sim::testing::json;

}  // namespace

TEST_CASE("table_request: the first served media range wins", "[table]") {
  struct Case {
    const char* name;
    std::string accept;
    std::string query;
    int error;                // 0: none
    const char* api_version;  // nullptr: plain JSON
    IncludeObject include;
  };
  const auto metadata = IncludeObject::metadata;
  const std::vector<Case> cases = {
      {"no Accept header", "", "", 0, nullptr, metadata},
      {"plain JSON", "application/json", "", 0, nullptr, metadata},
      {"anything", "*/*", "", 0, nullptr, metadata},
      {"kubectl get", kKubectlAccept, "", 0, "meta.k8s.io/v1", metadata},
      {"v1beta1 only", "application/json;as=Table;v=v1beta1;g=meta.k8s.io", "", 0, "meta.k8s.io/v1beta1", metadata},
      {"spaces and case in the type", " Application/JSON ; as=Table ; g=meta.k8s.io ; v=v1 ", "", 0,
       "meta.k8s.io/v1", metadata},
      {"JSON listed before the Table", "application/json, application/json;as=Table;v=v1;g=meta.k8s.io", "", 0,
       nullptr, metadata},
      {"protobuf first, then JSON", "application/vnd.kubernetes.protobuf, application/json", "", 0, nullptr, metadata},
      {"metadata-only first, then JSON",
       "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json", "", 0, nullptr, metadata},
      {"an unknown Table version, then JSON", "application/json;as=Table;v=v9;g=meta.k8s.io,application/json", "", 0,
       nullptr, metadata},
      {"includeObject=None", kKubectlAccept, "None", 0, "meta.k8s.io/v1", IncludeObject::none},
      {"includeObject=Object", kKubectlAccept, "Object", 0, "meta.k8s.io/v1", IncludeObject::object},
      {"includeObject is ignored without a Table", "application/json", "Bogus", 0, nullptr, metadata},
      {"protobuf only: JSON all the same", "application/vnd.kubernetes.protobuf", "", 0, nullptr, metadata},
      {"metadata-only only: JSON all the same", "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
       "", 0, nullptr, metadata},
      {"YAML only: JSON all the same", "application/yaml", "", 0, nullptr, metadata},
      {"an unknown includeObject", kKubectlAccept, "Bogus", 400, nullptr, metadata},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    std::map<std::string, std::string> query;
    if (!c.query.empty()) query["includeObject"] = c.query;
    auto got = table_request(c.accept, query);
    if (c.error != 0) {
      REQUIRE_FALSE(got.ok());
      CHECK(got.error().code == c.error);
      continue;
    }
    REQUIRE(got.ok());
    if (c.api_version == nullptr) {
      CHECK_FALSE(got.value());
      continue;
    }
    REQUIRE(got.value());
    CHECK(got.value()->api_version == c.api_version);
    CHECK(got.value()->include == c.include);
  }
  auto refused = table_request(kKubectlAccept, {{"includeObject", "Bogus"}});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().reason == "BadRequest");
  CHECK(refused.error().message == "includeObject: Unsupported value: \"Bogus\": supported values: \"None\", \"Metadata\", \"Object\"");
}

TEST_CASE("lists and single objects come back as Tables when asked", "[table]") {
  Fixture f;
  REQUIRE(f.call("POST", "/api/v1/nodes", R"({"metadata":{"name":"n1","labels":{"zone":"a"}}})").status == 201);
  REQUIRE(f.call("POST", "/api/v1/nodes", R"({"metadata":{"name":"n2"}})").status == 201);

  auto table = json(f.get("/api/v1/nodes", kKubectlAccept).body);
  CHECK(std::string(table["kind"].GetString()) == "Table");
  CHECK(std::string(table["apiVersion"].GetString()) == "meta.k8s.io/v1");
  CHECK(table["metadata"]["resourceVersion"].IsString());
  const auto& columns = table["columnDefinitions"];
  REQUIRE(columns.Size() == 10);
  CHECK(std::string(columns[0]["name"].GetString()) == "Name");
  CHECK(std::string(columns[0]["format"].GetString()) == "name");
  CHECK(columns[5]["priority"].GetInt() == 1);
  REQUIRE(table["rows"].Size() == 2);
  const auto& row = table["rows"][0];
  CHECK(row["cells"].Size() == columns.Size());
  CHECK(std::string(row["cells"][0].GetString()) == "n1");
  CHECK(std::string(row["object"]["kind"].GetString()) == "PartialObjectMetadata");
  CHECK(std::string(row["object"]["metadata"]["labels"]["zone"].GetString()) == "a");
  CHECK_FALSE(row["object"].HasMember("spec"));

  auto whole = json(f.get("/api/v1/nodes?includeObject=Object", kKubectlAccept).body);
  CHECK(std::string(whole["rows"][0]["object"]["kind"].GetString()) == "Node");
  auto bare = json(f.get("/api/v1/nodes?includeObject=None", kKubectlAccept).body);
  CHECK_FALSE(bare["rows"][0].HasMember("object"));

  auto paged = json(f.get("/api/v1/nodes?limit=1", kKubectlAccept).body);
  CHECK(paged["rows"].Size() == 1);
  CHECK(paged["metadata"]["continue"].IsString());
  const std::string next = std::string("/api/v1/nodes?limit=1&continue=") + paged["metadata"]["continue"].GetString();
  auto rest = json(f.get(next, kKubectlAccept).body);
  CHECK(std::string(rest["rows"][0]["cells"][0].GetString()) == "n2");

  auto one = json(f.get("/api/v1/nodes/n2", kKubectlAccept).body);
  CHECK(std::string(one["kind"].GetString()) == "Table");
  REQUIRE(one["rows"].Size() == 1);
  CHECK(std::string(one["rows"][0]["cells"][0].GetString()) == "n2");

  CHECK(std::string(json(f.get("/api/v1/nodes", "application/json").body)["kind"].GetString()) == "NodeList");
  CHECK(std::string(json(f.get("/api/v1/nodes", "application/vnd.kubernetes.protobuf").body)["kind"].GetString()) ==
        "NodeList");
  CHECK(f.get("/api/v1/nodes/n2?includeObject=x", kKubectlAccept).status == 400);
  CHECK(f.get("/api/v1/nodes/missing", kKubectlAccept).status == 404);
}

TEST_CASE("a watcher asked for Tables renders each event as a one-row Table", "[table]") {
  Fixture f;
  ApiResponse started = f.get("/api/v1/namespaces/default/configmaps?watch=true", kKubectlAccept);
  REQUIRE(started.watch);
  REQUIRE(f.call("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"cm"}})").status == 201);
  std::vector<WatchItem> items;
  started.watch->watcher->take(items);
  REQUIRE(items.size() == 1);
  auto event = json(started.watch->watcher->render(items[0]));
  CHECK(std::string(event["type"].GetString()) == "ADDED");
  CHECK(std::string(event["object"]["kind"].GetString()) == "Table");
  CHECK(event["object"]["columnDefinitions"].Size() == 3);
  REQUIRE(event["object"]["rows"].Size() == 1);
  CHECK(std::string(event["object"]["rows"][0]["cells"][0].GetString()) == "cm");

  ApiResponse plain = f.get("/api/v1/namespaces/default/configmaps?watch=true", "application/json");
  REQUIRE(f.call("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"cm2"}})").status == 201);
  items.clear();
  plain.watch->watcher->take(items);
  REQUIRE(items.size() == 2);  // no resourceVersion: cm as it is, then cm2
  for (const auto& item : items)
    CHECK(std::string(json(plain.watch->watcher->render(item))["object"]["kind"].GetString()) == "ConfigMap");
  CHECK(f.get("/api/v1/namespaces/default/configmaps?watch=true&includeObject=x", kKubectlAccept).status == 400);
}
