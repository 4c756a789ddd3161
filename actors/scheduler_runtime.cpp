#include "actors/scheduler_runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <random>
#include <thread>

#include <spdlog/spdlog.h>

#include "actors/actor_watchdog.hpp"
#include "actors/api_writer.hpp"
#include "actors/atoms.hpp"
#include "actors/cycle_actor.hpp"
#include "actors/extender_service.hpp"
#include "actors/extenders.hpp"
#include "actors/framework_metrics.hpp"
#include "actors/gpu_health.hpp"
#include "actors/http_endpoint.hpp"
#include "actors/informer_actor.hpp"
#include "actors/leader_election.hpp"
#include "actors/migration_actor.hpp"
#include "actors/pod_group_actor.hpp"
#include "actors/quota_status_actor.hpp"
#include "actors/reservation_actor.hpp"
#include "actors/shared_reflectors.hpp"
#include "actors/node_actor.hpp"
#include "actors/partitioning.hpp"
#include "actors/queue_actor.hpp"
#include "plugins/coscheduling/coscheduling_plugin.hpp"
#include "plugins/elastic_quota/elastic_quota_plugin.hpp"
#include "plugins/load_aware/load_aware_plugin.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "plugins/registry.hpp"
#include "plugins/volumes/volume_plugins.hpp"
#include "watch/api_client.hpp"
#include "watch/lease_client.hpp"
#include "watch/reflector.hpp"
#include "actors/preemption_pdbs.hpp"
#include "watch/task_pool.hpp"
#include "watch/time_format.hpp"

namespace troupe::actors {

namespace {

/// The collections whose pod selectors PodTopologySpread's default constraints read.
struct WorkloadCollection {
  const char* resource;
  const char* path;
};
constexpr WorkloadCollection kWorkloadCollections[] = {
    {"services", "/api/v1/services"},
    {"replicationcontrollers", "/api/v1/replicationcontrollers"},
    {"replicasets", "/apis/apps/v1/replicasets"},
    {"statefulsets", "/apis/apps/v1/statefulsets"},
};

struct RuntimeConfig : caf::actor_system_config {
  explicit RuntimeConfig(size_t threads) {
    add_message_types<caf::id_block::troupe_atoms>();
    set("scheduler.max-threads", threads);
    set("logger.verbosity", caf::atom("quiet"));
  }
};

std::string default_identity() {
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  std::mt19937_64 rng(std::random_device{}());
  char suffix[17];
  std::snprintf(suffix, sizeof(suffix), "%016llx", static_cast<unsigned long long>(rng()));
  return std::string(host) + "_" + suffix;
}

/// LeaseBackend over the watch layer's lease calls.
class ApiLeaseBackend : public LeaseBackend {
 public:
  ApiLeaseBackend(std::shared_ptr<watch::ApiClient> api, std::string ns, std::string name)
      : api_(std::move(api)), ns_(std::move(ns)), name_(std::move(name)) {}

  Result<std::optional<LeaseRecord>> get() override {
    auto r = watch::get_lease(*api_, ns_, name_);
    if (r.api.code == 404) {
      last_read_ = {};  // a lease made again starts bare
      return std::optional<LeaseRecord>{};
    }
    if (!r.api.ok || !r.lease) return Error{r.api.message};
    last_read_ = *r.lease;
    return std::optional<LeaseRecord>{from_watch(*r.lease)};
  }
  Result<LeaseRecord> create(const LeaseRecord& record) override { return done(watch::create_lease(*api_, to_watch(record))); }
  Result<LeaseRecord> update(const LeaseRecord& record) override { return done(watch::update_lease(*api_, to_watch(record))); }

