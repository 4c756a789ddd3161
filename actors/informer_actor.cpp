#include "actors/informer_actor.hpp"

#include <spdlog/spdlog.h>

#include <functional>
#include <utility>

#include "actors/gpu_health.hpp"
#include "actors/partitioning.hpp"
#include "actors/pod_routing.hpp"
#include "actors/reservation_routing.hpp"
#include "actors/undecodable_objects.hpp"
#include "actors/volume_store.hpp"
#include "model/elastic_quota.hpp"
#include "model/json.hpp"
#include "model/pod_group.hpp"
#include "model/workload_selector.hpp"
#include "plugins/coscheduling/coscheduling_plugin.hpp"
#include "plugins/elastic_quota/elastic_quota_plugin.hpp"
#include "plugins/image_locality/image_spread.hpp"
#include "plugins/load_aware/queueing_hint.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::actors {

namespace {

using Self = informer_actor::stateful_pointer<informer_state>;
using plugins::ActionType;

bool same_taints(const std::vector<Taint>& a, const std::vector<Taint>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].key != b[i].key || a[i].value != b[i].value || a[i].effect != b[i].effect) return false;
  return true;
}

bool same_conditions(const std::vector<Condition>& a, const std::vector<Condition>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].type != b[i].type || a[i].status != b[i].status) return false;
  return true;
}

const node_actor& owner(Self self, const std::string& node) {
  auto& nodes = self->state.deps.nodes;
  return nodes[partition_of(node, nodes.size())];
}

void cluster_event(Self self, plugins::EventResource resource, uint32_t actions) {
  if (actions == 0) return;
  self->send(self->state.deps.queue, atom::cluster_event_v, static_cast<uint8_t>(resource), actions);
}

/// The ActionType of a watch event.
uint32_t action_of(watch::EventType type) {
  switch (type) {
    case watch::EventType::added: return ActionType::kAdd;
    case watch::EventType::deleted: return ActionType::kDelete;
    default: return ActionType::kUpdate;
  }
}

/// Pods placed (or relabelled) are a cluster event for the pods that pod
/// affinity or topology spread rejected (upstream's AssignedPodAdd/Update). A
/// burst of bindings makes one event, kPlacedEventDelay after the first: the
/// queue checks every unschedulable pod per event.
constexpr auto kPlacedEventDelay = std::chrono::milliseconds(20);

void pods_placed(Self self, uint32_t actions) {
  auto& st = self->state;
  if (st.placed_actions == 0) self->delayed_send(self, kPlacedEventDelay, atom::tick_v);
  st.placed_actions |= actions;
}

/// What ClusterPods reads of a bound pod that may change while it is bound.
uint64_t placement_fingerprint(const JsonValue& pod, bool terminating) {
  std::string text = terminating ? "T" : "-";
  auto meta = pod.FindMember("metadata");
  if (meta != pod.MemberEnd() && meta->value.IsObject())
    if (auto labels = meta->value.FindMember("labels"); labels != meta->value.MemberEnd()) text += to_json(labels->value);
  return std::hash<std::string>{}(text);
}

void append_member(std::string& text, const JsonValue& object, const char* key) {
  text += '|';
  if (!object.IsObject()) return;
  auto member = object.FindMember(key);
  if (member != object.MemberEnd()) text += to_json(member->value);
}

/// `key` of each object in the array `object[array]`.
void append_each(std::string& text, const JsonValue& object, const char* array, const char* key) {
  if (!object.IsObject()) return;
  auto items = object.FindMember(array);
  if (items == object.MemberEnd() || !items->value.IsArray()) return;
  for (const auto& item : items->value.GetArray()) append_member(text, item, key);
}

/// What a bound pod's requests are computed from that may change while it
/// is bound (in-place resize, model/pod_requests.hpp): the containers'
/// resources in spec and status, and the PodResizePending condition.
uint64_t resources_fingerprint(const JsonValue& pod) {
  std::string text;
  if (auto spec = pod.FindMember("spec"); spec != pod.MemberEnd() && spec->value.IsObject()) {
    append_each(text, spec->value, "containers", "resources");
    append_each(text, spec->value, "initContainers", "resources");
    append_member(text, spec->value, "resources");
  }
  if (auto status = pod.FindMember("status"); status != pod.MemberEnd() && status->value.IsObject()) {
    for (const char* statuses : {"containerStatuses", "initContainerStatuses"}) {
      append_each(text, status->value, statuses, "allocatedResources");
      append_each(text, status->value, statuses, "resources");
    }
    auto conditions = status->value.FindMember("conditions");
    if (conditions != status->value.MemberEnd() && conditions->value.IsArray())
      for (const auto& condition : conditions->value.GetArray())
        if (condition.IsObject() && condition.HasMember("type") && condition["type"] == "PodResizePending")
          append_member(text, condition, "reason");
  }
  return std::hash<std::string>{}(text);
}

