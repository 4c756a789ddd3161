#include "actors/preemption_step.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>
#include <utility>

#include "actors/cycle_off_actor.hpp"
#include "actors/extender_preemption.hpp"
#include "actors/fan_out.hpp"
#include "actors/partitioning.hpp"
#include "actors/preemption_messages.hpp"
#include "actors/preemption_pdbs.hpp"
#include "plugins/reservation/reservation_plugin.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::actors {

namespace {

namespace pre = plugins::preemption;

constexpr auto kSearchTimeout = std::chrono::seconds(30);

node_actor& owner(CycleSelf self, const std::string& node) {
  auto& nodes = self->state.deps.nodes;
  return nodes[partition_of(node, nodes.size())];
}

/// The nomination's placeholder takes its room on the node and counts in the
/// topology domains for Filter (upstream's filters add nominated pods through
/// AddPod, so pod affinity and spreading see them too; its Score does not).
void hold(CycleSelf self, const pre::Nomination& nomination) {
  self->send(owner(self, nomination.node), atom::pod_bound_v, PodInfoPtr(nomination.placeholder));
  self->state.cluster_pods.assume_nominated(nomination.placeholder, nomination.node);
}

void release(CycleSelf self, const std::string& uid, const pre::Nomination& nomination) {
  self->send(owner(self, nomination.node), atom::pod_gone_v, uid);
  self->state.cluster_pods.forget_assumed(uid);
}

std::string uid_of(const pre::Nomination& nomination) {
  return std::string(plugins::pod_identity(*nomination.placeholder));
}

/// The set-aside nominations on `node`, taken out of the set.
std::vector<pre::Nomination> take_set_aside_on(std::vector<pre::Nomination>& set_aside, const std::string& node) {
  std::vector<pre::Nomination> taken;
  auto on_node = std::stable_partition(set_aside.begin(), set_aside.end(),
                                       [&](const pre::Nomination& n) { return n.node != node; });
  std::move(on_node, set_aside.end(), std::back_inserter(taken));
  set_aside.erase(on_node, set_aside.end());
  return taken;
}

PodRef ref_of(const plugins::PodInfo& pod) {
  return PodRef{pod.meta().namespace_name, pod.meta().name, pod.meta().uid,
                plugins::reservation::is_reserve_pod(pod.meta())};
}

/// ReservationArgs.enablePreemption of the profile's Reservation plugin:
/// Koordinator's Reservation PostFilter then preempts for reserve pods too.
bool reserve_pods_preempt(const plugins::Framework& framework) {
  const auto* plugin = framework.find_plugin<plugins::reservation::ReservationPlugin>();
  return plugin != nullptr && plugin->args().enable_preemption;
}

std::shared_ptr<PreemptionRequest> make_request(CycleSelf self, const CycleRequestPtr& cycle,
                                                const plugins::NodeStatuses& extender_statuses, int64_t total_nodes,
                                                const pre::PreemptionPostFilter& plugin, Timestamp now) {
  auto request = std::make_shared<PreemptionRequest>();
  request->cycle = cycle;
  auto by_node = std::make_shared<std::map<std::string, plugins::PluginStatus>>();
  for (const auto& [node, status] : extender_statuses) by_node->emplace(node, status);
  request->extender_statuses = std::move(by_node);
  const auto& pdbs = self->state.deps.pdbs;
  request->pdbs = pdbs ? pdbs->snapshot() : std::make_shared<const std::vector<PodDisruptionBudget>>();
  request->search.options = plugin.options(now);
  request->search.options.reserve_pods_preempt = reserve_pods_preempt(*cycle->framework);
  const auto& extenders = self->state.deps.extenders;
  request->search.options.keep_candidates = extenders && extenders->preempts(*cycle->pod->pod);
  request->search.total_nodes = total_nodes;
  request->search.nominated = self->state.nominations.priorities();
  if (const auto& released = self->state.released) {
    request->search.nominated_node = released->second.node;
    request->search.pending_victims =
        pre::terminating_victims(self->state.cluster_pods, released->second.node, released->second.victims);
  }
  return request;
}

plugins::PostFilterResult failed_post_filter(std::string message) {
  plugins::PostFilterResult failed;
  failed.message = std::move(message);
  failed.status = plugins::PluginStatus::unschedulable(failed.message);
  return failed;  // no nominated_node: an earlier nomination stands
}

bool any_ineligible(const pre::PreemptionSearchState& search) {
  for (const auto& part : search.partitions)
    if (part.ineligible) return true;
  return false;
}

/// The search goes to the plugin that ran it; every other preempting
/// PostFilter plugin of the profile learns it was another's. The search takes
/// the place of what the plugin kept in its slot since PreFilter: the attempt
/// has failed, nothing reserves or binds after PostFilter. A plugin that does
/// not preempt keeps its slot.
void write_search(const plugins::Framework& framework, plugins::CycleState& state,
                  const pre::PreemptionPostFilter& searcher, pre::PreemptionSearchState search) {
  for (const auto* post_filter : framework.post_filter_plugins()) {
    const auto* other = dynamic_cast<const pre::PreemptionPostFilter*>(post_filter);
    if (other == nullptr || other == &searcher || !other->preempts()) continue;
    pre::PreemptionSearchState elsewhere;
    elsewhere.searched_by = std::string(searcher.name());
    other->write_search(state, std::move(elsewhere));
  }
  searcher.write_search(state, std::move(search));
}

/// The answer when no partition needs asking: the preemptor may not preempt
/// (`ineligible`), or else no node is worth searching (each is
/// UnschedulableAndUnresolvable: "Preemption is not helpful for scheduling").
pre::PreemptionSearchState answered_without_search(std::optional<std::string> ineligible, int64_t total_nodes,
                                                   Timestamp now) {
  pre::PartitionPreemption partition;
  if (ineligible)
    partition.ineligible = std::move(ineligible);
  else if (total_nodes > 0)
    partition.ruled_out[pre::kPreemptionNotHelpful] = total_nodes;
  pre::PreemptionSearchState search;
  search.partitions.push_back(std::move(partition));
  search.total_nodes = total_nodes;
  search.now = now;
  return search;
}

/// No candidate (or no node at all): an earlier nomination is void; the API
/// writer clears nominatedNodeName when the pod was nominated (`was_held`:
/// its placeholder was released for this attempt).
void void_nomination(CycleSelf self, const CycleRequest& request, bool was_held) {
  const plugins::PodInfo& pod = *request.pod;
  if (!was_held && pod.pod->status.nominated_node_name.empty()) return;
  auto plan = std::make_shared<PreemptionPlan>();  // no node: clear the nomination, nothing else
  plan->profile = request.framework->profile_name();
  plan->preemptor = ref_of(pod);
  self->send(self->state.deps.writer, atom::report_v, PreemptionPlanPtr(std::move(plan)));
}

using SearchDone = std::function<void(pre::PreemptionSearchState)>;
using PostFilterDone = std::function<void(const plugins::PostFilterResult&)>;

/// callExtenders: the extenders with a preemptVerb narrow the partitions'
/// candidates (on an I/O thread) before PostFilter picks among what they
/// leave. Nothing to narrow (not eligible, or no candidate): no call.
void narrow_with_extenders(CycleSelf self, const CycleRequestPtr& request, pre::PreemptionSearchState search,
                           SearchDone finish) {
  auto candidates = pre::gather_candidates(search.partitions);
  if (any_ineligible(search) || candidates.empty()) return finish(std::move(search));
  auto pods = std::make_shared<const CandidateNodePods>(pods_on_candidates(self->state.cluster_pods, candidates));
  auto extenders = self->state.deps.extenders;
  auto pod = request->pod->pod;
  auto pending = std::make_shared<pre::PreemptionSearchState>(std::move(search));
  using Narrowed = Result<std::vector<pre::Candidate>>;
  bool posted = off_actor<Narrowed>(
      self,
      [extenders, pod, candidates = std::move(candidates), pods]() mutable {
        return call_preemption_extenders(*extenders, *pod, std::move(candidates), *pods);
      },
      [pending, finish](const Narrowed& narrowed) {
        if (narrowed)
          pending->after_extenders = *narrowed;
        else
          pending->extender_error = narrowed.message();
        finish(std::move(*pending));
      });
  if (posted) return;
  pending->extender_error = "extenders cannot be called: no I/O threads (the scheduler is shutting down)";
  finish(std::move(*pending));
}

}  // namespace