 private:
  Result<LeaseRecord> done(const watch::LeaseResult& r) {
    if (!r.api.ok || !r.lease) return Error{r.api.message};
    last_read_ = *r.lease;
    return from_watch(*r.lease);
  }
  static LeaseRecord from_watch(const watch::LeaseRecord& l) {
    return {l.holder_identity, l.lease_duration_seconds, l.acquire_time, l.renew_time, l.lease_transitions,
            l.resource_version};
  }
  /// The record to write: the lease as last read (its labels, annotations,
  /// preferred holder and strategy kept, as client-go's LeaseLock) with the
  /// election's fields.
  watch::LeaseRecord to_watch(const LeaseRecord& r) const {
    watch::LeaseRecord l = last_read_;
    l.ns = ns_;
    l.name = name_;
    l.holder_identity = r.holder_identity;
    l.lease_duration_seconds = r.lease_duration_seconds;
    l.acquire_time = r.acquire_time;
    l.renew_time = r.renew_time;
    l.lease_transitions = r.lease_transitions;
    l.resource_version = r.resource_version;
    return l;
  }
  std::shared_ptr<watch::ApiClient> api_;
  std::string ns_, name_;
  watch::LeaseRecord last_read_;
};

template <class D>
std::chrono::milliseconds ms(D d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d);
}

}  // namespace

struct SchedulerRuntime::Impl {
  SchedulerOptions options;
  std::shared_ptr<MetricsRegistry> metrics = std::make_shared<MetricsRegistry>();
  std::unique_ptr<RuntimeConfig> caf_config;
  std::unique_ptr<caf::actor_system> system;
  std::shared_ptr<watch::ApiClient> api;
  std::shared_ptr<watch::TaskPool> io;
  std::unique_ptr<SharedReflectors> shared_reflectors;   // pods, nodes, ...: one list/watch for every actor
  std::vector<node_actor> nodes;
  queue_actor queue;
  api_writer_actor writer;
  cycle_actor cycle;
  informer_actor informer;
  caf::actor watchdog;
  std::shared_ptr<ActorFailure> actor_failure = std::make_shared<ActorFailure>();
  std::shared_ptr<std::atomic<bool>> ready = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<bool>> may_schedule = std::make_shared<std::atomic<bool>>(true);
  std::atomic<bool> lost_leadership{false};
  std::atomic<bool> stopping{false};
  std::thread election_thread;
  HttpEndpoint endpoint;
  HttpEndpoint extender_endpoint;
  std::unique_ptr<ExtenderService> extender;
  std::unique_ptr<MigrationController> migration;
  std::unique_ptr<ReservationController> reservations;
  std::unique_ptr<PodGroupController> pod_groups;
  std::unique_ptr<QuotaStatusController> quota_statuses;
  FrameworkPtr load_aware_profile;  // the first profile running LoadAwareScheduling (its debug service)
  bool stopped = false;

