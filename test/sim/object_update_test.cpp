// What an update (PUT or patch) may change in an object's metadata: the uid
// is immutable, as kube-apiserver's ValidateObjectMetaUpdate has it, so a
// write meant for a pod that was re-created under the same name is refused.
#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include <string>

#include "sim/object_rules.hpp"
#include "sim/resource_registry.hpp"
#include "sim/status_errors.hpp"

using namespace troupe::sim;

namespace {

rapidjson::Document pod_with_uid(const char* uid) {
  rapidjson::Document d;
  const std::string meta = uid == nullptr ? R"({"name":"p","namespace":"default"})"
                                          : std::string(R"({"name":"p","namespace":"default","uid":")") + uid + "\"}";
  d.Parse((R"({"apiVersion":"v1","kind":"Pod","metadata":)" + meta + R"(,"spec":{"containers":[{"name":"c"}]}})")
              .c_str());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

}  // namespace

TEST_CASE("an update keeps the object's uid and refuses another", "[sim][update]") {
  const ResourceInfo& pods = *ResourceRegistry::standard().find("", "v1", "pods");
  struct Case {
    const char* written_uid;  // nullptr: the write names none
    const char* error;        // nullptr: accepted
  };
  const Case cases[] = {
      {nullptr, nullptr},
      {"uid-1", nullptr},
      {"uid-2", R"(Pod "p" is invalid: metadata.uid: Invalid value: "uid-2": field is immutable)"},
  };
  const rapidjson::Document old = pod_with_uid("uid-1");
  for (const auto& c : cases) {
    INFO((c.written_uid ? c.written_uid : "no uid"));
    rapidjson::Document written = pod_with_uid(c.written_uid);
    prepare_for_update(pods, old, written);
    auto error = validate_update(pods, old, written);
    if (c.error == nullptr) {
      CHECK_FALSE(error);
      CHECK(std::string(written["metadata"]["uid"].GetString()) == "uid-1");
    } else {
      REQUIRE(error);
      CHECK(error->code == 422);
      CHECK(error->message == c.error);
    }
  }
}