/// Some amount `now` asks for is below what `before` asked (upstream's
/// extractPodScaleDown): pods waiting for room may fit.
bool scaled_down(const plugins::ResourceVector& before, const plugins::ResourceVector& now) {
  if (now.milli_cpu < before.milli_cpu || now.memory < before.memory || now.ephemeral_storage < before.ephemeral_storage)
    return true;
  for (const auto& [name, amount] : before.scalars)
    if (now.scalar(name) < amount) return true;
  return false;
}

/// A kind of object the node actors hold, as an event's `regarding` names it.
struct FollowedKind {
  const char* kind;
  const char* api_version;
};
constexpr FollowedKind kNodeKind{"Node", "v1"};
constexpr FollowedKind kDeviceKind{"Device", "scheduling.koordinator.sh/v1alpha1"};
constexpr FollowedKind kTopologyKind{"NodeResourceTopology", "topology.node.k8s.io/v1alpha1"};
constexpr FollowedKind kReservationKind{"Reservation", "scheduling.koordinator.sh/v1alpha1"};
constexpr FollowedKind kNodeMetricKind{"NodeMetric", "slo.koordinator.sh/v1alpha1"};
constexpr FollowedKind kElasticQuotaKind{"ElasticQuota", "scheduling.sigs.k8s.io/v1alpha1"};

bool leading(const informer_state& st) { return !st.deps.may_schedule || st.deps.may_schedule->load(); }

/// An object of `kind` that does not decode: this version is ignored (the
/// node actor keeps the last one it read, if any), and said so once
/// (actors/unreadable_objects.hpp).
void report_unreadable(Self self, const FollowedKind& kind, const JsonValue& object, const std::string& problem) {
  auto& st = self->state;
  const watch::ObjectReference regarding = reference_to(object, kind.kind, kind.api_version);
  auto verdict = st.unreadable.unreadable(regarding, problem, leading(st), UnreadableReports::Clock::now());
  if (verdict.log) spdlog::warn("informer ignores this version of {} {}: {}", kind.kind, regarding.name, problem);
  if (verdict.event) self->send(st.deps.writer, atom::report_v, verdict.event);
}

void readable(Self self, const FollowedKind& kind, const std::string& name) {
  self->state.unreadable.readable(kind.kind, name);
}

void deleted(Self self, const FollowedKind& kind, const std::string& name) {
  self->state.unreadable.deleted(kind.kind, name);
}

/// The cycle words a pod rejected before any Filter round ("0/N nodes are
/// available: ...") with the node count; it learns it here, not only from rounds.
void count_nodes(Self self) {
  self->send(self->state.deps.cycle, atom::node_count_v, static_cast<int64_t>(self->state.nodes.size()));
}

void on_node(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  auto& known = self->state.nodes;
  if (type == watch::EventType::deleted) {
    std::string name = read_pod_identity(*object).name;  // metadata.name, whatever the kind
    deleted(self, kNodeKind, name);
    if (known.erase(name) > 0) count_nodes(self);
    self->send(owner(self, name), atom::delete_node_v, name);
    self->send(self->state.deps.cycle, atom::delete_node_v, name);
    self->send(self->state.deps.writer, atom::delete_node_v, name);
    cluster_event(self, plugins::EventResource::node, ActionType::kDelete);
    return;
  }
  auto node = decode_node(object);
  if (!node) return report_unreadable(self, kNodeKind, *object, node.message());
  auto ptr = std::make_shared<const Node>(std::move(*node));
  readable(self, kNodeKind, ptr->meta.name);
  auto before = known.find(ptr->meta.name);
  const bool is_new = before == known.end();
  uint32_t actions = is_new ? ActionType::kAdd : node_update_actions(*before->second, *ptr);
  const bool images_moved = !is_new && !plugins::image_locality::same_image_names(*before->second, *ptr);
  known[ptr->meta.name] = ptr;
  if (is_new) count_nodes(self);
  self->send(owner(self, ptr->meta.name), atom::upsert_node_v, NodePtr(ptr));
  // The cycle's ClusterPods reads labels (domains) and taints (nodeTaintsPolicy),
  // its ImageSpread the image names; neither reads heartbeats.
  if (is_new || images_moved || (actions & (ActionType::kUpdateNodeLabel | ActionType::kUpdateNodeTaint)) != 0)
    self->send(self->state.deps.cycle, atom::upsert_node_v, NodePtr(ptr));
  cluster_event(self, plugins::EventResource::node, actions);
}

