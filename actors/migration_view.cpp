#include "actors/migration_view.hpp"

#include <algorithm>

#include "model/condition.hpp"
#include "watch/object_store.hpp"
#include "model/pod_requests.hpp"
#include "plugins/descheduler/gpu_inventory.hpp"
#include "plugins/descheduler/migration_job.hpp"
#include "plugins/descheduler/workload_limits.hpp"

namespace troupe::actors {

namespace ds = plugins::descheduler;

namespace {

template <class T>
Status decoded(const Result<T>& result, const std::string& resource, const watch::ObjectPtr& object) {
  if (result) return {};
  return Error{resource + " " + watch::ObjectStore::key_of(*object) + ": " + result.message()};
}

/// resourceVersions are opaque to clients, but etcd's (and the embedded
/// server's) are decimal counters; anything else never counts as older.
bool older_version(const std::string& candidate, const std::string& current) {
  if (candidate.empty() || current.empty()) return false;
  if (candidate.size() != current.size()) return candidate.size() < current.size();
  return candidate < current;
}

const std::string* controller_uid(const Pod& pod) {
  const OwnerReference* owner = pod.meta.controller_ref();
  return owner ? &owner->uid : nullptr;
}

}  // namespace

bool pod_ready(const Pod& pod) {
  const Condition* ready = find_condition(pod.status.conditions, "Ready");
  return ready && ready->status == "True";
}

bool pod_unavailable(const Pod& pod) {
  if (pod.meta.is_terminating() || pod.status.phase == "Failed" || pod.status.phase == "Unknown") return true;
  if (pod.spec.node_name.empty()) return true;  // a replacement not scheduled yet
  // Koordinator counts only Ready pods as available; a bound pod without any
  // Ready condition is taken as available, for clusters without kubelets
  // (troupe apiserver) where none ever gets one.
  const Condition* ready = find_condition(pod.status.conditions, "Ready");
  return ready && ready->status != "True";
}

bool job_finished(const PodMigrationJob& job) {
  const std::string& phase = job.status.phase;
  return phase == ds::kPhaseSucceeded || phase == ds::kPhaseFailed || phase == ds::kPhaseAborted;
}

Status MigrationView::apply(const std::string& resource, watch::EventType type, const watch::ObjectPtr& object) {
  if (!object) return Error{resource + ": event without an object"};
  const bool gone = type == watch::EventType::deleted;
  const std::string key = watch::ObjectStore::key_of(*object);
  if (resource == kViewPods) {
    if (gone) {
      drop_pod(key);
      return {};
    }
    auto pod = decode_pod(object);
    if (!pod) return apply_pod(object, Error{pod.message()});
    return apply_pod(object, std::shared_ptr<const Pod>(std::make_shared<const Pod>(std::move(*pod))));
  } else if (resource == kViewNodes) {
    if (gone) return nodes_.erase(key), Status{};
    auto node = decode_node(object);
    if (auto s = decoded(node, resource, object); !s) return s;
    nodes_[key] = std::make_shared<const Node>(std::move(*node));
  } else if (resource == kViewNodeMetrics) {
    if (gone) return metrics_.erase(key), Status{};
    auto metric = decode_node_metric(object);
    if (auto s = decoded(metric, resource, object); !s) return s;
    auto totals = std::make_shared<const ds::UsageTotals>(ds::pod_usage_totals(*metric));
    metrics_[key] = {std::make_shared<const NodeMetric>(std::move(*metric)), std::move(totals)};
  } else if (resource == kViewJobs) {
    if (gone) return drop_job(key), Status{};
    auto job = decode_pod_migration_job(object);
    if (auto s = decoded(job, resource, object); !s) return s;
    put_job(std::make_shared<const PodMigrationJob>(std::move(*job)));
  } else if (resource == kViewReservations) {
    if (gone) return reservations_.erase(key), Status{};
    auto reservation = decode_reservation(object);
    if (auto s = decoded(reservation, resource, object); !s) return s;
    reservations_[key] = std::make_shared<const Reservation>(std::move(*reservation));
  } else if (resource == kViewPdbs) {
    if (gone) return pdbs_.erase(key), Status{};
    auto pdb = decode_pod_disruption_budget(object);
    if (auto s = decoded(pdb, resource, object); !s) return s;
    pdbs_[key] = std::make_shared<const PodDisruptionBudget>(std::move(*pdb));
  } else if (resource == kViewDevices) {
    if (gone) return devices_.erase(key), Status{};
    auto device = decode_device(object);
    if (auto s = decoded(device, resource, object); !s) return s;
    devices_[key] = std::make_shared<const Device>(std::move(*device));
  } else {
    return Error{"the migration view does not follow " + resource};
  }
  return {};
}

Status MigrationView::apply_pod(const watch::ObjectPtr& object, const Result<std::shared_ptr<const Pod>>& pod) {
  if (auto s = decoded(pod, kViewPods, object); !s) return s;
  const std::shared_ptr<const Pod>& p = *pod;
  // Finished pods hold nothing and will not come back (the reflector's
  // field selector drops them only from the next list on).
  if (pod_finished(*p)) {
    drop_pod(p->meta.key());
    return {};
  }
  put_pod(p);
  return {};
}

void MigrationView::put_pod(std::shared_ptr<const Pod> pod) {
  const std::string key = pod->meta.key();
  drop_pod(key);
  if (!pod->spec.node_name.empty()) {
    pods_by_node_[pod->spec.node_name].insert(key);
    requested_by_node_[pod->spec.node_name] += pod_requests(pod->spec);
  }
  if (const std::string* uid = controller_uid(*pod)) pods_by_owner_[*uid].insert(key);
  pods_[key] = std::move(pod);
}

void MigrationView::drop_pod(const std::string& key) {
  auto it = pods_.find(key);
  if (it == pods_.end()) return;
  const Pod& pod = *it->second;
  auto erase_from = [&](auto& index, const std::string& slot) {
    auto found = index.find(slot);
    if (found == index.end()) return;
    found->second.erase(key);
    if (found->second.empty()) index.erase(found);
  };
  if (!pod.spec.node_name.empty()) {
    erase_from(pods_by_node_, pod.spec.node_name);
    // The last pod gone drops the sum, so names summed to zero do not linger.
    if (!pods_by_node_.count(pod.spec.node_name)) {
      requested_by_node_.erase(pod.spec.node_name);
    } else if (auto sum = requested_by_node_.find(pod.spec.node_name); sum != requested_by_node_.end()) {
      sum->second -= pod_requests(pod.spec);
    }
  }
  if (const std::string* uid = controller_uid(pod)) erase_from(pods_by_owner_, *uid);
  pods_.erase(it);
}

namespace {

std::string job_pod_key(const PodMigrationJob& job) {
  return job.spec.pod_ref.namespace_name + "/" + job.spec.pod_ref.name;
}

}  // namespace

void MigrationView::count_active(const PodMigrationJob& job, int delta) {
  if (job_finished(job)) return;
  const std::string key = job_pod_key(job);
  int& count = active_jobs_by_pod_[key];
  count += delta;
  if (count <= 0) active_jobs_by_pod_.erase(key);
}

void MigrationView::put_job(std::shared_ptr<const PodMigrationJob> job) {
  auto& slot = jobs_[job->meta.name];
  // A watch event older than our own write must not undo it.
  if (slot && older_version(job->meta.resource_version, slot->meta.resource_version)) return;
  if (slot) count_active(*slot, -1);
  count_active(*job, +1);
  slot = std::move(job);
}

void MigrationView::drop_job(const std::string& name) {
  auto it = jobs_.find(name);
  if (it == jobs_.end()) return;
  count_active(*it->second, -1);
  jobs_.erase(it);
}

std::vector<ds::NodeLoadInput> MigrationView::node_loads(const LabelSelector* selector) const {
  std::vector<ds::NodeLoadInput> out;
  out.reserve(nodes_.size());
  for (const auto& [name, node] : nodes_) {
    if (selector && !selector->matches(node->meta.labels)) continue;
    ds::NodeLoadInput input;
    input.node = node;
    if (auto it = pods_by_node_.find(name); it != pods_by_node_.end()) {
      input.pods.reserve(it->second.size());
      for (const std::string& key : it->second) input.pods.push_back(pods_.at(key));
    }
    if (auto it = metrics_.find(name); it != metrics_.end()) {
      input.metric = it->second.metric;
      input.pod_totals = it->second.pod_totals;
    }
    if (auto it = requested_by_node_.find(name); it != requested_by_node_.end()) input.requested = &it->second;
    out.push_back(std::move(input));
  }
  return out;
}

std::vector<ds::NodeRoom> MigrationView::node_rooms() const {
  std::vector<ds::NodeRoom> rooms;
  rooms.reserve(nodes_.size());
  for (const auto& [name, node] : nodes_) {
    ds::NodeRoom room;
    room.node = node.get();
    if (auto it = requested_by_node_.find(name); it != requested_by_node_.end()) room.requested = it->second;
    rooms.push_back(std::move(room));
  }
  return rooms;
}

std::vector<ds::GpuNode> MigrationView::gpu_nodes() const {
  std::vector<ds::GpuNode> out;
  for (const auto& [name, device] : devices_) {
    if (!nodes_.count(name)) continue;  // a Device outliving its node offers nothing to place on
    std::vector<std::shared_ptr<const Pod>> pods;
    if (auto it = pods_by_node_.find(name); it != pods_by_node_.end()) {
      for (const std::string& key : it->second) pods.push_back(pods_.at(key));
    }
    out.push_back(ds::gpu_node_from(name, *device, pods));
  }
  return out;
}

std::vector<ds::PendingGpuPod> MigrationView::pending_whole_gpu_pods(const std::vector<std::string>& scheduler_names) const {
  std::vector<ds::PendingGpuPod> out;
  for (const auto& [key, pod] : pods_) {
    if (!pod->spec.node_name.empty() || pod->meta.is_terminating()) continue;
    if (std::find(scheduler_names.begin(), scheduler_names.end(), pod->spec.scheduler_name) == scheduler_names.end())
      continue;
    if (auto cards = ds::whole_gpu_request(*pod)) out.push_back({pod, *cards});
  }
  std::sort(out.begin(), out.end(), [](const ds::PendingGpuPod& a, const ds::PendingGpuPod& b) {
    const Timestamp ta = a.pod->meta.creation_timestamp.value_or(Timestamp{});
    const Timestamp tb = b.pod->meta.creation_timestamp.value_or(Timestamp{});
    if (ta != tb) return ta < tb;
    return a.pod->meta.key() < b.pod->meta.key();
  });
  return out;
}

std::shared_ptr<const Pod> MigrationView::pod(const std::string& key) const {
  auto it = pods_.find(key);
  return it == pods_.end() ? nullptr : it->second;
}

std::shared_ptr<const Reservation> MigrationView::reservation(const std::string& name) const {
  auto it = reservations_.find(name);
  return it == reservations_.end() ? nullptr : it->second;
}

std::shared_ptr<const PodMigrationJob> MigrationView::job(const std::string& name) const {
  auto it = jobs_.find(name);
  return it == jobs_.end() ? nullptr : it->second;
}

std::shared_ptr<const ds::Workload> MigrationView::workload_of(const Pod& pod) const {
  const OwnerReference* owner = pod.meta.controller_ref();
  if (!owner) return nullptr;
  auto workload = std::make_shared<ds::Workload>();
  workload->uid = owner->uid;
  workload->description = owner->kind + " " + pod.meta.namespace_name + "/" + owner->name;
  if (auto it = pods_by_owner_.find(owner->uid); it != pods_by_owner_.end()) {
    for (const std::string& key : it->second) {
      const Pod& sibling = *pods_.at(key);
      // A terminating pod is unavailable; its replacement, not it, is what the controller expects.
      if (!sibling.meta.is_terminating()) ++workload->expected_replicas;
      if (pod_unavailable(sibling)) workload->unavailable_pods.push_back(key);
    }
  }
  return workload;
}

std::optional<std::string> MigrationView::pdb_refusal(const Pod& pod) const {
  for (const auto& [key, pdb] : pdbs_) {
    if (pdb->meta.namespace_name != pod.meta.namespace_name || !pdb->selects(pod.meta.labels)) continue;
    if (pdb->status.disruptions_allowed <= 0) {
      return "PodDisruptionBudget " + key + " allows no disruption";
    }
  }
  return std::nullopt;
}

bool MigrationView::has_active_job(const std::string& pod_key) const {
  return active_jobs_by_pod_.count(pod_key) > 0;
}

bool MigrationView::reservation_owner_ready(const Reservation& reservation) const {
  for (const ObjectReference& owner : reservation.status.current_owners) {
    auto it = pods_.find(owner.namespace_name + "/" + owner.name);
    if (it != pods_.end() && pod_ready(*it->second)) return true;
  }
  return false;
}

}  // namespace troupe::actors
