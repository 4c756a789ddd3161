// The extender client: kube-scheduler's extender wire types (no JSON tags,
// Go field names, case-insensitive decoding), its error messages, and the
// requests it sends to a scripted extender.
#include <catch2/catch.hpp>

#include "fake_apiserver.hpp"
#include "watch/extender_client.hpp"
#include "watch/json_util.hpp"

using namespace troupe::watch;
using troupe::test::FakeApiServer;
using troupe::test::RecordedRequest;
using troupe::test::ResponseWriter;

TEST_CASE("ExtenderArgs carry whole nodes or only names", "[extender]") {
  const std::string pod = R"({"metadata":{"name":"p"}})";
  SECTION("whole nodes") {
    auto text = extender_args_json(pod, {R"({"metadata":{"name":"n1"}})"}, {"n1"}, false);
    auto doc = parse_document(text);
    REQUIRE(doc.ok());
    CHECK(string_at(**doc, {"Pod", "metadata", "name"}) == "p");
    const auto* items = find_path(**doc, {"Nodes"});
    REQUIRE(items != nullptr);
    CHECK((*items)["items"].Size() == 1);
    CHECK(string_at((*items)["items"][0], {"metadata", "name"}) == "n1");
    CHECK((**doc)["NodeNames"].IsNull());
  }
  SECTION("names for a nodeCacheCapable extender") {
    auto text = extender_args_json(pod, {}, {"n1", "n\"2"}, true);
    auto doc = parse_document(text);
    REQUIRE(doc.ok());
    CHECK((**doc)["Nodes"].IsNull());
    REQUIRE((**doc)["NodeNames"].Size() == 2);
    CHECK(std::string((**doc)["NodeNames"][1].GetString()) == "n\"2");
  }
}

TEST_CASE("ExtenderFilterResult decoding", "[extender]") {
  struct Case {
    const char* body;
    bool cache_capable;
    std::vector<std::string> passing;  // when ok
    const char* error;                 // "" = ok
  };
  const std::vector<std::string> candidates = {"n1", "n2", "n3"};
  const std::vector<Case> cases = {
      {R"({"NodeNames":["n1","n3"],"FailedNodes":{"n2":"no"}})", true, {"n1", "n3"}, ""},
      {R"({"nodenames":["n2"]})", true, {"n2"}, ""},  // Go decodes keys case-insensitively
      {R"({"Nodes":{"items":[{"metadata":{"name":"n2"}}]}})", false, {"n2"}, ""},
      // Not nodeCacheCapable: NodeNames is not where the answer is.
      {R"({"NodeNames":["n1"],"Nodes":{"items":[]}})", false, {}, ""},
      {R"({"NodeNames":null,"Nodes":null})", true, {}, ""},
      {R"({"Error":""})", true, {}, ""},
      {R"({"Error":"extender is sad"})", true, {}, "extender is sad"},
      {R"({"NodeNames":["n9"]})", true, {}, "extender claims a filtered node \"n9\" which is not found"},
      {R"({"NodeNames":"n1"})", true, {}, "ExtenderFilterResult.NodeNames: expected an array"},
      {R"({"Nodes":{"items":[{"metadata":{}}]}})", false, {}, "a node without metadata.name"},
      {R"({"FailedNodes":["n1"]})", true, {}, "FailedNodes: expected an object"},
      {R"({"FailedAndUnresolvableNodes":{"n1":3}})", true, {}, "FailedAndUnresolvableNodes[n1]: expected a string"},
      {R"([1,2])", true, {}, "expected a JSON object"},
      {R"({"NodeNames":)", true, {}, "ExtenderFilterResult: invalid JSON"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i << ": " << cases[i].body);
    auto r = parse_extender_filter_result(cases[i].body, cases[i].cache_capable, candidates);
    if (std::string(cases[i].error).empty()) {
      REQUIRE(r.ok());
      CHECK(r->node_names == cases[i].passing);
    } else {
      REQUIRE_FALSE(r.ok());
      CHECK_THAT(r.message(), Catch::Contains(cases[i].error));
    }
  }
  auto full = parse_extender_filter_result(
      R"({"NodeNames":["n1"],"FailedNodes":{"n2":"busy"},"FailedAndUnresolvableNodes":{"n3":"no GPU"}})", true,
      candidates);
  REQUIRE(full.ok());
  CHECK(full->failed == std::map<std::string, std::string>{{"n2", "busy"}});
  CHECK(full->failed_unresolvable == std::map<std::string, std::string>{{"n3", "no GPU"}});
}

