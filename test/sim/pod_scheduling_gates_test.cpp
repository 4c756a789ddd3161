#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "sim/object_rules.hpp"
#include "sim/pod_scheduling_gates.hpp"

using namespace troupe::sim;

namespace {

rapidjson::Document pod(const std::string& spec, const std::string& status = "{}") {
  rapidjson::Document d;
  d.Parse((R"({"metadata":{"name":"p"},"spec":)" + spec + R"(,"status":)" + status + "}").c_str());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

// "field: message" per cause.
std::vector<std::string> lines(const std::vector<StatusCause>& causes) {
  std::vector<std::string> out;
  for (const auto& c : causes) out.push_back(c.field + ": " + c.message);
  return out;
}

}  // namespace

TEST_CASE("scheduling gates: what a pod may carry", "[gates]") {
  struct Case {
    const char* spec;
    std::vector<std::string> causes;
  };
  const std::vector<Case> cases = {
      {R"({})", {}},
      {R"({"schedulingGates":[]})", {}},
      {R"({"schedulingGates":[{"name":"a"},{"name":"b"}]})", {}},
      {R"({"nodeName":"n0"})", {}},
      {R"({"nodeName":"n0","schedulingGates":[]})", {}},
      {R"({"schedulingGates":[{"name":"a"},{"name":"a"}]})", {"spec.schedulingGates[1]: Duplicate value: \"a\""}},
      {R"({"schedulingGates":[{"name":""}]})",
       {"spec.schedulingGates[0]: Invalid value: \"\": name part must be non-empty"}},
      {R"({"schedulingGates":["a"]})", {"spec.schedulingGates[0]: Invalid value: \"a\": must be an object"}},
      {R"({"schedulingGates":[{"name":7}]})", {"spec.schedulingGates[0].name: Invalid value: 7: must be a string"}},
      {R"({"schedulingGates":{"name":"a"}})", {"spec.schedulingGates: Invalid value: {\"name\":\"a\"}: must be an array"}},
      {R"({"schedulingGates":null})", {}},
      {R"({"schedulingGates":[{"name":"example.com/quota"},{"name":"example.com/quota"}]})",
       {"spec.schedulingGates[1]: Duplicate value: \"example.com/quota\""}},
      {R"({"nodeName":"n0","schedulingGates":[{"name":"a"}]})",
       {"spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared"}},
  };
  for (const auto& c : cases) {
    INFO(c.spec);
    CHECK(lines(check_scheduling_gates(pod(c.spec))) == c.causes);
  }
  // A name must be a qualified name, as a label key.
  for (const char* name : {"a b", "-x", "example.com/", "Example.com/x"}) {
    INFO(name);
    auto causes = lines(check_scheduling_gates(pod(std::string(R"({"schedulingGates":[{"name":")") + name + "\"}]}")));
    REQUIRE(causes.size() == 1);
    CHECK_THAT(causes[0], Catch::StartsWith(std::string("spec.schedulingGates[0]: Invalid value: \"") + name + "\": "));
  }
}

TEST_CASE("scheduling gates: an update may only remove them", "[gates]") {
  struct Case {
    const char* before;
    const char* after;
    std::vector<std::string> causes;
  };
  const std::vector<Case> cases = {
      {R"({"schedulingGates":[{"name":"a"},{"name":"b"}]})", R"({"schedulingGates":[{"name":"a"},{"name":"b"}]})", {}},
      {R"({"schedulingGates":[{"name":"a"},{"name":"b"}]})", R"({"schedulingGates":[{"name":"b"},{"name":"a"}]})", {}},
      {R"({"schedulingGates":[{"name":"a"},{"name":"b"}]})", R"({"schedulingGates":[{"name":"b"}]})", {}},
      {R"({"schedulingGates":[{"name":"a"}]})", R"({})", {}},
      {R"({})", R"({})", {}},
      {R"({})", R"({"schedulingGates":[{"name":"a"}]})",
       {"spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'a'"}},
      {R"({"schedulingGates":[{"name":"a"}]})", R"({"schedulingGates":[{"name":"a"},{"name":"b"},{"name":"c"}]})",
       {"spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'b'",
        "spec.schedulingGates[2].name: Forbidden: only deletion is allowed, but found new scheduling gate 'c'"}},
  };
  for (const auto& c : cases) {
    INFO(c.before << " -> " << c.after);
    CHECK(lines(check_scheduling_gates_update(pod(c.before), pod(c.after))) == c.causes);
  }
}

TEST_CASE("scheduling gates: an update's error names every wrong field at once", "[gates]") {
  const ResourceInfo* pods = ResourceRegistry::standard().find("", "v1", "pods");
  REQUIRE(pods != nullptr);
  rapidjson::Document before = pod(R"({"containers":[{"name":"c"}]})");
  rapidjson::Document after = pod(R"({"containers":[{"name":"c"}],"schedulingGates":[{"name":"a"}]})");
  after["metadata"].AddMember("labels", rapidjson::Value(rapidjson::kObjectType), after.GetAllocator());
  after["metadata"]["labels"].AddMember("tier", 7, after.GetAllocator());
  auto error = validate_update(*pods, before, after);
  REQUIRE(error);
  CHECK(error->code == 422);
  REQUIRE(error->causes.size() == 2);
  CHECK(error->causes[0].field == "metadata.labels[tier]");
  CHECK(error->causes[1].field == "spec.schedulingGates[0].name");
  CHECK_FALSE(validate_update(*pods, before, before));
}

TEST_CASE("scheduling gates: a gated pod is created PodScheduled=False, SchedulingGated", "[gates]") {
  struct Case {
    const char* spec;
    const char* status;
    std::string expected_status;
  };
  const std::string gated_condition =
      R"({"type":"PodScheduled","status":"False","reason":"SchedulingGated",)"
      R"("message":"Scheduling is blocked due to non-empty scheduling gates"})";
  const std::vector<Case> cases = {
      {R"({"schedulingGates":[{"name":"a"}]})", R"({"phase":"Pending"})",
       R"({"phase":"Pending","conditions":[)" + gated_condition + "]}"},
      {R"({"schedulingGates":[{"name":"a"}]})", R"("not an object")", R"({"conditions":[)" + gated_condition + "]}"},
      {R"({"schedulingGates":[{"name":"a"}]})", R"({"conditions":[{"type":"PodScheduled","status":"True"}]})",
       R"({"conditions":[{"type":"PodScheduled","status":"True"}]})"},
      {R"({})", R"({"phase":"Pending"})", R"({"phase":"Pending"})"},
      {R"({"schedulingGates":[]})", R"({"phase":"Pending"})", R"({"phase":"Pending"})"},
  };
  for (const auto& c : cases) {
    INFO(c.spec << " " << c.status);
    rapidjson::Document p = pod(c.spec, c.status);
    mark_scheduling_gated(p);
    rapidjson::Document expected;
    expected.Parse(c.expected_status.c_str());
    REQUIRE_FALSE(expected.HasParseError());
    CHECK(p["status"] == expected);
  }
}