const pre::PreemptionPostFilter* preemption_plugin(const plugins::Framework& framework) {
  for (const auto* post_filter : framework.post_filter_plugins()) {
    const auto* preempting = dynamic_cast<const pre::PreemptionPostFilter*>(post_filter);
    if (preempting != nullptr && preempting->preempts()) return preempting;
  }
  return nullptr;
}

void release_nomination(CycleSelf self, const plugins::PodInfo& pod) {
  auto& state = self->state;
  state.released.reset();
  if (state.nominations.empty()) return;
  const std::string uid(plugins::pod_identity(pod));
  auto nomination = state.nominations.take(uid);
  if (!nomination) return;
  release(self, uid, *nomination);
  state.released.emplace(uid, std::move(*nomination));
}

void set_aside_lower_nominations(CycleSelf self, const plugins::PodInfo& pod) {
  auto& state = self->state;
  restore_set_aside(self);  // every attempt's end restores them; this keeps a missed end from losing any
  if (state.nominations.empty()) return;
  state.set_aside = state.nominations.take_lower_priority(pod.priority);
  for (const auto& nomination : state.set_aside) release(self, uid_of(nomination), nomination);
}

void restore_set_aside(CycleSelf self) {
  auto& state = self->state;
  if (state.set_aside.empty()) return;
  for (auto& nomination : state.set_aside) {
    hold(self, nomination);
    std::string uid = uid_of(nomination);
    state.nominations.restore(uid, std::move(nomination));
  }
  state.set_aside.clear();
}

