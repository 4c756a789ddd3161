// The evaluation cache (actors/evaluation_cache.hpp) and the scheduling class
// it is keyed by (plugins/framework/scheduling_class.hpp). The property that
// matters: a partition with the cache decides exactly as one without it —
// the same feasible nodes in the same order, the same failure reasons and
// rejected nodes, and the same raw scores — through any sequence of node, object and pod events.

#include <catch2/catch.hpp>

#include <functional>
#include <optional>
#include <random>
#include <set>

#include "test/actors/default_framework.hpp"
#include "actors/evaluation_cache.hpp"
#include "actors/node_partition.hpp"
#include "model/device.hpp"
#include "plugins/deviceshare/observed_task.hpp"
#include "plugins/deviceshare/task_learner.hpp"
#include "plugins/framework/cycle_clock.hpp"
#include "plugins/framework/scheduling_class.hpp"
#include "plugins/registry.hpp"
#include "test/plugins/builders.hpp"
#include "test/plugins/reservation/reservation_test_support.hpp"

using namespace troupe;
using namespace troupe::actors;
using troupe::actors::testing::default_framework;
using namespace troupe::plugins;
using namespace troupe::plugins::testing;

namespace {

Timestamp at(const char* text) {
  auto t = parse_timestamp(text);
  REQUIRE(t.ok());
  return *t;
}

}  // namespace

