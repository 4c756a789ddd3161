#pragma once
// BenchHarness: the scheduler's real actors (node actors holding partitions,
// the queue, the scheduling cycle, the profile's Framework from
// plugins::make_frameworks) with the watch layer replaced by direct event
// injection and the API writer replaced by a binder that confirms in-process.
// `troupe bench` and `troupe replay` drive it; they measure the scheduler,
// not HTTP (shared/docs/benchmarks.md §1).
//
// Objects enter as the informer would send them: nodes, Devices and
// NodeResourceTopologies to the node actor owning them (partition_of), pods
// already bound to their node's actor, pending pods to the queue. Every
// pending pod ends in exactly one PodOutcome: its Binding (confirmed at once)
// or its first FailedScheduling report, after which the pod is dropped from
// the queue, so an unplaceable pod is tried once (as the trace method wants)
// and never retried behind the benchmark's back.
//
// Reservations go the way the reservation controller sends them: their
// reserve pods through the queue and the cycle (every plugin, cpusets and
// devices included); the binder then makes each bound one Available (the
// status and allocation annotations the API writer would write) and hands it
// to its node's actor, where it holds its resources for the pods that follow.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/device.hpp"
#include "model/node.hpp"
#include "model/node_metric.hpp"
#include "model/node_resource_topology.hpp"
#include "model/pod.hpp"
#include "model/reservation.hpp"
#include "model/result.hpp"
#include "model/workload_selector.hpp"
#include "plugins/elastic_quota/quota_spec.hpp"

namespace troupe::actors {

using BenchClock = std::chrono::steady_clock;

struct BenchHarnessOptions {
  /// A KubeSchedulerConfiguration (YAML); its first profile schedules every
  /// pod (their schedulerName is overwritten with the profile's name).
  std::string config_yaml;
  /// CAF scheduler threads; 0 = one per hardware thread.
  size_t threads = 0;
  /// Node actors; 0 = one per thread. Ignored with one_node_per_actor.
  size_t partitions = 0;
  /// One node actor per node (the granularity comparison): the partition
  /// count is set to the node count when the cluster is loaded.
  bool one_node_per_actor = false;
  /// selectHost's tie-break seed.
  uint64_t seed = 1;
  /// The partitions' evaluation caches (troupe.evaluationCache).
  bool evaluation_cache = true;
};

/// How one pending pod ended.
struct PodOutcome {
  std::string key;   // namespace/name
  bool bound = false;
  std::string node;  // when bound
  std::map<std::string, std::string> annotations;  // the Binding's (device-allocated, ...)
  std::string message;                              // the failure message otherwise
  BenchClock::time_point enqueued;
  BenchClock::time_point finished;

  double latency_ms() const { return std::chrono::duration<double, std::milli>(finished - enqueued).count(); }
};

/// How many Devices and NRTs load_cluster lets be in flight per partition.
inline constexpr size_t kObjectsInFlightPerPartition = 8;

class BenchHarness {
 public:
  /// Errors: a configuration that does not parse or has no profile, or a
  /// Framework that cannot be built.
  static Result<std::unique_ptr<BenchHarness>> start(const BenchHarnessOptions& options);
  ~BenchHarness();
  BenchHarness(const BenchHarness&) = delete;
  BenchHarness& operator=(const BenchHarness&) = delete;

  /// The scheduling profile's name, and whether it runs a plugin at Filter.
  const std::string& profile_name() const;
  bool has_filter_plugin(const std::string& name) const;
  size_t partitions() const;

  /// Spawns the scheduling actors (node actors, cycle, binder) for a
  /// cluster of `node_count` nodes, unless they run already. load_cluster
  /// calls it; a caller measuring the memory the nodes take calls it first,
  /// so the actors' fixed cost is not counted per node.
  void spawn_actors(size_t node_count);
  /// Sends every object to the node actor that owns it and returns once
  /// they have all been applied (spawn_actors first, if needed). Devices and
  /// NRTs, which the node actors drop once applied, go at most
  /// kObjectsInFlightPerPartition per partition at a time.
  void load_cluster(const std::vector<Node>& nodes, const std::vector<Device>& devices,
                    const std::vector<NodeResourceTopology>& topologies);
  /// Sends each NodeMetric to the node actor owning its node (as the
  /// informer does for LoadAwareScheduling) and returns once applied.
  void load_node_metrics(const std::vector<NodeMetric>& metrics);
  /// Hands the cycle the Services' and controllers' pod selectors (as the
  /// informer does): PodTopologySpread's default constraints read them.
  void load_workloads(const std::vector<WorkloadSelector>& workloads);
  /// Hands the cycle ElasticQuota's quota groups (as the informer does) and
  /// returns once it holds them; the pods then scheduled are reported to its
  /// quota book as pending first. Needs a profile that runs ElasticQuota.
  Status load_quotas(const std::vector<plugins::elastic_quota::QuotaSpec>& quotas);
  /// Accounts pods already bound (spec.nodeName set) on their nodes, as the
  /// informer does for pods it did not schedule; returns once applied.
  /// Errors: a pod without spec.nodeName.
  Status place_bound_pods(const std::vector<Pod>& pods);

  /// Schedules Pending Reservations (their reserve pods, as the reservation
  /// controller queues them; template schedulerName overwritten with the
  /// profile's) and returns once every bound one is Available on its node's
  /// actor. Outcomes as schedule()'s, keyed by the reserve pod.
  Result<std::vector<PodOutcome>> place_reservations(const std::vector<Reservation>& reservations,
                                                     std::chrono::milliseconds timeout);

  /// Queues pending pods (at most `window` unfinished at any time; 0 = all
  /// at once) and waits until every one has an outcome or `timeout` passes.
  /// Outcomes are in the order they finished. Errors: the timeout.
  Result<std::vector<PodOutcome>> schedule(std::vector<Pod> pods, size_t window,
                                           std::chrono::milliseconds timeout);

 private:
  struct Impl;
  explicit BenchHarness(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// The process's peak resident set (VmHWM of /proc/self/status) and the
/// anonymous part of its resident set now (RssAnon: heap, stacks; what
/// loading objects grows, whereas the code pages the first load faults in
/// are a cost paid once), in bytes; 0 when unknown. And the heap in use
/// (mallinfo2: uordblks + hblkhd): unlike RSS it leaves out memory malloc
/// holds free, so a load's delta is the bytes its objects keep.
struct ProcessMemory {
  int64_t peak_rss_bytes = 0;
  int64_t anon_rss_bytes = 0;
  int64_t heap_bytes = 0;
};
ProcessMemory process_memory();

/// p-quantile (0..1) of `values` by the nearest-rank method; 0 when empty.
double percentile(std::vector<double> values, double p);

}  // namespace troupe::actors