TEST_CASE("HostPriorityList and ExtenderBindingResult decoding", "[extender]") {
  auto list = parse_host_priority_list(R"([{"Host":"n1","Score":7},{"host":"n2","score":3}])");
  REQUIRE(list.ok());
  REQUIRE(list->size() == 2);
  CHECK((*list)[0].host == "n1");
  CHECK((*list)[0].score == 7);
  CHECK((*list)[1].score == 3);
  CHECK(parse_host_priority_list("null").ok());
  struct Bad {
    const char* body;
    const char* error;
  };
  for (const Bad& b : std::vector<Bad>{{R"({"Host":"n1"})", "expected a JSON array"},
                                       {R"([{"Score":1}])", "HostPriorityList[0].Host: expected a string"},
                                       {R"([{"Host":"n1","Score":"7"}])", "HostPriorityList[0].Score: expected an integer"},
                                       {R"([{"Host":"n1","Score":1.5}])", "HostPriorityList[0].Score"}}) {
    INFO(b.body);
    auto r = parse_host_priority_list(b.body);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.message(), Catch::Contains(b.error));
  }
  CHECK(parse_extender_binding_result(R"({"Error":""})").ok());
  CHECK(parse_extender_binding_result(R"({})").ok());
  auto failed = parse_extender_binding_result(R"({"Error":"node gone"})");
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.message() == "node gone");
  CHECK_FALSE(parse_extender_binding_result("nope").ok());
  auto args = parse_document(extender_binding_args_json({"web-0", "team-a", "uid-1", "n1"}));
  REQUIRE(args.ok());
  CHECK(string_at(**args, {"PodName"}) == "web-0");
  CHECK(string_at(**args, {"PodNamespace"}) == "team-a");
  CHECK(string_at(**args, {"PodUID"}) == "uid-1");
  CHECK(string_at(**args, {"Node"}) == "n1");
}

TEST_CASE("ExtenderPreemptionArgs carry whole victim pods or only their uids", "[extender]") {
  const std::string pod = R"({"metadata":{"name":"p"}})";
  const std::map<std::string, PreemptionVictims> victims = {
      {"n1", {{"u1", "u2"}, {R"({"metadata":{"uid":"u1"}})", R"({"metadata":{"uid":"u2"}})"}, 1}},
      {"n\"2", {{"u3"}, {R"({"metadata":{"uid":"u3"}})"}, 0}}};
  SECTION("whole pods (NodeNameToVictims)") {
    auto doc = parse_document(extender_preemption_args_json(pod, victims, false));
    REQUIRE(doc.ok());
    CHECK(string_at(**doc, {"Pod", "metadata", "name"}) == "p");
    CHECK((**doc)["NodeNameToMetaVictims"].IsNull());
    const auto& n1 = (**doc)["NodeNameToVictims"]["n1"];
    REQUIRE(n1["Pods"].Size() == 2);
    CHECK(string_at(n1["Pods"][1], {"metadata", "uid"}) == "u2");
    CHECK(n1["NumPDBViolations"].GetInt64() == 1);
    CHECK((**doc)["NodeNameToVictims"]["n\"2"]["Pods"].Size() == 1);
  }
  SECTION("uids for a nodeCacheCapable extender (NodeNameToMetaVictims)") {
    auto doc = parse_document(extender_preemption_args_json(pod, victims, true));
    REQUIRE(doc.ok());
    CHECK((**doc)["NodeNameToVictims"].IsNull());
    const auto& n1 = (**doc)["NodeNameToMetaVictims"]["n1"];
    REQUIRE(n1["Pods"].Size() == 2);
    CHECK(string_at(n1["Pods"][0], {"UID"}) == "u1");
    CHECK(n1["NumPDBViolations"].GetInt64() == 1);
  }
  SECTION("no victims at all") {
    auto doc = parse_document(extender_preemption_args_json(pod, {}, true));
    REQUIRE(doc.ok());
    CHECK((**doc)["NodeNameToMetaVictims"].ObjectEmpty());
  }
}

