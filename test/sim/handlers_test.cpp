#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include "sim/api_handler.hpp"
#include "sim/base64.hpp"
#include "sim/kubeconfig_writer.hpp"
#include "sim/loader.hpp"
#include "sim/object_rules.hpp"
#include "sim/sample_cluster.hpp"
#include "sim/yaml_json.hpp"
#include "test/sim/handler_fixture.hpp"

using namespace troupe::sim;

namespace {

using Fixture = troupe::sim::testing::HandlerFixture;
using troupe::sim::testing::json;

const std::string kPod = R"({"metadata":{"name":"p","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i","env":[{"name":"A","value":"1"}]}]}})";

// Nesting a million levels deep: a recursive parser would run off the stack.
const std::string kDeepJson(1'000'000, '[');

// "Billion laughs": nine levels of ten aliases each expand to 10^9 scalars.
std::string yaml_alias_bomb() {
  std::string yaml = "metadata: {name: bomb}\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level <= 8; ++level) {
    const std::string below = "*l" + std::to_string(level - 1);
    yaml += "l" + std::to_string(level) + ": &l" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) yaml += (i ? ", " : "") + below;
    yaml += "]\n";
  }
  return yaml;
}

}  // namespace

TEST_CASE("handlers answer requests with kube-apiserver's codes and reasons", "[handlers]") {
  Fixture f;
  REQUIRE(f.call("POST", "/api/v1/namespaces/default/pods", kPod).status == 201);
  struct Case {
    const char* method;
    const char* target;
    std::string body;
    const char* content_type;
    int status;
    const char* reason; // empty for success
  };
  const Case cases[] = {
      {"GET", "/api/v1/namespaces/default/pods/p", "", "", 200, ""},
      {"GET", "/api/v1/namespaces/default/pods/q", "", "", 404, "NotFound"},
      {"GET", "/api/v1/pods/p", "", "", 404, "NotFound"}, // an item needs its namespace
      {"GET", "/api/v1/namespaces/default/nodes", "", "", 404, "NotFound"},
      {"GET", "/api/v2/pods", "", "", 404, "NotFound"},
      {"GET", "/api/v1/namespaces/default/pods/p/log", "", "", 404, "NotFound"},
      {"POST", "/api/v1/pods", kPod, "application/json", 405, "MethodNotAllowed"},
      {"POST", "/api/v1/namespaces/default/pods", kPod, "application/json", 409, "AlreadyExists"},
      {"POST", "/api/v1/namespaces/default/pods", "{", "application/json", 400, "BadRequest"},
      {"POST", "/api/v1/namespaces/default/pods", kDeepJson, "application/json", 400, "BadRequest"},
      {"POST", "/api/v1/namespaces/default/configmaps", yaml_alias_bomb(), "application/yaml", 400, "BadRequest"},
      {"PATCH", "/api/v1/namespaces/default/pods/p", kDeepJson, "application/merge-patch+json", 400, "BadRequest"},
      {"PATCH", "/api/v1/namespaces/default/pods/p", kDeepJson, "application/json-patch+json", 400, "BadRequest"},
      {"DELETE", "/api/v1/namespaces/default/pods/p", kDeepJson, "application/json", 400, "BadRequest"},
      {"POST", "/api/v1/namespaces/default/pods/p/binding", kDeepJson, "application/json", 400, "BadRequest"},
      // No server-side dry run: refused, and nothing is changed (p is bound below).
      {"DELETE", "/api/v1/namespaces/default/pods/p?dryRun=All", "", "", 400, "BadRequest"},
      {"DELETE", "/api/v1/namespaces/default/pods/p", R"({"dryRun":["All"]})", "application/json", 400, "BadRequest"},
      {"DELETE", "/api/v1/namespaces/default/pods", R"({"dryRun":["All"]})", "application/json", 400, "BadRequest"},
      {"PATCH", "/api/v1/namespaces/default/pods/p?dryRun=All", R"({"metadata":{"labels":{"x":"z"}}})", "application/merge-patch+json", 400, "BadRequest"},
      {"POST", "/api/v1/namespaces/default/pods?dryRun=All", R"({"metadata":{"name":"dry"},"spec":{"containers":[{"name":"c"}]}})", "application/json", 400, "BadRequest"},
      {"GET", "/api/v1/namespaces/default/pods/dry", "", "", 404, "NotFound"},
      {"POST", "/api/v1/namespaces/default/pods/p/eviction", R"({"metadata":{"name":"p"},"deleteOptions":{"dryRun":["All"]}})", "application/json", 400, "BadRequest"},
      {"POST", "/api/v1/namespaces/other/pods", R"({"metadata":{"name":"x","namespace":"default"},"spec":{"containers":[{"name":"c"}]}})", "application/json", 400, "BadRequest"},
      {"POST", "/api/v1/namespaces/default/pods", R"({"apiVersion":"v2","metadata":{"name":"x"}})", "application/json", 400, "BadRequest"},
      {"POST", "/api/v1/namespaces/default/pods", R"({"metadata":{"name":"x"},"spec":{"containers":[]}})", "application/json", 422, "Invalid"},
      {"POST", "/api/v1/namespaces", R"({"metadata":{"name":"has.dot"}})", "application/json", 422, "Invalid"},
      {"POST", "/api/v1/namespaces/default/configmaps", "metadata:\n  name: from-yaml\ndata: {a: b}\n", "application/yaml", 201, ""},
      {"PUT", "/api/v1/namespaces/default/configmaps/from-yaml", R"({"metadata":{"name":"other"}})", "application/json", 400, "BadRequest"},
      {"PUT", "/api/v1/namespaces/default/configmaps/nope", R"({"metadata":{"name":"nope"}})", "application/json", 404, "NotFound"},
      {"PUT", "/apis/coordination.k8s.io/v1/namespaces/default/leases/l", R"({"metadata":{"name":"l"},"spec":{"holderIdentity":"a"}})", "application/json", 201, ""},
      {"PUT", "/apis/scheduling.koordinator.sh/v1alpha1/devices/d", R"({"metadata":{"name":"d"}})", "application/json", 404, "NotFound"},
      {"PATCH", "/api/v1/namespaces/default/pods/p", R"({"metadata":{"labels":{"x":"y"}}})", "application/strategic-merge-patch+json", 200, ""},
      {"PATCH", "/api/v1/namespaces/default/pods/p", R"([{"op":"test","path":"/metadata/name","value":"zzz"}])", "application/json-patch+json", 422, "Invalid"},
      {"PATCH", "/api/v1/namespaces/default/pods/p", R"({"metadata":{"name":"renamed"}})", "application/merge-patch+json", 400, "BadRequest"},
      {"PATCH", "/api/v1/namespaces/default/pods/p", "{}", "application/apply-patch+yaml", 415, "UnsupportedMediaType"},
      {"PATCH", "/api/v1/namespaces/default/pods/zz", "{}", "application/merge-patch+json", 404, "NotFound"},
      {"PATCH", "/api/v1/namespaces/default/pods/p", R"({"metadata":{"uid":"other"}})", "application/merge-patch+json", 409, "Conflict"},
      {"PATCH", "/api/v1/namespaces/default/pods/p/status", R"({"metadata":{"uid":"other"},"status":{"phase":"Failed"}})", "application/merge-patch+json", 409, "Conflict"},
      {"DELETE", "/api/v1/namespaces", "", "", 405, "MethodNotAllowed"},
      {"DELETE", "/api/v1/namespaces/default", "", "", 403, "Forbidden"},
      {"POST", "/api/v1/namespaces/default/pods/p/binding", R"({"metadata":{"name":"p"},"target":{}})", "application/json", 422, "Invalid"},
      {"POST", "/api/v1/namespaces/default/pods/p/binding", R"({"metadata":{"name":"p","uid":"wrong"},"target":{"name":"n"}})", "application/json", 409, "Conflict"},
      {"POST", "/api/v1/namespaces/default/bindings", R"({"metadata":{"name":"p"},"target":{"name":"n1"}})", "application/json", 201, ""},
      {"GET", "/api/v1/namespaces/default/bindings", "", "", 405, "MethodNotAllowed"},
      {"GET", "/healthz", "", "", 200, ""},
      {"GET", "/openapi/v3", "", "", 404, "NotFound"},
      {"GET", "/apis/policy", "", "", 200, ""},
      {"GET", "/apis/topology.node.k8s.io/v1alpha2", "", "", 200, ""},
  };
  for (const auto& c : cases) {
    INFO(c.method << " " << c.target << " " << c.body.substr(0, 200));
    auto r = f.call(c.method, c.target, c.body, c.content_type);
    CHECK(r.status == c.status);
    if (std::string(c.reason).empty()) continue;
    auto body = json(r.body);
    CHECK(std::string(body["kind"].GetString()) == "Status");
    CHECK(std::string(body["reason"].GetString()) == c.reason);
    CHECK(body["code"].GetInt() == c.status);
  }
  // The binding through the legacy collection took effect.
  auto pod = json(f.call("GET", "/api/v1/namespaces/default/pods/p").body);
  CHECK(std::string(pod["spec"]["nodeName"].GetString()) == "n1");
  // A Binding's failed precondition is the pod update's conflict (on "pods"), a bound pod the binding's.
  REQUIRE(f.call("POST", "/api/v1/namespaces/default/pods", R"({"metadata":{"name":"q"},"spec":{"containers":[{"name":"c"}]}})")
              .status == 201);
  auto stale = json(f.call("POST", "/api/v1/namespaces/default/pods/q/binding",
                           R"({"metadata":{"name":"q","uid":"wrong"},"target":{"name":"n"}})").body);
  CHECK_THAT(std::string(stale["message"].GetString()),
             Catch::StartsWith("Operation cannot be fulfilled on pods \"q\": Precondition failed: UID in precondition: wrong"));
  auto bound = json(f.call("POST", "/api/v1/namespaces/default/pods/p/binding",
                           R"({"metadata":{"name":"p"},"target":{"name":"n2"}})").body);
  CHECK_THAT(std::string(bound["message"].GetString()), Catch::StartsWith("Operation cannot be fulfilled on pods/binding \"p\""));
}

