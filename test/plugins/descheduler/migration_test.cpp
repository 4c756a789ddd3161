#include "test/plugins/descheduler/helpers.hpp"

#include "plugins/descheduler/arbiter.hpp"
#include "plugins/descheduler/migration_job.hpp"
#include "plugins/descheduler/rate_limiters.hpp"
#include "plugins/descheduler/workload_limits.hpp"

namespace troupe::plugins::descheduler {
namespace {

using testing::at;
using testing::TestPod;

TEST_CASE("workload limits: maxMigrating / maxUnavailable", "[descheduler][migration]") {
  struct Case {
    int32_t replicas;
    std::optional<IntOrString> limit;
    int32_t expected;
  };
  const Case cases[] = {
      {1, std::nullopt, 1},   {3, std::nullopt, 1},   {4, std::nullopt, 2},  {10, std::nullopt, 2},
      {11, std::nullopt, 1},  {25, std::nullopt, 2},  {100, std::nullopt, 10},
      {10, IntOrString::from_int(3), 3},              {2, IntOrString::from_int(5), 2},
      {10, IntOrString::from_string("50%"), 5},       {10, IntOrString::from_string("15%"), 1},
      {3, IntOrString::from_string("10%"), 1},        // rounds to 0 -> the default for 3 replicas
      {10, IntOrString::from_int(0), 2},              {0, std::nullopt, 0},
  };
  for (const Case& c : cases) {
    INFO(c.replicas << " " << (c.limit ? c.limit->to_string() : "unset"));
    auto value = max_unavailable(c.replicas, c.limit);
    REQUIRE(value.ok());
    CHECK(*value == c.expected);
    CHECK(*max_migrating(c.replicas, c.limit) == c.expected);
  }
  CHECK_FALSE(max_unavailable(10, IntOrString::from_string("ten")).ok());
}

TEST_CASE("token bucket: burst then the rate", "[descheduler][migration]") {
  TokenBucket bucket(2, 3);  // 2 per second, burst 3
  const Timestamp t0 = at(100);
  CHECK(bucket.try_take(t0));
  CHECK(bucket.try_take(t0));
  CHECK(bucket.try_take(t0));
  CHECK_FALSE(bucket.try_take(t0));
  CHECK_FALSE(bucket.try_take(t0 + std::chrono::milliseconds(400)));
  CHECK(bucket.try_take(t0 + std::chrono::milliseconds(550)));
  CHECK_FALSE(bucket.available(t0 + std::chrono::milliseconds(600)));
  CHECK(bucket.available(t0 + std::chrono::seconds(10)));
  for (int i = 0; i < 3; ++i) CHECK(bucket.try_take(t0 + std::chrono::seconds(10)));  // refills to burst, not beyond
  CHECK_FALSE(bucket.try_take(t0 + std::chrono::seconds(10)));
  TokenBucket unlimited(0, 1);
  for (int i = 0; i < 100; ++i) CHECK(unlimited.try_take(t0));
}

TEST_CASE("object limiter: a sliding window per workload", "[descheduler][migration]") {
  WorkloadWindow window;
  const auto five_min = std::chrono::minutes(5);
  // max 2 per 5 minutes, burst 2: spacing 150s.
  CHECK(window.refusal("w", 2, 2, five_min, at(0)).empty());
  window.record("w", at(0));
  CHECK(window.refusal("w", 2, 2, five_min, at(1)).empty());
  window.record("w", at(1));
  CHECK_THAT(window.refusal("w", 2, 2, five_min, at(2)), Catch::Contains("within the objectLimiters window"));
  CHECK(window.refusal("other", 2, 2, five_min, at(2)).empty());
  CHECK_FALSE(window.refusal("w", 2, 2, five_min, at(299)).empty());  // both starts inside the window
  CHECK(window.refusal("w", 2, 2, five_min, at(300)).empty());        // the one at t=0 has left it
  // burst 1: the second start must wait duration / max.
  WorkloadWindow spaced;
  spaced.record("w", at(0));
  CHECK_THAT(spaced.refusal("w", 2, 1, five_min, at(100)), Catch::Contains("burst"));
  CHECK(spaced.refusal("w", 2, 1, five_min, at(151)).empty());
  // max 0 or no duration: no limit.
  CHECK(spaced.refusal("w", 0, 1, five_min, at(1)).empty());
  CHECK(spaced.refusal("w", 2, 1, std::chrono::nanoseconds(0), at(1)).empty());
  spaced.prune(at(301), five_min);
  CHECK(spaced.tracked() == 0);
}

struct Arbitration {
  MigrationControllerArgs args;
  std::vector<MigratingPod> in_flight;
  std::shared_ptr<Workload> workload = std::make_shared<Workload>(Workload{"uid-rs", "ReplicaSet default/rs", 10, {}});

