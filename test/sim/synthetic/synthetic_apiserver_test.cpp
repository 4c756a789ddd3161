#include <catch2/catch.hpp>

#include "sim/api_handler.hpp"
#include "sim/loader.hpp"
#include "sim/object_store.hpp"
#include "sim/resource_registry.hpp"
#include "sim/synthetic/pod_mix.hpp"
#include "sim/synthetic/synthetic_cluster.hpp"

using namespace troupe;
using namespace troupe::sim;

TEST_CASE("synthetic objects load into the embedded API server", "[synthetic][apiserver]") {
  synthetic::ClusterSpec spec;
  spec.nodes = 4;
  spec.gpu_node_fraction = 0.5;
  auto cluster = synthetic::make_cluster(spec);
  REQUIRE(cluster.ok());
  synthetic::PodMixOptions options;
  options.count = 40;
  auto pods = synthetic::make_pods(synthetic::PodMix::mixed, options);
  REQUIRE(pods.ok());
  std::string items;
  auto add = [&items](const std::string& json) { items += (items.empty() ? "" : ",") + json; };
  for (const auto& n : *cluster) {
    add(encode(n.node));
    add(encode(n.topology));
    if (n.device) add(encode(*n.device));
  }
  for (const auto& p : *pods) add(encode(p));
  ObjectStore store{ResourceRegistry::standard()};
  ApiHandler handler{store};
  handler.create_system_namespaces();
  auto loaded = load_text(handler, R"({"apiVersion":"v1","kind":"List","items":[)" + items + "]}", "synthetic");
  REQUIRE(loaded.ok());
  CHECK(*loaded == 4 + 4 + 2 + 40);
}
