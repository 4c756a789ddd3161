#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include "sim/api_handler.hpp"
#include "sim/loader.hpp"
#include "sim/object_store.hpp"
#include "sim/resource_registry.hpp"
#include "sim/trace/trace_objects.hpp"

using namespace troupe;
using namespace troupe::sim;

namespace {

ApiResponse get(ApiHandler& handler, const std::string& path) {
  ApiRequest r;
  r.method = "GET";
  r.path = path;
  return handler.handle(r);
}

}  // namespace

TEST_CASE("trace objects load into the embedded API server", "[trace][objects][apiserver]") {
  const std::vector<trace::TraceNode> nodes = {{"openb-node-0001", 96000, 393216, 8, "G2"},
                                               {"openb-node-0002", 104000, 524288, 2, "T4"}};
  const std::vector<trace::TracePod> pods = {{"shared", 6000, 12288, 1, 460, {}},
                                             {"whole", 88000, 327680, 8, 1000, {}},
                                             {"typed", 4000, 8192, 1, 500, {"T4", "P100"}}};
  auto list = trace::trace_cluster_json(nodes, pods);
  REQUIRE(list.ok());
  ObjectStore store{ResourceRegistry::standard()};
  ApiHandler handler{store};
  handler.create_system_namespaces();
  auto loaded = load_text(handler, *list, "trace");
  REQUIRE(loaded.ok());
  CHECK(*loaded == 7);  // 2 nodes, 2 Devices, 3 pods (the namespace is created on the way)

  auto node = get(handler, "/api/v1/nodes/openb-node-0002");
  CHECK(node.status == 200);
  auto device = get(handler, "/apis/scheduling.koordinator.sh/v1alpha1/devices/openb-node-0001");
  REQUIRE(device.status == 200);
  rapidjson::Document d;
  d.Parse(device.body.c_str());
  CHECK(d["spec"]["devices"].Size() == 8);
  auto pod = get(handler, "/api/v1/namespaces/paib-gpu/pods/typed");
  REQUIRE(pod.status == 200);
  d.Parse(pod.body.c_str());
  CHECK(std::string(d["spec"]["containers"][0]["resources"]["requests"]["koordinator.sh/gpu"].GetString()) == "50");
  CHECK(d["spec"]["affinity"]["nodeAffinity"].IsObject());
}