TEST_CASE("an object written through any version reads with the version asked for", "[handlers]") {
  Fixture f;
  const std::string base = "/apis/topology.node.k8s.io/";
  struct Case {
    const char* written_with;
    const char* method;
  };
  const Case cases[] = {{"v1alpha1", "POST"}, {"v1alpha2", "POST"}, {"v1alpha1", "PUT"}, {"v1alpha1", "PATCH"}};
  for (const Case& c : cases) {
    INFO(c.written_with << " " << c.method);
    const std::string version = c.written_with;
    const std::string object = R"({"apiVersion":"topology.node.k8s.io/)" + version +
                               R"(","kind":"NodeResourceTopology","metadata":{"name":"n1"},"zones":[]})";
    REQUIRE(f.call("POST", base + "v1alpha2/noderesourcetopologies", R"({"metadata":{"name":"n1"},"zones":[]})")
                .status == 201);
    if (std::string(c.method) == "POST") {
      REQUIRE(f.call("DELETE", base + "v1alpha2/noderesourcetopologies/n1").status == 200);
      REQUIRE(f.call("POST", base + version + "/noderesourcetopologies", object).status == 201);
    } else if (std::string(c.method) == "PUT") {
      auto current = json(f.call("GET", base + version + "/noderesourcetopologies/n1").body);
      const std::string rv = current["metadata"]["resourceVersion"].GetString();
      const std::string replacement = R"({"apiVersion":"topology.node.k8s.io/)" + version +
                                      R"(","kind":"NodeResourceTopology","metadata":{"name":"n1","resourceVersion":")" +
                                      rv + R"("},"zones":[]})";
      REQUIRE(f.call("PUT", base + version + "/noderesourcetopologies/n1", replacement).status == 200);
    } else {
      REQUIRE(f.call("PATCH", base + version + "/noderesourcetopologies/n1", R"({"zones":[]})",
                     "application/merge-patch+json").status == 200);
    }
    for (const char* read_with : {"v1alpha1", "v1alpha2"}) {
      auto got = json(f.call("GET", base + read_with + "/noderesourcetopologies/n1").body);
      CHECK(std::string(got["apiVersion"].GetString()) == std::string("topology.node.k8s.io/") + read_with);
      auto list = json(f.call("GET", base + read_with + "/noderesourcetopologies").body);
      CHECK(std::string(list["items"][0]["apiVersion"].GetString()) == std::string("topology.node.k8s.io/") + read_with);
    }
    REQUIRE(f.call("DELETE", base + "v1alpha2/noderesourcetopologies/n1").status == 200);
  }
}

