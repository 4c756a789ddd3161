#include "actors/bench_harness.hpp"

#include <malloc.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>
#include <utility>

#include <caf/all.hpp>

#include "actors/api_writer.hpp"
#include "actors/atoms.hpp"
#include "actors/cycle_actor.hpp"
#include "actors/metrics_registry.hpp"
#include "actors/node_actor.hpp"
#include "actors/partitioning.hpp"
#include "actors/queue_actor.hpp"
#include "plugins/elastic_quota/elastic_quota_plugin.hpp"
#include "plugins/registry.hpp"
#include "plugins/reservation/reservation_lifecycle.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::actors {

namespace {

struct HarnessConfig : caf::actor_system_config {
  explicit HarnessConfig(size_t threads) {
    add_message_types<caf::id_block::troupe_atoms>();
    set("scheduler.max-threads", threads);
    set("logger.verbosity", caf::atom("quiet"));
  }
};

/// Where the in-process binder reports outcomes, and where schedule() waits
/// for them. Shared between the binder actor and the driving thread.
class OutcomeSink {
 public:
  void expect(const std::string& key, BenchClock::time_point enqueued) {
    std::lock_guard<std::mutex> lock(mu_);
    waiting_[key] = enqueued;
  }

  void bound(const BindJob& job) {
    PodOutcome outcome;
    outcome.key = job.ns + "/" + job.name;
    outcome.bound = true;
    outcome.node = job.node;
    outcome.annotations = job.annotations;
    finish(std::move(outcome));
  }

  /// Only the first report of a pod counts; the pod is then dropped from
  /// the queue so it is never retried.
  void failed(const FailureReport& report, const queue_actor& queue) {
    PodOutcome outcome;
    outcome.key = report.ns + "/" + report.name;
    outcome.message = report.message;
    if (finish(outcome)) caf::anon_send(queue, atom::dequeue_v, outcome.key);
  }

  size_t finished() {
    std::lock_guard<std::mutex> lock(mu_);
    return outcomes_.size();
  }

  /// Waits until `count` outcomes exist or the deadline passes.
  bool wait_for(size_t count, BenchClock::time_point deadline) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_until(lock, deadline, [&] { return outcomes_.size() >= count; });
  }

  std::vector<PodOutcome> take() {
    std::lock_guard<std::mutex> lock(mu_);
    waiting_.clear();
    return std::move(outcomes_);
  }

 private:
  bool finish(PodOutcome outcome) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = waiting_.find(outcome.key);
      if (it == waiting_.end()) return false;  // a retry of a pod already finished, or not ours
      outcome.enqueued = it->second;
      outcome.finished = BenchClock::now();
      waiting_.erase(it);
      outcomes_.push_back(std::move(outcome));
    }
    cv_.notify_all();
    return true;
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::unordered_map<std::string, BenchClock::time_point> waiting_;
  std::vector<PodOutcome> outcomes_;
};

/// The Pending Reservations place_reservations queued, by uid: what the
/// binder turns into Available ones.
class PendingReservations {
 public:
  void add(const Reservation& r) {
    std::lock_guard<std::mutex> lock(mu_);
    by_uid_[r.meta.uid] = r;
  }

  /// The reservation bound by `job` as the API writer would leave it: the
  /// job's allocation annotations, status nodeName/allocatable/Available.
  std::shared_ptr<const Reservation> bind(const BindJob& job) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_uid_.find(job.uid);
    if (it == by_uid_.end()) return nullptr;
    auto bound = std::make_shared<Reservation>(std::move(it->second));
    by_uid_.erase(it);
    for (const auto& [key, value] : job.annotations) bound->meta.annotations[key] = value;
    auto update = plugins::reservation::bind_update(*bound, job.uid, job.node, timestamp_now());
    if (!update.status) return nullptr;
    bound->status = std::move(*update.status);
    bound_.push_back(bound);
    return bound;
  }

  /// The reservations bound since the last call.
  std::vector<std::shared_ptr<const Reservation>> take_bound() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(bound_, {});
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, Reservation> by_uid_;
  std::vector<std::shared_ptr<const Reservation>> bound_;
};

