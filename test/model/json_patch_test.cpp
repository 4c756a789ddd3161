// The three PATCH algorithms: RFC 7386 merge patch (the RFC's Appendix A),
// RFC 6902 JSON patch (the RFC's Appendix A plus error cases), and the
// strategic merge patch in the shapes kube-scheduler, kubectl and the Python
// client send.

#include <catch2/catch.hpp>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <vector>

#include "model/json_patch.hpp"

namespace {

rapidjson::Document parse_json(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  INFO("JSON: " << text);
  REQUIRE_FALSE(doc.HasParseError());
  return doc;
}

std::string to_json(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return buffer.GetString();
}

enum class Algorithm { merge, json, strategic };

struct Case {
  const char* name;
  const char* target;
  const char* patch;
  const char* expected;  // the patched document, or the start of "error: ..." text to find in the message
  const char* kind = "Pod";
};

/// Applies the patch and checks the result: documents compare as JSON
/// (object member order ignored, array order significant); an expected value
/// starting with "error:" must be a failure whose message contains the rest.
void check(Algorithm algorithm, const Case& c) {
  INFO("case: " << c.name);
  rapidjson::Document target = parse_json(c.target);
  rapidjson::Document patch = parse_json(c.patch);
  troupe::Status status = algorithm == Algorithm::merge ? troupe::apply_merge_patch(target, patch, target.GetAllocator())
                          : algorithm == Algorithm::json
                              ? troupe::apply_json_patch(target, patch, target.GetAllocator())
                              : troupe::apply_strategic_merge_patch(target, patch, c.kind, target.GetAllocator());
  std::string expected = c.expected;
  if (expected.rfind("error:", 0) == 0) {
    REQUIRE_FALSE(status.ok());
    CHECK_THAT(status.message(), Catch::Contains(expected.substr(7)));
    return;
  }
  INFO("message: " << (status.ok() ? std::string() : status.message()));
  REQUIRE(status.ok());
  rapidjson::Document want = parse_json(expected);
  INFO("got:  " << to_json(target));
  INFO("want: " << to_json(want));
  CHECK(target == want);
}

}  // namespace