// A node whose first Device cannot be read gets an empty one in its place:
// it has no devices to give. Treated as a node without a Device, DeviceShare
// would not filter it (Koordinator's rule) and GPU pods would bind there with
// no device allocated. A node with a Device read before keeps that one.
// Sent once; no cluster event: it can only take room away.
void stand_in_for_unreadable_device(Self self, const std::string& node) {
  auto& st = self->state;
  if (node.empty() || st.devices_read.count(node) > 0 || !st.device_stand_ins.insert(node).second) return;
  auto empty = std::make_shared<Device>();
  empty->meta.name = node;
  self->send(owner(self, node), atom::upsert_device_v, DevicePtr(std::move(empty)));
}

// A Device is named after its node: it goes to the actor owning that node.
// A change can make pods DeviceShare rejected fit, so it is a cluster event.
void on_device(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  if (type == watch::EventType::deleted) {
    std::string name = read_pod_identity(*object).name;
    deleted(self, kDeviceKind, name);
    self->state.devices_read.erase(name);
    self->state.device_stand_ins.erase(name);
    self->send(owner(self, name), atom::delete_device_v, name);
    cluster_event(self, plugins::EventResource::other, ActionType::kDelete);
    return;
  }
  auto device = decode_device(object);
  if (!device) {
    report_unreadable(self, kDeviceKind, *object, device.message());
    return stand_in_for_unreadable_device(self, read_pod_identity(*object).name);
  }
  auto ptr = std::make_shared<const Device>(std::move(*device));
  readable(self, kDeviceKind, ptr->meta.name);
  self->state.devices_read.insert(ptr->meta.name);
  self->state.device_stand_ins.erase(ptr->meta.name);
  self->send(owner(self, ptr->meta.name), atom::upsert_device_v, DevicePtr(ptr));
  cluster_event(self, plugins::EventResource::other, action_of(type));
}

// A NodeResourceTopology is named after its node too; a change can make pods
// NodeNUMAResource rejected fit (a cluster event, as for Devices).
void on_topology(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  if (type == watch::EventType::deleted) {
    std::string name = read_pod_identity(*object).name;
    deleted(self, kTopologyKind, name);
    self->send(owner(self, name), atom::delete_topology_v, name);
    cluster_event(self, plugins::EventResource::other, ActionType::kDelete);
    return;
  }
  auto nrt = decode_node_resource_topology(object);
  if (!nrt) return report_unreadable(self, kTopologyKind, *object, nrt.message());
  auto ptr = std::make_shared<const NodeResourceTopology>(std::move(*nrt));
  readable(self, kTopologyKind, ptr->meta.name);
  self->send(owner(self, ptr->meta.name), atom::upsert_topology_v, TopologyPtr(ptr));
  cluster_event(self, plugins::EventResource::other, action_of(type));
}

// A NodeMetric (koordlet's measured load) is named after its node too; it
// goes to the actor owning the node for LoadAwareScheduling. A lighter load
// can make pods it rejected fit: a cluster event, when the queueing hint
// says the report may make room (not for every periodic report).
void on_node_metric(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  auto& seen = self->state.node_metrics;
  if (type == watch::EventType::deleted) {
    std::string name = read_pod_identity(*object).name;
    deleted(self, kNodeMetricKind, name);
    seen.erase(name);
    self->send(owner(self, name), atom::delete_node_metric_v, name);
    cluster_event(self, plugins::EventResource::other, ActionType::kDelete);
    return;
  }
  auto metric = decode_node_metric(object);
  if (!metric) return report_unreadable(self, kNodeMetricKind, *object, metric.message());
  readable(self, kNodeMetricKind, metric->meta.name);
  metric->raw = nullptr;  // pod, device and NUMA metrics the node actors do not read
  auto ptr = std::make_shared<const NodeMetric>(std::move(*metric));
  auto& before = seen[ptr->meta.name];
  const bool may_make_room = plugins::load_aware::node_metric_may_make_room(before.get(), ptr.get());
  before = ptr;
  self->send(owner(self, ptr->meta.name), atom::upsert_node_metric_v, NodeMetricPtr(ptr));
  if (may_make_room)
    cluster_event(self, plugins::EventResource::other, action_of(type));
}

