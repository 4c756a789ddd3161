#include "actors/pod_group_actor.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include <spdlog/spdlog.h>

#include "actors/atoms.hpp"
#include "actors/messages.hpp"
#include "model/json.hpp"
#include "model/pod_group.hpp"
#include "plugins/coscheduling/gang_spec.hpp"
#include "plugins/coscheduling/pod_group_status.hpp"
#include "watch/pod_group_writes.hpp"

namespace troupe::actors {

/// What an I/O task reports back about one PodGroup's write.
struct PodGroupWriteDone {
  std::string group;  // "ns/name"
  std::string phase;  // decided on the object read, when `decided`
  bool decided = false;  // false: the object read needed no change
  watch::ApiResult result;
};
using PodGroupWriteDonePtr = std::shared_ptr<const PodGroupWriteDone>;

}  // namespace troupe::actors

// In-process only: the outcome of a write, sent back by the I/O thread.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::PodGroupWriteDonePtr)

namespace troupe::actors {

namespace cos = plugins::coscheduling;

namespace {

constexpr const char* kPodGroups = "podgroups";
constexpr const char* kPodGroupPods = "podgroup-pods";

struct Group {
  std::optional<PodGroup> object;                      // nullopt until its watch event (pods may come first)
  std::map<std::string, cos::PodGroupMember> members;  // by pod uid
  bool ours = false;  // a pod of ours was a member: the group's status is ours to keep
  bool busy = false;  // a write on the I/O pool
};

struct PodGroupActorState {
  PodGroupControllerDeps deps;
  std::map<std::string, Group> groups;              // by "ns/name"
  std::map<std::string, std::string> group_of_pod;  // pod uid -> "ns/name"
  std::set<std::string> unsynced{kPodGroups, kPodGroupPods};
  std::set<std::string> dirty;  // groups whose status may need a write
  /// The PodGroup CRD has the status subresource (until a write finds it has not).
  std::shared_ptr<std::atomic<bool>> status_subresource = std::make_shared<std::atomic<bool>>(true);
};

using Self = caf::stateful_actor<PodGroupActorState>*;

bool may_write(const PodGroupActorState& st) {
  return st.unsynced.empty() && (!st.deps.leading || st.deps.leading->load());
}

std::string group_id(const std::string& ns, const std::string& name) { return ns + "/" + name; }

std::vector<cos::PodGroupMember> sorted_members(const Group& group) {
  std::vector<cos::PodGroupMember> members;
  for (const auto& [uid, member] : group.members) members.push_back(member);
  std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return members;
}

/// Writes the group's status on the I/O pool; the answer comes back as `done`.
void post_write(Self self, const std::string& id, Group& group, std::vector<cos::PodGroupMember> members,
                Timestamp now) {
  auto& st = self->state;
  group.busy = true;
  auto me = caf::actor_cast<caf::actor>(self);
  auto api = st.deps.api;
  auto done = std::make_shared<PodGroupWriteDone>();
  done->group = id;
  // Runs on the I/O thread; `done` is read here again only once its message arrives.
  auto decide = [members = std::move(members), now, ours = group.ours, done](const PodGroup& current) {
    // Not ours: only a new PodGroup's first phase (another controller may have written one since).
    if (!ours && !current.status.phase.empty()) return std::optional<PodGroupStatus>();
    auto next = cos::pod_group_status_update(current, members, now);
    done->decided = next.has_value();
    if (next) done->phase = next->phase;
    return next;
  };
  const auto& meta = group.object->meta;
  auto subresource = st.status_subresource;
  const bool posted =
      st.deps.io->post([me, api, done, ns = meta.namespace_name, name = meta.name, decide, subresource] {
        done->result = watch::write_pod_group_status(*api, ns, name, decide, subresource.get());
        caf::anon_send(me, atom::done_v, PodGroupWriteDonePtr(done));
      });
  if (!posted) group.busy = false;  // shutting down
}

/// Writes the status the members give, if it is new; else nothing. The copy
/// of the PodGroup here may lag the server's (our own last write not seen
/// yet): it only tells whether to write; what is written is decided again on
/// the object the write reads.
void sync(Self self, const std::string& id) {
  auto& st = self->state;
  auto it = st.groups.find(id);
  if (it == st.groups.end()) {
    st.dirty.erase(id);
    return;
  }
  Group& group = it->second;
  if (!may_write(st) || group.busy) {
    st.dirty.insert(id);
    return;
  }
  st.dirty.erase(id);
  if (!group.object || (!group.ours && !group.object->status.phase.empty())) return;
  std::vector<cos::PodGroupMember> members = sorted_members(group);
  const Timestamp now = timestamp_now();
  auto next = cos::pod_group_status_update(*group.object, members, now);
  if (next) post_write(self, id, group, std::move(members), now);
}

/// Drops a group that holds nothing any more.
void forget_if_empty(PodGroupActorState& st, const std::string& id) {
  auto it = st.groups.find(id);
  if (it == st.groups.end() || it->second.object || !it->second.members.empty() || it->second.busy) return;
  st.groups.erase(it);
  st.dirty.erase(id);
}

void on_pod_group(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  auto& st = self->state;
  const std::string id = group_id(get_string(*object, "metadata", "namespace"), get_string(*object, "metadata", "name"));
  if (type == watch::EventType::deleted) {
    if (auto it = st.groups.find(id); it != st.groups.end()) it->second.object.reset();
    forget_if_empty(st, id);
    return;
  }
  auto decoded = decode_pod_group(object);
  if (!decoded) {
    // The gang's pods are told why (Coscheduling's PreFilter); its status stays
    // as it is, and an earlier readable copy no longer counts.
    spdlog::warn("pod group controller leaves PodGroup {} alone: {}", id, decoded.message());
    if (auto it = st.groups.find(id); it != st.groups.end()) it->second.object.reset();
    forget_if_empty(st, id);
    return;
  }
  st.groups[id].object = std::move(*decoded);
  sync(self, id);
}

/// The member the pod is, or nullopt when it is not one of ours in a PodGroup.
std::optional<std::pair<std::string, cos::PodGroupMember>> member_of(const PodGroupActorState& st,
                                                                      const rapidjson::Value& pod) {
  const std::string name = get_string(pod, "metadata", "labels", cos::kLabelPodGroup);
  if (name.empty() || st.deps.scheduler_names.count(get_string(pod, "spec", "schedulerName")) == 0)
    return std::nullopt;
  cos::PodGroupMember member;
  member.name = get_string(pod, "metadata", "name");
  member.phase = get_string(pod, "status", "phase");
  member.bound = !get_string(pod, "spec", "nodeName").empty();
  if (const rapidjson::Value* owners = find_path(pod, "metadata", "ownerReferences"); owners && owners->IsArray())
    for (const auto& owner : owners->GetArray())
      if (std::string owner_name = get_string(owner, "name"); !owner_name.empty())
        member.owners.push_back(std::move(owner_name));
  return std::make_pair(group_id(get_string(pod, "metadata", "namespace"), name), std::move(member));
}

void on_pod(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  auto& st = self->state;
  const std::string uid = get_string(*object, "metadata", "uid");
  auto member = type == watch::EventType::deleted ? std::nullopt : member_of(st, *object);
  // A pod that left its group (deleted, relabelled) leaves its members.
  if (auto was = st.group_of_pod.find(uid); was != st.group_of_pod.end() && (!member || member->first != was->second)) {
    const std::string left = was->second;
    st.group_of_pod.erase(was);
    st.groups[left].members.erase(uid);
    sync(self, left);
    forget_if_empty(st, left);
  }
  if (!member) return;
  Group& group = st.groups[member->first];
  group.members[uid] = std::move(member->second);
  group.ours = true;
  st.group_of_pod[uid] = member->first;
  sync(self, member->first);
}

caf::behavior pod_group_actor_fn(Self self, PodGroupControllerDeps deps) {
  self->state.deps = std::move(deps);
  self->send(self, atom::tick_v);
  return {
      [=](atom::watch_event, const ObjectEventPtr& event) {
        if (event->resource == kPodGroups) return on_pod_group(self, event->type, event->object);
        if (event->resource == kPodGroupPods) return on_pod(self, event->type, event->object);
      },
      [=](atom::synced, const std::string& resource) {
        auto& st = self->state;
        if (st.unsynced.erase(resource) == 0 || !st.unsynced.empty()) return;
        spdlog::info("pod group controller: synced ({} PodGroups with pods or objects)", st.groups.size());
      },
      [=](atom::tick) {
        auto& st = self->state;
        // Groups that changed while this replica could not write (standby, not
        // synced), or whose write failed or overlapped a change.
        if (may_write(st))
          for (const std::string& id : std::set<std::string>(st.dirty)) sync(self, id);
        self->delayed_send(self, st.deps.retry, atom::tick_v);
      },
      [=](atom::done, const PodGroupWriteDonePtr& done) {
        auto& st = self->state;
        auto it = st.groups.find(done->group);
        if (it != st.groups.end()) it->second.busy = false;
        if (done->result.ok) {
          if (done->decided) spdlog::info("PodGroup {}: status written (phase {})", done->group, done->phase);
        } else if (done->result.code != 404) {
          spdlog::warn("PodGroup {}: writing its status failed: {}", done->group, done->result.message);
          st.dirty.insert(done->group);
        }
        forget_if_empty(st, done->group);
      },
  };
}

}  // namespace

CollectionSpec pod_group_pods_collection() {
  // The label exists; finished pods too (no field selector).
  return CollectionSpec{kPodGroupPods, "/api/v1/pods", "", false, cos::kLabelPodGroup};
}

Result<std::unique_ptr<PodGroupController>> PodGroupController::start(PodGroupControllerDeps deps) {
  if (deps.reflectors == nullptr) return Error{"pod group controller: no reflectors to subscribe to"};
  std::unique_ptr<PodGroupController> controller(new PodGroupController());
  auto* reflectors = deps.reflectors;
  controller->actor_ = deps.system->spawn(pod_group_actor_fn, std::move(deps));
  // The same podgroups collection the informer follows (Coscheduling's gang rules).
  for (const CollectionSpec& c :
       {CollectionSpec{kPodGroups, "/apis/scheduling.sigs.k8s.io/v1alpha1/podgroups", "", true},
        pod_group_pods_collection()}) {
    if (auto subscribed = reflectors->subscribe(c, controller->actor_); !subscribed) {
      controller->stop();
      return Error{subscribed.message()};
    }
  }
  return controller;
}

PodGroupController::~PodGroupController() { stop(); }

void PodGroupController::stop() {
  if (actor_) caf::anon_send_exit(actor_, caf::exit_reason::user_shutdown);
  actor_ = nullptr;
}

}  // namespace troupe::actors