TEST_CASE("merge patch: RFC 7386 appendix A and section 3", "[json_patch][merge_patch]") {
  const std::vector<Case> cases = {
      {"A1 replace member", R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
      {"A2 add member", R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
      {"A3 null removes", R"({"a":"b"})", R"({"a":null})", R"({})"},
      {"A4 null removes one", R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
      {"A5 array replaced by string", R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
      {"A6 string replaced by array", R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
      {"A7 nested merge", R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
      {"A8 arrays replaced whole", R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
      {"A13 null in target kept", R"({"e":null})", R"({"a":1})", R"({"e":null,"a":1})"},
      {"A14 non-object target becomes object", R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})"},
      {"A15 nulls of new objects dropped", R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
      {"section 3 example",
       R"({"title":"Goodbye!","author":{"givenName":"John","familyName":"Doe"},"tags":["example","sample"],
           "content":"This will be unchanged"})",
       R"({"title":"Hello!","phoneNumber":"+01-123-456-7890","author":{"familyName":null},"tags":["example"]})",
       R"({"title":"Hello!","author":{"givenName":"John"},"tags":["example"],"content":"This will be unchanged",
           "phoneNumber":"+01-123-456-7890"})"},
      {"scalar replaced by object", R"({"a":"x"})", R"({"a":{"b":1,"c":null}})", R"({"a":{"b":1}})"},
      {"object replaced by scalar", R"({"a":{"b":1}})", R"({"a":5})", R"({"a":5})"},
      {"nulls inside arrays kept", R"({})", R"({"a":[null,{"b":null}]})", R"({"a":[null,{"b":null}]})"},
      {"removing a missing member is fine", R"({"a":1})", R"({"zz":null})", R"({"a":1})"},
      {"empty patch changes nothing", R"({"a":{"b":[1,2]}})", R"({})", R"({"a":{"b":[1,2]}})"},
      {"kubectl patch --type merge on labels", R"({"metadata":{"name":"p","labels":{"app":"web","old":"x"}}})",
       R"({"metadata":{"labels":{"old":null,"tier":"fe"}}})",
       R"({"metadata":{"name":"p","labels":{"app":"web","tier":"fe"}}})"},
      // The API server needs an object back: the RFC's non-object patches
      // (appendix A 9-12) are errors at the top level.
      {"A9 array patch", R"(["a","b"])", R"(["c","d"])", "error: a merge patch must be a JSON object, not array"},
      {"A11 null patch", R"({"a":"foo"})", R"(null)", "error: a merge patch must be a JSON object, not null"},
      {"A12 string patch", R"({"a":"foo"})", R"("bar")", "error: a merge patch must be a JSON object, not string"},
  };
  for (const auto& c : cases) check(Algorithm::merge, c);
}

TEST_CASE("JSON patch: RFC 6902 appendix A", "[json_patch]") {
  const std::vector<Case> cases = {
      {"A1 add member", R"({"foo":"bar"})", R"([{"op":"add","path":"/baz","value":"qux"}])",
       R"({"baz":"qux","foo":"bar"})"},
      {"A2 add array element", R"({"foo":["bar","baz"]})", R"([{"op":"add","path":"/foo/1","value":"qux"}])",
       R"({"foo":["bar","qux","baz"]})"},
      {"A3 remove member", R"({"baz":"qux","foo":"bar"})", R"([{"op":"remove","path":"/baz"}])", R"({"foo":"bar"})"},
      {"A4 remove array element", R"({"foo":["bar","qux","baz"]})", R"([{"op":"remove","path":"/foo/1"}])",
       R"({"foo":["bar","baz"]})"},
      {"A5 replace", R"({"baz":"qux","foo":"bar"})", R"([{"op":"replace","path":"/baz","value":"boo"}])",
       R"({"baz":"boo","foo":"bar"})"},
      {"A6 move member", R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})",
       R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])",
       R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})"},
      {"A7 move array element", R"({"foo":["all","grass","cows","eat"]})",
       R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])", R"({"foo":["all","cows","eat","grass"]})"},
      {"A8 test success", R"({"baz":"qux","foo":["a",2,"c"]})",
       R"([{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}])",
       R"({"baz":"qux","foo":["a",2,"c"]})"},
      {"A9 test failure", R"({"baz":"qux"})", R"([{"op":"test","path":"/baz","value":"bar"}])",
       R"(error: JSON patch operation 0 (test "/baz"): test failed: the value is "qux", not "bar")"},
      {"A10 add nested object", R"({"foo":"bar"})", R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])",
       R"({"foo":"bar","child":{"grandchild":{}}})"},
      {"A11 unknown members ignored", R"({"foo":"bar"})", R"([{"op":"add","path":"/baz","value":"qux","xyz":123}])",
       R"({"foo":"bar","baz":"qux"})"},
      {"A12 add to missing parent", R"({"foo":"bar"})", R"([{"op":"add","path":"/baz/bat","value":"qux"}])",
       R"(error: JSON patch operation 0 (add "/baz/bat"): member "baz" does not exist)"},
      {"A14 ~01 is ~1", R"({"/":9,"~1":10})", R"([{"op":"test","path":"/~01","value":10}])", R"({"/":9,"~1":10})"},
      {"A15 string is not number", R"({"/":9,"~1":10})", R"([{"op":"test","path":"/~01","value":"10"}])",
       "error: test failed: the value is 10, not \"10\""},
      {"A16 add array value", R"({"foo":["bar"]})", R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])",
       R"({"foo":["bar",["abc","def"]]})"},
  };
  for (const auto& c : cases) check(Algorithm::json, c);
}

