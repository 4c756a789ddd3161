// MigrationView (the migration actor's cluster view) and migration_settings
// (what a DeschedulerConfiguration turns on): table-driven, no actors.
#include <catch2/catch.hpp>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <rapidjson/document.h>

#include "actors/migration_settings.hpp"
#include "actors/migration_view.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

watch::ObjectPtr json(const std::string& text) {
  auto doc = std::make_shared<rapidjson::Document>();
  doc->Parse(text.c_str());
  REQUIRE_FALSE(doc->HasParseError());
  return doc;
}

std::string pod_json(const std::string& name, const std::string& node, const std::string& owner_uid,
                     const std::string& extra_status = "", const std::string& extra_metadata = "") {
  std::string owners = owner_uid.empty() ? "" :
      R"(,"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":")" + owner_uid +
      R"(","controller":true}])";
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default","uid":"u-)" + name + R"(","labels":{"app":"web"})" + owners + extra_metadata +
         R"(},"spec":{"nodeName":")" + node +
         R"(","containers":[{"name":"c","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]},"status":{"phase":"Running")" +
         extra_status + "}}";
}

std::string node_json(const std::string& name, const std::string& zone = "a") {
  return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name + R"(","labels":{"zone":")" + zone +
         R"("}},"status":{"allocatable":{"cpu":"4","memory":"8Gi"}}})";
}

std::string job_json(const std::string& name, const std::string& pod, const std::string& phase,
                     const std::string& rv = "5") {
  return R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob","metadata":{"name":")" + name +
         R"(","resourceVersion":")" + rv + R"("},"spec":{"podRef":{"namespace":"default","name":")" + pod +
         R"("}},"status":{"phase":")" + phase + R"("}})";
}

void add(MigrationView& view, const std::string& resource, const std::string& text) {
  auto applied = view.apply(resource, watch::EventType::added, json(text));
  INFO((applied.ok() ? std::string() : applied.message()));
  REQUIRE(applied.ok());
}

}  // namespace

TEST_CASE("migration view: node loads group pods by node and attach metrics") {
  MigrationView view;
  add(view, kViewNodes, node_json("n1", "a"));
  add(view, kViewNodes, node_json("n2", "b"));
  add(view, kViewPods, pod_json("p1", "n1", "rs"));
  add(view, kViewPods, pod_json("p2", "n1", "rs"));
  add(view, kViewPods, pod_json("p3", "n2", "rs"));
  add(view, kViewNodeMetrics, R"({"metadata":{"name":"n1"},"status":{"updateTime":"2026-01-01T00:00:00Z"}})");
  auto loads = view.node_loads();
  REQUIRE(loads.size() == 2);
  CHECK(loads[0].node->meta.name == "n1");
  CHECK(loads[0].pods.size() == 2);
  CHECK(loads[0].metric != nullptr);
  CHECK(loads[1].pods.size() == 1);
  CHECK(loads[1].metric == nullptr);

  auto selector = parse_label_selector("zone=b");
  REQUIRE(selector);
  auto selected = view.node_loads(&*selector);
  REQUIRE(selected.size() == 1);
  CHECK(selected[0].node->meta.name == "n2");

  auto rooms = view.node_rooms();
  REQUIRE(rooms.size() == 2);
  CHECK(rooms[0].requested.at("cpu").milli_value() == 2000);
}

