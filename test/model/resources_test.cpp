#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "model/resource_names.hpp"
#include "model/resources.hpp"

namespace {

using troupe::Quantity;
using troupe::ResourceList;
namespace names = troupe::resource_names;

// {"cpu", "500m"}, ... -> ResourceList; the texts must parse.
ResourceList list(std::initializer_list<std::pair<const char*, const char*>> entries) {
  ResourceList out;
  for (const auto& [name, text] : entries) {
    auto quantity = Quantity::parse(text);
    INFO(name << ": " << text);
    REQUIRE(quantity.ok());
    out.emplace(name, *quantity);
  }
  return out;
}

TEST_CASE("ResourceList arithmetic", "[resources]") {
  struct Case {
    ResourceList a;
    char op;
    ResourceList b;
    const char* result;
  };
  const Case cases[] = {
      {list({}), '+', list({}), "{}"},
      {list({{"cpu", "1"}}), '+', list({{"cpu", "500m"}}), "{cpu: 1500m}"},
      {list({{"cpu", "1"}}), '+', list({{"memory", "1Gi"}}), "{cpu: 1, memory: 1Gi}"},
      {list({{"cpu", "1"}, {"memory", "1Gi"}}), '+', list({{"memory", "512Mi"}, {"pods", "1"}}),
       "{cpu: 1, memory: 1536Mi, pods: 1}"},
      {list({{"nvidia.com/gpu", "1"}}), '+', list({{"nvidia.com/gpu", "1"}}), "{nvidia.com/gpu: 2}"},
      {list({{"cpu", "2"}, {"memory", "2Gi"}}), '-', list({{"cpu", "500m"}}), "{cpu: 1500m, memory: 2Gi}"},
      {list({{"cpu", "2"}}), '-', list({{"memory", "1Gi"}}), "{cpu: 2, memory: -1Gi}"},
      {list({{"cpu", "1"}}), '-', list({{"cpu", "1"}}), "{cpu: 0}"},
      {list({{"cpu", "100m"}}), '-', list({{"cpu", "300m"}}), "{cpu: -200m}"},
      {list({{"cpu", "250m"}, {"memory", "1Gi"}}), 'x', list({}), "{cpu: 750m, memory: 3Gi}"},
      {list({{"cpu", "1"}, {"memory", "1Gi"}}), 'M', list({{"cpu", "2"}, {"memory", "512Mi"}, {"pods", "3"}}),
       "{cpu: 2, memory: 1Gi, pods: 3}"},
      {list({{"cpu", "-1"}}), 'M', list({}), "{cpu: -1}"},
  };
  for (const auto& c : cases) {
    INFO(c.a << ' ' << c.op << ' ' << c.b);
    ResourceList result;
    switch (c.op) {
      case '+': result = c.a + c.b; break;
      case '-': result = c.a - c.b; break;
      case 'x': result = c.a * 3; break;
      default:
        result = c.a;
        result.set_max(c.b);
    }
    CHECK(result.to_string() == c.result);
  }
}

TEST_CASE("ResourceList fits_within names what does not fit", "[resources]") {
  struct Case {
    ResourceList request;
    ResourceList available;
    std::vector<std::string> short_names;
  };
  const Case cases[] = {
      {list({}), list({}), {}},
      {list({{"cpu", "1"}}), list({{"cpu", "1"}}), {}},
      {list({{"cpu", "1001m"}}), list({{"cpu", "1"}}), {"cpu"}},
      {list({{"cpu", "1"}, {"memory", "2Gi"}}), list({{"cpu", "4"}, {"memory", "1Gi"}}), {"memory"}},
      {list({{"cpu", "8"}, {"memory", "2Gi"}}), list({{"cpu", "4"}, {"memory", "1Gi"}}), {"cpu", "memory"}},
      {list({{"nvidia.com/gpu", "1"}}), list({{"cpu", "4"}}), {"nvidia.com/gpu"}},
      {list({{"nvidia.com/gpu", "0"}}), list({}), {}},
      {list({{"cpu", "0"}}), list({{"cpu", "-1"}}), {}},
      {list({{"cpu", "-1"}}), list({}), {}},
      {list({{"memory", "1Gi"}}), list({{"memory", "1073741824"}}), {}},
      {list({{"memory", "1G"}}), list({{"memory", "1Gi"}}), {}},
      {list({{"memory", "1Gi"}}), list({{"memory", "1G"}}), {"memory"}},
      {list({{"koordinator.sh/gpu-core", "50"}}), list({{"koordinator.sh/gpu-core", "49"}}),
       {"koordinator.sh/gpu-core"}},
  };
  for (const auto& c : cases) {
    INFO(c.request << " within " << c.available);
    CHECK(c.request.fits_within(c.available) == c.short_names);
  }
}

TEST_CASE("ResourceList queries", "[resources]") {
  const ResourceList resources = list({{"cpu", "500m"}, {"memory", "0"}, {"pods", "110"}});
  CHECK(resources.get("cpu") == Quantity::from_milli(500));
  CHECK(resources.get(names::kPods).value() == 110);
  CHECK(resources.get("nvidia.com/gpu").is_zero());
  CHECK(resources.find(names::kCpu) != resources.end());
  CHECK_FALSE(resources.is_zero());
  CHECK(list({}).is_zero());
  CHECK(list({{"cpu", "0"}, {"memory", "0Gi"}}).is_zero());
  CHECK(resources.without_zeros().to_string() == "{cpu: 500m, pods: 110}");

  CHECK(list({{"cpu", "0"}}).same_amounts(list({})));
  CHECK(list({{"cpu", "1"}}).same_amounts(list({{"cpu", "1000m"}})));
  CHECK_FALSE(list({{"cpu", "1"}}).same_amounts(list({})));
  CHECK_FALSE(list({}).same_amounts(list({{"cpu", "1"}})));
  CHECK(list({{"cpu", "1"}}) == list({{"cpu", "1000m"}}));
  CHECK_FALSE(list({{"cpu", "0"}}) == list({}));

  std::ostringstream out;
  out << list({{"memory", "1.5Gi"}, {"cpu", "2"}});
  CHECK(out.str() == "{cpu: 2, memory: 1536Mi}");
  CHECK(ResourceList{{"cpu", Quantity::from_value(3)}}.to_string() == "{cpu: 3}");
}

TEST_CASE("Resource names are classified as kube-scheduler does", "[resources]") {
  struct Case {
    const char* name;
    bool native;
    bool extended;
    bool hugepages;
    bool scalar;
  };
  const Case cases[] = {
      {"cpu", true, false, false, false},
      {"memory", true, false, false, false},
      {"pods", true, false, false, false},
      {"ephemeral-storage", true, false, false, false},
      {"hugepages-2Mi", true, false, true, true},
      {"hugepages-1Gi", true, false, true, true},
      {"attachable-volumes-aws-ebs", true, false, false, true},
      {"nvidia.com/gpu", false, true, false, true},
      {"amd.com/gpu", false, true, false, true},
      {"koordinator.sh/gpu-core", false, true, false, true},
      {"koordinator.sh/gpu.shared", false, true, false, true},
      {"aliyun.com/gpu-mem", false, true, false, true},
      {"example.com/Foo_Bar.1", false, true, false, true},
      {"kubernetes.io/batch-cpu", true, false, false, true},
      {"kubernetes.io/mid-memory", true, false, false, true},
      {"sub.kubernetes.io/thing", true, false, false, true},  // strings.Contains, not HasPrefix
      {"requests.example.com/gpu", false, false, false, false},
      {"Example.com/gpu", false, false, false, false},  // prefix must be lowercase
      {"example.com/", false, false, false, false},
      {"/gpu", false, false, false, false},
      {"example.com/a/b", false, false, false, false},
      {"example.com/-gpu", false, false, false, false},
      {"example.com/gpu-", false, false, false, false},
      {"example..com/gpu", false, false, false, false},
      {"example.com/g pu", false, false, false, false},
      {"example.com/0123456789012345678901234567890123456789012345678901234567890123", false, false, false, false},
      {"example.com/012345678901234567890123456789012345678901234567890123456789012", false, true, false, true},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(names::is_native_resource(c.name) == c.native);
    CHECK(names::is_extended_resource_name(c.name) == c.extended);
    CHECK(names::is_hugepages_resource_name(c.name) == c.hugepages);
    CHECK(names::is_scalar_resource_name(c.name) == c.scalar);
  }
}

TEST_CASE("Qualified names follow Kubernetes' IsQualifiedName", "[resources]") {
  struct Case {
    const char* text;
    bool valid;
  };
  const Case cases[] = {
      {"gpu", true},          {"MyName", true},        {"my.name", true},        {"123-abc", true},
      {"a", true},            {"example.com/a", true}, {"a.b-c.d/x_y", true},    {"", false},
      {"-a", false},          {"a-", false},           {"a/b/c", false},         {"/a", false},
      {"a/", false},          {"A.com/a", false},      {"a_b.com/x", false},     {".com/x", false},
      {"com./x", false},      {"a b", false},
  };
  for (const auto& c : cases) {
    INFO("\"" << c.text << "\"");
    CHECK(names::is_qualified_name(c.text) == c.valid);
  }
  std::string long_prefix(254, 'a');
  CHECK_FALSE(names::is_qualified_name(long_prefix + "/x"));
  CHECK(names::is_qualified_name(std::string(63, 'a') + "." + std::string(63, 'b') + "/x"));
}

TEST_CASE("Device resource groups list Koordinator's names", "[resources]") {
  CHECK(names::kGpuDeviceResources.front() == "nvidia.com/gpu");
  CHECK(names::kGpuShared == "koordinator.sh/gpu.shared");
  CHECK(names::kRdmaDeviceResources[0] == "koordinator.sh/rdma");
  CHECK(names::kFpgaDeviceResources[0] == "koordinator.sh/fpga");
  for (auto name : names::kGpuDeviceResources) {
    INFO(name);
    CHECK(names::is_extended_resource_name(name));
  }
}

}  // namespace