TEST_CASE("pods that differ only in who they are share a scheduling class", "[evaluation-cache]") {
  const Pod base = PodBuilder("web-1").container({{"cpu", "1"}, {"memory", "1Gi"}}).pod();
  struct Case {
    const char* what;
    std::function<void(Pod&)> change;
    bool same_class;
  };
  const std::vector<Case> cases = {
      {"nothing", [](Pod&) {}, true},
      {"name and uid", [](Pod& p) { p.meta.name = "web-2"; p.meta.uid = "u-2"; }, true},
      {"generateName and resourceVersion", [](Pod& p) { p.meta.generate_name = "web-"; p.meta.resource_version = "42"; }, true},
      {"creationTimestamp", [](Pod& p) { p.meta.creation_timestamp = at("2026-01-02T03:04:05Z"); }, true},
      {"finalizers", [](Pod& p) { p.meta.finalizers = {"example.com/keep"}; }, true},
      {"status conditions and startTime",
       [](Pod& p) {
         p.status.conditions.push_back(Condition{"PodScheduled", "False", "Unschedulable", "0/3 nodes", {}, {}, {}, {}});
         p.status.start_time = at("2026-01-02T03:04:05Z");
       },
       true},
      {"spec.nodeName", [](Pod& p) { p.spec.node_name = "n1"; }, true},
      {"namespace", [](Pod& p) { p.meta.namespace_name = "other"; }, false},
      {"a label", [](Pod& p) { p.meta.labels["app"] = "web"; }, false},
      {"an annotation", [](Pod& p) { p.meta.annotations["scheduling.koordinator.sh/reservation-ignored"] = "true"; }, false},
      // No plugin reads it: an indexed Job's pods share a class.
      {"an annotation nothing reads", [](Pod& p) { p.meta.annotations["batch.kubernetes.io/job-completion-index"] = "7"; }, true},
      {"an owner reference", [](Pod& p) { p.meta.owner_references.push_back(OwnerReference{"apps/v1", "ReplicaSet", "web", "rs-uid", true, {}}); }, false},
      {"a DaemonSet owner", [](Pod& p) { p.meta.owner_references.push_back(OwnerReference{"apps/v1", "DaemonSet", "agent", "ds-uid", true, {}}); }, false},
      // Nothing reads a Job's reference: the pods of one template under many Jobs share a class.
      {"a Job owner", [](Pod& p) { p.meta.owner_references.push_back(OwnerReference{"batch/v1", "Job", "train-7", "job-uid", true, {}}); }, true},
      // Default spreading follows the first controller only: a ReplicaSet after a Job controller is not read.
      {"a Job controller before a ReplicaSet's",
       [](Pod& p) {
         p.meta.owner_references.push_back(OwnerReference{"batch/v1", "Job", "train-7", "job-uid", true, {}});
         p.meta.owner_references.push_back(OwnerReference{"apps/v1", "ReplicaSet", "web", "rs-uid", true, {}});
       },
       true},
      {"a ReplicaSet of a group default spreading does not follow",
       [](Pod& p) { p.meta.owner_references.push_back(OwnerReference{"extensions/v1beta1", "ReplicaSet", "web", "rs-uid", true, {}}); },
       true},
      {"a ReplicaSet that is not the controller", [](Pod& p) { p.meta.owner_references.push_back(OwnerReference{"apps/v1", "ReplicaSet", "web", "rs-uid", false, {}}); }, true},
      {"deletionTimestamp", [](Pod& p) { p.meta.deletion_timestamp = at("2026-01-02T03:04:05Z"); }, false},
      {"a cpu request", [](Pod& p) { p.spec.containers[0].resources.requests["cpu"] = Quantity::from_milli(1500); }, false},
      {"priority", [](Pod& p) { p.spec.priority = 1000; }, false},
      {"a toleration", [](Pod& p) { p.spec.tolerations.push_back(toleration("spot", TolerationOperator::exists, "", TaintEffect::all)); }, false},
      {"a node selector", [](Pod& p) { p.spec.node_selector["disk"] = "ssd"; }, false},
      {"the scheduler name", [](Pod& p) { p.spec.scheduler_name = "other-scheduler"; }, false},
      {"nominatedNodeName", [](Pod& p) { p.status.nominated_node_name = "n2"; }, false},
      {"status phase", [](Pod& p) { p.status.phase = "Failed"; }, false},
      {"a claim", [](Pod& p) { p.spec.volume_claims.push_back(PodVolumeClaim{"data", "data-web-1", false}); }, false},
      {"an in-tree disk",
       [](Pod& p) { p.spec.inline_disks.push_back(PodInlineDisk{PodInlineDisk::Kind::iscsi, "iqn.a", {}, false}); },
       false},
      // An ephemeral volume's claim is named after the pod: another pod, another claim.
      {"an ephemeral volume, then another name",
       [](Pod& p) {
         p.spec.volume_claims.push_back(PodVolumeClaim{"scratch", "", true});
         p.meta.name = "web-2";
       },
       false},
  };
  const auto base_class = scheduling_class_of(base);
  for (const auto& c : cases) {
    SECTION(c.what) {
      Pod changed = base;
      c.change(changed);
      const auto other = scheduling_class_of(changed);
      CHECK((*other == *base_class) == c.same_class);
    }
  }
  SECTION("an owner of the same name but another uid (deleted and created again) makes the same class") {
    Pod a = base, b = base;
    a.meta.owner_references.push_back(OwnerReference{"apps/v1", "StatefulSet", "db", "uid-1", true, {}});
    b.meta.owner_references.push_back(OwnerReference{"apps/v1", "StatefulSet", "db", "uid-2", true, {}});
    CHECK(*scheduling_class_of(a) == *scheduling_class_of(b));
  }
  SECTION("pods with the same claims share a class") {
    Pod a = base, b = base;
    a.spec.volume_claims.push_back(PodVolumeClaim{"data", "shared", false});
    b.spec.volume_claims.push_back(PodVolumeClaim{"data", "shared", false});
    b.meta.name = "web-2";
    CHECK(*scheduling_class_of(a) == *scheduling_class_of(b));
  }
}