TEST_CASE("migration view: pods move, finish and vanish") {
  MigrationView view;
  add(view, kViewNodes, node_json("n1"));
  add(view, kViewNodes, node_json("n2"));
  add(view, kViewPods, pod_json("p1", "n1", "rs"));
  SECTION("rebinding moves the pod between nodes") {
    REQUIRE(view.apply(kViewPods, watch::EventType::modified, json(pod_json("p1", "n2", "rs"))).ok());
    auto loads = view.node_loads();
    CHECK(loads[0].pods.empty());
    CHECK(loads[1].pods.size() == 1);
    // The requests summed as pods come and go follow the move.
    CHECK(loads[0].requested == nullptr);
    REQUIRE(loads[1].requested != nullptr);
    CHECK(loads[1].requested->at("cpu").milli_value() == 1000);
    auto rooms = view.node_rooms();
    CHECK(rooms[0].requested.empty());
    CHECK(rooms[1].requested.at("memory").value() == int64_t(1) << 30);
  }
  SECTION("requests are summed over the pods still there") {
    add(view, kViewPods, pod_json("p2", "n1", "rs"));
    add(view, kViewPods, pod_json("p3", "n1", "rs"));
    CHECK(view.node_rooms()[0].requested.at("cpu").milli_value() == 3000);
    REQUIRE(view.apply(kViewPods, watch::EventType::deleted, json(pod_json("p2", "n1", "rs"))).ok());
    CHECK(view.node_rooms()[0].requested.at("cpu").milli_value() == 2000);
    CHECK(view.node_loads()[0].requested->at("memory").value() == int64_t(2) << 30);
    REQUIRE(view.apply(kViewPods, watch::EventType::deleted, json(pod_json("p1", "n1", "rs"))).ok());
    REQUIRE(view.apply(kViewPods, watch::EventType::deleted, json(pod_json("p3", "n1", "rs"))).ok());
    CHECK(view.node_rooms()[0].requested.empty());
  }
  SECTION("a Succeeded pod is dropped") {
    auto done = pod_json("p1", "n1", "rs");
    done.replace(done.find("\"Running\""), 9, "\"Succeeded\"");
    REQUIRE(view.apply(kViewPods, watch::EventType::modified, json(done)).ok());
    CHECK(view.pod_count() == 0);
    CHECK(view.node_loads()[0].pods.empty());
  }
  SECTION("deletion forgets it everywhere") {
    REQUIRE(view.apply(kViewPods, watch::EventType::deleted, json(pod_json("p1", "n1", "rs"))).ok());
    CHECK(view.pod("default/p1") == nullptr);
    CHECK(view.node_loads()[0].pods.empty());
  }
}

TEST_CASE("migration view: workloads count live replicas and unavailable ones") {
  MigrationView view;
  add(view, kViewPods, pod_json("a", "n1", "rs"));
  add(view, kViewPods, pod_json("b", "n1", "rs", R"(,"conditions":[{"type":"Ready","status":"False"}])"));
  add(view, kViewPods, pod_json("c", "n2", "rs", R"(,"conditions":[{"type":"Ready","status":"True"}])"));
  add(view, kViewPods, pod_json("other", "n2", "rs-2"));
  add(view, kViewPods, pod_json("bare", "n2", ""));
  auto workload = view.workload_of(*view.pod("default/a"));
  REQUIRE(workload);
  CHECK(workload->uid == "rs");
  CHECK(workload->description == "ReplicaSet default/web");
  CHECK(workload->expected_replicas == 3);
  CHECK(workload->unavailable_pods == std::vector<std::string>{"default/b"});
  CHECK(view.workload_of(*view.pod("default/bare")) == nullptr);
  // A terminating pod no longer counts among the replicas, but is unavailable until it is gone.
  REQUIRE(view.apply(kViewPods, watch::EventType::modified,
                     json(pod_json("c", "n2", "rs", R"(,"conditions":[{"type":"Ready","status":"True"}])",
                                   R"(,"deletionTimestamp":"2026-12-07T00:00:00Z")")))
              .ok());
  workload = view.workload_of(*view.pod("default/a"));
  CHECK(workload->expected_replicas == 2);
  CHECK(workload->unavailable_pods == std::vector<std::string>{"default/b", "default/c"});
  CHECK(view.workload_of(*view.pod("default/other"))->expected_replicas == 1);
}