TEST_CASE("JSON patch: more operations and every error", "[json_patch]") {
  const std::vector<Case> cases = {
      {"~1 escapes slash", R"({"a/b":1})", R"([{"op":"replace","path":"/a~1b","value":2}])", R"({"a/b":2})"},
      {"empty key", R"({"":1})", R"([{"op":"remove","path":"/"}])", R"({})"},
      {"replace whole document", R"({"a":1})", R"([{"op":"replace","path":"","value":{"b":2}}])", R"({"b":2})"},
      {"add whole document", R"({"a":1})", R"([{"op":"add","path":"","value":[1]}])", R"([1])"},
      {"add replaces existing member", R"({"a":1})", R"([{"op":"add","path":"/a","value":2}])", R"({"a":2})"},
      {"add at array end index", R"({"a":[1]})", R"([{"op":"add","path":"/a/1","value":2}])", R"({"a":[1,2]})"},
      {"copy", R"({"a":{"b":1}})", R"([{"op":"copy","from":"/a","path":"/c"}])", R"({"a":{"b":1},"c":{"b":1}})"},
      {"copy into own child", R"({"a":{"b":1}})", R"([{"op":"copy","from":"/a","path":"/a/c"}])",
       R"({"a":{"b":1,"c":{"b":1}}})"},
      {"move to same place", R"({"a":1})", R"([{"op":"move","from":"/a","path":"/a"}])", R"({"a":1})"},
      {"test objects ignore member order", R"({"a":{"x":1,"y":[1,2]}})",
       R"([{"op":"test","path":"/a","value":{"y":[1,2],"x":1.0}}])", R"({"a":{"x":1,"y":[1,2]}})"},
      {"test null", R"({"a":null})", R"([{"op":"test","path":"/a","value":null}])", R"({"a":null})"},
      {"kubectl patch --type json on labels", R"({"metadata":{"labels":{"app":"web"}}})",
       R"([{"op":"add","path":"/metadata/labels/tier","value":"fe"},{"op":"remove","path":"/metadata/labels/app"}])",
       R"({"metadata":{"labels":{"tier":"fe"}}})"},
      {"not an array", R"({})", R"({"op":"add"})", "error: a JSON patch must be an array of operations, not object"},
      {"operation not an object", R"({})", R"([1])", "error: JSON patch operation 0: an operation must be an object"},
      {"missing op", R"({})", R"([{"path":"/a"}])", R"(error: JSON patch operation 0: missing "op")"},
      {"op not a string", R"({})", R"([{"op":1,"path":"/a"}])", R"(error: "op" must be a string, not number)"},
      {"unknown op", R"({})", R"([{"op":"frobnicate","path":"/a"}])", R"(error: unknown op "frobnicate")"},
      {"missing path", R"({})", R"([{"op":"remove"}])", R"(error: missing "path")"},
      {"missing value", R"({})", R"([{"op":"add","path":"/a"}])", R"(error: missing "value")"},
      {"missing from", R"({"a":1})", R"([{"op":"move","path":"/b"}])", R"(error: missing "from")"},
      {"path without slash", R"({"a":1})", R"([{"op":"remove","path":"a"}])",
       "error: must be empty or start with '/'"},
      {"bad escape", R"({"a":1})", R"([{"op":"remove","path":"/a~2"}])", "error: '~' must be followed by '0' or '1'"},
      {"remove missing member", R"({"a":1})", R"([{"op":"remove","path":"/b"}])",
       R"(error: member "b" does not exist)"},
      {"replace missing member", R"({"a":1})", R"([{"op":"replace","path":"/b","value":1}])",
       R"(error: member "b" does not exist)"},
      {"index out of range", R"({"a":[1]})", R"([{"op":"add","path":"/a/2","value":1}])",
       "error: index 2 is out of range (the array has 1 items)"},
      {"leading zero index", R"({"a":[1,2]})", R"([{"op":"remove","path":"/a/01"}])",
       R"(error: "01" is not an array index)"},
      {"dash only for add", R"({"a":[1]})", R"([{"op":"remove","path":"/a/-"}])", R"(error: "-" is not an array index)"},
      {"descend into scalar", R"({"a":1})", R"([{"op":"add","path":"/a/b/c","value":1}])",
       R"(error: cannot look up "b" in a number)"},
      {"add member to scalar", R"({"a":1})", R"([{"op":"add","path":"/a/b","value":1}])",
       "error: cannot add a member to a number"},
      {"remove root", R"({"a":1})", R"([{"op":"remove","path":""}])", "error: cannot remove the whole document"},
      {"move into own child", R"({"a":{"b":1}})", R"([{"op":"move","from":"/a","path":"/a/b/c"}])",
       "error: cannot move a value into one of its own children"},
      {"move from missing", R"({"a":1})", R"([{"op":"move","from":"/x","path":"/y"}])",
       R"(error: "from": member "x" does not exist)"},
      {"second operation fails", R"({"a":1})",
       R"([{"op":"replace","path":"/a","value":2},{"op":"test","path":"/a","value":1}])",
       R"(error: JSON patch operation 1 (test "/a"): test failed)"},
  };
  for (const auto& c : cases) check(Algorithm::json, c);
}

