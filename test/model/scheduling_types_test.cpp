#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/json_reader.hpp"
#include "model/json_writer.hpp"
#include "model/scheduling_types.hpp"

using namespace troupe;

namespace {

template <class T>
Result<T> decode_as(const std::string& text) {
  auto doc = parse_json(text);
  REQUIRE(doc.ok());
  T out{};
  JsonReader reader(**doc);
  json_fields(reader, out);
  if (!reader.ok()) return Error{reader.error()};
  return out;
}

template <class T>
std::string encode_over(const std::string& original, const T& value) {
  auto doc = parse_json(original);
  REQUIRE(doc.ok());
  JsonWriter writer(**doc, (*doc)->GetAllocator());
  json_fields(writer, value);
  return to_json(**doc);
}

Taint taint(const char* key, const char* value, TaintEffect effect) { return Taint{key, value, effect, {}}; }

}  // namespace

TEST_CASE("Toleration::tolerates follows v1.Toleration.ToleratesTaint", "[scheduling_types]") {
  struct Case {
    const char* what;
    Toleration toleration;
    Taint taint;
    bool tolerates;
  };
  using E = TaintEffect;
  using Op = TolerationOperator;
  const Case cases[] = {
      {"equal key, value and effect", {"k", Op::equal, "v", E::no_schedule, {}}, taint("k", "v", E::no_schedule), true},
      {"different value", {"k", Op::equal, "v", E::no_schedule, {}}, taint("k", "w", E::no_schedule), false},
      {"different key", {"k", Op::equal, "v", E::no_schedule, {}}, taint("x", "v", E::no_schedule), false},
      {"different effect", {"k", Op::equal, "v", E::no_schedule, {}}, taint("k", "v", E::no_execute), false},
      {"empty effect matches every effect", {"k", Op::equal, "v", E::all, {}}, taint("k", "v", E::no_execute), true},
      {"exists ignores the value", {"k", Op::exists, "", E::no_schedule, {}}, taint("k", "anything", E::no_schedule),
       true},
      {"exists still checks the key", {"k", Op::exists, "", E::all, {}}, taint("other", "", E::no_schedule), false},
      {"empty key with exists tolerates everything", {"", Op::exists, "", E::all, {}},
       taint("any", "thing", E::prefer_no_schedule), true},
      {"empty key with exists and an effect", {"", Op::exists, "", E::no_execute, {}},
       taint("any", "thing", E::no_schedule), false},
      {"equal with empty value matches an empty taint value", {"k", Op::equal, "", E::all, {}},
       taint("k", "", E::no_schedule), true},
      // The API rejects an empty key with Equal, but ToleratesTaint itself only compares values then.
      {"equal with an empty key compares values only", {"", Op::equal, "", E::all, {}},
       taint("k", "", E::no_schedule), true},
      {"equal with an empty key and another value", {"", Op::equal, "x", E::all, {}}, taint("k", "", E::no_schedule),
       false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(c.toleration.tolerates(c.taint) == c.tolerates);
  }
}

TEST_CASE("taints need a key and an effect", "[scheduling_types]") {
  struct Case {
    const char* json;
    const char* error;
  };
  const Case cases[] = {
      {R"({"effect": "NoSchedule"})", "key: Required value"},
      {R"({"key": "", "effect": "NoSchedule"})", "key: Required value"},
      {R"({"key": "k"})", "effect: Required value"},
      {R"({"key": "k", "effect": ""})", "effect: Required value"},
      {R"({"key": "k", "effect": "NoSchedule", "timeAdded": 5})",
       "timeAdded: Invalid value: number: must be an RFC 3339 time string"},
  };
  for (const auto& c : cases) {
    INFO(c.json);
    auto decoded = decode_as<Taint>(c.json);
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.message() == c.error);
  }
  auto ok = decode_as<Taint>(R"({"key": "k", "value": "v", "effect": "NoExecute", "timeAdded": "2026-01-01T00:00:00Z"})");
  REQUIRE(ok.ok());
  CHECK(ok->effect == TaintEffect::no_execute);
  CHECK(ok->time_added.has_value());
}