TEST_CASE("create fills server-owned metadata and defaults", "[handlers]") {
  Fixture f;
  auto r = f.call("POST", "/api/v1/namespaces/default/pods",
                  R"({"metadata":{"generateName":"web-"},"spec":{"containers":[{"name":"c"}]},"status":{"phase":"Running"}})");
  REQUIRE(r.status == 201);
  auto pod = json(r.body);
  CHECK(std::string(pod["apiVersion"].GetString()) == "v1");
  CHECK(std::string(pod["kind"].GetString()) == "Pod");
  std::string name = pod["metadata"]["name"].GetString();
  CHECK(name.size() == 9);
  CHECK(name.rfind("web-", 0) == 0);
  CHECK(std::string(pod["metadata"]["namespace"].GetString()) == "default");
  CHECK(std::string(pod["metadata"]["uid"].GetString()).size() == 36);
  CHECK(pod["metadata"].HasMember("creationTimestamp"));
  CHECK(std::string(pod["spec"]["schedulerName"].GetString()) == "default-scheduler");
  CHECK(std::string(pod["status"]["phase"].GetString()) == "Pending"); // the client cannot create a Running pod
  // Cluster-scoped objects lose a namespace they were given.
  auto node = json(f.call("POST", "/api/v1/nodes", R"({"metadata":{"name":"n","namespace":"x"},"status":{"capacity":{"cpu":"4"}}})").body);
  CHECK_FALSE(node["metadata"].HasMember("namespace"));
  CHECK(std::string(node["status"]["capacity"]["cpu"].GetString()) == "4"); // nodes keep their status
}

