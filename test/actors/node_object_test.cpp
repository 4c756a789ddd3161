// Node-scoped objects through one routed mechanism: where the informer sends
// a Reservation event (reservation_move), and what a partition holds for it —
// the reserve pod in the node's sums, the NodeReservations entry, and the
// room it gives back to its owners (NodeResourcesFit through ReservedCapacity).

#include <catch2/catch.hpp>

#include "test/actors/default_framework.hpp"
#include "test/actors/partition_rounds.hpp"
#include "actors/node_partition.hpp"
#include "actors/reservation_routing.hpp"
#include "plugins/load_aware/node_load_state.hpp"
#include "plugins/registry.hpp"
#include "plugins/reservation/node_reservations.hpp"
#include "plugins/reservation/reservation_names.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/deviceshare/device_test_support.hpp"

using namespace troupe;
using namespace troupe::actors;
using troupe::actors::testing::default_framework;
using troupe::actors::testing::feasible_names;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {

Reservation make_reservation(const std::string& name, const std::string& node_name, const std::string& phase,
                        const std::string& cpu = "6") {
  Reservation r;
  r.meta.name = name;
  r.meta.uid = "ruid-" + name;
  r.spec.pod_template = PodTemplate{};
  Container c;
  c.name = "main";
  c.resources.requests = resources({{"cpu", cpu}});
  r.spec.pod_template->spec.containers.push_back(c);
  ReservationOwner web;
  web.label_selector = *parse_label_selector("app=web");
  r.spec.owners.push_back(web);
  r.spec.allocate_once = false;
  r.status.phase = phase;
  r.status.node_name = node_name;
  r.status.allocatable = resources({{"cpu", cpu}});
  return r;
}

NodeObject object(const Reservation& r) { return NodeObject(std::make_shared<const Reservation>(r)); }

std::shared_ptr<const Node> node(const std::string& name) {
  return std::make_shared<const Node>(
      NodeBuilder(name).allocatable({{"cpu", "8"}, {"memory", "8Gi"}, {"pods", "110"}}).node());
}

std::shared_ptr<const PodInfo> pod(const std::string& name, const std::string& cpu, bool web) {
  Pod p = PodBuilder(name).container({{"cpu", cpu}}).pod();
  if (web) p.meta.labels["app"] = "web";
  return PodInfo::make(std::move(p));
}

/// Filter of one pod over the partition: the feasible nodes.
std::vector<std::string> feasible(NodePartition& part, const Framework& fw, const PodInfo& p) {
  auto state = fw.new_cycle_state();
  REQUIRE(fw.run_pre_filter(*state, p).ok());
  return feasible_names(part, fw, *state, p, 100);
}

int64_t requested_cpu(const NodePartition& part, const std::string& name) {
  const NodeInfo* info = part.find(name);
  return info == nullptr ? -1 : info->requested().milli_cpu;
}

size_t held_count(const NodePartition& part, const std::string& name) {
  const NodeInfo* info = part.find(name);
  if (info == nullptr) return 0;
  return info->extension<reservation::NodeReservations>(NodeExtensionSlot::kReservations)->entries().size();
}

}  // namespace

TEST_CASE("reservation_move: who holds a Reservation after each event", "[reservations]") {
  struct Case {
    const char* what;
    std::string held_on;
    std::optional<Reservation> next;  // nullopt: deleted
    std::string leave;
    std::string hold;
  };
  const std::vector<Case> cases = {
      {"becomes Available", "", make_reservation("r", "n1", "Available"), "", "n1"},
      {"updated in place", "n1", make_reservation("r", "n1", "Available"), "", "n1"},
      {"moved node", "n1", make_reservation("r", "n2", "Available"), "n1", "n2"},
      {"succeeded", "n1", make_reservation("r", "n1", "Succeeded"), "n1", ""},
      {"failed", "n1", make_reservation("r", "n1", "Failed"), "n1", ""},
      {"deleted", "n1", std::nullopt, "n1", ""},
      {"deleted, never held", "", std::nullopt, "", ""},
      {"pending, not placed", "", make_reservation("r", "", ""), "", ""},
      {"Available without a node", "", make_reservation("r", "", "Available"), "", ""},
      {"waiting is not Available", "", make_reservation("r", "n1", "Waiting"), "", ""},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const ReservationMove move = reservation_move(c.held_on, c.next ? &*c.next : nullptr);
    CHECK(move.leave == c.leave);
    CHECK(move.hold == c.hold);
  }
}

TEST_CASE("ref_of names each kind's node and key", "[reservations]") {
  auto device = std::make_shared<Device>();
  device->meta.name = "g";
  auto nrt = std::make_shared<NodeResourceTopology>();
  nrt->meta.name = "t";
  struct Case {
    NodeObject object;
    NodeObjectKind kind;
    std::string node_name;
    std::string key;
  };
  const std::vector<Case> cases = {
      {NodeObject(std::shared_ptr<const Device>(device)), NodeObjectKind::device, "g", "g"},
      {NodeObject(std::shared_ptr<const NodeResourceTopology>(nrt)), NodeObjectKind::topology, "t", "t"},
      {object(make_reservation("r", "n1", "Available")), NodeObjectKind::reservation, "n1", "ruid-r"},
  };
  for (const auto& c : cases) {
    const NodeObjectRef ref = ref_of(c.object);
    CHECK(ref.kind == c.kind);
    CHECK(ref.node_name == c.node_name);
    CHECK(ref.key == c.key);
  }
}