void adopt_nomination(CycleSelf self, const PodInfoPtr& pod) {
  auto& state = self->state;
  const std::string& node = pod->pod->status.nominated_node_name;
  const std::string uid(plugins::pod_identity(*pod));
  if (node.empty() || state.nominations.find(uid) != nullptr) return;
  if (state.released && state.released->first == uid) return;
  // Reserved, waiting at Permit, binding or bound: past its nomination (its
  // status keeps the name until then; a placeholder would stand for it twice).
  if (state.cluster_pods.has_pod(uid) || state.waiting.count(uid) > 0) return;
  state.nominations.nominate(*pod, node, {});
  hold(self, *state.nominations.find(uid));
}

void nominated_pod_bound(CycleSelf self, const std::string& uid, const std::string& node) {
  auto& state = self->state;
  if (state.nominations.empty()) return;
  auto nomination = state.nominations.take(uid);
  if (!nomination) return;
  // The placeholder shares the pod's uid: in the bound node's partition the
  // bound pod has taken its place already; elsewhere it is taken out.
  if (partition_of(nomination->node, state.deps.nodes.size()) != partition_of(node, state.deps.nodes.size()))
    self->send(owner(self, nomination->node), atom::pod_gone_v, uid);
}

void forget_nomination(CycleSelf self, const std::string& uid) {
  auto& state = self->state;
  // The pod under attempt: its placeholder left its node when the attempt began.
  if (state.released && state.released->first == uid) state.released.reset();
  if (!state.preempting.empty() && state.preempting == uid) state.preemptor_gone = true;
  auto& set_aside = state.set_aside;  // already off its node
  set_aside.erase(std::remove_if(set_aside.begin(), set_aside.end(),
                                 [&](const pre::Nomination& n) { return uid_of(n) == uid; }),
                  set_aside.end());
  if (state.nominations.empty()) return;
  if (auto nomination = state.nominations.take(uid)) release(self, uid, *nomination);
}

void begin_post_filter(CycleSelf self, const plugins::PodInfo& pod) {
  self->state.preempting = std::string(plugins::pod_identity(pod));
  self->state.preemptor_gone = false;
}

void search_preemption(CycleSelf self, const CycleRequestPtr& request, const plugins::NodeStatuses& extender_statuses,
                       int64_t total_nodes, const pre::PreemptionPostFilter& plugin, PostFilterDone done) {
  if (auto& m = self->state.deps.metrics) m->add("scheduler_preemption_attempts_total", {});
  if (self->state.preempting != plugins::pod_identity(*request->pod)) begin_post_filter(self, *request->pod);
  const Timestamp now = timestamp_now();
  const auto& framework = *request->framework;
  // preemptionPolicy: Never, and reserve pods without ReservationArgs.enablePreemption:
  // no node needs asking, PostFilter says so at once.
  if (auto ineligible = pre::ineligibility_reason(*request->pod, {}, {}, reserve_pods_preempt(framework))) {
    write_search(framework, *request->state, plugin, answered_without_search(std::move(ineligible), total_nodes, now));
    return done(framework.run_post_filter(*request->state, *request->pod, extender_statuses));
  }
  auto preemption = make_request(self, request, extender_statuses, total_nodes, plugin, now);
  const bool extenders_narrow = preemption->search.options.keep_candidates;
  SearchDone finish = [=, &plugin](pre::PreemptionSearchState search) {
    write_search(*request->framework, *request->state, plugin, std::move(search));
    done(request->framework->run_post_filter(*request->state, *request->pod, extender_statuses));
  };
  fan_out<PartitionPreemptionPtr>(
      self, self->state.deps.nodes, kSearchTimeout,
      [=](std::vector<PartitionPreemptionPtr> parts) {
        pre::PreemptionSearchState search;
        for (const auto& part : parts) search.partitions.push_back(*part);
        search.total_nodes = total_nodes;
        search.now = now;
        if (extenders_narrow) return narrow_with_extenders(self, request, std::move(search), finish);
        finish(std::move(search));
      },
      [=](caf::error err) { done(failed_post_filter("preemption: the candidate search failed: " + to_string(err))); },
      atom::evaluate_v, PreemptionRequestPtr(std::move(preemption)));
}