TEST_CASE("updates keep status and system metadata; status writes keep everything else", "[handlers]") {
  Fixture f;
  auto created = json(f.call("POST", "/api/v1/namespaces/default/pods", kPod).body);
  std::string uid = created["metadata"]["uid"].GetString();
  std::string rv = created["metadata"]["resourceVersion"].GetString();
  // PUT naming another uid: refused, the uid is a precondition (kube-apiserver's defaultUpdatedObjectInfo).
  auto forged = f.call("PUT", "/api/v1/namespaces/default/pods/p",
                       R"({"metadata":{"name":"p","uid":"forged","resourceVersion":")" + rv +
                           R"("},"spec":{"containers":[{"name":"c"}]}})");
  CHECK(forged.status == 409);
  CHECK(forged.body.find("Precondition failed: UID in precondition: forged, UID in object meta: " + uid) !=
        std::string::npos);
  // PUT with a new status and the same uid: the status is ignored.
  auto put = f.call("PUT", "/api/v1/namespaces/default/pods/p",
                    R"({"metadata":{"name":"p","uid":")" + uid + R"(","resourceVersion":")" + rv +
                        R"(","labels":{"v":"2"}},"spec":{"containers":[{"name":"c"}]},"status":{"phase":"Running"}})");
  REQUIRE(put.status == 200);
  auto pod = json(put.body);
  CHECK(std::string(pod["metadata"]["uid"].GetString()) == uid);
  CHECK(std::string(pod["status"]["phase"].GetString()) == "Pending");
  CHECK(pod["metadata"]["generation"].GetInt() == 2); // the spec changed
  // The same PUT again is a conflict: its resourceVersion is stale now.
  CHECK(f.call("PUT", "/api/v1/namespaces/default/pods/p",
               R"({"metadata":{"name":"p","resourceVersion":")" + rv + R"("},"spec":{"containers":[{"name":"c"}]}})")
            .status == 409);
  // Status subresource (podStatusStrategy): the spec stays, and the pod's
  // ownerReferences; status and the rest of its metadata are written.
  auto status = f.call("PATCH", "/api/v1/namespaces/default/pods/p/status",
                       R"({"metadata":{"labels":{"kept":"yes"},"ownerReferences":[{"apiVersion":"v1","kind":"X",)"
                       R"("name":"x","uid":"u"}]},"spec":{"nodeName":"ignored"},"status":{"phase":"Running"}})",
                       "application/merge-patch+json");
  REQUIRE(status.status == 200);
  pod = json(status.body);
  CHECK(std::string(pod["status"]["phase"].GetString()) == "Running");
  CHECK(std::string(pod["metadata"]["labels"]["kept"].GetString()) == "yes");
  CHECK_FALSE(pod["metadata"].HasMember("ownerReferences"));
  CHECK_FALSE(pod["spec"].HasMember("nodeName"));
  CHECK(pod["metadata"]["generation"].GetInt() == 2);  // no spec change
  // A custom resource's /status writes its status alone.
  REQUIRE(f.call("POST", "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/default/podgroups",
                 R"({"metadata":{"name":"g"},"spec":{"minMember":1}})").status == 201);
  auto group = f.call("PATCH", "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/default/podgroups/g/status",
                      R"({"metadata":{"labels":{"dropped":"yes"}},"status":{"phase":"Pending"}})",
                      "application/merge-patch+json");
  REQUIRE(group.status == 200);
  auto written = json(group.body);
  CHECK(std::string(written["status"]["phase"].GetString()) == "Pending");
  CHECK_FALSE(written["metadata"].HasMember("labels"));
  // A no-op patch commits nothing.
  uint64_t before = f.store.resource_version();
  CHECK(f.call("PATCH", "/api/v1/namespaces/default/pods/p", R"({"metadata":{"labels":{"v":"2"}}})",
               "application/merge-patch+json").status == 200);
  CHECK(f.store.resource_version() == before);
}