TEST_CASE("affinity terms keep nil and empty apart", "[scheduling_types]") {
  auto nil = decode_as<Affinity>(R"({"nodeAffinity": {}})");
  REQUIRE(nil.ok());
  REQUIRE(nil->node_affinity.has_value());
  CHECK_FALSE(nil->node_affinity->required.has_value());

  auto empty_terms = decode_as<Affinity>(R"({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                                              {"nodeSelectorTerms": []}}})");
  REQUIRE(empty_terms.ok());
  REQUIRE(empty_terms->node_affinity->required.has_value());
  CHECK(empty_terms->node_affinity->required->terms.empty());

  auto term = decode_as<PodAffinityTerm>(R"({"topologyKey": "zone", "labelSelector": {},
                                             "namespaceSelector": {"matchLabels": {"team": "a"}},
                                             "namespaces": ["x", "y"], "matchLabelKeys": ["pod-template-hash"]})");
  REQUIRE(term.ok());
  REQUIRE(term->label_selector.has_value());
  CHECK(term->label_selector->matches({{"any", "labels"}}));
  REQUIRE(term->namespace_selector.has_value());
  CHECK(term->namespace_selector->matches({{"team", "a"}}));
  CHECK(term->namespaces == std::vector<std::string>{"x", "y"});
  CHECK(term->match_label_keys == std::vector<std::string>{"pod-template-hash"});

  auto no_selector = decode_as<PodAffinityTerm>(R"({"topologyKey": "zone"})");
  REQUIRE(no_selector.ok());
  CHECK_FALSE(no_selector->label_selector.has_value());
}

TEST_CASE("changed selectors and requirements are written in API form", "[scheduling_types]") {
  const std::string original =
      R"({"labelSelector":{"matchExpressions":[{"key":"app","operator":"In","values":["web"]}]},"topologyKey":"zone","x":1})";
  auto term = decode_as<PodAffinityTerm>(original);
  REQUIRE(term.ok());
  CHECK(encode_over(original, *term) == original);

  std::vector<LabelRequirement> requirements = term->label_selector->requirements();
  requirements.push_back({"tier", LabelRequirement::Op::equals, {"front"}});
  requirements.push_back({"legacy", LabelRequirement::Op::does_not_exist, {}});
  term->label_selector = LabelSelector(requirements);
  CHECK(encode_over(original, *term) ==
        R"({"labelSelector":{"matchLabels":{"tier":"front"},"matchExpressions":[{"key":"app","operator":"In",)"
        R"("values":["web"]},{"key":"legacy","operator":"DoesNotExist"}]},"topologyKey":"zone","x":1})");

  term->label_selector.reset();
  CHECK(encode_over(original, *term) == R"({"topologyKey":"zone","x":1})");

  const std::string node_term = R"({"matchExpressions":[{"key":"gpu","operator":"Gt","values":["2"]}]})";
  auto decoded = decode_as<NodeSelectorTerm>(node_term);
  REQUIRE(decoded.ok());
  CHECK(decoded->match_expressions[0].op == LabelRequirement::Op::gt);
  CHECK(encode_over(node_term, *decoded) == node_term);
  decoded->match_expressions[0].values = {"4"};
  decoded->match_fields.push_back({"metadata.name", LabelRequirement::Op::in, {"n1"}});
  CHECK(encode_over(node_term, *decoded) ==
        R"({"matchExpressions":[{"key":"gpu","operator":"Gt","values":["4"]}],)"
        R"("matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]})");
}

TEST_CASE("container ports default to TCP", "[scheduling_types]") {
  auto port = decode_as<ContainerPort>(R"({"containerPort": 53, "hostPort": 53})");
  REQUIRE(port.ok());
  CHECK(port->protocol == Protocol::tcp);
  auto udp = decode_as<ContainerPort>(R"({"containerPort": 53, "protocol": "UDP", "hostIP": "10.0.0.1"})");
  REQUIRE(udp.ok());
  CHECK(udp->protocol == Protocol::udp);
  CHECK(udp->host_ip == "10.0.0.1");
  udp->protocol = Protocol::tcp;
  CHECK(encode_over(R"({"containerPort":53,"protocol":"UDP"})", *udp) ==
        R"({"containerPort":53,"protocol":"TCP","hostIP":"10.0.0.1"})");
}