TEST_CASE("migration view: pod availability rules") {
  struct Case {
    const char* name;
    std::string status;
    bool unavailable;
    bool ready;
  };
  const Case cases[] = {
      {"no conditions (no kubelet)", "", false, false},
      {"Ready True", R"(,"conditions":[{"type":"Ready","status":"True"}])", false, true},
      {"Ready False", R"(,"conditions":[{"type":"Ready","status":"False"}])", true, false},
      {"Ready Unknown", R"(,"conditions":[{"type":"Ready","status":"Unknown"}])", true, false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto pod = decode_pod(json(pod_json("p", "n1", "rs", c.status)));
    REQUIRE(pod);
    CHECK(pod_unavailable(*pod) == c.unavailable);
    CHECK(pod_ready(*pod) == c.ready);
  }
  // A replacement not scheduled yet is unavailable, conditions or not.
  auto pending = decode_pod(json(pod_json("p", "", "rs")));
  REQUIRE(pending);
  CHECK(pod_unavailable(*pending));
}

TEST_CASE("migration view: PDBs refuse only when they select the pod and allow nothing") {
  struct Case {
    const char* name;
    std::string pdb;
    bool refused;
  };
  const std::string head = R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"b","namespace":")";
  const Case cases[] = {
      {"selects, 0 allowed", head + R"(default"},"spec":{"selector":{"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":0}})", true},
      {"selects, 1 allowed", head + R"(default"},"spec":{"selector":{"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":1}})", false},
      {"selects, status never written", head + R"(default"},"spec":{"selector":{"matchLabels":{"app":"web"}}}})", true},
      {"other labels", head + R"(default"},"spec":{"selector":{"matchLabels":{"app":"db"}}},"status":{"disruptionsAllowed":0}})", false},
      {"other namespace", head + R"(prod"},"spec":{"selector":{"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":0}})", false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    MigrationView view;
    add(view, kViewPods, pod_json("p", "n1", "rs"));
    add(view, kViewPdbs, c.pdb);
    auto refusal = view.pdb_refusal(*view.pod("default/p"));
    CHECK(refusal.has_value() == c.refused);
    if (refusal) CHECK(refusal->find("PodDisruptionBudget") != std::string::npos);
  }
}

TEST_CASE("migration view: active jobs and stale job events") {
  MigrationView view;
  add(view, kViewJobs, job_json("j1", "p1", "Running", "10"));
  add(view, kViewJobs, job_json("j2", "p2", "Succeeded"));
  CHECK(view.has_active_job("default/p1"));
  CHECK_FALSE(view.has_active_job("default/p2"));
  CHECK_FALSE(view.has_active_job("default/p3"));
  SECTION("an older event does not undo our own status write") {
    REQUIRE(view.apply(kViewJobs, watch::EventType::modified, json(job_json("j1", "p1", "Pending", "9"))).ok());
    CHECK(view.job("j1")->status.phase == "Running");
  }
  SECTION("a newer one replaces it") {
    REQUIRE(view.apply(kViewJobs, watch::EventType::modified, json(job_json("j1", "p1", "Succeeded", "11"))).ok());
    CHECK(view.job("j1")->status.phase == "Succeeded");
    CHECK_FALSE(view.has_active_job("default/p1"));
  }
  SECTION("a pod with two open jobs stays active until both are done or gone") {
    add(view, kViewJobs, job_json("j3", "p1", "Pending", "12"));
    REQUIRE(view.apply(kViewJobs, watch::EventType::modified, json(job_json("j1", "p1", "Failed", "13"))).ok());
    CHECK(view.has_active_job("default/p1"));
    REQUIRE(view.apply(kViewJobs, watch::EventType::deleted, json(job_json("j3", "p1", "Pending", "14"))).ok());
    CHECK_FALSE(view.has_active_job("default/p1"));
    REQUIRE(view.apply(kViewJobs, watch::EventType::deleted, json(job_json("j1", "p1", "Failed", "15"))).ok());
    CHECK(view.jobs().size() == 1);
  }
  SECTION("our own status write counts like a watch event") {
    auto done = decode_pod_migration_job(json(job_json("j1", "p1", "Aborted", "11")));
    REQUIRE(done);
    view.put_job(std::make_shared<const PodMigrationJob>(std::move(*done)));
    CHECK_FALSE(view.has_active_job("default/p1"));
    REQUIRE(view.apply(kViewJobs, watch::EventType::modified, json(job_json("j1", "p1", "Running", "10"))).ok());
    CHECK_FALSE(view.has_active_job("default/p1"));  // the stale event is ignored
  }
}