TEST_CASE("JSON patch: bounded work", "[json_patch]") {
  // Each copy of the root's member into itself doubles the document.
  std::string ops = "[";
  for (int i = 0; i < 40; ++i) {
    if (i) ops += ",";
    ops += R"({"op":"copy","from":"/a","path":"/a/)" + std::to_string(i) + R"("})";
  }
  ops += "]";
  check(Algorithm::json, {"exponential copies", R"({"a":{"x":1}})", ops.c_str(),
                          "error: the copy operations would copy more than"});

  std::string many = "[";
  for (int i = 0; i < 10001; ++i) many += std::string(i ? "," : "") + R"({"op":"test","path":"","value":{}})";
  many += "]";
  check(Algorithm::json, {"too many operations", "{}", many.c_str(),
                          "error: the allowed maximum operations in a JSON patch is 10000, got 10001"});
}

TEST_CASE("strategic merge patch: scheduler and controller shapes", "[json_patch][strategic]") {
  const char* pod_with_conditions = R"({"metadata":{"name":"p"},"status":{"phase":"Pending","conditions":[
      {"type":"Initialized","status":"True"},{"type":"Ready","status":"False"}]}})";
  const std::vector<Case> cases = {
      {"maps merge, null deletes", R"({"metadata":{"labels":{"a":"1","b":"2"}}})",
       R"({"metadata":{"labels":{"a":null,"c":"3"}}})", R"({"metadata":{"labels":{"b":"2","c":"3"}}})"},
      {"kube-scheduler unschedulable status (new condition goes first, as upstream)", pod_with_conditions,
       R"({"status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable",
           "message":"0/5 nodes are available","lastProbeTime":null,"lastTransitionTime":"2026-11-21T23:37:31Z"}],
           "nominatedNodeName":"node-3"}})",
       R"({"metadata":{"name":"p"},"status":{"phase":"Pending","nominatedNodeName":"node-3","conditions":[
           {"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/5 nodes are available",
            "lastTransitionTime":"2026-11-21T23:37:31Z"},
           {"type":"Initialized","status":"True"},{"type":"Ready","status":"False"}]}})"},
      {"kube-scheduler status with $setElementOrder keeps the server's order",
       R"({"status":{"conditions":[{"type":"Initialized","status":"True"},
           {"type":"PodScheduled","status":"False","message":"old","lastProbeTime":"x"}]}})",
       R"({"status":{"$setElementOrder/conditions":[{"type":"Initialized"},{"type":"PodScheduled"}],
           "conditions":[{"type":"PodScheduled","message":"new","lastProbeTime":null}]}})",
       R"({"status":{"conditions":[{"type":"Initialized","status":"True"},
           {"type":"PodScheduled","status":"False","message":"new"}]}})"},
      {"$setElementOrder reorders the list",
       R"({"status":{"conditions":[{"type":"A"},{"type":"B"},{"type":"C"}]}})",
       R"({"status":{"$setElementOrder/conditions":[{"type":"C"},{"type":"A"},{"type":"B"}],
           "conditions":[{"type":"C","status":"True"}]}})",
       R"({"status":{"conditions":[{"type":"C","status":"True"},{"type":"A"},{"type":"B"}]}})"},
      {"existing condition merged in place", pod_with_conditions,
       R"({"status":{"conditions":[{"type":"Ready","status":"True"}]}})",
       R"({"metadata":{"name":"p"},"status":{"phase":"Pending","conditions":[
           {"type":"Initialized","status":"True"},{"type":"Ready","status":"True"}]}})"},
      {"containers merge by name", R"({"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]}})",
       R"({"spec":{"containers":[{"name":"b","image":"b:2"}]}})",
       R"({"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:2"}]}})"},
      {"kubectl apply adds a container in $setElementOrder order",
       R"({"metadata":{"annotations":{"x":"1"}},"spec":{"containers":[{"name":"a","image":"a:1"}]}})",
       R"({"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}},
           "spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"b"}],
                   "containers":[{"name":"b","image":"b:1"}]}})",
       R"({"metadata":{"annotations":{"x":"1","kubectl.kubernetes.io/last-applied-configuration":"{}"}},
           "spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]}})"},
      {"env merges by name inside a container",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"X","value":"1"},{"name":"Y","value":"2"}]}]}})",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"Y","value":"3"}]}]}})",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"X","value":"1"},{"name":"Y","value":"3"}]}]}})"},
      {"$patch: delete removes a list item",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"X","value":"1"},{"name":"Y","value":"2"}]}]}})",
       R"({"spec":{"containers":[{"name":"a","env":[{"$patch":"delete","name":"X"}]}]}})",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"Y","value":"2"}]}]}})"},
      {"ports merge by containerPort",
       R"({"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"http"},{"containerPort":443}]}]}})",
       R"({"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"web"}]}]}})",
       R"({"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"web"},{"containerPort":443}]}]}})"},
      {"volumes and volumeMounts merge",
       R"({"spec":{"volumes":[{"name":"v","emptyDir":{}}],
           "containers":[{"name":"a","volumeMounts":[{"mountPath":"/v","name":"v"}]}]}})",
       R"({"spec":{"volumes":[{"name":"v","emptyDir":{"medium":"Memory"}}],
           "containers":[{"name":"a","volumeMounts":[{"mountPath":"/v","readOnly":true}]}]}})",
       R"({"spec":{"volumes":[{"name":"v","emptyDir":{"medium":"Memory"}}],
           "containers":[{"name":"a","volumeMounts":[{"mountPath":"/v","name":"v","readOnly":true}]}]}})"},
      {"$retainKeys drops the other keys",
       R"({"spec":{"volumes":[{"name":"v","emptyDir":{}}]}})",
       R"({"spec":{"volumes":[{"name":"v","hostPath":{"path":"/x"},"$retainKeys":["hostPath","name"]}]}})",
       R"({"spec":{"volumes":[{"name":"v","hostPath":{"path":"/x"}}]}})"},
      {"tolerations are replaced whole",
       R"({"spec":{"tolerations":[{"key":"a","operator":"Exists"},{"key":"b","operator":"Exists"}]}})",
       R"({"spec":{"tolerations":[{"key":"c","operator":"Exists"}]}})",
       R"({"spec":{"tolerations":[{"key":"c","operator":"Exists"}]}})"},
      {"finalizers merge as a set", R"({"metadata":{"finalizers":["a","b"]}})",
       R"({"metadata":{"finalizers":["b","c"]}})", R"({"metadata":{"finalizers":["a","b","c"]}})"},
      {"$deleteFromPrimitiveList removes finalizers", R"({"metadata":{"finalizers":["a","b","c"]}})",
       R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["b","zz"]}})", R"({"metadata":{"finalizers":["a","c"]}})"},
      {"ownerReferences merge by uid",
       R"({"metadata":{"ownerReferences":[{"uid":"1","name":"rs-1"},{"uid":"2","name":"rs-2"}]}})",
       R"({"metadata":{"ownerReferences":[{"uid":"2","controller":true}]}})",
       R"({"metadata":{"ownerReferences":[{"uid":"1","name":"rs-1"},{"uid":"2","name":"rs-2","controller":true}]}})"},
      {"$patch: replace on a map", R"({"spec":{"nodeSelector":{"a":"1","b":"2"}}})",
       R"({"spec":{"nodeSelector":{"$patch":"replace","c":"3"}}})", R"({"spec":{"nodeSelector":{"c":"3"}}})"},
      {"$patch: delete on a map", R"({"spec":{"nodeSelector":{"a":"1"},"x":1}})",
       R"({"spec":{"nodeSelector":{"$patch":"delete"}}})", R"({"spec":{"nodeSelector":{},"x":1}})"},
      {"$patch: replace item replaces the list", R"({"spec":{"containers":[{"name":"a"},{"name":"b"}]}})",
       R"({"spec":{"containers":[{"name":"c"},{"$patch":"replace"}]}})", R"({"spec":{"containers":[{"name":"c"}]}})"},
      {"directives in a new field take effect and are not stored", R"({"spec":{}})",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"X","value":"1"},{"$patch":"delete","name":"Y"}]}],
           "affinity":{"nodeAffinity":{"$patch":"replace","x":1}}}})",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"X","value":"1"}]}],"affinity":{"nodeAffinity":{"x":1}}}})"},
      {"null original value treated as absent", R"({"metadata":{"labels":null}})",
       R"({"metadata":{"labels":{"a":"1","b":null}}})", R"({"metadata":{"labels":{"a":"1"}}})"},
      {"scalar list without strategy replaced", R"({"spec":{"containers":[{"name":"a","args":["x","y"]}]}})",
       R"({"spec":{"containers":[{"name":"a","args":["z"]}]}})",
       R"({"spec":{"containers":[{"name":"a","args":["z"]}]}})"},
      {"node status addresses and conditions by type",
       R"({"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.1"},{"type":"Hostname","address":"n1"}],
           "conditions":[{"type":"Ready","status":"True"}]}})",
       R"({"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.2"}],
           "conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady"}]}})",
       R"({"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.2"},{"type":"Hostname","address":"n1"}],
           "conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady"}]}})", "Node"},
      {"node taints replaced, podCIDRs merged",
       R"({"spec":{"taints":[{"key":"a","effect":"NoSchedule"}],"podCIDRs":["10.0.0.0/24"]}})",
       R"({"spec":{"taints":[{"key":"b","effect":"NoExecute"}],"podCIDRs":["10.0.0.0/24","fd00::/64"]}})",
       R"({"spec":{"taints":[{"key":"b","effect":"NoExecute"}],"podCIDRs":["10.0.0.0/24","fd00::/64"]}})", "Node"},
      {"event series patch", R"({"reason":"FailedScheduling","series":{"count":1,"lastObservedTime":"t1"}})",
       R"({"series":{"count":2,"lastObservedTime":"t2"}})",
       R"({"reason":"FailedScheduling","series":{"count":2,"lastObservedTime":"t2"}})", "Event"},
      {"PodDisruptionBudget selector replaced whole",
       R"({"spec":{"selector":{"matchLabels":{"a":"1"}},"minAvailable":1}})",
       R"({"spec":{"selector":{"matchLabels":{"b":"2"}}}})",
       R"({"spec":{"selector":{"matchLabels":{"b":"2"}},"minAvailable":1}})", "PodDisruptionBudget"},
      {"Deployment pod template containers merge",
       R"({"spec":{"template":{"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"1"}]}}}})",
       R"({"spec":{"template":{"spec":{"containers":[{"name":"a","image":"2"}]}}}})",
       R"({"spec":{"template":{"spec":{"containers":[{"name":"a","image":"2"},{"name":"b","image":"1"}]}}}})",
       "Deployment"},
      {"top-level $patch: replace", R"({"a":1,"b":{"c":2}})", R"({"$patch":"replace","b":{"d":3}})",
       R"({"b":{"d":3}})"},
      {"PersistentVolumeClaim status conditions by type",
       R"({"status":{"conditions":[{"type":"Resizing","status":"True"},{"type":"X","status":"True"}]}})",
       R"({"status":{"conditions":[{"type":"Resizing","status":"False"}]}})",
       R"({"status":{"conditions":[{"type":"Resizing","status":"False"},{"type":"X","status":"True"}]}})",
       "PersistentVolumeClaim"},
      {"ServiceAccount secrets by name", R"({"secrets":[{"name":"a"}]})", R"({"secrets":[{"name":"b"}]})",
       R"({"secrets":[{"name":"b"},{"name":"a"}]})", "ServiceAccount"},
      {"CSINode drivers by name",
       R"({"spec":{"drivers":[{"name":"a","nodeID":"1"},{"name":"b","nodeID":"2"}]}})",
       R"({"spec":{"drivers":[{"name":"b","nodeID":"3"}]}})",
       R"({"spec":{"drivers":[{"name":"a","nodeID":"1"},{"name":"b","nodeID":"3"}]}})", "CSINode"},
  };
  for (const auto& c : cases) check(Algorithm::strategic, c);
}