TEST_CASE("finalizers hold a deleted object until the last one is removed", "[handlers]") {
  Fixture f;
  REQUIRE(f.call("POST", "/api/v1/namespaces/default/configmaps",
                 R"({"metadata":{"name":"held","finalizers":["example.com/keep"]}})").status == 201);
  // 200 with the object marked (202 only for orphanDependents false, as kube-apiserver).
  auto deleting = f.call("DELETE", "/api/v1/namespaces/default/configmaps/held");
  CHECK(deleting.status == 200);
  CHECK(json(deleting.body)["metadata"].HasMember("deletionTimestamp"));
  REQUIRE(f.call("POST", "/api/v1/namespaces/default/configmaps",
                 R"({"metadata":{"name":"cascade","finalizers":["example.com/keep"]}})").status == 201);
  CHECK(f.call("DELETE", "/api/v1/namespaces/default/configmaps/cascade", R"({"orphanDependents":false})").status ==
        202);
  CHECK(f.call("GET", "/api/v1/namespaces/default/configmaps/held").status == 200);
  // Being deleted, it may lose finalizers but not gain any (ValidateNoNewFinalizers).
  auto gain = f.call("PATCH", "/api/v1/namespaces/default/configmaps/held",
                     R"({"metadata":{"finalizers":["example.com/keep","example.com/more"]}})",
                     "application/merge-patch+json");
  CHECK(gain.status == 422);
  CHECK_THAT(gain.body, Catch::Contains("no new finalizers can be added if the object is being deleted, found new "
                                        "finalizers []string{\\\"example.com/more\\\"}"));
  CHECK(f.call("PATCH", "/api/v1/namespaces/default/configmaps/held", R"({"metadata":{"finalizers":null}})",
               "application/merge-patch+json").status == 200);
  CHECK(f.call("GET", "/api/v1/namespaces/default/configmaps/held").status == 404);
}

TEST_CASE("list pages carry continue tokens and show the first page's resourceVersion's state", "[handlers]") {
  Fixture f;
  for (int i = 0; i < 5; ++i)
    REQUIRE(f.call("POST", "/api/v1/namespaces/default/configmaps",
                   R"({"metadata":{"name":"c)" + std::to_string(i) + R"("}})").status == 201);
  std::vector<std::string> names;
  std::string token;
  std::string first_rv;
  int pages = 0;
  do {
    auto r = f.call("GET", "/api/v1/namespaces/default/configmaps?limit=2" + (token.empty() ? "" : "&continue=" + token));
    REQUIRE(r.status == 200);
    auto list = json(r.body);
    CHECK(std::string(list["kind"].GetString()) == "ConfigMapList");
    if (first_rv.empty()) first_rv = list["metadata"]["resourceVersion"].GetString();
    CHECK(std::string(list["metadata"]["resourceVersion"].GetString()) == first_rv);
    for (const auto& item : list["items"].GetArray()) names.push_back(item["metadata"]["name"].GetString());
    token = list["metadata"].HasMember("continue") ? list["metadata"]["continue"].GetString() : "";
    // Tokens are base64 and may contain '+', '/', '='; a client URL-encodes them.
    std::string encoded;
    for (char c : token) encoded += (c == '+' ? "%2B" : c == '/' ? "%2F" : c == '=' ? "%3D" : std::string(1, c));
    token = encoded;
    if (pages == 0)
      REQUIRE(f.call("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"c9"}})").status == 201);
  } while (!token.empty() && ++pages < 10);
  // One snapshot, as etcd serves it: c9, created after the first page, is for a watch from first_rv to bring.
  CHECK(names == std::vector<std::string>{"c0", "c1", "c2", "c3", "c4"});
}