// gpushare-scheduler-extender's kube-system/unhealthy-gpu-<node> lists GPUs
// no pod may use (actors/gpu_health.hpp); it goes to the actor owning the
// node. A GPU back in service can make waiting pods fit: a cluster event.
void on_configmap(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  if (type == watch::EventType::deleted) {
    auto node = gpu_health_node(read_pod_identity(*object).name);
    if (!node) return;
    self->send(owner(self, *node), atom::delete_gpu_health_v, *node);
    cluster_event(self, plugins::EventResource::other, ActionType::kDelete);
    return;
  }
  auto health = decode_gpu_health(*object);
  if (!health) return;  // any other ConfigMap of the namespace
  auto ptr = std::make_shared<const plugins::gpushare::UnhealthyGpus>(std::move(*health));
  self->send(owner(self, ptr->node_name), atom::upsert_gpu_health_v, UnhealthyGpusPtr(ptr));
  cluster_event(self, plugins::EventResource::other, action_of(type));
}

// A PodGroup sets the rules of its gang (Coscheduling): the cycle keeps them
// in its GangBook. Its arrival can let the gang's pods be tried: a cluster event.
// The rules are read with the defaults (CoschedulingArgs) of the first profile
// that runs Coscheduling; without one, PodGroups matter to nobody.
void on_pod_group(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  const PodIdentity id = read_pod_identity(*object);
  const std::string gang_id = id.namespace_name + "/" + id.name;
  if (type == watch::EventType::deleted) {
    if (self->state.pod_group_groups.erase(gang_id) > 0)
      self->send(self->state.deps.queue, atom::regroup_v, gang_id, std::string());
    self->send(self->state.deps.cycle, atom::delete_podgroup_v, gang_id);
    return;
  }
  const plugins::coscheduling::Coscheduling* plugin = nullptr;
  for (const auto& [name, framework] : self->state.deps.frameworks)
    if ((plugin = plugins::coscheduling::Coscheduling::of(*framework)) != nullptr) break;
  if (plugin == nullptr) return;
  auto group = decode_pod_group(object);
  auto rules = group ? plugins::coscheduling::gang_spec_of_pod_group(*group, plugin->args().defaults)
                     : Result<plugins::coscheduling::GangSpec>(Error{"PodGroup " + gang_id + ": " + group.message()});
  if (!rules) spdlog::warn("informer: {}", rules.message());
  // Pods queued before the PodGroup (or under its former group) are tried with its group now.
  auto known = self->state.pod_group_groups.find(gang_id);
  const std::string before = known == self->state.pod_group_groups.end() ? std::string() : known->second;
  const std::string after = rules ? rules->group_id : std::string();
  if (rules) self->state.pod_group_groups[gang_id] = rules->group_id;
  else self->state.pod_group_groups.erase(gang_id);
  if (before != after) self->send(self->state.deps.queue, atom::regroup_v, gang_id, after);
  self->send(self->state.deps.cycle, atom::upsert_podgroup_v,
             PodGroupRulesPtr(std::make_shared<const PodGroupRules>(PodGroupRules{gang_id, std::move(rules)})));
  cluster_event(self, plugins::EventResource::other, action_of(type));
}

// An ElasticQuota: the cycle's quota book keeps its spec (ElasticQuota).
// Quota names are unique in the cluster, as Koordinator's webhook keeps them.
// A change can give quota to the pods it turned away: a cluster event. One
// that does not decode is reported and ignored (the book keeps the last one read).
void on_elastic_quota(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  const std::string name = read_pod_identity(*object).name;
  if (type == watch::EventType::deleted) {
    deleted(self, kElasticQuotaKind, name);
    self->send(self->state.deps.cycle, atom::delete_elastic_quota_v, name);
    cluster_event(self, plugins::EventResource::other, ActionType::kDelete);
    return;
  }
  auto quota = decode_elastic_quota(object);
  if (!quota) return report_unreadable(self, kElasticQuotaKind, *object, quota.message());
  readable(self, kElasticQuotaKind, name);
  auto spec = std::make_shared<const plugins::elastic_quota::QuotaSpec>(plugins::elastic_quota::quota_spec_of(*quota));
  self->send(self->state.deps.cycle, atom::upsert_elastic_quota_v, QuotaSpecPtr(std::move(spec)));
  cluster_event(self, plugins::EventResource::other, action_of(type));
}

// A Service's, ReplicationController's, ReplicaSet's or StatefulSet's pod
// selector: the cycle keeps them for PodTopologySpread's default constraints.
// One that does not decode is dropped (as upstream skips a controller whose
// selector does not parse), with a warning.
void on_workload(Self self, WorkloadKind kind, watch::EventType type, const watch::ObjectPtr& object) {
  auto decoded = decode_workload_selector(kind, *object);
  if (decoded && type != watch::EventType::deleted) {
    self->send(self->state.deps.cycle, atom::upsert_workload_v,
               WorkloadSelectorPtr(std::make_shared<const WorkloadSelector>(std::move(*decoded))));
    return;
  }
  if (!decoded) spdlog::warn("informer: {} ignored: {}", kind_name(kind), decoded.message());
  const PodIdentity id = read_pod_identity(*object);
  auto gone = std::make_shared<WorkloadSelector>();
  gone->kind = kind;
  gone->namespace_name = id.namespace_name;
  gone->name = id.name;
  self->send(self->state.deps.cycle, atom::delete_workload_v, WorkloadSelectorPtr(std::move(gone)));
}