TEST_CASE("migration view: errors name the object and leave the view alone") {
  MigrationView view;
  auto bad = view.apply(kViewJobs, watch::EventType::added,
                        json(R"({"metadata":{"name":"j"},"spec":{"podRef":"not an object"}})"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message().find("podmigrationjobs j") != std::string::npos);
  CHECK(view.jobs().empty());
  auto unknown = view.apply("configmaps", watch::EventType::added, json(R"({"metadata":{"name":"x"}})"));
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.message().find("configmaps") != std::string::npos);
}

TEST_CASE("migration view: the reservation owner must be a Ready pod") {
  MigrationView view;
  add(view, kViewPods, pod_json("new", "n3", "rs", R"(,"conditions":[{"type":"Ready","status":"True"}])"));
  add(view, kViewPods, pod_json("slow", "n3", "rs", R"(,"conditions":[{"type":"Ready","status":"False"}])"));
  auto reservation = [&](const std::string& owner) {
    auto r = decode_reservation(json(
        R"({"metadata":{"name":"r"},"spec":{"template":{"spec":{"containers":[]}},"owners":[]},"status":{"currentOwners":[{"namespace":"default","name":")" +
        owner + R"("}]}})"));
    REQUIRE(r);
    return *r;
  };
  CHECK(view.reservation_owner_ready(reservation("new")));
  CHECK_FALSE(view.reservation_owner_ready(reservation("slow")));
  CHECK_FALSE(view.reservation_owner_ready(reservation("missing")));
}

TEST_CASE("migration settings from a DeschedulerConfiguration") {
  struct Case {
    const char* name;
    std::string yaml;
    std::string error;  // "" = valid
  };
  const Case cases[] = {
      {"LowNodeLoad enabled", "profiles: [{name: p, plugins: {balance: {enabled: [{name: LowNodeLoad}]}}}]", ""},
      {"unknown balance plugin", "profiles: [{name: p, plugins: {balance: {enabled: [{name: HighNodeLoad}]}}}]",
       "no balance plugin HighNodeLoad"},
      {"deschedule plugin", "profiles: [{name: p, plugins: {deschedule: {enabled: [{name: RemovePodsViolatingNodeTaints}]}}}]",
       "no deschedule plugin RemovePodsViolatingNodeTaints"},
      {"two profiles", "profiles: [{name: a}, {name: b}]", "one descheduler profile, 2 are given"},
      {"bad LowNodeLoad args",
       "profiles: [{name: p, plugins: {balance: {enabled: [{name: LowNodeLoad}]}}, pluginConfig: [{name: LowNodeLoad, args: {highThresholds: {cpu: 170}}}]}]",
       "pluginConfig LowNodeLoad"},
      {"bad MigrationController args",
       "profiles: [{name: p, pluginConfig: [{name: MigrationController, args: {defaultJobMode: Teleport}}]}]",
       "pluginConfig MigrationController"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto configuration = config::load_descheduler_configuration(c.yaml);
    REQUIRE(configuration);
    auto settings = migration_settings(&*configuration);
    if (c.error.empty()) {
      REQUIRE(settings);
      CHECK(settings->balance);
    } else {
      REQUIRE_FALSE(settings);
      CHECK_THAT(settings.message(), Catch::Contains(c.error));
    }
  }
}

TEST_CASE("migration settings: defaults, dry run and limits") {
  auto none = migration_settings(nullptr);
  REQUIRE(none);
  CHECK_FALSE(none->balance);
  CHECK_FALSE(none->dry_run);
  CHECK(none->controller.default_job_mode == "ReservationFirst");

  const char* text = R"(
deschedulingInterval: 30s
maxNoOfPodsToEvictTotal: 3
maxNoOfPodsToEvictPerNode: 1
profiles:
- name: p
  plugins: {balance: {enabled: [{name: LowNodeLoad}]}}
  pluginConfig:
  - {name: LowNodeLoad, args: {dryRun: true}}
  - {name: MigrationController, args: {defaultJobMode: EvictDirectly}}
)";
  auto configuration = config::load_descheduler_configuration(text);
  REQUIRE(configuration);
  auto settings = migration_settings(&*configuration);
  REQUIRE(settings);
  CHECK(settings->dry_run);  // LowNodeLoad's own dryRun counts
  CHECK(settings->interval == std::chrono::seconds(30));
  CHECK(settings->controller.default_job_mode == "EvictDirectly");
  auto limits = settings->cycle_limits();
  limits.record("n1", "default");
  CHECK(limits.refusal("n1", "default").has_value());
  CHECK_FALSE(limits.refusal("n2", "default").has_value());
  limits.record("n2", "default");
  limits.record("n3", "default");
  CHECK(limits.total_reached());
}