plugins::PostFilterResult post_filter_after_pre_filter(CycleSelf self, const CycleRequest& request,
                                                      int64_t total_nodes,
                                                      const pre::PreemptionPostFilter& plugin) {
  if (auto& m = self->state.deps.metrics) m->add("scheduler_preemption_attempts_total", {});
  begin_post_filter(self, *request.pod);
  const auto& framework = *request.framework;
  auto ineligible = pre::ineligibility_reason(*request.pod, {}, {}, reserve_pods_preempt(framework));
  write_search(framework, *request.state, plugin,
               answered_without_search(std::move(ineligible), total_nodes, timestamp_now()));
  return framework.run_post_filter(*request.state, *request.pod, {});
}

void settle_nomination_after_failure(CycleSelf self, const CycleRequest& request, bool clears) {
  auto& state = self->state;
  const std::string uid(plugins::pod_identity(*request.pod));
  const bool released_here = state.released && state.released->first == uid;
  if (clears) {
    if (released_here) state.released.reset();
    void_nomination(self, request, released_here);
    return;
  }
  if (!released_here) return;
  hold(self, state.released->second);
  state.nominations.restore(uid, std::move(state.released->second));
  state.released.reset();
}

void clear_nomination(CycleSelf self, const CycleRequest& request) {
  const bool was_held = self->state.released.has_value();
  self->state.released.reset();
  void_nomination(self, request, was_held);
}

void act_on_preemption(CycleSelf self, const CycleRequest& request, const pre::PreemptionPostFilter& plugin,
                       const plugins::PostFilterResult& post, const RejectWaitingVictims& reject_waiting) {
  auto& state = self->state;
  const plugins::PodInfo& pod = *request.pod;
  auto released = std::move(state.released);
  state.released.reset();
  state.preempting.clear();
  if (std::exchange(state.preemptor_gone, false)) {
    spdlog::info("preemption: {} was deleted while its preemption was searched; nothing nominated or evicted", pod.key);
    return;
  }
  if (!post.nominated_node) {  // not eligible, or the extenders left nothing or failed: the earlier nomination stands
    if (released) {
      hold(self, released->second);
      state.nominations.restore(released->first, std::move(released->second));
    }
    return;
  }
  if (post.nominated_node->empty()) return void_nomination(self, request, released.has_value());
  auto plan = std::make_shared<PreemptionPlan>();
  plan->profile = request.framework->profile_name();
  plan->preemptor = ref_of(pod);
  plan->node = *post.nominated_node;
  const pre::Candidate* chosen = plugin.chosen(*request.state);
  if (chosen == nullptr) {
    spdlog::error("preemption: PostFilter nominated {} for {} without a candidate", plan->node, pod.key);
    return;
  }
  // Every victim waiting at Permit is rejected before any Unreserve sends
  // its gang back (upstream rejects each victim it finds waiting in turn).
  std::vector<std::string> uids;
  for (const auto& victim : chosen->victims.pods) uids.emplace_back(plugins::pod_identity(*victim));
  const std::set<std::string> rejected =
      reject_waiting ? reject_waiting(uids, std::string(plugin.name())) : std::set<std::string>{};
  std::set<std::string> victim_uids;  // the deleted ones: the preemptor waits for them to go
  for (size_t i = 0; i < uids.size(); ++i) {
    const auto& victim = chosen->victims.pods[i];
    if (rejected.count(uids[i]) > 0) {
      plan->rejected.push_back(ref_of(*victim));  // off its node already, requeued: not deleted
    } else {
      plan->victims.push_back(ref_of(*victim));
      victim_uids.insert(uids[i]);
    }
  }
  // The node's lower-priority nominations were set aside for this attempt
  // (already off the node): the preemptor overrides them for good.
  for (const auto& overridden : take_set_aside_on(state.set_aside, plan->node))
    plan->cleared.push_back(ref_of(*overridden.placeholder));
  state.nominations.nominate(pod, plan->node, std::move(victim_uids));
  hold(self, *state.nominations.find(std::string(plugins::pod_identity(pod))));
  if (auto& m = state.deps.metrics)
    m->observe("scheduler_preemption_victims", {}, static_cast<double>(uids.size()));
  spdlog::info("preemption: {} nominated to {}, evicting {} pod(s), rejecting {} waiting at Permit", pod.key,
               plan->node, plan->victims.size(), plan->rejected.size());
  self->send(state.deps.writer, atom::report_v, PreemptionPlanPtr(std::move(plan)));
}

}  // namespace troupe::actors