TEST_CASE("a list's resourceVersion and resourceVersionMatch", "[handlers]") {
  Fixture f;
  const std::string cms = "/api/v1/namespaces/default/configmaps";
  REQUIRE(f.call("POST", cms, R"({"metadata":{"name":"c0"}})").status == 201);
  auto names = [&](const std::string& query) {
    auto r = f.call("GET", cms + query);
    REQUIRE(r.status == 200);
    std::vector<std::string> out;
    const auto list = json(r.body);  // kept alive while its items are read
    for (const auto& item : list["items"].GetArray()) out.push_back(item["metadata"]["name"].GetString());
    return out;
  };
  const std::string rv = json(f.call("GET", cms).body)["metadata"]["resourceVersion"].GetString();
  REQUIRE(f.call("POST", cms, R"({"metadata":{"name":"c1"}})").status == 201);
  const std::vector<std::string> both{"c0", "c1"};
  // Exact: the snapshot at that version; NotOlderThan, none, or "0": the current state.
  CHECK(names("?resourceVersion=" + rv + "&resourceVersionMatch=Exact") == std::vector<std::string>{"c0"});
  CHECK(names("?resourceVersion=" + rv + "&resourceVersionMatch=NotOlderThan") == both);
  CHECK(names("?resourceVersion=" + rv) == both);
  CHECK(names("?resourceVersion=0") == both);
  // A version not reached yet: 504 with the cause client-go retries on.
  auto ahead = f.call("GET", cms + "?resourceVersion=999999&resourceVersionMatch=Exact");
  CHECK(ahead.status == 504);
  CHECK_THAT(ahead.body, Catch::Contains("\"ResourceVersionTooLarge\""));
  CHECK(f.call("GET", cms + "?resourceVersion=999999").status == 504);
  // What ValidateListOptions refuses.
  std::string token = json(f.call("GET", cms + "?limit=1").body)["metadata"]["continue"].GetString();
  std::string encoded;  // a client URL-encodes the base64 token
  for (char c : token) encoded += (c == '+' ? "%2B" : c == '/' ? "%2F" : c == '=' ? "%3D" : std::string(1, c));
  REQUIRE(f.call("GET", cms + "?continue=" + encoded).status == 200);
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"?resourceVersionMatch=Exact", "resourceVersionMatch is forbidden unless resourceVersion is provided"},
      {"?resourceVersion=0&resourceVersionMatch=Exact", "resourceVersionMatch \\\"exact\\\" is forbidden for resourceVersion"},
      {"?resourceVersion=1&resourceVersionMatch=Newest", "resourceVersionMatch: Unsupported value"},
      {"?resourceVersion=x", "invalid resource version"},
      {"?continue=" + encoded + "&resourceVersionMatch=Exact&resourceVersion=1",
       "resourceVersionMatch is forbidden when continue is provided"},
      {"?continue=" + encoded + "&resourceVersion=1", "specifying resource version is not allowed when using continue"},
  };
  for (const auto& [query, message] : refused) {
    INFO(query);
    auto r = f.call("GET", cms + query);
    CHECK(r.status == 400);
    CHECK_THAT(r.body, Catch::Contains(message));
  }
}

TEST_CASE("deleting a namespace deletes what it holds", "[handlers]") {
  Fixture f;
  REQUIRE(f.call("POST", "/api/v1/namespaces", R"({"metadata":{"name":"team"}})").status == 201);
  REQUIRE(f.call("POST", "/api/v1/namespaces/team/pods", kPod).status == 201);
  // A precondition the namespace does not meet refuses the delete before anything in it goes.
  CHECK(f.call("DELETE", "/api/v1/namespaces/team", R"({"preconditions":{"resourceVersion":"1"}})").status == 409);
  CHECK(f.call("DELETE", "/api/v1/namespaces/team", R"({"preconditions":{"uid":"not-its-uid"}})").status == 409);
  CHECK(f.call("GET", "/api/v1/namespaces/team/pods/p").status == 200);
  REQUIRE(f.call("DELETE", "/api/v1/namespaces/team").status == 200);
  CHECK(f.call("GET", "/api/v1/namespaces/team/pods/p").status == 404);
  CHECK(f.call("POST", "/api/v1/namespaces/team/pods", kPod).status == 404);
}

