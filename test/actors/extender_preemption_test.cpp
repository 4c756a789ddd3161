// Extenders with a preemptVerb (actors/extender_preemption.hpp): an answer's
// uids resolved to the pods on its nodes, nodes answered without victims,
// and the chain of extenders against scripted HTTP extenders (each one gets
// the previous one's answer; ignorable ones that fail are skipped).
#include <catch2/catch.hpp>

#include "actors/extender_preemption.hpp"
#include "test/plugins/builders.hpp"
#include "test/watch/fake_apiserver.hpp"
#include "watch/json_util.hpp"

using namespace troupe;
using namespace troupe::actors;
using troupe::plugins::testing::PodBuilder;
using troupe::test::FakeApiServer;
using troupe::test::RecordedRequest;
using troupe::test::ResponseWriter;

namespace {

namespace pre = plugins::preemption;

std::shared_ptr<const plugins::PodInfo> placed(const std::string& name, const std::string& node, int32_t priority) {
  return PodBuilder(name).uid("uid-" + name).container({{"cpu", "1"}}).priority(priority).node_name(node).info();
}

/// Nodes a, b, c, each with two low-priority pods.
CandidateNodePods cluster_pods() {
  CandidateNodePods pods;
  for (auto node : {"a", "b", "c"})
    for (int i = 0; i < 2; ++i) pods[node].push_back(placed(std::string(node) + std::to_string(i), node, 0));
  return pods;
}

/// The search's candidates: one victim on each node (its first pod).
std::vector<pre::Candidate> candidates(const CandidateNodePods& pods) {
  std::vector<pre::Candidate> out;
  for (const auto& [node, on_node] : pods) out.push_back({node, pre::Victims{{on_node[0]}, 0}});
  return out;
}

std::vector<std::string> names(const plugins::preemption::PodList& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods) out.push_back(p->pod->meta.name);
  return out;
}

config::Extender preempting(const std::string& url, bool cache_capable, bool ignorable = false) {
  config::Extender e;
  e.url_prefix = url;
  e.preempt_verb = "preempt";
  e.node_cache_capable = cache_capable;
  e.ignorable = ignorable;
  e.http_timeout = std::chrono::seconds(2);
  return e;
}

Pod preemptor() { return PodBuilder("preemptor").uid("uid-preemptor").container({{"cpu", "2"}}).pod(); }

}  // namespace

TEST_CASE("an extender's preemption answer is resolved to the pods on its nodes", "[extenders]") {
  const auto pods = cluster_pods();
  struct Case {
    const char* what;
    std::map<std::string, watch::MetaVictims> answer;
    std::map<std::string, std::vector<std::string>> victims;  // node -> pod names, when ok
    const char* error;                                         // "" = ok
    bool c_dropped = false;  // an earlier extender dropped c: this one was not sent it
  };
  const std::vector<Case> cases = {
      {"a subset of the nodes, more victims than asked", {{"b", {{"uid-b0", "uid-b1"}, 1}}},
       {{"b", {"b0", "b1"}}}, ""},
      {"every node, other victims", {{"a", {{"uid-a1"}, 0}}, {"c", {{"uid-c0"}, 0}}},
       {{"a", {"a1"}}, {"c", {"c0"}}}, ""},
      {"nothing", {}, {}, ""},
      {"a node without victims is kept here (checked apart)", {{"a", {{}, 0}}}, {{"a", {}}}, ""},
      {"a pod of another node", {{"a", {{"uid-b0"}, 0}}}, {},
       "extender: http://x claims to preempt pod (UID: uid-b0) on node: a, but the pod is not found on that node"},
      {"an unknown pod", {{"c", {{"uid-c0", "uid-zz"}, 0}}}, {}, "(UID: uid-zz) on node: c"},
      {"a node it was not given", {{"d", {{"uid-a0"}, 0}}}, {},
       "extender: http://x claims node \"d\", which is not one of the nodes it was given for preemption"},
      {"a candidate an earlier extender dropped", {{"c", {{"uid-c0"}, 0}}}, {},
       "extender: http://x claims node \"c\", which is not one of the nodes it was given for preemption", true},
      {"the nodes it was sent", {{"b", {{"uid-b0"}, 0}}}, {{"b", {"b0"}}}, "", true},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    VictimsByNode asked;
    for (const auto& [node, on_node] : pods)
      if (!(c.c_dropped && node == "c")) asked[node].pods = {on_node[0]};
    auto r = victims_from_answer(c.answer, asked, pods, "http://x");
    if (*c.error != '\0') {
      REQUIRE_FALSE(r.ok());
      CHECK_THAT(r.message(), Catch::Contains(c.error));
      continue;
    }
    REQUIRE(r.ok());
    std::map<std::string, std::vector<std::string>> got;
    for (const auto& [node, victims] : *r) got[node] = names(victims.pods);
    CHECK(got == c.victims);
    for (const auto& [node, meta] : c.answer) CHECK(r->at(node).num_pdb_violations == meta.num_pdb_violations);
  }
}