TEST_CASE("a class's entries hold only while the node keeps its generation", "[evaluation-cache]") {
  auto fw = default_framework();
  auto cls = scheduling_class_of(PodBuilder("p").pod());
  ClassEvaluations entries(*fw, cls, 3);

  SECTION("verdicts") {
    CHECK(entries.verdict(0, 7) == nullptr);  // never evaluated
    entries.remember_verdict(0, 7, PluginStatus{});
    REQUIRE(entries.verdict(0, 7) != nullptr);
    CHECK(entries.verdict(0, 7)->ok());
    CHECK(entries.verdict(0, 8) == nullptr);  // the node changed since
    CHECK(entries.verdict(1, 7) == nullptr);  // another node

    auto cpu = PluginStatus::unschedulable("Insufficient cpu");
    cpu.plugin = "NodeResourcesFit";
    entries.remember_verdict(1, 3, cpu);
    entries.remember_verdict(2, 5, cpu);
    REQUIRE(entries.verdict(1, 3) != nullptr);
    CHECK(entries.verdict(1, 3)->code == Code::unschedulable);
    CHECK(entries.verdict(1, 3)->message() == "Insufficient cpu");
    CHECK(entries.verdict(1, 3)->plugin == "NodeResourcesFit");
    CHECK(entries.verdict(2, 5) == entries.verdict(1, 3));  // one stored copy per distinct rejection

    entries.remember_verdict(0, 9, PluginStatus::internal_error("boom"));  // errors are retried, not kept
    CHECK(entries.verdict(0, 9) == nullptr);
    CHECK(entries.verdict(0, 7) != nullptr);  // the earlier entry stands
    entries.remember_verdict(5, 1, PluginStatus{});  // beyond the table: ignored
    CHECK(entries.verdict(5, 1) == nullptr);
  }

  SECTION("scores") {
    NodeScore s;
    s.weighted_sum = 310;
    for (size_t i = 0; i < fw->normalizing_score_plugins(); ++i) s.raw[i] = static_cast<int64_t>(10 * i + 1);
    NodeScore out;
    CHECK_FALSE(entries.scores(2, 4, out));
    entries.remember_scores(2, 4, s);
    REQUIRE(entries.scores(2, 4, out));
    CHECK(out.weighted_sum == 310);
    CHECK(out.total == 310);
    CHECK(out.raw == s.raw);
    CHECK_FALSE(entries.scores(2, 5, out));
  }
}

TEST_CASE("the cache admits a class on its second pod and keeps the most recent ones", "[evaluation-cache]") {
  auto fw = default_framework();
  auto other_fw = default_framework();
  auto class_of = [](const std::string& cpu) { return scheduling_class_of(PodBuilder("p").container({{"cpu", cpu}}).pod()); };
  EvaluationCache cache(2);
  auto a = class_of("1"), b = class_of("2"), c = class_of("3");

  CHECK(cache.of(*fw, a, 4) == nullptr);  // first sighting: no table
  ClassEvaluations* table_a = cache.of(*fw, a, 4);
  REQUIRE(table_a != nullptr);
  CHECK(cache.of(*fw, class_of("1"), 4) == table_a);  // an equal class from another pod

  REQUIRE(cache.of(*fw, b, 4) == nullptr);
  REQUIRE(cache.of(*fw, b, 4) != nullptr);
  CHECK(cache.of(*fw, a, 4) == table_a);  // a is the most recent again
  REQUIRE(cache.of(*fw, c, 4) == nullptr);
  REQUIRE(cache.of(*fw, c, 4) != nullptr);  // evicts b, the least recently used
  CHECK(cache.classes() == 2);
  CHECK(cache.of(*fw, a, 4) == table_a);
  cache.clear();
  CHECK(cache.classes() == 0);
  CHECK(cache.of(*fw, a, 4) != nullptr);  // seen before: admitted at once
  ClassEvaluations* other_profile = cache.of(*other_fw, a, 4);  // another profile's framework: its own entry
  REQUIRE(other_profile != nullptr);
  CHECK(other_profile != cache.of(*fw, a, 4));
}