struct bench_binder_state {
  std::shared_ptr<OutcomeSink> sink;
  queue_actor queue;
  std::vector<node_actor> nodes;
  std::shared_ptr<PendingReservations> reservations;
  static inline const char* name = "bench-binder";
};

using BenchBinder = api_writer_actor::stateful_pointer<bench_binder_state>;

/// A reserve pod's Binding: the Reservation becomes Available on its node's
/// actor (before the outcome is reported, so the caller sees it applied).
void confirm(BenchBinder self, const BindJob& job) {
  if (!job.reservation.empty()) {
    if (auto bound = self->state.reservations->bind(job)) {
      auto& nodes = self->state.nodes;
      self->send(nodes[partition_of(job.node, nodes.size())], atom::upsert_reservation_v, ReservationPtr(bound));
    }
  }
  self->state.sink->bound(job);
}

/// The API writer's typed interface, confirming every Binding at once.
api_writer_actor::behavior_type bench_binder(BenchBinder self, std::shared_ptr<OutcomeSink> sink, queue_actor queue,
                                             std::vector<node_actor> nodes,
                                             std::shared_ptr<PendingReservations> reservations) {
  self->state.sink = std::move(sink);
  self->state.queue = std::move(queue);
  self->state.nodes = std::move(nodes);
  self->state.reservations = std::move(reservations);
  return {
      [=](atom::bind, BindJobPtr job) -> WriteOutcome {
        confirm(self, *job);
        return {true, 201, "", {}};
      },
      [=](atom::bind, BindJobPtr job, ExtenderBinderPtr) -> WriteOutcome {
        confirm(self, *job);
        return {true, 201, "", {}};
      },
      [=](atom::report, FailureReportPtr report) { self->state.sink->failed(*report, self->state.queue); },
      // No API server to evict from; bench pods share one priority, so PostFilter never nominates.
      [=](atom::report, PreemptionPlanPtr plan) {
        spdlog::warn("bench: preemption of {} ignored (no API server)", plan->preemptor.name);
      },
      // The bench's objects are built, not read: none is malformed.
      [=](atom::report, ObjectWarningPtr) {},
      // The bench binds at once: no I/O threads report back, no claims are bound.
      [=](atom::bind_result, uint64_t, WriteOutcome) {},
      [=](atom::claims_written, uint64_t, WriteOutcome) {},
      [=](atom::check_claims, uint64_t) {},
      [=](atom::pod_gone, const std::string&) {},
      [=](atom::delete_node, const std::string&) {},
  };
}

}  // namespace

struct BenchHarness::Impl {
  BenchHarnessOptions options;
  config::SchedulerConfiguration config;
  std::shared_ptr<const plugins::Framework> framework;
  bool quotas = false;  // load_quotas ran: pods are reported to the cycle's quota book
  std::shared_ptr<MetricsRegistry> metrics = std::make_shared<MetricsRegistry>();
  std::shared_ptr<OutcomeSink> sink = std::make_shared<OutcomeSink>();
  std::shared_ptr<PendingReservations> reservations = std::make_shared<PendingReservations>();
  size_t threads = 1;
  std::unique_ptr<HarnessConfig> caf_config;
  std::unique_ptr<caf::actor_system> system;
  std::vector<node_actor> nodes;
  queue_actor queue;
  api_writer_actor writer;
  cycle_actor cycle;
  int64_t loaded_nodes = 0;  // what the cycle is told the cluster has (the informer's count)

  void spawn_scheduling(size_t partitions);
  /// Queues pods (at most `window` unfinished) and waits for all their outcomes.
  Result<std::vector<PodOutcome>> run(std::vector<Pod> pods, size_t window, std::chrono::milliseconds timeout);
  /// Returns once every node actor has handled what `sender` sent it before.
  void sync_nodes(caf::scoped_actor& sender);
  const node_actor& owner(const std::string& node) const { return nodes[partition_of(node, nodes.size())]; }
  void stop();
};