TEST_CASE("strategic merge patch: errors", "[json_patch][strategic]") {
  const std::vector<Case> cases = {
      {"custom resources have no schema", R"({})", R"({"spec":{}})",
       R"(error: strategic merge patch is not supported for kind "Device")", "Device"},
      {"patch must be an object", R"({})", R"([1])", "error: a strategic merge patch must be a JSON object, not array"},
      {"unknown directive in a map", R"({"spec":{}})", R"({"spec":{"$patch":"explode"}})",
       R"(error: spec: unknown patch type "explode" in map)"},
      {"$patch: merge in a list", R"({"spec":{"containers":[{"name":"a"}]}})",
       R"({"spec":{"containers":[{"$patch":"merge"}]}})",
       "error: spec.containers: merging lists cannot yet be specified in the patch"},
      {"list item without its merge key", R"({"spec":{"containers":[{"name":"a"}]}})",
       R"({"spec":{"containers":[{"image":"x"}]}})",
       R"(error: spec.containers: list item {"image":"x"} does not contain declared merge key: name)"},
      {"delete item without its merge key", R"({"spec":{"containers":[{"name":"a"}]}})",
       R"({"spec":{"containers":[{"$patch":"delete"}]}})", "error: does not contain declared merge key: name"},
      {"stored item without merge key", R"({"spec":{"containers":[{"image":"a"}]}})",
       R"({"spec":{"containers":[{"name":"b"}]}})", "error: does not contain declared merge key: name"},
      {"lists of lists", R"({"metadata":{"finalizers":["a"]}})", R"({"metadata":{"finalizers":[["b"]]}})",
       "error: metadata.finalizers: lists of lists are not supported"},
      {"mixed item types", R"({"spec":{"containers":[{"name":"a"}]}})", R"({"spec":{"containers":[null]}})",
       "error: spec.containers: list element types are not identical"},
      {"objects in a primitive merge list", R"({"metadata":{"finalizers":[]}})",
       R"({"metadata":{"finalizers":[{"a":1}]}})", "error: cannot merge lists of objects without a merge key"},
      {"$retainKeys must list the patch's keys", R"({"spec":{"volumes":[{"name":"v"}]}})",
       R"({"spec":{"volumes":[{"name":"v","hostPath":{},"$retainKeys":["name"]}]}})",
       R"(error: invalid patch format of retainKeys: "hostPath" is in the patch but not in $retainKeys)"},
      {"$retainKeys must be a list", R"({})", R"({"$retainKeys":"a"})", "error: invalid patch format of retainKeys"},
      {"$setElementOrder without a list name", R"({})", R"({"$setElementOrder":[]})",
       "error: invalid patch format of setElementOrder list"},
      {"$setElementOrder item without merge key", R"({"status":{"conditions":[{"type":"A"}]}})",
       R"({"status":{"$setElementOrder/conditions":[{"status":"x"}]}})",
       "error: status.conditions: $setElementOrder item {\"status\":\"x\"} does not contain the merge key \"type\""},
      {"$deleteFromPrimitiveList must be a list", R"({"metadata":{"finalizers":["a"]}})",
       R"({"metadata":{"$deleteFromPrimitiveList/finalizers":"a"}})", "error: invalid patch format of primitive list"},
  };
  for (const auto& c : cases) check(Algorithm::strategic, c);
  CHECK(troupe::supports_strategic_merge_patch("Pod"));
  CHECK(troupe::supports_strategic_merge_patch("Binding"));
  CHECK_FALSE(troupe::supports_strategic_merge_patch("Device"));
}

TEST_CASE("patches refuse documents nested beyond the limit", "[json_patch]") {
  std::string deep;
  for (int i = 0; i < 1100; ++i) deep += R"({"a":)";
  deep += "1";
  for (int i = 0; i < 1100; ++i) deep += "}";
  check(Algorithm::merge, {"deep merge patch", "{}", deep.c_str(), "error: nested more than 1000 levels"});
  check(Algorithm::strategic, {"deep strategic patch", "{}", deep.c_str(), "error: nested more than 1000 levels"});
  std::string op = R"([{"op":"add","path":"/x","value":)" + deep + "}]";
  check(Algorithm::json, {"deep JSON patch value", "{}", op.c_str(), "error: nested more than 1000 levels"});
}