TEST_CASE("a class under inputs no Filter reads takes over the verdicts, not the scores", "[evaluation-cache]") {
  auto fw = default_framework();
  const Pod pod = PodBuilder("p").container({{"cpu", "1"}}).pod();
  // Learned snapshots 7 and 8 (Score reads them, Filter does not); Filter inputs 0, then 1.
  const auto v7 = scheduling_class_of(pod, 7, 0), v8 = scheduling_class_of(pod, 8, 0), v9 = scheduling_class_of(pod, 9, 1);
  EvaluationCache cache;
  REQUIRE(cache.of(*fw, v7, 2) == nullptr);
  ClassEvaluations* table = cache.of(*fw, v7, 2);
  REQUIRE(table != nullptr);
  table->remember_verdict(0, 5, PluginStatus::unschedulable("Insufficient cpu"));
  NodeScore s;
  s.weighted_sum = 42;
  table->remember_scores(1, 6, s);

  ClassEvaluations* rebased = cache.of(*fw, v8, 2);  // admitted at once: the same table, rebased
  REQUIRE(rebased == table);
  CHECK(rebased->is_for(*fw, *v8));
  CHECK_FALSE(rebased->is_for(*fw, *v7));
  REQUIRE(rebased->verdict(0, 5) != nullptr);
  CHECK(rebased->verdict(0, 5)->message() == "Insufficient cpu");
  NodeScore out;
  CHECK_FALSE(rebased->scores(1, 6, out));  // scored under snapshot 7: gone
  CHECK(cache.classes() == 1);

  CHECK(cache.of(*fw, v9, 2) == nullptr);  // other Filter inputs: a class of its own, first sighting
  auto other_fw = default_framework();
  CHECK(cache.of(*other_fw, v8, 2) == nullptr);  // another profile: never shares
}

namespace {

const std::vector<std::string> kZones = {"zone-a", "zone-b"};

template <class T>
const T& pick(std::mt19937_64& rng, const std::vector<T>& from) {
  return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
}
int64_t between(std::mt19937_64& rng, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }

std::shared_ptr<const Node> random_node(std::mt19937_64& rng, const std::string& name) {
  NodeBuilder b(name);
  b.allocatable({{"cpu", std::to_string(between(rng, 2, 16))},
                 {"memory", std::to_string(between(rng, 4, 32)) + "Gi"},
                 {"pods", std::to_string(between(rng, 3, 20))},
                 {"nvidia.com/gpu", "2"}});
  b.label("topology.kubernetes.io/zone", pick(rng, kZones));
  if (between(rng, 0, 5) == 0) b.taint("spot", "true", TaintEffect::no_schedule);
  if (between(rng, 0, 3) == 0) b.taint("spot", "true", TaintEffect::prefer_no_schedule);
  return std::make_shared<const Node>(b.node());
}

/// A random node with two cards' worth of Koordinator's GPU resources (its Device is two_gpus).
std::shared_ptr<const Node> random_gpu_node(std::mt19937_64& rng, const std::string& name) {
  Node node = *random_node(rng, name);
  for (const auto& [resource, amount] : std::vector<std::pair<std::string, std::string>>{
           {"koordinator.sh/gpu", "200"}, {"koordinator.sh/gpu-core", "200"},
           {"koordinator.sh/gpu-memory-ratio", "200"}, {"koordinator.sh/gpu-memory", "32Gi"}}) {
    auto q = Quantity::parse(amount);
    REQUIRE(q);
    node.status.allocatable[resource] = *q;
  }
  return std::make_shared<const Node>(std::move(node));
}

std::shared_ptr<const Device> two_gpus(const std::string& node) {
  std::string cards;
  for (int minor = 0; minor < 2; ++minor) {
    if (minor > 0) cards += ",";
    cards += R"({"type":"gpu","minor":)" + std::to_string(minor) +
             R"(,"health":true,"resources":{"koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"16Gi",)"
             R"("koordinator.sh/gpu-memory-ratio":"100"}})";
  }
  auto device = decode_device_json(R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Device","metadata":{"name":")" +
                                   node + R"("},"spec":{"devices":[)" + cards + "]}}");
  REQUIRE(device.ok());
  return std::make_shared<const Device>(std::move(*device));
}

/// An Available reservation on `node` that only the pod named `owner` may use.
std::shared_ptr<const Reservation> reservation_for(const std::string& node, const std::string& owner, int index) {
  reservation::testing::ReservationBuilder b("r-" + std::to_string(index), {{"cpu", "1"}, {"memory", "1Gi"}});
  ReservationOwner o;
  o.object = ObjectReference{};
  o.object->name = owner;
  o.object->namespace_name = "default";
  b.owners({o});
  b.get().status.node_name = node;
  return b.ptr();
}