void BenchHarness::Impl::spawn_scheduling(size_t partitions) {
  for (size_t i = 0; i < partitions; ++i) nodes.push_back(system->spawn(node_actor_fn, metrics));
  writer = system->spawn(bench_binder, sink, queue, nodes, reservations);
  CycleDeps deps;
  deps.queue = queue;
  deps.nodes = nodes;
  deps.writer = writer;
  deps.metrics = metrics;
  deps.percentage_of_nodes_to_score = config.percentage_of_nodes_to_score;
  deps.seed = options.seed;
  deps.evaluation_cache = options.evaluation_cache;
  deps.quotas = plugins::elastic_quota::ElasticQuotaPlugin::of(*framework) != nullptr;
  cycle = system->spawn(cycle_actor_fn, deps);
}

void BenchHarness::Impl::sync_nodes(caf::scoped_actor& sender) {
  // A cheap request that answers "" for an unknown node: being handled after
  // everything this sender sent before, its answer means those are applied.
  for (auto& n : nodes)
    sender->request(n, caf::infinite, atom::cpu_summary_v, std::string(), false)
        .receive([](const std::string&) {}, [](caf::error&) {});
}

void BenchHarness::Impl::stop() {
  if (!system) return;
  for (auto& n : nodes) caf::anon_send_exit(n, caf::exit_reason::user_shutdown);
  if (queue) caf::anon_send_exit(queue, caf::exit_reason::user_shutdown);
  if (cycle) caf::anon_send_exit(cycle, caf::exit_reason::user_shutdown);
  if (writer) caf::anon_send_exit(writer, caf::exit_reason::user_shutdown);
  nodes.clear();
  queue = nullptr;
  cycle = nullptr;
  writer = nullptr;
  system.reset();  // waits for the actors to finish
}

Result<std::unique_ptr<BenchHarness>> BenchHarness::start(const BenchHarnessOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  auto config = plugins::parse_scheduler_configuration(options.config_yaml);
  if (!config) return Error{"bench configuration: " + config.message()};
  impl->config = std::move(*config);
  auto frameworks = plugins::make_frameworks(impl->config);
  if (!frameworks) return Error{"bench configuration: " + frameworks.message()};
  if (frameworks->empty()) return Error{"bench configuration: no profile"};
  impl->framework = std::make_shared<const plugins::Framework>(std::move(frameworks->front()));
  declare_scheduler_metrics(*impl->metrics);

  impl->threads = options.threads > 0 ? options.threads : std::max(2u, std::thread::hardware_concurrency());
  impl->caf_config = std::make_unique<HarnessConfig>(impl->threads);
  impl->system = std::make_unique<caf::actor_system>(*impl->caf_config);
  QueueActorSettings queue_settings;
  queue_settings.queue.initial_backoff = std::chrono::seconds(impl->config.pod_initial_backoff_seconds);
  queue_settings.queue.max_backoff = std::chrono::seconds(impl->config.pod_max_backoff_seconds);
  // Unplaceable pods are dropped at their first report; never flush them back.
  queue_settings.queue.max_unschedulable_age = std::chrono::hours(24);
  queue_settings.metrics = impl->metrics;
  impl->queue = impl->system->spawn(queue_actor_fn, queue_settings);
  return std::unique_ptr<BenchHarness>(new BenchHarness(std::move(impl)));
}