TEST_CASE("nodes answered without victims: dropped by an ignorable extender, an error otherwise", "[extenders]") {
  const auto pods = cluster_pods();
  struct Case {
    const char* what;
    std::vector<std::string> empty_nodes;
    bool ignorable;
    std::vector<std::string> left;  // when ok
    const char* error;              // "" = ok
  };
  const std::vector<Case> cases = {
      {"all have victims", {}, false, {"a", "b", "c"}, ""},
      {"ignorable drops the empty ones", {"a", "c"}, true, {"b"}, ""},
      {"ignorable may drop them all", {"a", "b", "c"}, true, {}, ""},
      {"otherwise an error naming the node", {"b"}, false, {}, "expected at least one victim pod on node \"b\""},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    VictimsByNode victims;
    for (const auto& [node, on_node] : pods) victims[node].pods = {on_node[0]};
    for (const auto& node : c.empty_nodes) victims[node].pods.clear();
    auto status = check_victims_present(victims, c.ignorable);
    if (*c.error != '\0') {
      REQUIRE_FALSE(status.ok());
      CHECK(status.message() == c.error);
      continue;
    }
    REQUIRE(status.ok());
    std::vector<std::string> left;
    for (const auto& [node, v] : victims) left.push_back(node);
    CHECK(left == c.left);
  }
}