  Status start();
  /// The actors the watchdog watches, by name.
  WatchedActors core_actors() const {
    WatchedActors watched;
    for (size_t i = 0; i < nodes.size(); ++i)
      watched.emplace_back("node partition " + std::to_string(i), caf::actor_cast<caf::actor>(nodes[i]));
    watched.emplace_back("queue", caf::actor_cast<caf::actor>(queue));
    watched.emplace_back("API writer", caf::actor_cast<caf::actor>(writer));
    watched.emplace_back("scheduling cycle", caf::actor_cast<caf::actor>(cycle));
    watched.emplace_back("informer", caf::actor_cast<caf::actor>(informer));
    return watched;
  }
  /// The INFORMER follows `resource`. `optional`: a 404 on the list (the
  /// CRD is not installed) counts as an empty, synced list, so a cluster
  /// without it still becomes ready; the reflector keeps retrying and picks
  /// the objects up once the CRD appears.
  Status inform(const std::string& resource, const std::string& path, const std::string& field_selector,
                bool optional = false);
  HttpReply device_summaries(const std::string& node_name);
  HttpReply learned_task_classes();
  /// A debug question to the scheduling cycle; nullopt when it does not answer.
  template <class... Args>
  std::optional<std::string> ask_cycle(Args... args) {
    caf::scoped_actor self{*system};
    std::optional<std::string> answer;
    self->request(cycle, std::chrono::seconds(10), args...)
        .receive([&](const std::string& text) { answer = text; }, [&](caf::error&) {});
    return answer;
  }
  /// A debug question about one node to the partition that owns it: its
  /// answer, 404 when the partition does not know the node ("").
  template <class... Args>
  HttpReply ask_node_owner(const std::string& node_name, Args... args) {
    if (!system) return {503, "text/plain", "scheduler is stopping\n"};
    caf::scoped_actor self{*system};
    std::string summary;
    bool failed = false;
    self->request(nodes[partition_of(node_name, nodes.size())], std::chrono::seconds(10), args...)
        .receive([&](const std::string& answer) { summary = answer; }, [&](caf::error&) { failed = true; });
    if (failed) return {503, "text/plain", "a node partition did not answer\n"};
    if (summary.empty()) return {404, "text/plain", "node " + node_name + " is not known\n"};
    return {200, "application/json", summary};
  }
  HttpReply load_summary(const std::string& node_name);
  /// A debug summary the scheduling cycle keeps (a gang's, a quota's):
  /// "" from the cycle means `what` is not known.
  template <class Atom>
  HttpReply cycle_summary(Atom atom, const std::string& key, const std::string& what) {
    if (!system) return {503, "text/plain", "scheduler is stopping\n"};
    auto summary = ask_cycle(atom, key);
    if (!summary) return {503, "text/plain", "the scheduling cycle did not answer\n"};
    if (summary->empty()) return {404, "text/plain", "cannot find " + what + "\n"};
    return {200, "application/json", *summary};
  }
  void run_election();
  HttpReply serve(const HttpRequest& request);
  void stop();
};