TEST_CASE("a partition holds an Available reservation as its reserve pod, for its owners only", "[reservations]") {
  auto fw = default_framework();
  NodePartition part;
  part.apply_object(object(make_reservation("r", "n", "Available")));  // before the node
  CHECK(requested_cpu(part, "n") == 6000);
  CHECK(held_count(part, "n") == 1);
  part.upsert_node(node("n"));

  // 8 cpus, 6 held: a stranger needing 4 does not fit, an owner does (the hold is its own).
  CHECK(feasible(part, *fw, *pod("stranger", "4", false)).empty());
  CHECK(feasible(part, *fw, *pod("small", "2", false)) == std::vector<std::string>{"n"});
  auto owner = pod("owner", "4", true);
  CHECK(feasible(part, *fw, *owner) == std::vector<std::string>{"n"});
  CHECK(feasible(part, *fw, *pod("big-owner", "9", true)).empty());

  // The owner reserves: the reservation records it, the node counts hold + owner.
  auto state = fw->new_cycle_state();
  REQUIRE(fw->run_pre_filter(*state, *owner).ok());
  REQUIRE(part.reserve(*fw, *state, owner, "n").ok());
  CHECK(requested_cpu(part, "n") == 10000);
  CHECK(part.reservation_summary("n", false).find("\"owners\":[\"uid-default-owner\"]") != std::string::npos);
  // Koordinator's nodeReservations shape: allocateOnce false is omitted, the owner pod is a PodRequirement.
  CHECK(part.reservation_summary("n", true) ==
        R"({"items":[{"name":"r","uid":"ruid-r","kind":"Reservation","available":true,"allocatable":{"cpu":"6"},)"
        R"("allocated":{"cpu":"4"},"owners":[{"labelSelector":{"matchLabels":{"app":"web"}}}],)"
        R"("assignedPods":[{"Namespace":"default","Name":"owner","UID":"uid-default-owner","Requests":{"cpu":"4"},)"
        R"("Ports":null}]}]})");
  // A second owner gets the 2 cpus left in the reservation plus the node's free 2 (no Restricted policy).
  CHECK(feasible(part, *fw, *pod("owner2", "4", true)) == std::vector<std::string>{"n"});
  CHECK(feasible(part, *fw, *pod("owner3", "5", true)).empty());
  // A stranger sees the hold trimmed to what the owner left (2): 8 − 4 − 2 = 2 free.
  CHECK(feasible(part, *fw, *pod("stranger2", "2", false)) == std::vector<std::string>{"n"});
  CHECK(feasible(part, *fw, *pod("stranger3", "3", false)).empty());

  // Succeeded: the hold goes, the owner stays.
  part.apply_object(object(make_reservation("r", "n", "Succeeded")));
  CHECK(requested_cpu(part, "n") == 4000);
  CHECK(held_count(part, "n") == 0);
  CHECK(part.reservation_summary("n", false).find("\"reservations\":[]") != std::string::npos);
  CHECK(part.reservation_summary("n", true) == "{}");  // Go's omitempty drops an empty items
}

TEST_CASE("a reservation that moves node, changes size or is deleted leaves nothing behind", "[reservations]") {
  NodePartition part;
  part.upsert_node(node("a"));
  part.upsert_node(node("b"));
  part.apply_object(object(make_reservation("r", "a", "Available", "2")));
  part.apply_object(object(make_reservation("r", "a", "Available", "3")));  // resized: re-accounted, not added
  CHECK(requested_cpu(part, "a") == 3000);
  CHECK(part.find("a")->pod_count() == 1);
  part.apply_object(object(make_reservation("r", "b", "Available", "3")));
  CHECK(requested_cpu(part, "a") == 0);
  CHECK(held_count(part, "a") == 0);
  CHECK(requested_cpu(part, "b") == 3000);
  CHECK(held_count(part, "b") == 1);
  part.delete_object(NodeObjectRef{NodeObjectKind::reservation, "", "ruid-r"});
  CHECK(requested_cpu(part, "b") == 0);
  CHECK(held_count(part, "b") == 0);
  CHECK(part.pod_count() == 0);
  // A reservation on a node that never came leaves no entry once deleted.
  part.apply_object(object(make_reservation("q", "ghost", "Available")));
  CHECK(part.find("ghost") != nullptr);
  part.delete_object(NodeObjectRef{NodeObjectKind::reservation, "", "ruid-q"});
  CHECK(part.find("ghost") == nullptr);
  CHECK(part.reservation_summary("ghost", false).empty());
  CHECK(part.reservation_summary("ghost", true).empty());
}