TEST_CASE("preempting extenders narrow the candidates in turn", "[extenders]") {
  const auto pods = cluster_pods();
  // The first extender (whole pods) keeps b and c and wants both of c's pods
  // evicted; the second (uids only) keeps c alone.
  FakeApiServer first([](const RecordedRequest&, ResponseWriter& out) {
    out.respond(200, R"({"NodeNameToMetaVictims":{"b":{"Pods":[{"UID":"uid-b0"}]},
                         "c":{"Pods":[{"UID":"uid-c0"},{"UID":"uid-c1"}],"NumPDBViolations":1}}})");
  });
  FakeApiServer second([](const RecordedRequest&, ResponseWriter& out) {
    out.respond(200, R"({"NodeNameToMetaVictims":{"c":{"Pods":[{"UID":"uid-c1"}]}}})");
  });
  FakeApiServer failing([](const RecordedRequest&, ResponseWriter& out) { out.respond(500, "no", "text/plain"); });
  FakeApiServer keeps_nothing([](const RecordedRequest&, ResponseWriter& out) { out.respond(200, "null"); });
  FakeApiServer strays([](const RecordedRequest&, ResponseWriter& out) {
    out.respond(200, R"({"NodeNameToMetaVictims":{"d":{"Pods":[{"UID":"uid-a0"}]}}})");
  });

  SECTION("the chain") {
    auto extenders = Extenders::create({preempting(first.url() + "/x", false), preempting(second.url() + "/y", true)});
    REQUIRE(extenders.ok());
    CHECK((*extenders)->preempts(preemptor()));
    auto narrowed = call_preemption_extenders(**extenders, preemptor(), candidates(pods), pods);
    REQUIRE(narrowed.ok());
    REQUIRE(narrowed->size() == 1);
    CHECK((*narrowed)[0].node == "c");
    CHECK(names((*narrowed)[0].victims.pods) == std::vector<std::string>{"c1"});

    // The first got whole pods for every candidate; the second the first's answer, as uids.
    auto asked_first = watch::parse_document(first.requests().at(0).body);
    REQUIRE(asked_first.ok());
    CHECK(first.requests().at(0).path == "/x/preempt");
    CHECK(watch::string_at(**asked_first, {"Pod", "metadata", "name"}) == "preemptor");
    const auto& whole = (**asked_first)["NodeNameToVictims"];
    CHECK(whole.MemberCount() == 3);
    CHECK(watch::string_at(whole["a"]["Pods"][0], {"metadata", "name"}) == "a0");
    auto asked_second = watch::parse_document(second.requests().at(0).body);
    REQUIRE(asked_second.ok());
    const auto& meta = (**asked_second)["NodeNameToMetaVictims"];
    CHECK(meta.MemberCount() == 2);
    CHECK(meta["c"]["Pods"].Size() == 2);
    CHECK(meta["c"]["NumPDBViolations"].GetInt64() == 1);
    CHECK((**asked_second)["NodeNameToVictims"].IsNull());
  }
  SECTION("an ignorable extender that fails is skipped; the order stays when nobody answered") {
    auto extenders = Extenders::create({preempting(failing.url(), true, true)});
    REQUIRE(extenders.ok());
    auto narrowed = call_preemption_extenders(**extenders, preemptor(), candidates(pods), pods);
    REQUIRE(narrowed.ok());
    REQUIRE(narrowed->size() == 3);
    CHECK(names((*narrowed)[1].victims.pods) == std::vector<std::string>{"b0"});
  }
  SECTION("one that is not ignorable fails the preemption with its error") {
    auto extenders = Extenders::create({preempting(failing.url(), true, true), preempting(failing.url(), true)});
    REQUIRE(extenders.ok());
    auto narrowed = call_preemption_extenders(**extenders, preemptor(), candidates(pods), pods);
    REQUIRE_FALSE(narrowed.ok());
    CHECK(narrowed.message() == "failed preempt with extender at URL " + failing.url() + "/preempt, code 500");
  }
  SECTION("one that keeps nothing ends the chain: the others are not asked") {
    auto extenders = Extenders::create({preempting(keeps_nothing.url(), true), preempting(failing.url(), true)});
    REQUIRE(extenders.ok());
    auto narrowed = call_preemption_extenders(**extenders, preemptor(), candidates(pods), pods);
    REQUIRE(narrowed.ok());
    CHECK(narrowed->empty());
    CHECK(keeps_nothing.request_count() == 1);
    CHECK(failing.request_count() == 0);
  }
  SECTION("an answer naming a node it was not given: skipped when ignorable, an error otherwise") {
    auto lenient = Extenders::create({preempting(strays.url(), true, true)});
    REQUIRE(lenient.ok());
    auto skipped = call_preemption_extenders(**lenient, preemptor(), candidates(pods), pods);
    REQUIRE(skipped.ok());
    CHECK(skipped->size() == 3);
    auto strict = Extenders::create({preempting(strays.url(), true)});
    REQUIRE(strict.ok());
    auto failed = call_preemption_extenders(**strict, preemptor(), candidates(pods), pods);
    REQUIRE_FALSE(failed.ok());
    CHECK_THAT(failed.message(), Catch::Contains("claims node \"d\""));
  }
  SECTION("an extender not interested in the pod, or without a preemptVerb, is not asked") {
    auto managed = preempting(failing.url(), true);
    managed.managed_resources.push_back({"example.com/gpu", false});
    auto filter_only = preempting(failing.url(), true);
    filter_only.preempt_verb.clear();
    filter_only.filter_verb = "filter";
    auto extenders = Extenders::create({managed, filter_only});
    REQUIRE(extenders.ok());
    CHECK_FALSE((*extenders)->preempts(preemptor()));
    auto narrowed = call_preemption_extenders(**extenders, preemptor(), candidates(pods), pods);
    REQUIRE(narrowed.ok());
    CHECK(narrowed->size() == 3);
    CHECK(failing.request_count() == 0);
  }
}