Status SchedulerRuntime::Impl::start() {
  const auto& cfg = options.config;
  if (options.identity.empty()) options.identity = default_identity();
  declare_scheduler_metrics(*metrics);

  watch::HttpClientOptions http_options;
  http_options.max_connections = static_cast<size_t>(std::max(4, cfg.troupe.bind_concurrency + 4));
  auto http = watch::HttpClient::create(options.cluster, http_options);
  if (!http) return Error{"cannot reach the API server: " + http.message()};
  api = std::make_shared<watch::ApiClient>(*http, watch::RateLimits{cfg.client_connection.qps, cfg.client_connection.burst});
  // Events wait in the background lane behind bindings and status patches;
  // half the threads at most write events, so that bindings arriving after a
  // lull find a free one.
  watch::LaneLimits lanes;
  lanes.background_capacity = static_cast<size_t>(cfg.troupe.event_queue_size);
  lanes.background_in_flight = static_cast<size_t>(std::max(1, cfg.troupe.bind_concurrency / 2));
  io = std::make_shared<watch::TaskPool>(static_cast<size_t>(std::max(1, cfg.troupe.bind_concurrency)), "api-writes",
                                         lanes);
  metrics->add_collector([weak = std::weak_ptr<watch::TaskPool>(io)](MetricsRegistry& r) {
    if (auto pool = weak.lock()) r.set("troupe_event_queue_length", {}, static_cast<double>(pool->queued(watch::Lane::background)));
  });

  auto frameworks = plugins::make_frameworks(cfg);
  if (!frameworks) return Error{frameworks.message()};
  std::map<std::string, std::shared_ptr<const plugins::Framework>> by_name;
  for (auto& f : *frameworks) {
    observe_framework(f, metrics);
    auto shared = std::make_shared<const plugins::Framework>(std::move(f));
    by_name[shared->profile_name()] = shared;
  }

  size_t threads = cfg.troupe.worker_threads > 0 ? static_cast<size_t>(cfg.troupe.worker_threads)
                                                 : std::max(2u, std::thread::hardware_concurrency());
  size_t partitions = cfg.troupe.node_partitions > 0 ? static_cast<size_t>(cfg.troupe.node_partitions) : threads;
  caf_config = std::make_unique<RuntimeConfig>(threads);
  system = std::make_unique<caf::actor_system>(*caf_config);

  for (size_t i = 0; i < partitions; ++i) nodes.push_back(system->spawn(node_actor_fn, metrics));
  QueueActorSettings queue_settings;
  queue_settings.queue.initial_backoff = std::chrono::seconds(cfg.pod_initial_backoff_seconds);
  queue_settings.queue.max_backoff = std::chrono::seconds(cfg.pod_max_backoff_seconds);
  queue_settings.metrics = metrics;
  queue = system->spawn(queue_actor_fn, queue_settings);
  // Volume scheduling's claims and volumes, followed only when a profile runs one of its plugins.
  const bool schedules_volumes = std::any_of(by_name.begin(), by_name.end(), [](const auto& profile) {
    return plugins::volumes::reads_volumes(*profile.second);
  });
  auto volumes = schedules_volumes ? std::make_shared<VolumeStore>() : nullptr;
  writer = system->spawn(api_writer, ApiWriterDeps{api, io, metrics, options.identity, volumes});
  auto extenders = Extenders::create(cfg.extenders);
  if (!extenders) return Error{extenders.message()};
  auto pdbs = std::make_shared<PdbStore>(metrics);
  const bool runs_quotas = std::any_of(by_name.begin(), by_name.end(), [](const auto& profile) {
    return plugins::elastic_quota::ElasticQuotaPlugin::of(*profile.second) != nullptr;
  });
  cycle = system->spawn(cycle_actor_fn, CycleDeps{queue, nodes, writer, metrics, cfg.percentage_of_nodes_to_score,
                                                  std::random_device{}(), *extenders, io, pdbs,
                                                  cfg.troupe.evaluation_cache, volumes, runs_quotas});

  may_schedule->store(!cfg.leader_election.leader_elect);
  InformerDeps informer_deps{nodes, queue, writer, cycle, by_name, {"nodes", "pods", "devices", "noderesourcetopologies",
                                                                "reservations", "configmaps", "podgroups",
                                                                "namespaces"},
                              metrics, ready, may_schedule};
  const bool spreads_by_default = std::any_of(by_name.begin(), by_name.end(), [](const auto& profile) {
    const auto* spread = plugins::spread::PodTopologySpread::of(*profile.second);
    return spread != nullptr && !spread->args().default_constraints.empty();
  });
  if (spreads_by_default)
    for (const auto& workload : kWorkloadCollections) informer_deps.resources.insert(workload.resource);
  for (const auto& [name, framework] : by_name)
    if (!load_aware_profile && plugins::load_aware::LoadAwareScheduling::of(*framework) != nullptr)
      load_aware_profile = framework;
  const bool load_aware = load_aware_profile != nullptr;
  if (load_aware) informer_deps.resources.insert(kNodeMetricsResource);
  if (runs_quotas) informer_deps.resources.insert("elasticquotas");
  if (volumes)
    for (const auto& collection : kVolumeCollections) informer_deps.resources.insert(collection.resource);
  informer = system->spawn(informer_actor_fn, informer_deps);
  watchdog = spawn_actor_watchdog(*system, core_actors(), actor_failure);

  if (!options.metrics_address.empty()) {
    auto served = endpoint.start(options.metrics_address, [this](const HttpRequest& r) { return serve(r); });
    if (!served) return served;
  }
  if (!options.extender_address.empty()) {
    auto service = ExtenderService::create(ExtenderServiceDeps{system.get(), nodes, writer, api}, cfg);
    if (!service) return Error{service.message()};
    extender = std::move(*service);
    auto served = extender_endpoint.start(options.extender_address,
                                          [this](const HttpRequest& r) { return extender->serve(r); });
    if (!served) return served;
  }
  // One list and watch per collection, shared by the informer, the
  // migration actor and the reservation actor (each subscribes below).
  shared_reflectors = std::make_unique<SharedReflectors>(api);
  for (auto followed : {inform("nodes", "/api/v1/nodes", ""),
                        // As kube-scheduler's pod informer: finished pods hold nothing.
                        inform("pods", "/api/v1/pods", "status.phase!=Succeeded,status.phase!=Failed"),
                        inform("devices", "/apis/scheduling.koordinator.sh/v1alpha1/devices", "", /*optional=*/true),
                        inform("noderesourcetopologies", "/apis/topology.node.k8s.io/v1alpha1/noderesourcetopologies",
                               "", /*optional=*/true),
                        inform("reservations", "/apis/scheduling.koordinator.sh/v1alpha1/reservations", "",
                               /*optional=*/true),
                        // gpushare-scheduler-extender's unhealthy-gpu-<node> lists (actors/gpu_health.hpp).
                        inform("configmaps", "/api/v1/namespaces/" + std::string(kGpuHealthNamespace) + "/configmaps",
                               "", /*optional=*/true),
                        // The labels pod affinity terms' namespaceSelectors select by.
                        inform("namespaces", "/api/v1/namespaces", "", /*optional=*/true),
                        // Coscheduling's gangs defined by PodGroup objects.
                        inform("podgroups", "/apis/scheduling.sigs.k8s.io/v1alpha1/podgroups", "", /*optional=*/true)})
    if (!followed) return followed;
  // ElasticQuota's quota groups, only for a profile that runs it.
  if (runs_quotas)
    if (auto followed = inform("elasticquotas", "/apis/scheduling.sigs.k8s.io/v1alpha1/elasticquotas", "",
                               /*optional=*/true);
        !followed)
      return followed;
  // LoadAwareScheduling's NodeMetrics, only for a profile that runs it (they
  // list every pod's usage: not worth holding otherwise).
  if (load_aware)
    if (auto followed = inform(kNodeMetricsResource, kNodeMetricsPath, "", /*optional=*/true); !followed) return followed;
  // PodTopologySpread's default constraints spread a pod over its siblings:
  // the pods its Services and its controller select (as kube-scheduler,
  // followed only when a profile has default constraints).
  if (spreads_by_default)
    for (const auto& workload : kWorkloadCollections)
      if (auto followed = inform(workload.resource, workload.path, "", /*optional=*/true); !followed) return followed;
  // Volume scheduling's claims, volumes and storage classes: the store takes
  // each change before the informer turns it into a cluster event. Not
  // optional (kube-scheduler needs them too): without them every claim would
  // read as missing, so the scheduler waits for the list (RBAC in deploy/).
  if (volumes)
    for (const auto& collection : kVolumeCollections) {
      const std::string resource = collection.resource;
      auto followed = shared_reflectors->subscribe(
          CollectionSpec{resource, collection.path, ""},
          [volumes, resource](const watch::Change& change) { volumes->apply(resource, change.type, change.object); });
      if (!followed) return followed;
      if (auto informed = inform(resource, collection.path, ""); !informed) return informed;
    }
  // Preemption's PodDisruptionBudgets (read only when a pod fits nowhere),
  // from the list and watch the descheduler's view follows too.
  auto pdbs_followed = shared_reflectors->subscribe(
      CollectionSpec{kPdbCollection, kPdbPath, "", /*optional=*/true},
      [pdbs](const watch::Change& change) { pdbs->apply(change.type, change.object); });
  if (!pdbs_followed) return pdbs_followed;
  // Descheduling and PodMigrationJobs: idle unless leading.
  std::vector<std::string> profile_names;
  for (const auto& [name, framework] : by_name) profile_names.push_back(name);
  auto migration_controller = MigrationController::start(MigrationDeps{
      system.get(), api, io, metrics, may_schedule, options.descheduler, profile_names, shared_reflectors.get(),
      writer});
  if (!migration_controller) return Error{migration_controller.message()};
  migration = std::move(*migration_controller);
  // Reservations: reserve pods into the queue, lifecycle writes while leading.
  auto reservation_controller = ReservationController::start(
      ReservationControllerDeps{system.get(), api, io, metrics, may_schedule, queue, cycle, by_name,
                                shared_reflectors.get()},
      cfg);
  if (!reservation_controller) return Error{reservation_controller.message()};
  reservations = std::move(*reservation_controller);
  // PodGroups' status follows their pods (Koordinator's PodGroup controller),
  // for the profiles that run Coscheduling.
  std::set<std::string> gang_profiles;
  for (const auto& [name, framework] : by_name)
    if (plugins::coscheduling::Coscheduling::of(*framework) != nullptr) gang_profiles.insert(name);
  if (!gang_profiles.empty()) {
    auto pod_group_controller = PodGroupController::start(
        PodGroupControllerDeps{system.get(), api, io, may_schedule, gang_profiles, shared_reflectors.get()});
    if (!pod_group_controller) return Error{pod_group_controller.message()};
    pod_groups = std::move(*pod_group_controller);
  }
  if (runs_quotas) {
    QuotaStatusDeps quota_deps;
    quota_deps.system = system.get();
    quota_deps.api = api;
    quota_deps.io = io;
    quota_deps.leading = may_schedule;
    quota_deps.ready = ready;
    quota_deps.cycle = cycle;
    quota_deps.metrics = metrics;
    quota_deps.reflectors = shared_reflectors.get();
    for (const auto& [name, framework] : by_name)
      if (const auto* plugin = plugins::elastic_quota::ElasticQuotaPlugin::of(*framework)) {
        quota_deps.args = plugin->args();
        break;
      }
    auto quota_status = QuotaStatusController::start(std::move(quota_deps));
    if (!quota_status) return Error{quota_status.message()};
    quota_statuses = std::move(*quota_status);
  }
  shared_reflectors->start();
  if (cfg.leader_election.leader_elect) election_thread = std::thread([this] { run_election(); });
  spdlog::info("scheduler started: {} profile(s), {} node partition(s), {} thread(s), identity {}", by_name.size(),
               partitions, threads, options.identity);
  return {};
}