// A namespace's labels: what pod affinity terms' namespaceSelectors select
// by. The cycle keeps them; unchanged labels change nothing there.
void on_namespace(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  auto change = std::make_shared<NamespaceChange>();
  change->name = read_pod_identity(*object).name;  // metadata.name, whatever the kind
  if (type != watch::EventType::deleted) {
    const rapidjson::Value* labels = find_path(*object, "metadata", "labels");
    change->labels = labels != nullptr ? labels_from_json(*labels) : Labels{};
  }
  self->send(self->state.deps.cycle, atom::namespace_labels_v, NamespaceChangePtr(std::move(change)));
}

/// An unreadable Reservation concerns troupe when it is one of its profiles'
/// or may hold room on a node (Available, Waiting): those get an event.
bool reservation_concerns_us(const informer_state& st, const JsonValue& object) {
  const std::string phase = raw_phase(object);
  if (phase == "Available" || phase == "Waiting") return true;
  std::string scheduler = get_string(object, "spec", "template", "spec", "schedulerName");
  if (scheduler.empty()) scheduler = plugins::reservation::kDefaultSchedulerName;
  return st.our_scheduler_names.count(scheduler) > 0;
}

// A Reservation is held by the actor owning status.nodeName while Available,
// and its reserve pod counts among the cycle's cluster pods. The previous
// holder is told when it moves, leaves Available or is deleted.
void on_reservation(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  const PodIdentity id = read_pod_identity(*object);  // metadata.name / uid, whatever the kind
  ReservationPtr reservation;
  if (type == watch::EventType::deleted) {
    deleted(self, kReservationKind, id.name);
  } else if (auto decoded = decode_reservation(object); decoded) {
    readable(self, kReservationKind, id.name);
    reservation = std::make_shared<const Reservation>(std::move(*decoded));
  } else {
    if (reservation_concerns_us(self->state, *object))
      report_unreadable(self, kReservationKind, *object, decoded.message());
    // A started one keeps holding what it reserved (its last version read);
    // a finished one holds nothing any more, readable or not.
    if (!raw_finished(*object)) return;
  }
  auto& held = self->state.reservation_nodes;
  auto before = held.find(id.uid);
  const bool was_held = before != held.end();
  const ReservationMove move = reservation_move(was_held ? before->second : std::string(), reservation.get());
  if (!move.leave.empty()) self->send(owner(self, move.leave), atom::delete_reservation_v, id.uid);
  if (move.hold.empty()) {
    held.erase(id.uid);
    // Its reserve pod leaves the cluster's pods (pod affinity, spreading).
    if (was_held) self->send(self->state.deps.cycle, atom::delete_reservation_v, id.uid);
  } else {
    held[id.uid] = move.hold;
    self->send(owner(self, move.hold), atom::upsert_reservation_v, reservation);
    self->send(self->state.deps.cycle, atom::upsert_reservation_v, reservation);
  }
  // A reservation let go is its reserve pod leaving the node: what pods rejected for room wait for.
  if (!move.leave.empty()) cluster_event(self, plugins::EventResource::pod, ActionType::kDelete);
  // Any change to a held reservation may let waiting owner pods (or others) fit.
  if (was_held || !move.hold.empty())
    cluster_event(self, plugins::EventResource::other,
                  move.hold.empty() ? ActionType::kDelete : (was_held ? ActionType::kUpdate : ActionType::kAdd));
}

void report_malformed(Self self, const PodIdentity& id, const std::string& message) {
  // Our own status patch changes the pod's resourceVersion: report each
  // problem once per pod, not once per version.
  auto& reported = self->state.reported;
  auto it = reported.find(id.key());
  if (it != reported.end() && it->second == id.uid + "\n" + message) return;
  reported[id.key()] = id.uid + "\n" + message;
  auto report = std::make_shared<FailureReport>();
  report->ns = id.namespace_name;
  report->name = id.name;
  report->uid = id.uid;
  report->resource_version = id.resource_version;
  report->profile = id.scheduler_name;
  report->reason = "Unschedulable";
  report->message = "invalid pod: " + message;
  self->send(self->state.deps.writer, atom::report_v, FailureReportPtr(std::move(report)));
  spdlog::warn("informer: pod {} is invalid: {}", id.key(), message);
}