BenchHarness::BenchHarness(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
BenchHarness::~BenchHarness() { impl_->stop(); }

const std::string& BenchHarness::profile_name() const { return impl_->framework->profile_name(); }

bool BenchHarness::has_filter_plugin(const std::string& name) const {
  auto names = impl_->framework->plugin_names(config::ExtensionPoint::filter);
  return std::find(names.begin(), names.end(), name) != names.end();
}

size_t BenchHarness::partitions() const { return impl_->nodes.size(); }

void BenchHarness::spawn_actors(size_t node_count) {
  auto& impl = *impl_;
  if (impl.cycle) return;
  const size_t partitions = impl.options.one_node_per_actor ? std::max<size_t>(1, node_count)
                            : impl.options.partitions > 0   ? impl.options.partitions
                                                            : impl.threads;
  impl.spawn_scheduling(partitions);
}

void BenchHarness::load_cluster(const std::vector<Node>& nodes, const std::vector<Device>& devices,
                                const std::vector<NodeResourceTopology>& topologies) {
  auto& impl = *impl_;
  spawn_actors(nodes.size());
  caf::scoped_actor self{*impl.system};
  for (const auto& n : nodes) {
    auto node = NodePtr(std::make_shared<Node>(n));
    self->send(impl.owner(n.meta.name), atom::upsert_node_v, node);
    self->send(impl.cycle, atom::upsert_node_v, node);  // the topology domains (as the informer does)
  }
  impl.loaded_nodes += static_cast<int64_t>(nodes.size());
  self->send(impl.cycle, atom::node_count_v, impl.loaded_nodes);  // as the informer counts them
  // A node actor frees a Device or NRT once it has built its state from it.
  // Copied and sent all at once (a copy takes a microsecond, applying one
  // tens), every one would be alive together, and the pages they freed stay
  // resident among the state built since. The informer's pace is set by
  // decoding each object from JSON; here a sync every few objects per
  // partition bounds what is in flight the same way.
  const size_t in_flight = kObjectsInFlightPerPartition * impl.nodes.size();
  size_t sent = 0;
  auto paced = [&] {
    if (++sent % in_flight == 0) impl.sync_nodes(self);
  };
  for (const auto& d : devices) {
    self->send(impl.owner(d.meta.name), atom::upsert_device_v, DevicePtr(std::make_shared<Device>(d)));
    paced();
  }
  for (const auto& t : topologies) {
    self->send(impl.owner(t.meta.name), atom::upsert_topology_v, TopologyPtr(std::make_shared<NodeResourceTopology>(t)));
    paced();
  }
  impl.sync_nodes(self);
}

void BenchHarness::load_node_metrics(const std::vector<NodeMetric>& metrics) {
  auto& impl = *impl_;
  caf::scoped_actor self{*impl.system};
  for (const auto& m : metrics)
    self->send(impl.owner(m.meta.name), atom::upsert_node_metric_v, NodeMetricPtr(std::make_shared<NodeMetric>(m)));
  impl.sync_nodes(self);
}

Status BenchHarness::place_bound_pods(const std::vector<Pod>& pods) {
  auto& impl = *impl_;
  if (!impl.cycle) return Error{"place_bound_pods: load the cluster first"};
  caf::scoped_actor self{*impl.system};
  for (const auto& pod : pods) {
    if (pod.spec.node_name.empty())
      return Error{"place_bound_pods: pod " + pod.meta.namespace_name + "/" + pod.meta.name + " has no spec.nodeName"};
    Pod copy = pod;
    if (copy.meta.uid.empty()) copy.meta.uid = copy.meta.namespace_name + "/" + copy.meta.name;
    const std::string node = copy.spec.node_name;
    auto info = PodInfoPtr(plugins::PodInfo::make(std::move(copy)));
    self->send(impl.cycle, atom::pod_bound_v, info, node);  // counted for pod affinity and spread
    self->send(impl.owner(node), atom::pod_bound_v, std::move(info));
  }
  impl.sync_nodes(self);
  return {};
}

Result<std::vector<PodOutcome>> BenchHarness::Impl::run(std::vector<Pod> pods, size_t window,
                                                        std::chrono::milliseconds timeout) {
  const auto deadline = BenchClock::now() + timeout;
  caf::anon_send(cycle, atom::start_v);  // a cycle already started ignores it
  const size_t total = pods.size();
  for (size_t sent = 0; sent < total; ++sent) {
    if (window > 0 && sent >= window && !sink->wait_for(sent - window + 1, deadline))
      return Error{"schedule: timed out after " + std::to_string(sink->finished()) + " of " + std::to_string(total) +
                   " pods"};
    Pod pod = std::move(pods[sent]);
    pod.spec.scheduler_name = framework->profile_name();
    if (pod.meta.uid.empty()) pod.meta.uid = pod.meta.namespace_name + "/" + pod.meta.name;
    auto info = plugins::PodInfo::make(std::move(pod));
    // ElasticQuota counts a pending pod's request before it is tried (as the informer reports it).
    if (quotas) caf::anon_send(cycle, atom::quota_pod_v, PodInfoPtr(info));
    auto queued = make_queued_pod(std::move(info), framework);
    queued->first_queued = QueueClock::now();
    sink->expect(queued->pod->key, BenchClock::now());
    caf::anon_send(queue, atom::enqueue_v, QueuedPodPtr(std::move(queued)));
  }
  if (!sink->wait_for(total, deadline))
    return Error{"schedule: timed out after " + std::to_string(sink->finished()) + " of " + std::to_string(total) +
                 " pods"};
  return sink->take();
}

Result<std::vector<PodOutcome>> BenchHarness::place_reservations(const std::vector<Reservation>& reservations,
                                                                 std::chrono::milliseconds timeout) {
  auto& impl = *impl_;
  if (!impl.cycle) return Error{"place_reservations: load the cluster first"};
  std::vector<Pod> reserve_pods;
  for (Reservation r : reservations) {
    if (!r.spec.pod_template) return Error{"place_reservations: reservation " + r.meta.name + " has no template"};
    r.spec.pod_template->spec.scheduler_name = impl.framework->profile_name();
    impl.reservations->add(r);
    reserve_pods.push_back(plugins::reservation::make_reserve_pod(r));
  }
  auto outcomes = impl.run(std::move(reserve_pods), 0, timeout);
  if (!outcomes) return outcomes;
  caf::scoped_actor self{*impl.system};
  // As the informer does: the reserve pods count among the cycle's cluster pods.
  for (auto& bound : impl.reservations->take_bound())
    self->send(impl.cycle, atom::upsert_reservation_v, ReservationPtr(std::move(bound)));
  impl.sync_nodes(self);
  return outcomes;
}

void BenchHarness::load_workloads(const std::vector<WorkloadSelector>& workloads) {
  auto& impl = *impl_;
  if (!impl.cycle) return;
  caf::scoped_actor self{*impl.system};
  for (const auto& w : workloads)
    self->send(impl.cycle, atom::upsert_workload_v, WorkloadSelectorPtr(std::make_shared<const WorkloadSelector>(w)));
}

Status BenchHarness::load_quotas(const std::vector<plugins::elastic_quota::QuotaSpec>& quotas) {
  auto& impl = *impl_;
  if (!impl.cycle) return Error{"load_quotas: load the cluster first"};
  if (plugins::elastic_quota::ElasticQuotaPlugin::of(*impl.framework) == nullptr)
    return Error{"load_quotas: the profile does not run ElasticQuota"};
  caf::scoped_actor self{*impl.system};
  for (const auto& quota : quotas)
    self->send(impl.cycle, atom::upsert_elastic_quota_v,
               QuotaSpecPtr(std::make_shared<const plugins::elastic_quota::QuotaSpec>(quota)));
  // Answered after the quotas (one sender, in order): the cycle holds them.
  self->request(impl.cycle, caf::infinite, atom::quota_figures_v).receive([](const QuotaFiguresPtr&) {},
                                                                          [](caf::error&) {});
  impl.quotas = true;
  return {};
}

Result<std::vector<PodOutcome>> BenchHarness::schedule(std::vector<Pod> pods, size_t window,
                                                       std::chrono::milliseconds timeout) {
  if (!impl_->cycle) return Error{"schedule: load the cluster first"};
  return impl_->run(std::move(pods), window, timeout);
}

ProcessMemory process_memory() {
  ProcessMemory memory;
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    std::istringstream fields(line);
    std::string key;
    int64_t kib = 0;
    fields >> key >> kib;
    if (key == "VmHWM:") memory.peak_rss_bytes = kib * 1024;
    if (key == "RssAnon:") memory.anon_rss_bytes = kib * 1024;
  }
  const struct mallinfo2 heap = mallinfo2();
  memory.heap_bytes = static_cast<int64_t>(heap.uordblks + heap.hblkhd);
  return memory;
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = std::ceil(std::clamp(p, 0.0, 1.0) * static_cast<double>(values.size()));
  const size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return values[std::min(index, values.size() - 1)];
}

}  // namespace troupe::actors
