#pragma once
// MigrationView: the migration actor's own picture of the cluster — nodes,
// live pods, NodeMetrics, PodMigrationJobs, Reservations and PDBs — kept from
// watch events, and the questions the descheduler core asks of it (node
// loads for LowNodeLoad, the workload of a pod for the arbiter, what a job
// observes for the state machine).
//
// Why a separate view rather than the informer's node partitions: the
// descheduler needs whole-cluster questions (all pods of a workload, every
// node's load at once) that the partitioned NodeInfos answer only through a
// fan-out, while a descheduling cycle runs once a minute. One extra watch on
// pods and nodes is cheap next to that, keeps the migration actor out of the
// scheduling path, and lets it run with no change to the scheduler's actors.
//
// Pure data, no actor or I/O: tested directly (test/actors/migration_view_test.cpp).

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/device.hpp"
#include "model/node.hpp"
#include "model/node_metric.hpp"
#include "model/pod.hpp"
#include "model/pod_disruption_budget.hpp"
#include "model/pod_migration_job.hpp"
#include "model/reservation.hpp"
#include "plugins/descheduler/arbiter.hpp"
#include "plugins/descheduler/gpu_defrag.hpp"
#include "plugins/descheduler/node_fit.hpp"
#include "plugins/descheduler/node_load.hpp"
#include "watch/watch_event.hpp"

namespace troupe::actors {

/// The collections the view follows, by the resource names its reflectors use.
inline constexpr const char* kViewNodes = "nodes";
inline constexpr const char* kViewPods = "pods";
inline constexpr const char* kViewNodeMetrics = "nodemetrics";
inline constexpr const char* kViewJobs = "podmigrationjobs";
inline constexpr const char* kViewReservations = "reservations";
inline constexpr const char* kViewPdbs = "poddisruptionbudgets";
/// Koordinator Devices (GPU defragmentation; optional CRD).
inline constexpr const char* kViewDevices = "devices";

class MigrationView {
 public:
  /// Applies one watch event. An object that does not decode is an error
  /// naming the resource and object; the view is left unchanged then.
  Status apply(const std::string& resource, watch::EventType type, const watch::ObjectPtr& object);
  /// A pod ADDED or MODIFIED, `object` already decoded as `pod` (the same as
  /// apply(kViewPods, ...) without decoding again).
  Status apply_pod(const watch::ObjectPtr& object, const Result<std::shared_ptr<const Pod>>& pod);

  /// One input per node (pods bound to it, its NodeMetric or nullptr), in
  /// node-name order; `selector` (when given) keeps only matching nodes.
  std::vector<plugins::descheduler::NodeLoadInput> node_loads(const LabelSelector* selector = nullptr) const;
  /// Every node with the summed requests of its pods (the evictor's nodeFit).
  std::vector<plugins::descheduler::NodeRoom> node_rooms() const;

  /// Every node with a Device: its GPU cards and the pods on them (from
  /// their device-allocated annotations), in node-name order.
  std::vector<plugins::descheduler::GpuNode> gpu_nodes() const;
  /// Unbound, live pods of these schedulers that ask for whole GPUs, oldest
  /// first (then by key).
  std::vector<plugins::descheduler::PendingGpuPod> pending_whole_gpu_pods(
      const std::vector<std::string>& scheduler_names) const;

  std::shared_ptr<const Pod> pod(const std::string& key) const;
  std::shared_ptr<const Reservation> reservation(const std::string& name) const;
  std::shared_ptr<const PodMigrationJob> job(const std::string& name) const;
  const std::map<std::string, std::shared_ptr<const PodMigrationJob>>& jobs() const { return jobs_; }
  /// Replaces a job by a newer copy (our own status write, before its watch event arrives).
  void put_job(std::shared_ptr<const PodMigrationJob> job);
  /// Forgets a job (deleted, or no longer decoding while Pending).
  void drop_job(const std::string& name);

  /// The pod's controller as the arbiter sees it, or nullptr for bare pods.
  /// Expected replicas are the controller's live pods we see (no ReplicaSet
  /// reflector: a controller that keeps its replicas has exactly that many).
  std::shared_ptr<const plugins::descheduler::Workload> workload_of(const Pod& pod) const;
  /// Why a PodDisruptionBudget forbids evicting the pod now (it selects the
  /// pod and allows no disruption), or nullopt.
  std::optional<std::string> pdb_refusal(const Pod& pod) const;
  /// Names of the jobs not yet Succeeded/Failed/Aborted that move `pod_key`.
  bool has_active_job(const std::string& pod_key) const;
  /// The first current owner of the reservation is a Ready pod.
  bool reservation_owner_ready(const Reservation& reservation) const;

  size_t node_count() const { return nodes_.size(); }
  size_t pod_count() const { return pods_.size(); }

 private:
  void put_pod(std::shared_ptr<const Pod> pod);
  void drop_pod(const std::string& key);
  /// Counts (+1) or uncounts (-1) the job in active_jobs_by_pod_ when it is not finished.
  void count_active(const PodMigrationJob& job, int delta);

  std::map<std::string, std::shared_ptr<const Node>> nodes_;
  std::unordered_map<std::string, std::shared_ptr<const Pod>> pods_;
  std::unordered_map<std::string, std::set<std::string>> pods_by_node_;
  std::unordered_map<std::string, std::set<std::string>> pods_by_owner_;  // controller uid -> pod keys
  /// Node -> the summed requests of its pods, kept as pods come and go
  /// (Quantity sums are exact), so that a cycle's nodeFit does not re-add
  /// every pod of the cluster.
  std::unordered_map<std::string, ResourceList> requested_by_node_;
  /// A NodeMetric with its pods' usage summed once on arrival, not every cycle.
  struct SummedMetric {
    std::shared_ptr<const NodeMetric> metric;
    std::shared_ptr<const plugins::descheduler::UsageTotals> pod_totals;
  };
  std::unordered_map<std::string, SummedMetric> metrics_;
  std::map<std::string, std::shared_ptr<const PodMigrationJob>> jobs_;
  /// Pod key -> its jobs not yet finished: LowNodeLoad asks has_active_job
  /// of every candidate pod, and finished jobs stay around until deleted.
  std::unordered_map<std::string, int> active_jobs_by_pod_;
  std::unordered_map<std::string, std::shared_ptr<const Reservation>> reservations_;
  std::map<std::string, std::shared_ptr<const PodDisruptionBudget>> pdbs_;
  std::map<std::string, std::shared_ptr<const Device>> devices_;  // by node name (a Device is named after its node)
};

/// A pod counts as unavailable when terminating, Failed/Unknown, or with a
/// Ready condition that is not True (pods no kubelet reported on count as
/// available: the embedded API server has none).
bool pod_unavailable(const Pod& pod);
/// Ready=True.
bool pod_ready(const Pod& pod);
/// Succeeded, Failed or Aborted.
bool job_finished(const PodMigrationJob& job);

}  // namespace troupe::actors