Status SchedulerRuntime::Impl::inform(const std::string& resource, const std::string& path,
                                      const std::string& field_selector, bool optional) {
  return shared_reflectors->subscribe(CollectionSpec{resource, path, field_selector, optional},
                                      caf::actor_cast<caf::actor>(informer));
}

void SchedulerRuntime::Impl::run_election() {
  const auto& le = options.config.leader_election;
  ElectionSettings settings{options.identity, ms(le.lease_duration), ms(le.renew_deadline), ms(le.retry_period)};
  ApiLeaseBackend backend(api, le.resource_namespace, le.resource_name);
  LeaderElector elector(settings, backend, [] { return watch::format_micro_time(std::chrono::system_clock::now()); });
  bool was_leading = false;
  std::string logged_error;  // each new reason once, not every retry
  while (!stopping.load()) {
    bool leading = elector.step(ElectionClock::now());
    if (elector.last_error() != logged_error) {
      logged_error = elector.last_error();
      if (!logged_error.empty())
        spdlog::warn("leader election: {}/{}: {}", le.resource_namespace, le.resource_name, logged_error);
    }
    if (leading && !was_leading) {
      spdlog::info("leader election: {} became leader of {}/{}", options.identity, le.resource_namespace,
                   le.resource_name);
      may_schedule->store(true);
      if (ready->load()) caf::anon_send(cycle, atom::start_v);
      caf::anon_send(informer, atom::start_v);  // the events it held back while a standby
    }
    if (!leading && was_leading) {
      spdlog::error("leader election: {} stopped leading", options.identity);
      lost_leadership = true;
      may_schedule->store(false);
      return;
    }
    was_leading = leading;
    // client-go jitters the retry by up to 1.2x while not leading.
    auto wait = settings.retry_period;
    for (auto waited = std::chrono::milliseconds(0); waited < wait && !stopping.load();
         waited += std::chrono::milliseconds(50))
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!was_leading) return;
  may_schedule->store(false);  // no new attempt starts once the lease is free
  if (elector.release())
    spdlog::info("leader election: {} released {}/{}", options.identity, le.resource_namespace, le.resource_name);
  else
    spdlog::warn("leader election: {} could not release {}/{}; it expires in {} s", options.identity,
                 le.resource_namespace, le.resource_name,
                 std::chrono::duration_cast<std::chrono::seconds>(le.lease_duration).count());
}