std::string scheduling_fingerprint(const JsonValue& pod) {
  std::string out;
  for (const char* part : {"spec", "metadata"}) {
    auto it = pod.FindMember(part);
    if (it == pod.MemberEnd()) continue;
    if (std::string(part) == "spec") {
      out += to_json(it->value);
      continue;
    }
    for (const char* field : {"labels", "annotations", "deletionTimestamp"}) {
      auto f = it->value.IsObject() ? it->value.FindMember(field) : it->value.MemberEnd();
      if (it->value.IsObject() && f != it->value.MemberEnd()) out += to_json(f->value);
      out += '|';
    }
  }
  return out;
}

void dequeue(Self self, const PodIdentity& id) {
  self->state.pending.erase(id.key());
  self->send(self->state.deps.queue, atom::dequeue_v, id.key());
}

/// The pod is gone (deleted, or finished): the node actor holding it lets it go.
/// `final_state_unknown`: a deletion a re-list found (its state may be stale).
void release_pod(Self self, const PodIdentity& id, bool ours, bool final_state_unknown) {
  auto& bound = self->state.bound_pods;
  auto it = bound.find(id.uid);
  if (it != bound.end()) {
    self->send(owner(self, it->second), atom::pod_gone_v, id.uid);
    bound.erase(it);
    self->state.bound_seen.erase(id.uid);
    cluster_event(self, plugins::EventResource::pod, ActionType::kDelete);
    return;
  }
  // Never seen bound, yet a node actor may hold it: the cycle reserved and
  // bound it, and the watch was cut before the binding came through. A pod
  // that finished meanwhile shows its node; its owner alone is told (no
  // cluster event: a restart's list holds many finished pods, which no node
  // actor holds).
  if (!id.node_name.empty()) {
    self->send(owner(self, id.node_name), atom::pod_gone_v, id.uid);
    return;
  }
  // A deletion a re-list found shows the last state seen, unbound; which node
  // holds the pod is unknown, so every node actor is told (those without it
  // ignore it), as kube-scheduler cleans up a DeletedFinalStateUnknown pod.
  if (!ours || !final_state_unknown) return;
  for (const node_actor& node : self->state.deps.nodes) self->send(node, atom::pod_gone_v, id.uid);
  cluster_event(self, plugins::EventResource::pod, ActionType::kDelete);
}

/// A pod is gone: the cycle drops its preemption nomination, its gang
/// membership and its place among the cluster's pods, if any.
void forget_in_cycle(Self self, const PodIdentity& id) {
  self->state.gang_members.erase(id.uid);
  self->send(self->state.deps.cycle, atom::pod_gone_v, id.uid);
}

/// A pod of one of our profiles that names a gang: the cycle counts it among
/// the gang's members (Coscheduling waits for min-available of them). A new
/// pending member is also a cluster event: its siblings that were waiting for
/// it get another try.
void report_gang_member(Self self, const PodIdentity& id, const PodInfoPtr& info, bool bound) {
  if (!plugins::coscheduling::gang_name_of(info->meta())) {
    // Its gang label or annotation was taken off: it leaves the gang.
    if (self->state.gang_members.erase(id.uid) > 0) self->send(self->state.deps.cycle, atom::gang_member_v, id.uid);
    return;
  }
  auto framework = self->state.deps.frameworks.find(id.scheduler_name);
  if (framework == self->state.deps.frameworks.end()) return;
  auto pod = std::make_shared<QueuedPod>();
  pod->pod = info;
  pod->framework = framework->second;
  self->state.gang_members.insert(id.uid);
  self->send(self->state.deps.cycle, atom::gang_member_v, QueuedPodPtr(std::move(pod)), bound);
}

/// Whether the cycle schedules: every resource synced and, with leader
/// election, this replica leads (the cycle got or is getting `start`).
bool cycle_schedules(const informer_state& st) {
  const bool synced = st.deps.ready && st.deps.ready->load();
  return synced && (!st.deps.may_schedule || st.deps.may_schedule->load());
}

/// A bound pod of a profile that learns its GPU task classes: the cycle counts
/// it while it is not scheduling yet (a restart's initial list, a standby).
/// Once it schedules, the pods bound are its own, counted at their attempt:
/// nothing is sent.
void report_bound_to_cycle(Self self, const PodIdentity& id, const PodInfoPtr& info) {
  if (cycle_schedules(self->state)) return;
  auto framework = self->state.deps.frameworks.find(id.scheduler_name);
  if (framework == self->state.deps.frameworks.end() || !TaskLearning::learns(*framework->second)) return;
  auto pod = std::make_shared<QueuedPod>();
  pod->pod = info;
  pod->framework = framework->second;
  self->send(self->state.deps.cycle, atom::pod_bound_v, QueuedPodPtr(std::move(pod)));
}

