// Memory per node by owner (shared/docs/benchmarks.md §1: ≤ 4 KiB per node with
// full topology). Loads the synthetic benchmark cluster (sim/synthetic, the
// node shape `troupe bench` uses) into a NodePartition one kind of object at a
// time and samples the heap between the steps (heap_usage.hpp), so every byte
// the partition holds is attributed to the step that made it stay:
//
//   build/test/troupe_test_actors "[.memory]"            (2,000 nodes)
//   TROUPE_PROBE_NODES=5000 build/test/troupe_test_actors "[.memory]"
//
// The visible test runs the same probe on a small cluster and checks what must
// hold whatever the figures are: node-scoped objects are not kept whole.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "actors/node_partition.hpp"
#include "plugins/deviceshare/node_devices.hpp"
#include "plugins/gpushare/gpushare_node_state.hpp"
#include "plugins/node_numa_resource/node_cpus.hpp"
#include "plugins/reservation/node_reservations.hpp"
#include "sim/synthetic/synthetic_cluster.hpp"
#include "test/actors/heap_usage.hpp"

using namespace troupe;
using namespace troupe::actors;
using troupe::actors::testing::heap_now;
using troupe::actors::testing::HeapSample;

namespace {

struct Owner {
  std::string name;
  HeapSample kept;  // over all nodes
};

struct Breakdown {
  size_t nodes = 0;
  std::vector<Owner> owners;
  HeapSample total;  // the partition's heap once the probe dropped its own references

  double per_node(int64_t value) const { return static_cast<double>(value) / static_cast<double>(nodes); }
  const Owner& owner(const std::string& name) const {
    for (const auto& o : owners)
      if (o.name == name) return o;
    FAIL("no owner " << name);
    return owners.front();
  }
};

constexpr const char* kNodeObject = "Node object";
constexpr const char* kPartitionEntry = "partition entry: NodeInfo, extensions, map slot";
constexpr const char* kDeviceState = "DeviceShare state from the Device";
constexpr const char* kDeviceKept = "Device object kept";
constexpr const char* kNumaState = "NodeNUMAResource state from the NRT";
constexpr const char* kNrtKept = "NRT object kept";

template <class T>
std::vector<std::shared_ptr<const T>> shared_copies(const std::vector<sim::synthetic::SyntheticNode>& cluster,
                                                    T sim::synthetic::SyntheticNode::*member) {
  std::vector<std::shared_ptr<const T>> out;
  out.reserve(cluster.size());
  for (const auto& n : cluster) out.push_back(std::make_shared<const T>(n.*member));
  return out;
}

// Applies the objects, then drops the probe's references: what applying made
// stay is the state, what the release did not free is the object kept.
template <class T>
void apply_and_release(NodePartition& partition, std::vector<std::shared_ptr<const T>> objects, Breakdown& out,
                       const char* state_owner, const char* kept_owner, const HeapSample& before_objects) {
  const HeapSample objects_built = heap_now();
  for (const auto& o : objects) partition.apply_object(NodeObject(o));
  const HeapSample applied = heap_now();
  objects.clear();
  objects.shrink_to_fit();
  const HeapSample released = heap_now();
  out.owners.push_back({state_owner, applied - objects_built});
  // The objects' bytes less what releasing them freed.
  out.owners.push_back({kept_owner, (objects_built - before_objects) - (applied - released)});
}

Breakdown probe(size_t nodes) {
  sim::synthetic::ClusterSpec spec;
  spec.nodes = nodes;
  auto cluster = sim::synthetic::make_cluster(spec);
  REQUIRE(cluster.ok());
  std::vector<Device> device_values;
  for (auto& n : *cluster) device_values.push_back(*n.device);

  Breakdown out;
  out.nodes = nodes;
  auto partition = std::make_unique<NodePartition>();
  const HeapSample baseline = heap_now();

  auto node_objects = shared_copies(*cluster, &sim::synthetic::SyntheticNode::node);
  const HeapSample nodes_built = heap_now();
  for (const auto& n : node_objects) partition->upsert_node(n);
  const HeapSample upserted = heap_now();
  node_objects.clear();
  node_objects.shrink_to_fit();
  const HeapSample nodes_released = heap_now();
  out.owners.push_back({kNodeObject, (nodes_built - baseline) - (upserted - nodes_released)});
  out.owners.push_back({kPartitionEntry, upserted - nodes_built});

  HeapSample before = heap_now();
  std::vector<std::shared_ptr<const Device>> devices;
  devices.reserve(nodes);
  for (const auto& d : device_values) devices.push_back(std::make_shared<const Device>(d));
  apply_and_release(*partition, std::move(devices), out, kDeviceState, kDeviceKept, before);

  before = heap_now();
  auto topologies = shared_copies(*cluster, &sim::synthetic::SyntheticNode::topology);
  apply_and_release(*partition, std::move(topologies), out, kNumaState, kNrtKept, before);

  out.total = heap_now() - baseline;
  REQUIRE(partition->node_count() == nodes);
  return out;
}

void print(const Breakdown& b) {
  std::printf("\nlive heap per node by owner, %zu synthetic nodes (mallinfo2; allocations = live operator-new blocks)\n",
              b.nodes);
  std::printf("  %-50s %10s %12s\n", "owner", "bytes", "allocations");
  for (const auto& o : b.owners)
    std::printf("  %-50s %10.0f %12.1f\n", o.name.c_str(), b.per_node(o.kept.bytes), b.per_node(o.kept.allocations));
  std::printf("  %-50s %10.0f %12.1f\n", "total", b.per_node(b.total.bytes), b.per_node(b.total.allocations));
  std::printf("sizeof: Node %zu, NodeInfo %zu, NodeDevices %zu, DeviceSlot %zu, NodeCpus %zu, NodeReservations %zu, "
              "GpuShareNodeState %zu\n",
              sizeof(Node), sizeof(plugins::NodeInfo), sizeof(plugins::deviceshare::NodeDevices),
              sizeof(plugins::deviceshare::DeviceSlot), sizeof(plugins::numa::NodeCpus),
              sizeof(plugins::reservation::NodeReservations), sizeof(plugins::gpushare::GpuShareNodeState));
}

size_t probe_nodes() {
  const char* env = std::getenv("TROUPE_PROBE_NODES");
  return env != nullptr && std::atoi(env) > 0 ? static_cast<size_t>(std::atoi(env)) : 2000;
}

}  // namespace