HttpReply SchedulerRuntime::Impl::serve(const HttpRequest& request) {
  std::string path = request.target.substr(0, request.target.find('?'));
  if (path == "/metrics")
    return {200, "text/plain; version=0.0.4; charset=utf-8", metrics->render()};
  if (path == "/healthz" || path == "/livez") {
    if (lost_leadership) return {500, "text/plain", "[-]leaderElection failed: lost the lease\n"};
    if (std::string failed = actor_failure->what(); !failed.empty())
      return {500, "text/plain", "[-]actors failed: " + failed + "\n"};
    return {200, "text/plain", "ok"};
  }
  if (path == "/readyz")
    return ready->load() ? HttpReply{200, "text/plain", "ok"}
                         : HttpReply{500, "text/plain", "[-]informer-sync failed: reason withheld\n"};
  const std::string summaries = "/apis/v1/plugins/DeviceShare/nodeDeviceSummaries";
  if (path == summaries) return device_summaries("");
  if (path == "/apis/v1/plugins/DeviceShare/learnedTaskClasses") return learned_task_classes();
  if (path.rfind(summaries + "/", 0) == 0) return device_summaries(path.substr(summaries.size() + 1));
  // NodeNUMAResource: our full per-node view, and Koordinator's availableCPUs.
  const std::string cpu_nodes = "/apis/v1/plugins/NodeNUMAResource/nodes/";
  const std::string available_cpus = "/apis/v1/plugins/NodeNUMAResource/availableCPUs/";
  for (const auto& [prefix, available] : {std::pair{cpu_nodes, false}, std::pair{available_cpus, true}})
    if (path.rfind(prefix, 0) == 0) {
      const std::string node = path.substr(prefix.size());
      return ask_node_owner(node, atom::cpu_summary_v, node, available);
    }
  // Reservation: our view of a node, and Koordinator's nodeReservations.
  const std::string reservation_nodes = "/apis/v1/plugins/Reservation/nodes/";
  const std::string node_reservations = "/apis/v1/plugins/Reservation/nodeReservations/";
  for (const auto& [prefix, koordinator_shape] :
       {std::pair{reservation_nodes, false}, std::pair{node_reservations, true}})
    if (path.rfind(prefix, 0) == 0) {
      const std::string node = path.substr(prefix.size());
      HttpReply reply = ask_node_owner(node, atom::reservation_summary_v, node, koordinator_shape);
      // Koordinator lists no reservations for a node it does not know (items is omitempty).
      if (koordinator_shape && reply.status == 404) return {200, "application/json", "{}"};
      return reply;
    }
  const std::string load_nodes = "/apis/v1/plugins/LoadAwareScheduling/node/";
  if (path.rfind(load_nodes, 0) == 0) return load_summary(path.substr(load_nodes.size()));
  // Coscheduling: every gang, or one by namespace and name.
  if (path == "/apis/v1/plugins/Coscheduling/gangs") return cycle_summary(atom::gang_summary_v, "", "gangs");
  const std::string gang = "/apis/v1/plugins/Coscheduling/gang/";
  if (path.rfind(gang, 0) == 0 && std::count(path.begin() + gang.size(), path.end(), '/') == 1) {
    const std::string id = path.substr(gang.size());
    return cycle_summary(atom::gang_summary_v, id, "gang " + id);
  }
  // ElasticQuota: every quota, or one by name (when a profile runs it).
  if (path == "/apis/v1/plugins/ElasticQuota/quotas") return cycle_summary(atom::quota_summary_v, "", "quotas");
  const std::string quota = "/apis/v1/plugins/ElasticQuota/quota/";
  if (path.rfind(quota, 0) == 0 && path.size() > quota.size()) {
    const std::string name = path.substr(quota.size());
    return cycle_summary(atom::quota_summary_v, name, "quota " + name);
  }
  return {404, "text/plain", "404 page not found\n"};
}