TEST_CASE("migration settings: GPUDefragmentation") {
  struct Case {
    const char* name;
    std::string yaml;
    std::string error;  // "" = valid
    bool balance, defrag, low_dry, defrag_dry;
    std::optional<int32_t> per_cycle;
  };
  const std::string enabled = "profiles: [{name: p, plugins: {balance: {enabled: [{name: GPUDefragmentation}]}}";
  const std::string both = "profiles: [{name: p, plugins: {balance: {enabled: [{name: LowNodeLoad}, {name: GPUDefragmentation}]}}";
  const Case cases[] = {
      {"alone, defaults", enabled + "}]", "", false, true, false, false, std::nullopt},
      {"with args", enabled + ", pluginConfig: [{name: GPUDefragmentation, args: {maxMigrationsPerCycle: 2}}]}]", "",
       false, true, false, false, 2},
      {"its own dryRun leaves LowNodeLoad alone",
       both + ", pluginConfig: [{name: GPUDefragmentation, args: {dryRun: true}}]}]", "", true, true, false, true,
       std::nullopt},
      {"LowNodeLoad's dryRun leaves it alone",
       both + ", pluginConfig: [{name: LowNodeLoad, args: {dryRun: true}}]}]", "", true, true, true, false, std::nullopt},
      {"the configuration's dryRun covers both", "dryRun: true\n" + both + "}]", "", true, true, true, true,
       std::nullopt},
      {"bad args", enabled + ", pluginConfig: [{name: GPUDefragmentation, args: {maxMigrationsPerNode: 0}}]}]",
       "pluginConfig GPUDefragmentation: maxMigrationsPerNode: must be at least 1", false, false, false, false,
       std::nullopt},
      {"unknown field", enabled + ", pluginConfig: [{name: GPUDefragmentation, args: {cards: 2}}]}]",
       "pluginConfig GPUDefragmentation", false, false, false, false, std::nullopt},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto configuration = config::load_descheduler_configuration(c.yaml);
    REQUIRE(configuration);
    auto settings = migration_settings(&*configuration);
    if (!c.error.empty()) {
      REQUIRE_FALSE(settings);
      CHECK_THAT(settings.message(), Catch::Contains(c.error));
      continue;
    }
    REQUIRE(settings);
    CHECK(settings->balance == c.balance);
    CHECK(settings->gpu_defrag == c.defrag);
    CHECK(settings->dry_run == c.low_dry);
    CHECK(settings->gpu_defrag_dry_run == c.defrag_dry);
    CHECK(settings->gpu_defrag_args.max_migrations_per_cycle == c.per_cycle);
  }
}

namespace {

std::string device_json(const std::string& node, int cards) {
  std::string devices;
  for (int minor = 0; minor < cards; ++minor) {
    devices += std::string(minor ? "," : "") + R"({"type":"gpu","minor":)" + std::to_string(minor) +
               R"(,"health":true,"resources":{"koordinator.sh/gpu-core":"100","koordinator.sh/gpu-memory":"16Gi","koordinator.sh/gpu-memory-ratio":"100"}})";
  }
  return R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Device","metadata":{"name":")" + node +
         R"("},"spec":{"devices":[)" + devices + "]}}";
}

std::string gpu_pod_json(const std::string& name, const std::string& node, const std::string& requests,
                         const std::string& allocated = "", const std::string& scheduler = "koord-scheduler",
                         const std::string& created = "2026-01-01T00:00:00Z") {
  std::string annotations = allocated.empty() ? "" : R"(,"annotations":{"scheduling.koordinator.sh/device-allocated":)" +
                                                         allocated + "}";
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default","creationTimestamp":")" + created + R"(","uid":"u-)" + name + R"(")" + annotations +
         R"(},"spec":{"schedulerName":")" + scheduler + R"(","nodeName":")" + node +
         R"(","containers":[{"name":"c","resources":{"requests":)" + requests + R"(}}]},"status":{"phase":"Pending"}})";
}

}  // namespace

