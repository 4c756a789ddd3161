// Label selectors: the query-string parser (cases taken from apimachinery's
// selector_test.go behaviour), matching, to_string round trips, and the
// structured metav1.LabelSelector / NodeSelectorRequirement decoders.

#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/label_selector.hpp"

using troupe::Labels;
using troupe::LabelRequirement;
using troupe::LabelSelector;

namespace {

rapidjson::Document parse_json(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  REQUIRE_FALSE(doc.HasParseError());
  return doc;
}

}  // namespace

TEST_CASE("label selector: valid query strings parse to the canonical form", "[label_selector]") {
  struct Case {
    const char* input;
    const char* canonical;  // to_string() of the parsed selector
  };
  const std::vector<Case> cases = {
      {"", ""},
      {"   ", ""},
      {"x=a", "x=a"},
      {"x==a", "x=a"},
      {"x!=a", "x!=a"},
      {"x", "x"},
      {"!x", "!x"},
      {" ! x ", "!x"},
      {"x=", "x="},
      {"x= ", "x="},
      {"x=,z= ", "x=,z="},
      {"x in (a)", "x in (a)"},
      {"x in (b,a)", "x in (a,b)"},
      {"x in (a,a,b)", "x in (a,b)"},
      {"x notin (a)", "x notin (a)"},
      {"x in ()", "x in ()"},
      {"x in (,a)", "x in (,a)"},
      {"x in (a,)", "x in (,a)"},
      {"x in (a,,b)", "x in (,a,b)"},
      {"x in (in,notin)", "x in (in,notin)"},
      {"x>1", "x>1"},
      {"x<-5", "x<-5"},
      {"x>+5", "x>+5"},
      {"b=1,a=2", "a=2,b=1"},
      {"w in (a),x notin (b),y,!z", "w in (a),x notin (b),y,!z"},
      {"example.com/role=web", "example.com/role=web"},
      {"app.kubernetes.io/name in (nginx, web)", "app.kubernetes.io/name in (nginx,web)"},
      {"x=a\t,\ty=b", "x=a,y=b"},
      {"in=notin", "in=notin"},
      {"x=A_b.c-9", "x=A_b.c-9"},
  };
  for (const auto& c : cases) {
    INFO("input: '" << c.input << "'");
    auto parsed = troupe::parse_label_selector(c.input);
    REQUIRE(parsed.ok());
    CHECK(parsed->to_string() == c.canonical);
    auto reparsed = troupe::parse_label_selector(parsed->to_string());
    REQUIRE(reparsed.ok());
    CHECK(reparsed->to_string() == c.canonical);
  }
}