// Koordinator's DeviceShare debug service: every node's summary as a JSON
// object keyed by node name, or one node's summary.
HttpReply SchedulerRuntime::Impl::device_summaries(const std::string& node_name) {
  if (!system) return {503, "text/plain", "scheduler is stopping\n"};
  caf::scoped_actor self{*system};
  std::string members;
  bool failed = false;
  for (auto& partition : nodes) {
    self->request(partition, std::chrono::seconds(10), atom::device_summary_v, node_name)
        .receive(
            [&](const std::string& part) {
              if (part.empty()) return;
              if (!members.empty()) members += ',';
              members += part;
            },
            [&](caf::error&) { failed = true; });
  }
  if (failed) return {503, "text/plain", "a node partition did not answer\n"};
  if (node_name.empty()) return {200, "application/json", "{" + members + "}"};
  if (members.empty()) return {404, "text/plain", "node " + node_name + " has no device state\n"};
  // One node: the summary itself, without the name key.
  return {200, "application/json", members.substr(members.find(':') + 1)};
}

// What each profile's Fragmentation scoring has learned of the task sizes
// (actors/task_learning.hpp), in the form its taskClasses configuration takes.
HttpReply SchedulerRuntime::Impl::learned_task_classes() {
  if (!system) return {503, "text/plain", "scheduler is stopping\n"};
  auto summary = ask_cycle(atom::learned_tasks_v);
  if (!summary) return {503, "text/plain", "the scheduling cycle did not answer\n"};
  return {200, "application/json", *summary};
}