/// Six shapes (eight with GPU shares), so classes repeat; every pod has its own name and uid.
std::shared_ptr<const PodInfo> pod_of_shape(int shape, int index) {
  const std::string name = "pod-" + std::to_string(index);
  PodBuilder b(name);
  b.uid("uid-" + name);
  switch (shape) {
    case 0: b.container({{"cpu", "500m"}, {"memory", "512Mi"}}); break;
    case 1: b.container({{"cpu", "2"}, {"memory", "2Gi"}}); break;
    case 2: b.container({{"cpu", "1"}}).node_selector({{"topology.kubernetes.io/zone", "zone-a"}}); break;
    case 3: b.container({{"cpu", "1"}, {"nvidia.com/gpu", "1"}}); break;
    case 4:
      b.container({{"cpu", "250m"}}).toleration(toleration("spot", TolerationOperator::exists, "", TaintEffect::all));
      break;
    case 6: b.container({{"cpu", "1"}, {"koordinator.sh/gpu", "50"}}); break;
    case 7: b.container({{"cpu", "2"}, {"memory", "1Gi"}, {"koordinator.sh/gpu", "25"}}); break;
    default:
      b.container({{"cpu", "1"}, {"memory", "1Gi"}})
          .preferred(50, NodeSelectorTerm{{requirement("topology.kubernetes.io/zone", LabelRequirement::Op::in, {"zone-b"})}, {}});
      break;
  }
  return b.info();
}

/// The Framework of one profile `troupe` with this YAML (indented four spaces) inside it.
std::shared_ptr<const Framework> framework_of_profile(const std::string& profile_yaml) {
  auto config = parse_scheduler_configuration(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
      "  - schedulerName: troupe\n" +
      profile_yaml);
  REQUIRE(config.ok());
  auto frameworks = make_frameworks(*config);
  REQUIRE(frameworks.ok());
  return std::make_shared<const Framework>(std::move(frameworks->front()));
}

struct Round {
  FilterOutcome filtered;
  std::vector<std::pair<std::string, Code>> rejections;  // the partition's, for preemption
};

Round run_round(NodePartition& part, const Framework& fw, CycleState& state, const PodInfo& pod, int64_t limit,
                const std::shared_ptr<const SchedulingClass>& cls) {
  REQUIRE(fw.run_pre_score(state, pod).ok());
  Round r;
  RoundOptions options;
  options.limit = limit;
  options.scheduling_class = cls;
  r.filtered = part.run_round(fw, state, pod, options);
  REQUIRE_FALSE(r.filtered.error);
  for (const auto& rejection : part.last_rejections()) r.rejections.emplace_back(rejection.node->name(), rejection.code);
  return r;
}

void require_same(const Round& cached, const Round& fresh) {
  REQUIRE(cached.filtered.failures.counts() == fresh.filtered.failures.counts());
  REQUIRE(cached.filtered.failures.plugins() == fresh.filtered.failures.plugins());
  REQUIRE(cached.rejections == fresh.rejections);
  REQUIRE(cached.filtered.feasible.size() == fresh.filtered.feasible.size());
  for (size_t i = 0; i < fresh.filtered.feasible.size(); ++i) {
    REQUIRE(cached.filtered.feasible[i].node_name == fresh.filtered.feasible[i].node_name);
    REQUIRE(cached.filtered.feasible[i].weighted_sum == fresh.filtered.feasible[i].weighted_sum);
    REQUIRE(cached.filtered.feasible[i].raw == fresh.filtered.feasible[i].raw);
  }
}

/// Two partitions fed the same events; pods are decided by both, with and
/// without the class, and reserved on both where the fresh path would choose.
/// With a learner, every pod is counted first and both cycles get its
/// snapshot, as the cycle actor hands it over (actors/task_learning.hpp).
class TwinPartitions {
 public:
  TwinPartitions(std::shared_ptr<const Framework> fw, uint64_t seed,
                 std::optional<deviceshare::TaskLearner> learner = std::nullopt)
      : fw_(std::move(fw)), rng_(seed), learner_(std::move(learner)) {}

  /// NodeMetrics come and go, and every pod is decided under a cycle clock
  /// that moves on by up to 1.5 s (LoadAwareScheduling reads both).
  void with_node_metrics() { node_metrics_ = true; }