TEST_CASE("ExtenderPreemptionResult decoding", "[extender]") {
  struct Case {
    const char* body;
    std::map<std::string, std::vector<std::string>> uids;  // when ok
    std::map<std::string, int64_t> violations;            // when ok, nodes listed only
    const char* error;                                     // "" = ok
  };
  const std::vector<Case> cases = {
      {R"({"NodeNameToMetaVictims":{"n1":{"Pods":[{"UID":"a"},{"UID":"b"}],"NumPDBViolations":2}}})",
       {{"n1", {"a", "b"}}}, {{"n1", 2}}, ""},
      // Go decodes keys case-insensitively.
      {R"({"nodeNameToMetaVictims":{"n1":{"pods":[{"uid":"a"}]}}})", {{"n1", {"a"}}}, {{"n1", 0}}, ""},
      {R"({"NodeNameToMetaVictims":{}})", {}, {}, ""},
      {R"({"NodeNameToMetaVictims":null})", {}, {}, ""},
      {R"({})", {}, {}, ""},
      {R"(null)", {}, {}, ""},
      // A node with null victims or without Pods: listed with none (the caller decides).
      {R"({"NodeNameToMetaVictims":{"n1":null,"n2":{"Pods":null}}})", {{"n1", {}}, {"n2", {}}}, {}, ""},
      {R"([])", {}, {}, "ExtenderPreemptionResult: expected a JSON object"},
      {R"(nope)", {}, {}, "ExtenderPreemptionResult: "},
      {R"({"NodeNameToMetaVictims":["n1"]})", {}, {}, "NodeNameToMetaVictims: expected an object"},
      {R"({"NodeNameToMetaVictims":{"n1":"a"}})", {}, {}, "NodeNameToMetaVictims[n1]: expected an object"},
      {R"({"NodeNameToMetaVictims":{"n1":{"Pods":{"UID":"a"}}}})", {}, {}, "NodeNameToMetaVictims[n1].Pods: expected an array"},
      {R"({"NodeNameToMetaVictims":{"n1":{"Pods":[{"UID":7}]}}})", {}, {}, "NodeNameToMetaVictims[n1].Pods[0].UID: expected a string"},
      {R"({"NodeNameToMetaVictims":{"n1":{"Pods":[{"UID":"a"},{}]}}})", {}, {}, "Pods[1].UID: expected a string"},
      {R"({"NodeNameToMetaVictims":{"n1":{"NumPDBViolations":"1"}}})", {}, {}, "NodeNameToMetaVictims[n1].NumPDBViolations: expected an integer"},
  };
  for (const auto& c : cases) {
    INFO(c.body);
    auto r = parse_extender_preemption_result(c.body);
    if (*c.error != '\0') {
      REQUIRE_FALSE(r.ok());
      CHECK_THAT(r.message(), Catch::Contains(c.error));
      continue;
    }
    REQUIRE(r.ok());
    std::map<std::string, std::vector<std::string>> uids;
    for (const auto& [node, victims] : *r) uids[node] = victims.pod_uids;
    CHECK(uids == c.uids);
    for (const auto& [node, count] : c.violations) CHECK(r->at(node).num_pdb_violations == count);
  }
}

TEST_CASE("extender client posts JSON to urlPrefix/verb and reports non-200 as kube-scheduler does", "[extender]") {
  FakeApiServer server([](const RecordedRequest& request, ResponseWriter& out) {
    if (request.path == "/scheduler/filter") {
      out.respond(200, R"({"NodeNames":["n1"],"FailedNodes":{"n2":"full"}})");
    } else if (request.path == "/scheduler/prioritize") {
      out.respond(200, R"([{"Host":"n1","Score":10}])");
    } else if (request.path == "/scheduler/bind") {
      out.respond(200, R"({"Error":""})");
    } else {
      out.respond(500, "oops", "text/plain");
    }
  });
  ExtenderEndpoint endpoint;
  endpoint.url_prefix = server.url() + "/scheduler/";
  auto client = ExtenderClient::create(endpoint);
  REQUIRE(client.ok());
  const std::string args = extender_args_json("{}", {}, {"n1", "n2"}, true);

  auto filtered = (*client)->filter("filter", args, true, {"n1", "n2"});
  REQUIRE(filtered.ok());
  CHECK(filtered->node_names == std::vector<std::string>{"n1"});
  auto scores = (*client)->prioritize("prioritize", args);
  REQUIRE(scores.ok());
  CHECK(scores->at(0).score == 10);
  CHECK((*client)->bind("bind", {"p", "default", "u", "n1"}).ok());
  auto broken = (*client)->filter("broken", args, true, {"n1"});
  REQUIRE_FALSE(broken.ok());
  CHECK(broken.message() == "failed broken with extender at URL " + server.url() + "/scheduler/broken, code 500");

  const auto requests = server.requests();
  REQUIRE(requests.size() == 4);
  CHECK(requests[0].method == "POST");
  CHECK(requests[0].headers.at("content-type") == "application/json");
  CHECK(requests[0].body == args);
  CHECK(string_at(*parse_document(requests[2].body).value(), {"PodUID"}) == "u");
}

TEST_CASE("extender client: an unreachable extender is an error naming the verb", "[extender]") {
  ExtenderEndpoint endpoint;
  endpoint.url_prefix = "http://127.0.0.1:1/x";
  endpoint.timeout = std::chrono::milliseconds(2000);
  auto client = ExtenderClient::create(endpoint);
  REQUIRE(client.ok());
  auto r = (*client)->prioritize("prioritize", "{}");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.message(), Catch::StartsWith("failed prioritize with extender at URL http://127.0.0.1:1/x/prioritize"));
  endpoint.url_prefix = "http://[::1";
  CHECK_FALSE(ExtenderClient::create(endpoint).ok());
}