TEST_CASE("a namespaced resource is not deleted across namespaces", "[handlers]") {
  Fixture f;
  REQUIRE(f.call("POST", "/api/v1/namespaces/default/pods", kPod).status == 201);
  CHECK(f.call("DELETE", "/api/v1/pods").status == 405);
  CHECK(f.call("DELETE", "/api/v1/configmaps").status == 405);
  CHECK(f.call("GET", "/api/v1/namespaces/default/pods/p").status == 200);
  // Within a namespace, deletecollection works.
  CHECK(f.call("DELETE", "/api/v1/namespaces/default/pods").status == 200);
  CHECK(f.call("GET", "/api/v1/namespaces/default/pods/p").status == 404);
}

TEST_CASE("YAML converts to JSON with YAML 1.2 core scalar types", "[loader]") {
  auto docs = yaml_to_json_documents("a: 1\nb: '1'\nc: true\nd: ~\ne: 1.5\nf: abc\ng: [x, 2]\nh: 0x1F\ni: yes\n---\n---\nk: v\n");
  REQUIRE(docs.ok());
  REQUIRE(docs->size() == 2);
  const auto& d = (*docs)[0];
  CHECK(d["a"].IsInt64());
  CHECK(d["b"].IsString());
  CHECK(d["c"].IsBool());
  CHECK(d["d"].IsNull());
  CHECK(d["e"].IsDouble());
  CHECK(std::string(d["f"].GetString()) == "abc");
  CHECK(d["g"].IsArray());
  CHECK(d["h"].GetInt64() == 31);
  CHECK(std::string(d["i"].GetString()) == "yes");
  auto bad = yaml_to_json_documents("a: [1, 2\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message().find("line") != std::string::npos);
}

TEST_CASE("the loader creates Lists, keeps status and creates missing namespaces", "[loader]") {
  Fixture f;
  auto loaded = load_text(f.handler, R"({"apiVersion":"v1","kind":"List","items":[
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"new-ns"},"spec":{"nodeName":"n","containers":[{"name":"c"}]},"status":{"phase":"Running"}},
      {"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation","metadata":{"name":"r"},"spec":{"owners":[{}]},"status":{"phase":"Available"}}]})",
                          "inline");
  REQUIRE(loaded.ok());
  CHECK(loaded.value() == 2);
  auto pod = json(f.call("GET", "/api/v1/namespaces/new-ns/pods/p").body);
  CHECK(std::string(pod["status"]["phase"].GetString()) == "Running");
  auto r = json(f.call("GET", "/apis/scheduling.koordinator.sh/v1alpha1/reservations/r").body);
  CHECK(std::string(r["status"]["phase"].GetString()) == "Available");
  auto unknown = load_text(f.handler, "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n", "secret.yaml");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.message().find("secret.yaml") != std::string::npos);
  auto sample = load_sample_cluster(f.handler);
  REQUIRE(sample.ok());
  CHECK(f.store.object_count(*ResourceRegistry::standard().find("", "v1", "nodes")) == 5);
}

TEST_CASE("small helpers", "[rules]") {
  for (const char* ok : {"a", "node-1", "gpu.a100-1", "x1.y2"}) CHECK(is_dns_subdomain(ok));
  for (const char* bad : {"", "-a", "a-", "A", "a..b", "a_b", ".a"}) CHECK_FALSE(is_dns_subdomain(bad));
  CHECK(is_dns_label("team-a"));
  CHECK_FALSE(is_dns_label("team.a"));
  for (std::string s : {"", "f", "fo", "foo", "foob", "fooba", "foobar"}) CHECK(base64_decode(base64_encode(s)) == s);
  CHECK(base64_encode("foobar") == "Zm9vYmFy");
  CHECK_FALSE(base64_decode("Zm9v!mFy").has_value());
  KubeconfigSpec spec;
  spec.server = "https://127.0.0.1:1234";
  spec.ca_pem = "PEM";
  spec.token = "t";
  std::string yaml = kubeconfig_yaml(spec);
  CHECK(yaml.find("server: \"https://127.0.0.1:1234\"") != std::string::npos);
  CHECK(yaml.find("certificate-authority-data: " + base64_encode("PEM")) != std::string::npos);
  CHECK(yaml.find("token: \"t\"") != std::string::npos);
  CHECK(new_uid() != new_uid());
}