  void step(int index) {
    const int64_t event = between(rng_, 0, 99);
    if (node_metrics_ && event >= 90) return report_load(node_name());
    if (event < 6 && gpus()) return upsert_gpu_node(node_name());
    if (event < 6) return upsert(random_node(rng_, node_name()));
    if (event < 8) return both([&](NodePartition& p, const std::string& n) { p.delete_node(n); }, node_name());
    if (event < 11) return both([&](NodePartition& p, const std::string& n) { p.apply_object(NodeObject(two_gpus(n))); }, node_name());
    if (event < 14) return reserve_for_someone(index);
    if (event < 22 && !placed_.empty()) return forget_one();
    decide_and_place(pod_of_shape(static_cast<int>(between(rng_, 0, gpus() ? 7 : 5)), index));
  }

  size_t placed() const { return placed_.size(); }
  /// Distinct snapshots the pods were decided under, and pods decided.
  size_t snapshots() const { return snapshots_.size(); }
  size_t decided() const { return decided_; }

 private:
  std::string node_name() { return "node-" + std::to_string(between(rng_, 0, 29)); }

  void both(const std::function<void(NodePartition&, const std::string&)>& f, const std::string& name) {
    f(cached_, name);
    f(fresh_, name);
  }
  void upsert(const std::shared_ptr<const Node>& node) {
    cached_.upsert_node(node);
    fresh_.upsert_node(node);
  }
  // With a learner every node has cards: where the distribution matters.
  bool gpus() const { return learner_.has_value(); }
  void upsert_gpu_node(const std::string& name) {
    upsert(random_gpu_node(rng_, name));
    both([&](NodePartition& p, const std::string& n) { p.apply_object(NodeObject(two_gpus(n))); }, name);
  }
  void reserve_for_someone(int index) {
    // Owned by a pod of a later index: some future pod of a shared class may use it, the others may not.
    auto r = reservation_for(node_name(), "pod-" + std::to_string(index + between(rng_, 1, 20)), index);
    cached_.apply_object(NodeObject(r));
    fresh_.apply_object(NodeObject(r));
  }
  /// koordlet's report of the node, measured up to 200 s before the clock:
  /// some are fresh, some expired (180 s), some turn expired as the clock moves.
  void report_load(const std::string& name) {
    auto metric = std::make_shared<NodeMetric>();
    metric->meta.name = name;
    metric->update_time = clock_ - std::chrono::seconds(between(rng_, 0, 200));
    metric->node_metric.emplace();
    metric->node_metric->node_usage.resources =
        resources({{"cpu", std::to_string(between(rng_, 0, 24))}, {"memory", std::to_string(between(rng_, 0, 96)) + "Gi"}});
    const NodeObject object{std::shared_ptr<const NodeMetric>(metric)};
    cached_.apply_object(object);
    fresh_.apply_object(object);
  }
  void forget_one() {
    const size_t i = static_cast<size_t>(between(rng_, 0, static_cast<int64_t>(placed_.size()) - 1));
    cached_.forget_pod(placed_[i]);
    fresh_.forget_pod(placed_[i]);
    placed_.erase(placed_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  void decide_and_place(const std::shared_ptr<const PodInfo>& pod) {
    const int64_t limit = between(rng_, 0, 2) == 0 ? 4 : std::numeric_limits<int64_t>::max();
    auto cached_state = fw_->new_cycle_state();
    auto fresh_state = fw_->new_cycle_state();
    if (learner_) share_learned(*pod, *cached_state, *fresh_state);
    if (node_metrics_) {
      clock_ += std::chrono::milliseconds(between(rng_, 0, 1500));
      auto clock = std::make_shared<const CycleClock>(CycleClock{clock_});
      cached_state->share_input(clock, clock->version());
      fresh_state->share_input(clock, clock->version());
    }
    ++decided_;
    REQUIRE(fw_->run_pre_filter(*cached_state, *pod).ok());
    REQUIRE(fw_->run_pre_filter(*fresh_state, *pod).ok());
    const Round cached = run_round(cached_, *fw_, *cached_state, *pod, limit,
                                   scheduling_class_of(*pod->pod, cached_state->inputs_version(),
                                                       cached_state->filter_inputs_version()));
    const Round fresh = run_round(fresh_, *fw_, *fresh_state, *pod, limit, nullptr);
    require_same(cached, fresh);
    const auto& scores = fresh.filtered.feasible;
    if (scores.empty()) return;
    // The highest weighted sum (normalisation is the cycle's, the same for both).
    size_t best = 0;
    for (size_t i = 1; i < scores.size(); ++i)
      if (scores[i].weighted_sum > scores[best].weighted_sum) best = i;
    const std::string& node = scores[best].node_name;
    const bool reserved_cached = cached_.reserve(*fw_, *cached_state, pod, node).ok();
    const bool reserved_fresh = fresh_.reserve(*fw_, *fresh_state, pod, node).ok();
    REQUIRE(reserved_cached == reserved_fresh);
    if (reserved_fresh) placed_.emplace_back(pod_identity(*pod));
  }

  void share_learned(const PodInfo& pod, CycleState& cached, CycleState& fresh) {
    if (auto task = deviceshare::observed_task(pod, deviceshare::TemplatePolicy{})) learner_->observe(*task);
    const auto& snapshot = learner_->snapshot();
    REQUIRE(snapshot);
    // As the cycle shares it (actors/task_learning.cpp): no Filter reads it.
    cached.share_input(snapshot, snapshot->id, /*read_by_filter=*/false);
    fresh.share_input(snapshot, snapshot->id, /*read_by_filter=*/false);
    snapshots_.insert(snapshot->id);
  }

  std::shared_ptr<const Framework> fw_;
  std::mt19937_64 rng_;
  std::optional<deviceshare::TaskLearner> learner_;
  NodePartition cached_;
  NodePartition fresh_;
  std::vector<std::string> placed_;
  std::set<uint64_t> snapshots_;
  size_t decided_ = 0;
  bool node_metrics_ = false;
  Timestamp clock_ = timestamp_now();
};

}  // namespace

TEST_CASE("a partition with the evaluation cache decides exactly as one without it", "[evaluation-cache]") {
  auto fw = default_framework();
  for (uint64_t seed : {1, 2, 3, 4, 5, 6}) {
    CAPTURE(seed);
    TwinPartitions twins(fw, seed);
    for (int i = 0; i < 600; ++i) {
      CAPTURE(i);
      twins.step(i);
    }
    CHECK(twins.placed() > 0);
  }
}

TEST_CASE("with LoadAwareScheduling the evaluation cache never reuses a verdict of another second",
          "[evaluation-cache]") {
  auto fw = framework_of_profile(
      "    plugins:\n      multiPoint:\n        enabled:\n"
      "          - name: LoadAwareScheduling\n");
  for (uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    TwinPartitions twins(fw, seed);
    twins.with_node_metrics();
    for (int i = 0; i < 600; ++i) {
      CAPTURE(i);
      twins.step(i);
    }
    CHECK(twins.placed() > 0);
  }
}

TEST_CASE("with learned task classes the evaluation cache never reuses another snapshot's scores", "[evaluation-cache]") {
  // DeviceShare scores every pod with Fragmentation under the snapshot of the
  // moment; a new snapshot must not be scored with results of the old one.
  auto fw = framework_of_profile(
      "    pluginConfig:\n"
      "      - {name: DeviceShare, args: {scoringStrategy: {type: Fragmentation}}}\n");
  for (uint64_t seed : {11, 12, 13}) {
    CAPTURE(seed);
    // Publishes on a 5 % move: snapshots change often early and stay for many pods later.
    deviceshare::TaskLearnerLimits limits;
    limits.republish_distance = 0.05;
    TwinPartitions twins(fw, seed, deviceshare::TaskLearner(0.3, limits));
    for (int i = 0; i < 600; ++i) {
      CAPTURE(i);
      twins.step(i);
    }
    CHECK(twins.placed() > 0);
    // Both cases happened: several snapshots, each deciding several pods.
    CHECK(twins.snapshots() > 3);
    CHECK(twins.decided() > 4 * twins.snapshots());
  }
}