/// A pod already accounted on its node changed. Its labels and its deletion
/// can change (the cycle's ClusterPods counts by them: it gets the new copy),
/// and its requests when it is resized in place (its node actor accounts it
/// again; less than before, pods waiting for room get another try).
void update_bound(Self self, const PodIdentity& id, const ObjectEvent& event) {
  auto& seen = self->state.bound_seen[id.uid];
  const uint64_t placement = placement_fingerprint(*event.object, id.terminating);
  const uint64_t resources = resources_fingerprint(*event.object);
  if (seen.placement == placement && seen.resources == resources) return;
  const auto& pod = event.pod();
  if (!pod) {
    spdlog::warn("informer keeps the last readable version of bound pod {}: {}", id.key(), pod.message());
    return;
  }
  auto info = plugins::PodInfo::make(*pod);
  uint32_t actions = seen.placement != placement ? static_cast<uint32_t>(ActionType::kUpdatePodLabel) : 0u;
  const bool resized = seen.info && (seen.info->requests != info->requests ||
                                     seen.info->non_zero_requests != info->non_zero_requests);
  if (resized) {
    self->send(owner(self, id.node_name), atom::pod_bound_v, PodInfoPtr(info));
    if (scaled_down(seen.info->requests, info->requests)) actions |= ActionType::kUpdatePodScaleDown;
  }
  seen = {placement, resources, info};
  self->send(self->state.deps.cycle, atom::pod_bound_v, PodInfoPtr(std::move(info)), id.node_name);
  if (actions != 0) pods_placed(self, actions);
}

void on_pod(Self self, const ObjectEvent& event) {
  const watch::EventType type = event.type;
  const watch::ObjectPtr& object = event.object;
  PodIdentity id = read_pod_identity(*object);
  auto& frameworks = self->state.deps.frameworks;
  const std::set<std::string>& ours = self->state.our_scheduler_names;
  const bool of_ours = ours.count(id.scheduler_name) > 0;
  if (type == watch::EventType::deleted) {
    forget_in_cycle(self, id);
    const bool was_pending = self->state.pending.count(id.key()) > 0;
    // A pending pod may be in its binding, waiting for its claims: the wait ends.
    if (was_pending) self->send(self->state.deps.writer, atom::pod_gone_v, id.key());
    // ElasticQuota: its request no longer counts, so other quotas' runtime may grow.
    if (was_pending && self->state.follows_quotas) cluster_event(self, plugins::EventResource::pod, ActionType::kDelete);
    dequeue(self, id);
    release_pod(self, id, of_ours, event.final_state_unknown);
    self->state.reported.erase(id.key());
    return;
  }
  switch (route_pod(id, ours)) {
    case PodRoute::ignore: return;
    case PodRoute::forget:
      forget_in_cycle(self, id);
      dequeue(self, id);
      release_pod(self, id, of_ours, false);
      return;
    case PodRoute::node: {
      if (self->state.pending.count(id.key()) > 0) dequeue(self, id);
      if (self->state.bound_pods.count(id.uid) > 0) return update_bound(self, id, event);
      const auto& pod = event.pod();  // decoded once for every actor following pods
      if (!pod) {
        // Bound by someone else with a spec we cannot read: nothing to account.
        spdlog::warn("informer cannot account bound pod {}: {}", id.key(), pod.message());
        return;
      }
      self->state.bound_pods[id.uid] = id.node_name;
      auto info = plugins::PodInfo::make(*pod);
      self->state.bound_seen[id.uid] = {placement_fingerprint(*object, id.terminating), resources_fingerprint(*object), info};
      report_bound_to_cycle(self, id, info);
      report_gang_member(self, id, info, true);
      self->send(self->state.deps.cycle, atom::pod_bound_v, PodInfoPtr(info), id.node_name);
      self->send(owner(self, id.node_name), atom::pod_bound_v, PodInfoPtr(std::move(info)));
      pods_placed(self, ActionType::kAdd);
      return;
    }
    case PodRoute::queue: {
      auto fingerprint = scheduling_fingerprint(*object);
      auto known = self->state.pending.find(id.key());
      if (known != self->state.pending.end() && known->second == fingerprint) return;  // status-only update
      self->state.pending[id.key()] = std::move(fingerprint);
      const auto& pod = event.pod();
      if (!pod) return report_malformed(self, id, pod.message());
      auto info = plugins::PodInfo::make(*pod);
      report_gang_member(self, id, info, false);  // before the queue can hand the pod to the cycle
      if (self->state.follows_quotas) self->send(self->state.deps.cycle, atom::quota_pod_v, PodInfoPtr(info));
      if (!info->pod->status.nominated_node_name.empty()) self->send(self->state.deps.cycle, atom::nominated_v, PodInfoPtr(info));
      auto queued = make_queued_pod(info, frameworks.at(id.scheduler_name));
      auto group = plugins::coscheduling::gang_group_key(info->meta(), self->state.pod_group_groups);
      if (!group.empty() && plugins::coscheduling::Coscheduling::of(*queued->framework) != nullptr)
        queued->gang_group = std::move(group);  // its gang's members are tried back to back
      self->send(self->state.deps.queue, atom::enqueue_v, QueuedPodPtr(std::move(queued)));
      if (self->state.gang_members.count(id.uid) > 0)
        cluster_event(self, plugins::EventResource::pod, ActionType::kAdd);  // a sibling may be waiting for it
      return;
    }
  }
}

}  // namespace