TEST_CASE("label selector: invalid query strings are rejected with the reason", "[label_selector]") {
  struct Case {
    const char* input;
    const char* message_part;
  };
  const std::vector<Case> cases = {
      {"x=a||y=b", "values[0]: Invalid value: \"a||y\""},  // '|' is no token: "a||y" is one value
      {"x==a==b", "found '==', expected: ',' or 'end of string'"},
      {"!x=a", "found '=', expected: ',' or 'end of string'"},
      {"x in a", "found 'a', expected: '('"},
      {"x in (a", "found 'end of string', expected: ',' or ')'"},
      {"x in (a b)", "found 'b', expected: ',' or ')'"},
      {"x in (a,,)", "expected: ',', or identifier"},
      {"x notin", "found 'end of string', expected: '('"},
      {"x=a,", "expected: identifier after ','"},
      {",x=a", "found ',', expected: !, identifier, or 'end of string'"},
      {"=a", "found '=', expected: !, identifier, or 'end of string'"},
      {"x=(a)", "found '(', expected: identifier"},
      {"x (a)", "found '(', expected: in, notin, =, ==, !=, gt, lt"},
      {"x y", "found 'y', expected: in, notin, =, ==, !=, gt, lt"},
      {"!", "found 'end of string', expected: identifier"},
      {"x>a", "for 'Gt', 'Lt' operators, the value must be an integer"},
      {"x<", "for 'Gt', 'Lt' operators, the value must be an integer"},
      {"x>99999999999999999999", "must be an integer"},
      {"-x=a", "name part must consist of alphanumeric characters"},
      {"a/b/c=d", "with an optional DNS subdomain prefix"},
      {"/x=a", "prefix part must be non-empty"},
      {"Example.com/x=a", "prefix part a lowercase RFC 1123 subdomain"},
      {"x/=a", "name part must be non-empty"},
      {"x=a b", "found 'b', expected: ',' or 'end of string'"},
      {"x=-a", "a valid label must be an empty string"},
      {"x in (a,-b)", "values[0]: Invalid value: \"-b\""},  // values are sorted first, as upstream
      {"x=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "must be no more than 63 characters"},
      {"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", "name part must be no more than 63"},
      {"x=é", "a valid label must be an empty string"},
      {"x in ((a))", "found '(', expected: ',', ')' or identifier"},
  };
  for (const auto& c : cases) {
    INFO("input: '" << c.input << "'");
    auto parsed = troupe::parse_label_selector(c.input);
    REQUIRE_FALSE(parsed.ok());
    CHECK_THAT(parsed.message(), Catch::Contains(c.message_part));
    CHECK_THAT(parsed.message(), Catch::Contains("invalid label selector"));
  }
}

TEST_CASE("label selector: matching follows Kubernetes semantics", "[label_selector]") {
  const Labels web{{"app", "web"}, {"tier", "frontend"}, {"replicas", "3"}};
  const Labels db{{"app", "db"}, {"legacy", ""}};
  const Labels none{};
  struct Case {
    const char* selector;
    bool web, db, none;
  };
  const std::vector<Case> cases = {
      {"", true, true, true},
      {"app=web", true, false, false},
      {"app!=web", false, true, true},  // != also matches objects without the key
      {"app", true, true, false},
      {"!app", false, false, true},
      {"legacy", false, true, false},
      {"legacy=", false, true, false},
      {"app in (web,db)", true, true, false},
      {"app notin (web)", false, true, true},
      {"app=web,tier=frontend", true, false, false},
      {"app=web,tier=backend", false, false, false},
      {"replicas>2", true, false, false},
      {"replicas>3", false, false, false},
      {"replicas<4", true, false, false},
      {"app>1", false, false, false},  // non-integer label never compares
      {"tier in ()", false, false, false},
      {"tier notin ()", true, true, true},
  };
  for (const auto& c : cases) {
    INFO("selector: '" << c.selector << "'");
    auto selector = troupe::parse_label_selector(c.selector);
    REQUIRE(selector.ok());
    CHECK(selector->matches(web) == c.web);
    CHECK(selector->matches(db) == c.db);
    CHECK(selector->matches(none) == c.none);
  }
}

TEST_CASE("label selector: empty and nothing selectors", "[label_selector]") {
  LabelSelector everything;
  CHECK(everything.empty());
  CHECK(everything.matches({}));
  CHECK(everything.matches({{"a", "b"}}));
  CHECK_FALSE(everything.matches_nothing());
  CHECK_FALSE(LabelSelector({{"a", LabelRequirement::Op::exists, {}}}).matches_nothing());
  LabelSelector none = LabelSelector::nothing();
  CHECK(none.matches_nothing());
  CHECK_FALSE(none.empty());
  CHECK_FALSE(none.matches({}));
  CHECK_FALSE(none.matches({{"a", "b"}}));
  CHECK(none.to_string().empty());
}

TEST_CASE("with_label_values narrows a selector by the values of some keys", "[label_selector]") {
  using Op = LabelRequirement::Op;
  const Labels owner{{"app", "web"}, {"hash", "abc"}, {"tenant", "t1"}};
  const LabelSelector app({{"app", Op::equals, {"web"}}});
  struct Case {
    const char* name;
    std::optional<LabelSelector> selector;
    std::vector<std::string> in_keys, not_in_keys;
    std::string expected;  // to_string(); "<nil>" for the nil selector
  };
  const std::vector<Case> cases = {
      {"no keys: unchanged", app, {}, {}, "app=web"},
      {"an in key", app, {"hash"}, {}, "app=web,hash in (abc)"},
      {"a not-in key", app, {}, {"tenant"}, "app=web,tenant notin (t1)"},
      {"both, in keys first", app, {"hash"}, {"tenant"}, "app=web,hash in (abc),tenant notin (t1)"},
      {"a key the labels lack adds nothing", app, {"missing"}, {"gone"}, "app=web"},
      {"the empty selector narrowed", LabelSelector(), {"hash"}, {}, "hash in (abc)"},
      {"merged by the API server at creation: not again after a relabel",
       LabelSelector({{"app", Op::equals, {"web"}}, {"hash", Op::in, {"old"}}}), {"hash"}, {}, "app=web,hash in (old)"},
      {"a not-in merged already", LabelSelector({{"tenant", Op::not_in, {"t0"}}}), {}, {"tenant"}, "tenant notin (t0)"},
      {"the user's own multi-value requirement is narrowed", LabelSelector({{"hash", Op::in, {"abc", "def"}}}), {"hash"},
       {}, "hash in (abc,def),hash in (abc)"},
      {"an in requirement does not stop a not-in key", LabelSelector({{"tenant", Op::in, {"t0"}}}), {}, {"tenant"},
       "tenant in (t0),tenant notin (t1)"},
      {"nil stays nil", std::nullopt, {"hash"}, {}, "<nil>"},
      {"nothing() stays nothing()", LabelSelector::nothing(), {"hash"}, {"tenant"}, "<nil>"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    LabelSelector got = troupe::with_label_values(c.selector, owner, c.in_keys, c.not_in_keys);
    CHECK((got.matches_nothing() ? std::string("<nil>") : got.to_string()) == c.expected);
  }
}

TEST_CASE("label selector: programmatic selectors print parseable text", "[label_selector]") {
  LabelSelector selector({{"zone", LabelRequirement::Op::not_in, {"b", "a"}},
                          {"gpu", LabelRequirement::Op::gt, {"2"}},
                          {"spot", LabelRequirement::Op::does_not_exist, {}}});
  CHECK(selector.to_string() == "zone notin (a,b),gpu>2,!spot");
  auto parsed = troupe::parse_label_selector(selector.to_string());
  REQUIRE(parsed.ok());
  const Labels labels{{"zone", "c"}, {"gpu", "4"}};
  CHECK(parsed->matches(labels));
  CHECK(selector.matches(labels));
  CHECK_FALSE(parsed->matches({{"zone", "a"}, {"gpu", "4"}}));
}

TEST_CASE("label selector: decode metav1.LabelSelector objects", "[label_selector]") {
  struct Case {
    const char* json;
    const char* canonical;
  };
  const std::vector<Case> cases = {
      {R"({})", ""},
      {R"({"matchLabels":{"app":"web"}})", "app=web"},
      {R"({"matchLabels":{"b":"1","a":"2"}})", "a=2,b=1"},
      {R"({"matchLabels":null,"matchExpressions":null})", ""},
      {R"({"matchExpressions":[{"key":"env","operator":"In","values":["prod","dev"]}]})", "env in (dev,prod)"},
      {R"({"matchExpressions":[{"key":"env","operator":"NotIn","values":["a"]}]})", "env notin (a)"},
      {R"({"matchExpressions":[{"key":"gpu","operator":"Exists"}]})", "gpu"},
      {R"({"matchExpressions":[{"key":"gpu","operator":"DoesNotExist","values":[]}]})", "!gpu"},
      {R"({"matchLabels":{"z":"1"},"matchExpressions":[{"key":"a","operator":"Exists"}]})", "a,z=1"},
  };
  for (const auto& c : cases) {
    INFO(c.json);
    auto doc = parse_json(c.json);
    auto selector = troupe::decode_label_selector(doc, "spec.selector");
    REQUIRE(selector.ok());
    CHECK(selector->to_string() == c.canonical);
    CHECK(selector->empty() == (std::string(c.canonical).empty()));
  }
  auto null_doc = parse_json("null");
  auto nil = troupe::decode_label_selector(null_doc, "spec.selector");
  REQUIRE(nil.ok());
  CHECK_FALSE(nil->matches({}));
}

TEST_CASE("label selector: decode errors name the field and the problem", "[label_selector]") {
  struct Case {
    const char* json;
    const char* message_part;
  };
  const std::vector<Case> cases = {
      {R"([])", "spec.selector: Invalid value: array"},
      {R"({"matchLabels":[]})", "spec.selector.matchLabels: Invalid value: array"},
      {R"({"matchLabels":{"app":5}})", "spec.selector.matchLabels[app]: Invalid value: number: must be a string"},
      {R"({"matchLabels":{"-app":"x"}})", "spec.selector.matchLabels: Invalid value: \"-app\": name part"},
      {R"({"matchLabels":{"app":"a b"}})", "spec.selector.matchLabels[app]: Invalid value: \"a b\""},
      {R"({"matchExpressions":{}})", "spec.selector.matchExpressions: Invalid value: object"},
      {R"({"matchExpressions":[5]})", "spec.selector.matchExpressions[0]: Invalid value: number"},
      {R"({"matchExpressions":[{"operator":"Exists"}]})", "spec.selector.matchExpressions[0].key: Required value"},
      {R"({"matchExpressions":[{"key":"a"}]})", "spec.selector.matchExpressions[0].operator: Required value"},
      {R"({"matchExpressions":[{"key":"a","operator":"Like"}]})",
       "spec.selector.matchExpressions[0].operator: Unsupported value: \"Like\""},
      {R"({"matchExpressions":[{"key":"a","operator":"Gt","values":["1"]}]})",
       "spec.selector.matchExpressions[0].operator: Unsupported value: \"Gt\""},
      {R"({"matchExpressions":[{"key":"a","operator":"In"}]})",
       "spec.selector.matchExpressions[0].values: Required value"},
      {R"({"matchExpressions":[{"key":"a","operator":"In","values":[]}]})",
       "spec.selector.matchExpressions[0].values: Required value"},
      {R"({"matchExpressions":[{"key":"a","operator":"Exists","values":["x"]}]})",
       "values set must be empty for exists and does not exist"},
      {R"({"matchExpressions":[{"key":"a","operator":"In","values":[1]}]})",
       "spec.selector.matchExpressions[0].values[0]: Invalid value: number"},
      {R"({"matchExpressions":[{"key":"a","operator":"In","values":["ok","-bad"]}]})",
       "spec.selector.matchExpressions[0].values[1]: Invalid value: \"-bad\""},
  };
  for (const auto& c : cases) {
    INFO(c.json);
    auto doc = parse_json(c.json);
    auto selector = troupe::decode_label_selector(doc, "spec.selector");
    REQUIRE_FALSE(selector.ok());
    CHECK_THAT(selector.message(), Catch::Contains(c.message_part));
  }
}

TEST_CASE("label selector: node selector requirements allow Gt and Lt", "[label_selector]") {
  auto doc = parse_json(R"([{"key":"cpus","operator":"Gt","values":["8"]},
                            {"key":"zone","operator":"In","values":["us east"]},
                            {"key":"age","operator":"Lt","values":["-1"]}])");
  auto requirements = troupe::decode_requirements(doc, "spec.affinity.nodeAffinity.matchExpressions");
  REQUIRE(requirements.ok());
  REQUIRE(requirements->size() == 3);
  LabelSelector selector(*requirements);
  CHECK(selector.matches({{"cpus", "16"}, {"zone", "us east"}, {"age", "-2"}}));
  CHECK_FALSE(selector.matches({{"cpus", "8"}, {"zone", "us east"}, {"age", "-2"}}));
  CHECK_FALSE(selector.matches({{"cpus", "16"}, {"zone", "us east"}, {"age", "-1"}}));
  CHECK_FALSE(selector.matches({{"zone", "us east"}, {"age", "-2"}}));

  struct Case {
    const char* json;
    const char* message_part;
  };
  const std::vector<Case> errors = {
      {R"([{"key":"cpus","operator":"Gt","values":["8","9"]}])", "[0].values: Invalid value: [\"8\",\"9\"]: for 'Gt', 'Lt' operators, exactly one value"},
      {R"([{"key":"cpus","operator":"Lt","values":["eight"]}])", "[0].values[0]: Invalid value: \"eight\": for 'Gt', 'Lt' operators, the value must be an integer"},
      {R"([{"key":"cpus","operator":"Gt"}])", "[0].values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value"},
      {R"([{"key":"cpus","operator":"Gt","values":["1.5"]}])", "[0].values[0]: Invalid value: \"1.5\": for 'Gt', 'Lt' operators, the value must be an integer"},
      {R"([{"key":"","operator":"Exists"}])", "[0].key: Invalid value: \"\": name part must be non-empty"},
      {R"({"key":"a"})", ": Invalid value: object: must be a list"},
  };
  for (const auto& c : errors) {
    INFO(c.json);
    auto bad = parse_json(c.json);
    auto decoded = troupe::decode_requirements(bad, "terms");
    REQUIRE_FALSE(decoded.ok());
    CHECK_THAT(decoded.message(), Catch::Contains(std::string("terms") + c.message_part));
  }
}

TEST_CASE("label selector: label key and value validation", "[label_selector]") {
  CHECK(troupe::validate_label_key("app").ok());
  CHECK(troupe::validate_label_key("kubernetes.io/hostname").ok());
  CHECK(troupe::validate_label_key("a.b-c_d").ok());
  CHECK_FALSE(troupe::validate_label_key("").ok());
  CHECK_FALSE(troupe::validate_label_key("a_").ok());
  CHECK_FALSE(troupe::validate_label_key("under_score.io/x").ok());
  CHECK_FALSE(troupe::validate_label_key("-.io/x").ok());
  CHECK_FALSE(troupe::validate_label_key(std::string(254, 'a') + "/x").ok());
  CHECK(troupe::validate_label_value("").ok());
  CHECK(troupe::validate_label_value("v1.2_3-x").ok());
  CHECK_FALSE(troupe::validate_label_value("v1 ").ok());
  CHECK_FALSE(troupe::validate_label_value(std::string(64, 'a')).ok());
  CHECK(troupe::validate_label_value(std::string(63, 'a')).ok());
}

TEST_CASE("label selector: labels_from_json reads string members only", "[label_selector]") {
  auto doc = parse_json(R"({"app":"web","count":3,"empty":""})");
  Labels labels = troupe::labels_from_json(doc);
  CHECK(labels == Labels{{"app", "web"}, {"empty", ""}});
  auto not_object = parse_json("[1]");
  CHECK(troupe::labels_from_json(not_object).empty());
}

TEST_CASE("label selector: random token soup parses or fails cleanly, and round-trips", "[label_selector][fuzz]") {
  // Seeded: every run sees the same 5000 inputs.
  std::mt19937 rng(7);
  const std::vector<std::string> tokens = {"a",  "b",  "x",  "in", "notin", "=",  "==", "!=",  "!",     "(", ")",
                                           ",",  ">",  "<",  "1",  "-2",    " ",  "",   "a.b/c", "\xc3\xa9", "in)"};
  const std::vector<Labels> label_sets = {{}, {{"a", "1"}}, {{"a", "b"}, {"x", "-2"}}, {{"b", ""}, {"in", "x"}},
                                          {{"a.b/c", "in"}, {"x", "1"}}};
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  int parsed_count = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string text;
    std::size_t length = 1 + pick(8);
    for (std::size_t t = 0; t < length; ++t) text += tokens[pick(tokens.size())];
    auto parsed = troupe::parse_label_selector(text);
    if (!parsed) {
      if (parsed.message().empty()) FAIL("no message for '" << text << "'");
      continue;
    }
    ++parsed_count;
    auto reparsed = troupe::parse_label_selector(parsed->to_string());
    if (!reparsed) FAIL("'" << text << "' printed as '" << parsed->to_string() << "' which does not parse");
    if (reparsed->to_string() != parsed->to_string()) FAIL("round trip changed '" << parsed->to_string() << "'");
    for (const auto& labels : label_sets) {
      if (reparsed->matches(labels) != parsed->matches(labels)) FAIL("round trip changed matching of '" << text << "'");
    }
  }
  CHECK(parsed_count > 200);
}
