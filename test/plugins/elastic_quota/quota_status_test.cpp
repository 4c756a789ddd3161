#include <catch2/catch.hpp>

#include "plugins/elastic_quota/quota_status.hpp"

using namespace troupe;
using namespace troupe::plugins::elastic_quota;

namespace {

ElasticQuota quota_with(const std::string& annotations_json, const std::string& used_json) {
  auto quota = decode_elastic_quota_json(R"({"metadata": {"name": "q", "annotations": )" + annotations_json +
                                         R"(}, "spec": {"max": {"cpu": "4"}}, "status": {"used": )" + used_json + "}}");
  REQUIRE(quota);
  return *quota;
}

QuotaUsage figures(ResourceAmounts runtime, ResourceAmounts request, ResourceAmounts used) {
  QuotaUsage usage;
  usage.runtime = std::move(runtime);
  usage.request = std::move(request);
  usage.used = std::move(used);
  return usage;
}

}  // namespace

TEST_CASE("a quota's status is patched only where it differs from the book's figures", "[elastic_quota]") {
  const std::string written =
      R"({"quota.scheduling.koordinator.sh/runtime": "{\"cpu\":\"3\"}",
          "quota.scheduling.koordinator.sh/request": "{\"cpu\":\"4\",\"memory\":\"1Gi\"}"})";
  struct Case {
    const char* name;
    std::string annotations;
    std::string used;
    QuotaUsage figures;
    const char* patch;  // nullptr: nothing to write
  };
  const std::vector<Case> cases = {
      {"everything new", "{}", "{}", figures({{"cpu", 3'000}}, {{"cpu", 4'000}}, {{"cpu", 3'000}}),
       R"({"metadata":{"annotations":{"quota.scheduling.koordinator.sh/request":"{\"cpu\":\"4\"}",)"
       R"("quota.scheduling.koordinator.sh/runtime":"{\"cpu\":\"3\"}"}},"status":{"used":{"cpu":"3"}}})"},
      {"nothing changed", written, R"({"cpu": "3", "memory": "768Mi"})",
       figures({{"cpu", 3'000}}, {{"cpu", 4'000}, {"memory", 1LL << 30}}, {{"cpu", 3'000}, {"memory", 768LL << 20}}),
       nullptr},
      {"zero amounts do not count", written, R"({"cpu": "3000m", "memory": "768Mi"})",
       figures({{"cpu", 3'000}, {"memory", 0}}, {{"cpu", 4'000}, {"memory", 1LL << 30}},
               {{"cpu", 3'000}, {"memory", 768LL << 20}}),
       nullptr},
      {"only the runtime moved", written, R"({"cpu": "3", "memory": "768Mi"})",
       figures({{"cpu", 3'500}}, {{"cpu", 4'000}, {"memory", 1LL << 30}}, {{"cpu", 3'000}, {"memory", 768LL << 20}}),
       R"({"metadata":{"annotations":{"quota.scheduling.koordinator.sh/runtime":"{\"cpu\":\"3500m\"}"}}})"},
      {"only used moved", written, R"({"cpu": "3"})",
       figures({{"cpu", 3'000}}, {{"cpu", 4'000}, {"memory", 1LL << 30}}, {{"cpu", 2'000}}),
       R"({"status":{"used":{"cpu":"2"}}})"},
      {"an unreadable annotation is rewritten",
       R"({"quota.scheduling.koordinator.sh/runtime": "three", "quota.scheduling.koordinator.sh/request": "{\"cpu\":\"4\"}"})",
       R"({"cpu": "3"})", figures({{"cpu", 3'000}}, {{"cpu", 4'000}}, {{"cpu", 3'000}}),
       R"({"metadata":{"annotations":{"quota.scheduling.koordinator.sh/runtime":"{\"cpu\":\"3\"}"}}})"},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      auto patch = quota_status_patch(quota_with(c.annotations, c.used), c.figures);
      if (c.patch == nullptr) {
        CHECK_FALSE(patch);
      } else {
        REQUIRE(patch);
        CHECK(*patch == c.patch);
      }
    }
  }
}

TEST_CASE("the system, default and root quotas are created as Koordinator creates them", "[elastic_quota]") {
  const ResourceList max{{ResourceName("cpu"), *Quantity::parse("100")}, {ResourceName("memory"), *Quantity::parse("1Ti")}};
  const auto objects = builtin_quota_objects("koordinator-system", max, max);
  REQUIRE(objects.size() == 3);
  CHECK(objects[0].name == kSystemQuotaName);
  CHECK(objects[1].body ==
        R"({"apiVersion":"scheduling.sigs.k8s.io/v1alpha1","kind":"ElasticQuota","metadata":{"name":)"
        R"("koordinator-default-quota","namespace":"koordinator-system","annotations":{"quota.scheduling.koordinator.sh/)"
        R"(runtime":"{\"cpu\":\"100\",\"memory\":\"1Ti\"}"}},"spec":{"max":{"cpu":"100","memory":"1Ti"}}})");
  CHECK(objects[2].body ==
        R"({"apiVersion":"scheduling.sigs.k8s.io/v1alpha1","kind":"ElasticQuota","metadata":{"name":)"
        R"("koordinator-root-quota","namespace":"koordinator-system","labels":{"quota.scheduling.koordinator.sh/)"
        R"(is-parent":"true","quota.scheduling.koordinator.sh/allow-lent-resource":"false",)"
        R"("quota.scheduling.koordinator.sh/parent":""}}})");
  // Each decodes back to what the book reads.
  for (const auto& object : objects) {
    auto decoded = decode_elastic_quota_json(object.body);
    REQUIRE(decoded);
    CHECK(decoded->meta.name == object.name);
  }
}