uint32_t node_update_actions(const Node& before, const Node& after) {
  uint32_t actions = 0;
  if (before.status.allocatable != after.status.allocatable) actions |= ActionType::kUpdateNodeAllocatable;
  if (before.meta.labels != after.meta.labels) actions |= ActionType::kUpdateNodeLabel;
  if (!same_taints(before.spec.taints, after.spec.taints) || before.spec.unschedulable != after.spec.unschedulable)
    actions |= ActionType::kUpdateNodeTaint;
  if (!same_conditions(before.status.conditions, after.status.conditions))
    actions |= ActionType::kUpdateNodeCondition;
  if (before.meta.annotations != after.meta.annotations) actions |= ActionType::kUpdateNodeAnnotation;
  return actions;
}

informer_actor::behavior_type informer_actor_fn(Self self, InformerDeps deps) {
  self->state.deps = std::move(deps);
  for (const auto& [name, framework] : self->state.deps.frameworks) {
    self->state.our_scheduler_names.insert(name);
    if (plugins::elastic_quota::ElasticQuotaPlugin::of(*framework) != nullptr) self->state.follows_quotas = true;
  }
  // Events about unreadable objects are reported by the alphabetically first profile.
  if (!self->state.our_scheduler_names.empty())
    self->state.unreadable = UnreadableReports(*self->state.our_scheduler_names.begin());
  self->state.actor_metrics = actor_metrics(self->state.deps.metrics, "informer");
  return {
      [=](atom::watch_event, ObjectEventPtr event) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (auto& m = self->state.deps.metrics)
          m->add("troupe_watch_events_total", {event->resource, watch::to_string(event->type)});
        if (event->resource == "nodes") return on_node(self, event->type, event->object);
        if (event->resource == "pods") return on_pod(self, *event);
        if (event->resource == "devices") return on_device(self, event->type, event->object);
        if (event->resource == "noderesourcetopologies") return on_topology(self, event->type, event->object);
        if (event->resource == kNodeMetricsResource) return on_node_metric(self, event->type, event->object);
        if (event->resource == "configmaps") return on_configmap(self, event->type, event->object);
        if (event->resource == "podgroups") return on_pod_group(self, event->type, event->object);
        if (event->resource == "elasticquotas") return on_elastic_quota(self, event->type, event->object);
        if (event->resource == "namespaces") return on_namespace(self, event->type, event->object);
        // The VolumeStore took the change already (a sink runs before the actors): requeue.
        if (is_volume_collection(event->resource))
          return cluster_event(self, plugins::EventResource::storage, action_of(event->type));
        if (auto kind = workload_kind_of_resource(event->resource))
          return on_workload(self, *kind, event->type, event->object);
        // The reservation controller follows reservations itself (SharedReflectors).
        if (event->resource == "reservations") return on_reservation(self, event->type, event->object);
      },
      [=](atom::tick) {
        MessageTimer timer(self->state.actor_metrics, self);
        cluster_event(self, plugins::EventResource::pod, std::exchange(self->state.placed_actions, 0));
      },
      [=](atom::start) {
        MessageTimer timer(self->state.actor_metrics, self);
        for (auto& warning : self->state.unreadable.take_held_back())
          self->send(self->state.deps.writer, atom::report_v, std::move(warning));
      },
      [=](atom::synced, const std::string& resource) {
        MessageTimer timer(self->state.actor_metrics, self);
        auto& st = self->state;
        st.synced.insert(resource);
        if (st.synced.size() < st.deps.resources.size()) return;
        if (st.deps.ready && !st.deps.ready->exchange(true))
          spdlog::info("informer: every resource is synced; scheduling can start");
        if (!st.deps.may_schedule || st.deps.may_schedule->load()) self->send(st.deps.cycle, atom::start_v);
      },
  };
}

}  // namespace troupe::actors