TEST_CASE("owners take the reservation's reserved GPUs, strangers never do", "[reservations][devices]") {
  auto fw = default_framework();
  NodePartition part;
  part.upsert_node(std::make_shared<const Node>(
      NodeBuilder("g").allocatable({{"cpu", "32"}, {"memory", "64Gi"}, {"pods", "110"}, {"nvidia.com/gpu", "8"}}).node()));
  auto device = std::make_shared<Device>(*deviceshare::testing::device(deviceshare::testing::canonical_infos()));
  device->meta.name = "g";
  part.apply_object(NodeObject(std::shared_ptr<const Device>(device)));
  Reservation r = make_reservation("train", "g", "Available", "4");
  r.status.allocatable = resources({{"cpu", "4"}, {"nvidia.com/gpu", "2"}});
  std::string full = R"({"koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"80Gi","koordinator.sh/gpu-memory-ratio":"100"})";
  r.meta.annotations["scheduling.koordinator.sh/device-allocated"] =
      R"({"gpu":[{"minor":2,"resources":)" + full + R"(},{"minor":3,"resources":)" + full + "}]}";
  part.apply_object(object(r));

  auto gpu_pod = [](const std::string& name, const std::string& gpus, bool web) {
    Pod p = PodBuilder(name).container({{"cpu", "1"}, {"nvidia.com/gpu", gpus}}).pod();
    if (web) p.meta.labels["app"] = "web";
    return PodInfo::make(std::move(p));
  };
  auto place = [&](const std::shared_ptr<const PodInfo>& p) -> std::string {
    auto state = fw->new_cycle_state();
    REQUIRE(fw->run_pre_filter(*state, *p).ok());
    if (feasible_names(part, *fw, *state, *p, 100).empty()) return "unschedulable";
    auto status = part.reserve(*fw, *state, p, "g");
    if (!status.ok()) return "reserve failed: " + status.message();
    const auto* devices = part.find("g")->extension<deviceshare::NodeDevices>(NodeExtensionSlot::kDevices);
    std::string minors;
    for (const auto& d : devices->pods().at(std::string(pod_identity(*p))).devices.by_type[0])
      minors += (minors.empty() ? "" : ",") + std::to_string(d.minor);
    return minors;
  };
  CHECK(place(gpu_pod("stranger", "6", false)) == "0,1,4,5,6,7");
  CHECK(place(gpu_pod("stranger-2", "1", false)) == "unschedulable");
  CHECK(place(gpu_pod("owner-1", "1", true)) == "2");
}

TEST_CASE("a NodeMetric brings the node's load state and takes it away", "[node_metric]") {
  using plugins::load_aware::NodeLoadState;
  NodePartition part;
  auto load_of = [&part](const std::string& name) -> const NodeLoadState* {
    const NodeInfo* info = part.find(name);
    return info == nullptr ? nullptr : info->extension<NodeLoadState>(NodeExtensionSlot::kLoad);
  };
  auto metric = [](const std::string& name, const std::string& cpu) {
    NodeMetric m;
    m.meta.name = name;
    m.update_time = timestamp_now();
    m.node_metric.emplace();
    m.node_metric->node_usage.resources = resources({{"cpu", cpu}});
    return NodeObject(std::make_shared<const NodeMetric>(std::move(m)));
  };
  part.upsert_node(node("n1"));
  Pod placed = PodBuilder("before").container({{"cpu", "1"}}).node_name("n1").pod();
  part.account_pod(PodInfo::make(placed));
  CHECK(load_of("n1") == nullptr);  // no NodeMetric, no state

  part.apply_object(metric("n1", "2"));
  REQUIRE(load_of("n1") != nullptr);
  CHECK(load_of("n1")->pods().size() == 1);  // the pod already there is taken in
  Pod later = PodBuilder("after").container({{"cpu", "1"}}).node_name("n1").pod();
  part.account_pod(PodInfo::make(later));
  CHECK(load_of("n1")->pods().size() == 2);
  part.apply_object(metric("n1", "3"));  // a new report keeps the pods
  CHECK(load_of("n1")->pods().size() == 2);
  CHECK(load_of("n1")->metric()->node_metric->node_usage.resources.find("cpu")->second.milli_value() == 3000);
  part.forget_pod("uid-default-after");
  CHECK(load_of("n1")->pods().size() == 1);

  // Deleted: no metric, the pods stay recorded for the next report (as Koordinator's cache).
  part.delete_object(NodeObjectRef{NodeObjectKind::node_metric, "n1", "n1"});
  REQUIRE(load_of("n1") != nullptr);
  CHECK(load_of("n1")->metric() == nullptr);
  CHECK(load_of("n1")->pods().size() == 1);
  part.apply_object(metric("n1", "1"));
  CHECK(load_of("n1")->pods().size() == 1);

  // A NodeMetric before its node: the entry holds it, and the node finds it.
  part.apply_object(metric("n2", "1"));
  REQUIRE(load_of("n2") != nullptr);
  part.upsert_node(node("n2"));
  CHECK(load_of("n2")->metric() != nullptr);
  part.delete_node("n2");
  part.delete_object(NodeObjectRef{NodeObjectKind::node_metric, "n2", "n2"});
  CHECK(part.find("n2") == nullptr);  // nothing left: the entry goes
}