  MigrationCandidate candidate(const std::string& name, const std::string& node = "n1", bool owned = true) {
    TestPod pod(name);
    pod.node(node);
    return MigrationCandidate{"job-" + name, "", pod.ptr(), owned ? workload : nullptr};
  }
  std::vector<ArbitrationDecision> run(std::vector<MigrationCandidate> candidates, ArbiterState* state = nullptr) {
    ArbiterState local(args);
    ArbitrationInput input{std::move(candidates), in_flight, at(1000), {}};
    return arbitrate(input, args, state ? *state : local);
  }
};

std::vector<Verdict> verdicts(const std::vector<ArbitrationDecision>& decisions) {
  std::vector<Verdict> out;
  for (const auto& d : decisions) out.push_back(d.verdict);
  return out;
}

TEST_CASE("arbiter: per-node, per-namespace and global limits", "[descheduler][migration]") {
  Arbitration a;
  a.args.evict_qps = 0;  // no rate limit here
  a.args.object_limiters.clear();
  a.workload->expected_replicas = 100;
  // Default maxMigratingPerNode 2: the third on n1 waits, n2 is free.
  auto d = a.run({a.candidate("a"), a.candidate("b"), a.candidate("c"), a.candidate("d", "n2")});
  CHECK(verdicts(d) == std::vector<Verdict>{Verdict::admit, Verdict::admit, Verdict::wait, Verdict::admit});
  CHECK_THAT(d[2].message, Catch::Contains("reaching maxMigratingPerNode 2"));
  a.args.max_migrating_per_node = 0;  // 0 = unlimited
  a.args.max_migrating_per_namespace = 1;
  d = a.run({a.candidate("a"), a.candidate("b", "n2")});
  CHECK(verdicts(d) == std::vector<Verdict>{Verdict::admit, Verdict::wait});
  CHECK_THAT(d[1].message, Catch::Contains("maxMigratingPerNamespace 1"));
  a.args.max_migrating_per_namespace.reset();
  a.args.max_migrating_globally = 1;
  a.in_flight = {{"other/x", "other", "n9", ""}};
  d = a.run({a.candidate("a")});
  CHECK(d[0].verdict == Verdict::wait);
  CHECK_THAT(d[0].message, Catch::Contains("maxMigratingGlobally 1"));
  a.args.evictor.skipped_gates = {"MaxMigratingGlobally"};
  CHECK(a.run({a.candidate("a")})[0].verdict == Verdict::admit);
  // The pod's own in-flight record does not count against it.
  a.args.evictor.skipped_gates.clear();
  a.in_flight = {{"default/a", "default", "n1", "uid-rs"}};
  CHECK(a.run({a.candidate("a")})[0].verdict == Verdict::admit);
}

TEST_CASE("arbiter: workload limits and expected replicas", "[descheduler][migration]") {
  struct Case {
    const char* name;
    int32_t replicas;
    std::vector<std::string> unavailable;
    size_t migrating;  // in-flight pods of the workload
    bool skip_check;
    std::optional<IntOrString> max_unavailable;
    Verdict expected;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"room", 10, {}, 0, false, std::nullopt, Verdict::admit, ""},
      {"one replica", 1, {}, 0, false, std::nullopt, Verdict::reject, "the replicas equal 1"},
      {"one replica, check skipped", 1, {}, 0, true, std::nullopt, Verdict::admit, ""},
      {"replicas equal maxUnavailable", 5, {}, 0, false, IntOrString::from_int(5), Verdict::reject, "equals the replicas(5)"},
      {"bad percentage", 5, {}, 0, false, IntOrString::from_string("x"), Verdict::reject, "maxUnavailablePerWorkload"},
      {"max migrating reached", 10, {}, 2, false, std::nullopt, Verdict::wait, "maxMigratingPerWorkload 2"},
      {"unavailable reached", 10, {"default/u1", "default/u2"}, 0, false, std::nullopt, Verdict::wait,
       "maxUnavailablePerWorkload 2"},
      {"unavailable plus migrating", 10, {"default/u1"}, 1, false, std::nullopt, Verdict::wait, "2 unavailable pod(s)"},
      {"same pod counted once", 10, {"default/m0"}, 1, false, std::nullopt, Verdict::admit, ""},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Arbitration a;
    a.args.evict_qps = 0;
    a.args.object_limiters.clear();
    a.args.max_migrating_per_node = 0;
    a.args.skip_check_expected_replicas = c.skip_check;
    a.args.max_unavailable_per_workload = c.max_unavailable;
    a.workload->expected_replicas = c.replicas;
    a.workload->unavailable_pods = c.unavailable;
    for (size_t i = 0; i < c.migrating; ++i) {
      a.in_flight.push_back({"default/m" + std::to_string(i), "default", "n5", "uid-rs"});
    }
    const auto d = a.run({a.candidate("p")});
    CHECK(d[0].verdict == c.expected);
    CHECK_THAT(d[0].message, Catch::Contains(c.message));
  }
}

TEST_CASE("arbiter: non-retryable rules, evict annotation, rate limits", "[descheduler][migration]") {
  Arbitration a;
  a.args.evict_qps = 0;
  a.args.object_limiters.clear();
  auto daemon = a.candidate("d");
  auto pod = std::make_shared<Pod>(*daemon.pod);
  pod->meta.owner_references[0].kind = "DaemonSet";
  daemon.pod = pod;
  auto d = a.run({daemon});
  CHECK(d[0].verdict == Verdict::reject);
  CHECK(d[0].message == "pod is a DaemonSet pod");
  auto other_scheduler = a.candidate("o");
  auto op = std::make_shared<Pod>(*other_scheduler.pod);
  op->spec.scheduler_name = "default-scheduler";
  other_scheduler.pod = op;
  CHECK(a.run({other_scheduler})[0].verdict == Verdict::reject);
  other_scheduler.mode = kModeEvictDirectly;
  CHECK(a.run({other_scheduler})[0].verdict == Verdict::admit);
  CHECK(a.run({MigrationCandidate{"gone", "", nullptr, nullptr}})[0].message == "pod not found");
  // The evict annotation skips the limits, not the rate limit.
  a.args.max_migrating_per_node = 1;
  a.in_flight = {{"default/x", "default", "n1", ""}};
  auto forced = a.candidate("f");
  auto fp = std::make_shared<Pod>(*forced.pod);
  fp->meta.annotations[kEvictAnnotation] = "true";
  forced.pod = fp;
  CHECK(a.run({a.candidate("plain"), forced})[1].verdict == Verdict::admit);
  a.args.evict_qps = 1;
  a.args.evict_burst = 1;
  a.in_flight.clear();
  ArbiterState state(a.args);
  d = a.run({a.candidate("a", "n1"), a.candidate("b", "n2")}, &state);
  CHECK(verdicts(d) == std::vector<Verdict>{Verdict::admit, Verdict::wait});
  CHECK_THAT(d[1].message, Catch::Contains("evictQPS"));
}

TEST_CASE("arbiter: the workload object limiter spans rounds", "[descheduler][migration]") {
  Arbitration a;
  a.args.evict_qps = 0;
  a.args.max_migrating_per_node = 0;
  a.workload->expected_replicas = 100;  // maxMigrating 10 per 5 minutes, burst 1: one per 30s
  ArbiterState state(a.args);
  auto d = a.run({a.candidate("a"), a.candidate("b", "n2")}, &state);
  CHECK(verdicts(d) == std::vector<Verdict>{Verdict::admit, Verdict::wait});
  CHECK_THAT(d[1].message, Catch::Contains("migrates too often"));
  a.in_flight.clear();
  d = a.run({a.candidate("b", "n2")}, &state);  // same instant: still too soon
  CHECK(d[0].verdict == Verdict::wait);
  a.args.evictor.skipped_gates = {"ObjectLimiter"};
  CHECK(a.run({a.candidate("b", "n2")}, &state)[0].verdict == Verdict::admit);
}

// ---- PodMigrationJob state machine ----

struct JobFixture {
  MigrationControllerArgs args;
  PodMigrationJob job;
  JobObservation seen;
  JobFixture() {
    job.meta.name = "job";
    job.meta.uid = "job-uid";
    job.meta.creation_timestamp = at(1000);
    job.spec.pod_ref.namespace_name = "default";
    job.spec.pod_ref.name = "p";
    seen.now = at(1010);
    seen.pod = TestPod("p").node("n1").ptr();
    seen.passed_arbitration = true;
  }
  JobStep step() {
    JobStep s = step_migration_job(job, seen, args);
    job.status = s.status;
    return s;
  }
  std::shared_ptr<Reservation> reservation(const std::string& phase, const std::string& node) {
    auto r = std::make_shared<Reservation>();
    r->meta.name = "job-uid";
    r->status.phase = phase;
    r->status.node_name = node;
    seen.reservation = r;
    return r;
  }
};

std::vector<JobActionKind> kinds(const JobStep& s) {
  std::vector<JobActionKind> out;
  for (const auto& a : s.actions) out.push_back(a.kind);
  return out;
}

const Condition* condition(const PodMigrationJobStatus& status, const std::string& type) {
  for (const auto& c : status.conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

TEST_CASE("migration job: ReservationFirst happy path", "[descheduler][migration]") {
  JobFixture f;
  f.seen.passed_arbitration = false;
  auto s = f.step();
  CHECK(s.status.phase == "Pending");
  CHECK(s.status.message == "waiting for arbitration");
  CHECK(s.actions.empty());
  f.seen.passed_arbitration = true;
  s = f.step();
  CHECK(s.status.phase == "Running");
  REQUIRE(kinds(s) == std::vector<JobActionKind>{JobActionKind::create_reservation});
  const Reservation& created = *s.actions[0].reservation;
  CHECK(created.meta.name == "job-uid");
  CHECK(created.meta.labels.at("app.kubernetes.io/created-by") == "koord-descheduler");
  CHECK(created.meta.labels.count("scheduling.koordinator.sh/reservation-order"));
  CHECK(created.spec.pod_template->spec.node_name.empty());
  CHECK(created.spec.allocate_once);
  CHECK(*created.spec.ttl == std::chrono::minutes(5));
  // Owned by the pod's controller, so that its replacement (another pod of it) matches.
  REQUIRE(created.spec.owners.size() == 1);
  REQUIRE(created.spec.owners[0].controller);
  CHECK_FALSE(created.spec.owners[0].object);
  CHECK(created.spec.owners[0].controller->kind == "ReplicaSet");
  CHECK(created.spec.owners[0].controller->uid == "uid-rs");
  CHECK(created.spec.owners[0].controller->namespace_name == "default");
  const auto& terms = created.spec.pod_template->spec.affinity->node_affinity->required->terms;
  REQUIRE(terms.size() == 1);
  CHECK(terms[0].match_fields[0].values == std::vector<std::string>{"n1"});
  CHECK(condition(s.status, "ReservationCreated")->is_true());
  f.reservation("Pending", "");
  s = f.step();
  CHECK(s.actions.empty());
  CHECK(condition(s.status, "ReservationScheduled")->reason == "Pending");
  f.reservation("Available", "n2");
  s = f.step();
  CHECK(kinds(s) == std::vector<JobActionKind>{JobActionKind::evict_pod});
  CHECK(s.actions[0].pod_key == "default/p");
  CHECK(s.actions[0].eviction_policy == "Eviction");
  CHECK(s.status.node_name == "n2");
  CHECK(s.status.reason == "Evicting");
  s = f.step();  // eviction asked, pod still there: no second eviction
  CHECK(s.actions.empty());
  CHECK_FALSE(s.changed);
  f.seen.pod = nullptr;
  s = f.step();
  CHECK(condition(s.status, "Eviction")->reason == "EvictComplete");
  CHECK(s.status.reason == "WaitForPodBindReservation");
  auto r = f.reservation("Available", "n2");
  ObjectReference owner;
  owner.name = "p-new";
  r->status.current_owners.push_back(owner);
  s = f.step();
  CHECK(s.status.reason == "WaitForBoundPodReady");
  f.seen.bound_pod_ready = true;
  s = f.step();
  CHECK(s.status.phase == "Succeeded");
  CHECK(s.actions.empty());
  CHECK(f.step().actions.empty());  // terminal: nothing more
}

TEST_CASE("migration job: EvictDirectly", "[descheduler][migration]") {
  JobFixture f;
  f.job.spec.mode = "EvictDirectly";
  auto s = f.step();
  CHECK(s.status.phase == "Running");
  CHECK(kinds(s) == std::vector<JobActionKind>{JobActionKind::evict_pod});
  auto terminating = std::make_shared<Pod>(*f.seen.pod);
  terminating->meta.deletion_timestamp = at(1011);
  f.seen.pod = terminating;
  s = f.step();
  CHECK(s.status.phase == "Succeeded");
  CHECK(s.status.reason == "EvictComplete");
  f.args.default_job_mode = "EvictDirectly";
  JobFixture g;
  g.args.default_job_mode = "EvictDirectly";
  CHECK(kinds(g.step()) == std::vector<JobActionKind>{JobActionKind::evict_pod});
}

TEST_CASE("migration job: failures and clean-up", "[descheduler][migration]") {
  struct Case {
    const char* name;
    std::function<void(JobFixture&)> setup;
    const char* phase;
    const char* reason;
    std::vector<JobActionKind> actions;
  };
  const std::vector<Case> cases = {
      {"timeout", [](JobFixture& f) { f.seen.now = at(1000 + 301); }, "Failed", "Timeout", {}},
      {"timeout deletes the reservation",
       [](JobFixture& f) {
         f.seen.now = at(1000 + 301);
         f.reservation("Available", "n2");
       },
       "Failed", "Timeout", {JobActionKind::delete_reservation}},
      {"job ttl wins over the default",
       [](JobFixture& f) {
         f.job.spec.ttl = std::chrono::hours(1);
         f.seen.now = at(1000 + 301);
       },
       "Running", "", {JobActionKind::create_reservation}},
      {"ttl 0 never times out",
       [](JobFixture& f) {
         f.args.default_job_ttl = std::chrono::nanoseconds(0);
         f.seen.now = at(1000 + 100000);
       },
       "Running", "", {JobActionKind::create_reservation}},
      {"missing pod", [](JobFixture& f) { f.seen.pod = nullptr; }, "Failed", "MissingPod", {}},
      {"reservation unschedulable",
       [](JobFixture& f) {
         auto r = f.reservation("Pending", "");
         Condition c;
         c.type = "Scheduled";
         c.status = "False";
         c.reason = "Unschedulable";
         c.message = "0/3 nodes are available";
         r->status.conditions.push_back(c);
       },
       "Failed", "Unschedulable", {JobActionKind::delete_reservation}},
      {"reservation failed", [](JobFixture& f) { f.reservation("Failed", ""); }, "Failed", "ReservationExpired",
       {JobActionKind::delete_reservation}},
      {"reservation vanished",
       [](JobFixture& f) {
         f.job.status.phase = "Running";
         f.job.status.conditions.push_back(Condition{"ReservationCreated", "True", "", "", {}, {}, {}, {}});
       },
       "Failed", "MissingReservation", {}},
      {"paused", [](JobFixture& f) { f.job.spec.paused = true; f.seen.now = at(99999); }, "Pending", "", {}},
      {"aborted cleans up",
       [](JobFixture& f) {
         f.job.status.phase = "Aborted";
         f.reservation("Available", "n2");
       },
       "Aborted", "", {JobActionKind::delete_reservation}},
      {"succeeded keeps a bound reservation",
       [](JobFixture& f) {
         f.job.status.phase = "Succeeded";
         f.reservation("Succeeded", "n2");
       },
       "Succeeded", "", {}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    JobFixture f;
    c.setup(f);
    const auto s = f.step();
    CHECK(s.status.phase == c.phase);
    CHECK(s.status.reason == c.reason);
    CHECK(kinds(s) == c.actions);
  }
}

}  // namespace
}  // namespace troupe::plugins::descheduler

namespace troupe::plugins::descheduler {
namespace {

TEST_CASE("migration: a bare pod's reservation is owned by the pod itself", "[descheduler][migration]") {
  PodMigrationJob job;
  job.meta.name = "j";
  job.meta.uid = "job-uid";
  const auto pod = testing::TestPod("bare").bare().node("n1").ptr();
  const Reservation r = reservation_for(job, *pod, std::chrono::minutes(5), testing::at(0));
  REQUIRE(r.spec.owners.size() == 1);
  REQUIRE(r.spec.owners[0].object);
  CHECK_FALSE(r.spec.owners[0].controller);
  CHECK(r.spec.owners[0].object->name == "bare");
  CHECK(r.spec.owners[0].object->uid == "uid-bare");
}

}  // namespace
}  // namespace troupe::plugins::descheduler

namespace troupe::plugins::descheduler {
namespace {

TEST_CASE("migration: the grace period evictions ask for", "[descheduler][migration]") {
  struct Case {
    const char* name;
    const char* job_options;  // spec.deleteOptions as JSON, "" = none
    const char* defaults;     // defaultDeleteOptions as YAML, "" = none
    std::optional<int64_t> expected;
  };
  const Case cases[] = {
      {"neither", "", "", std::nullopt},
      {"the job's", R"({"gracePeriodSeconds":5})", "", 5},
      {"the job's wins over the default", R"({"gracePeriodSeconds":0})", "{gracePeriodSeconds: 30}", 0},
      {"the default", "", "{gracePeriodSeconds: 30}", 30},
      {"a job without the field takes the default", R"({"propagationPolicy":"Background"})",
       "{gracePeriodSeconds: 30}", 30},
      {"a job's non-number is ignored", R"({"gracePeriodSeconds":"soon"})", "{gracePeriodSeconds: 7}", 7},
      {"a default that is no number is unset", "", "{gracePeriodSeconds: soon}", std::nullopt},
      {"defaults without it", "", "{dryRun: [All]}", std::nullopt},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    std::string text = R"({"metadata":{"name":"j"},"spec":{"podRef":{"namespace":"default","name":"p"})";
    if (*c.job_options) text += std::string(R"(,"deleteOptions":)") + c.job_options;
    text += "}}";
    auto job = decode_pod_migration_job_json(text);
    REQUIRE(job);
    MigrationControllerArgs args;
    if (*c.defaults) args.default_delete_options = YAML::Load(c.defaults);
    CHECK(delete_grace_period(*job, args) == c.expected);
  }
}

}  // namespace
}  // namespace troupe::plugins::descheduler