// LoadAwareScheduling's debug service: what the plugin holds of one node
// (Koordinator's NodeAssignInfoData), with the first profile that runs it.
HttpReply SchedulerRuntime::Impl::load_summary(const std::string& node_name) {
  if (!load_aware_profile) return {404, "text/plain", "404 page not found\n"};
  return ask_node_owner(node_name, atom::load_summary_v, node_name, load_aware_profile);
}

void SchedulerRuntime::Impl::stop() {
  if (stopped) return;
  stopped = true;
  stopping = true;
  shared_reflectors.reset();  // stops the reflectors and lets go of the actor handles they send to
  if (migration) migration->stop();
  if (reservations) reservations->stop();
  if (pod_groups) pod_groups->stop();
  if (quota_statuses) quota_statuses->stop();
  if (election_thread.joinable()) election_thread.join();
  endpoint.stop();
  extender_endpoint.stop();
  if (system) {
    for (auto& n : nodes) caf::anon_send_exit(n, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(queue, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(cycle, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(informer, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(writer, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(watchdog, caf::exit_reason::user_shutdown);
  }
  if (io) io->shutdown();
  if (api) api->shutdown();
  nodes.clear();
  queue = nullptr;
  cycle = nullptr;
  informer = nullptr;
  writer = nullptr;
  system.reset();  // waits for the actors to finish
}

Result<std::unique_ptr<SchedulerRuntime>> SchedulerRuntime::start(SchedulerOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->options = std::move(options);
  auto status = impl->start();
  if (!status) {
    impl->stop();
    return Error{status.message()};
  }
  return std::unique_ptr<SchedulerRuntime>(new SchedulerRuntime(std::move(impl)));
}

SchedulerRuntime::SchedulerRuntime(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SchedulerRuntime::~SchedulerRuntime() { stop(); }
void SchedulerRuntime::stop() { impl_->stop(); }
bool SchedulerRuntime::ready() const { return impl_->ready->load(); }
bool SchedulerRuntime::leading() const { return impl_->may_schedule->load(); }
bool SchedulerRuntime::healthy() const { return health_problem().empty(); }
std::string SchedulerRuntime::health_problem() const {
  if (impl_->lost_leadership.load()) return "lost leadership";
  return impl_->actor_failure->what();
}
unsigned short SchedulerRuntime::metrics_port() const { return impl_->endpoint.port(); }
unsigned short SchedulerRuntime::extender_port() const { return impl_->extender_endpoint.port(); }
MetricsRegistry& SchedulerRuntime::metrics() { return *impl_->metrics; }

}  // namespace troupe::actors