TEST_CASE("memory per node by owner", "[.memory]") {
  const Breakdown b = probe(probe_nodes());
  print(b);
  int64_t sum = 0;
  for (const auto& o : b.owners) sum += o.kept.bytes;
  // Every byte the partition holds belongs to one of the steps, but for a few
  // bytes of process-wide tables (interned names, shared-value maps) that grow
  // or rehash while a step runs and are not any node's.
  CHECK(std::llabs(sum - b.total.bytes) <= 1024);
  // The figure recorded in docs/benchmarks.md ("Memory per node"), with 5 % slack for
  // allocator noise: a change that makes nodes bigger fails here. The target is 4 KiB.
  CHECK(b.per_node(b.total.bytes) <= 3'750 * 1.05);
  CHECK(b.per_node(b.total.bytes) <= 4096);
}

TEST_CASE("node-scoped objects are not kept whole by the partition") {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer replaces malloc: glibc's mallinfo2 sees none of it.
  WARN("not measured in the AddressSanitizer build");
  return;
#endif
  // Enough nodes that malloc's per-thread cache of freed chunks (a few KB that
  // mallinfo2 counts as in use) stays below the bound.
  const Breakdown b = probe(500);
  // NodeNUMAResource keeps what the NRT gives, not the NRT (its annotation alone is ~2 KB),
  // and identical nodes share it.
  CHECK(b.per_node(b.owner(kNrtKept).kept.bytes) < 64);
  CHECK(b.per_node(b.owner(kNumaState).kept.bytes) < 64);
  // DeviceShare keeps what it reads of the Device (8 KB per node here), not the object...
  CHECK(b.per_node(b.owner(kDeviceKept).kept.bytes) < 64);
  // ...and identical nodes share its layout: each keeps its slots and device ids (≈ 0.5 KB), not a copy (≈ 3 KB).
  CHECK(b.per_node(b.owner(kDeviceState).kept.bytes) < 1024);
  CHECK(b.per_node(b.owner(kNodeObject).kept.bytes) > 0);
}