TEST_CASE("migration view: GPU cards and pending whole-GPU pods") {
  MigrationView view;
  add(view, kViewNodes, node_json("g1"));
  add(view, kViewDevices, device_json("g1", 2));
  add(view, kViewDevices, device_json("gone", 1));  // its node is not known: nothing to place on
  const std::string share = R"("{\"gpu\":[{\"minor\":1,\"resources\":{\"koordinator.sh/gpu-core\":\"50\",\"koordinator.sh/gpu-memory\":\"8Gi\"}}]}")";
  add(view, kViewPods, gpu_pod_json("s", "g1", R"({"koordinator.sh/gpu-core":"50","koordinator.sh/gpu-memory-ratio":"50"})", share));
  add(view, kViewPods, gpu_pod_json("whole-new", "", R"({"nvidia.com/gpu":"2"})", "", "koord-scheduler", "2026-01-02T00:00:00Z"));
  add(view, kViewPods, gpu_pod_json("whole-old", "", R"({"nvidia.com/gpu":"1"})"));
  add(view, kViewPods, gpu_pod_json("shared-pending", "", R"({"koordinator.sh/gpu":"50"})"));
  add(view, kViewPods, gpu_pod_json("other-scheduler", "", R"({"nvidia.com/gpu":"1"})", "", "default-scheduler"));

  auto nodes = view.gpu_nodes();
  REQUIRE(nodes.size() == 1);
  CHECK(nodes[0].name == "g1");
  REQUIRE(nodes[0].cards.size() == 2);
  CHECK(nodes[0].cards[0].users.empty());
  REQUIRE(nodes[0].cards[1].users.size() == 1);
  CHECK(nodes[0].cards[1].users[0].pod->meta.name == "s");
  CHECK(nodes[0].cards[1].users[0].core == 50);

  auto pending = view.pending_whole_gpu_pods({"koord-scheduler"});
  REQUIRE(pending.size() == 2);
  CHECK(pending[0].pod->meta.name == "whole-old");  // oldest first
  CHECK(pending[0].whole_cards == 1);
  CHECK(pending[1].pod->meta.name == "whole-new");
  CHECK(pending[1].whole_cards == 2);

  REQUIRE(view.apply(kViewDevices, watch::EventType::deleted, json(device_json("g1", 2))).ok());
  CHECK(view.gpu_nodes().empty());
}

TEST_CASE("migration view: NodeMetrics arrive with their pods' usage summed") {
  MigrationView view;
  add(view, kViewNodes, node_json("n1"));
  add(view, kViewNodeMetrics, R"({"metadata":{"name":"n1"},"status":{"updateTime":"2026-01-01T00:00:00Z",
      "podsMetric":[{"namespace":"default","name":"a","podUsage":{"resources":{"cpu":"250m"}}},
                    {"namespace":"default","name":"b","podUsage":{"resources":{"cpu":"1","memory":"1Ki"}}}]}})");
  auto loads = view.node_loads();
  REQUIRE(loads.size() == 1);
  REQUIRE(loads[0].pod_totals != nullptr);
  const plugins::descheduler::UsageTotals expected = {{"cpu", 1250}, {"memory", 1024}};
  CHECK(*loads[0].pod_totals == expected);
}

TEST_CASE("migration settings: the example configuration loads") {
  std::ifstream file(std::string(TROUPE_SOURCE_DIR) + "/config/examples/descheduler.yaml");
  REQUIRE(file);
  std::stringstream text;
  text << file.rdbuf();
  auto configuration = config::load_descheduler_configuration(text.str());
  INFO((configuration ? std::string() : configuration.message()));
  REQUIRE(configuration);
  auto settings = migration_settings(&*configuration);
  INFO((settings ? std::string() : settings.message()));
  REQUIRE(settings);
  CHECK(settings->balance);
  CHECK(settings->gpu_defrag);
  CHECK(settings->gpu_defrag_args.max_migrations_per_cycle == 4);
}
