#include "actors/cycle_actor.hpp"

#include <spdlog/spdlog.h>

#include "actors/fan_out.hpp"
#include "actors/partitioning.hpp"
#include "actors/preemption_step.hpp"
#include "plugins/framework/fit_error.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::actors {

namespace {

using Self = cycle_actor::stateful_pointer<cycle_actor_state>;
using Clock = std::chrono::steady_clock;

constexpr auto kNodeTimeout = std::chrono::seconds(30);
constexpr auto kBindTimeout = std::chrono::minutes(5);

/// One scheduling attempt of one pod, carried through the continuations.
struct Attempt {
  QueuedPodPtr queued;
  std::shared_ptr<CycleRequest> request;
  Clock::time_point started;
  Clock::time_point phase_started;  // of the Filter or Score round under way (its metric)
  std::vector<std::string> feasible;
  plugins::FailureHistogram failures;
  plugins::NodeStatuses statuses;
  int64_t total_nodes = 0;
  NodeJsonPtr node_json;  // fetched once, when an extender wants whole Node objects

  const plugins::Framework& framework() const { return *request->framework; }
  const plugins::PodInfo& pod() const { return *request->pod; }
  const std::string& profile() const { return request->framework->profile_name(); }
};
using AttemptPtr = std::shared_ptr<Attempt>;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void next(Self self) { self->send(self, atom::next_v); }

const Extenders* extenders_of(Self self) { return self->state.deps.extenders.get(); }

/// Runs `call` on an I/O thread, then `resume(result)` back on this actor.
/// False when there is no pool or it is shutting down (nothing will run).
template <class Result, class Call, class Resume>
bool off_actor(Self self, Call call, Resume resume) {
  if (!self->state.deps.io) return false;
  auto me = caf::actor_cast<cycle_actor>(self);
  return self->state.deps.io->post([me, call = std::move(call), resume = std::move(resume)]() mutable {
    auto result = std::make_shared<Result>(call());
    auto then = std::make_shared<const std::function<void()>>([resume, result] { resume(*result); });
    caf::anon_send(me, atom::next_v, CycleResumePtr(std::move(then)));
  });
}

/// Calls `then()` once a->node_json holds the API JSON of the feasible nodes
/// (only fetched from the NODE actors when an interested extender is not
/// nodeCacheCapable; otherwise, or if a partition does not answer, extenders
/// get what there is and stubs with the names for the rest).
void with_node_objects(Self self, const AttemptPtr& a, std::function<void()> then) {
  if (a->node_json || !extenders_of(self)->needs_node_objects(*a->pod().pod)) {
    if (!a->node_json) a->node_json = std::make_shared<const std::map<std::string, std::string>>();
    return then();
  }
  auto names = std::make_shared<const std::vector<std::string>>(a->feasible);
  fan_out<NodeJsonPtr>(
      self, self->state.deps.nodes, kNodeTimeout,
      [a, then](std::vector<NodeJsonPtr> parts) {
        auto all = std::make_shared<std::map<std::string, std::string>>();
        for (const auto& part : parts) all->insert(part->begin(), part->end());
        a->node_json = std::move(all);
        then();
      },
      [a, then](caf::error err) {
        spdlog::warn("scheduling-cycle: node objects for extenders unavailable ({}); sending names only",
                     to_string(err));
        a->node_json = std::make_shared<const std::map<std::string, std::string>>();
        then();
      },
      atom::node_objects_v, NodeNamesPtr(names));
}

void record_attempt(Self self, const Attempt& a, const char* result) {
  auto& m = self->state.deps.metrics;
  if (!m) return;
  m->add("scheduler_schedule_attempts_total", {a.profile(), result});
  m->observe("scheduler_scheduling_attempt_duration_seconds", {a.profile(), result}, seconds_since(a.started));
}

/// The pod could not be placed this time: tell the pod (condition + event)
/// and the QUEUE (which plugins to wait for, or backoff on an error).
void fail(Self self, const AttemptPtr& a, const std::string& message, std::vector<std::string> rejectors,
          bool error) {
  record_attempt(self, *a, error ? "error" : "unschedulable");
  const auto& meta = a->pod().meta();
  auto report = std::make_shared<FailureReport>();
  report->ns = meta.namespace_name;
  report->name = meta.name;
  report->uid = meta.uid;
  report->resource_version = meta.resource_version;
  report->profile = a->profile();
  report->reason = error ? "SchedulerError" : "Unschedulable";
  report->message = message;
  if (plugins::reservation::is_reserve_pod(meta)) report->reservation = plugins::reservation::reservation_name_of(meta);
  for (const auto& c : a->pod().pod->status.conditions)
    if (c.type == "PodScheduled" && c.status == "False" && c.reason == report->reason && c.message == message)
      report->patch_condition = false;
  self->send(self->state.deps.writer, atom::report_v, FailureReportPtr(std::move(report)));
  self->send(self->state.deps.queue, atom::failed_v, a->pod().key, std::move(rejectors), error);
  spdlog::debug("scheduling-cycle could not place {}: {}", a->pod().key, message);
}

void unreserve(Self self, const AttemptPtr& a, const std::string& node) {
  auto& nodes = self->state.deps.nodes;
  self->send(nodes[partition_of(node, nodes.size())], atom::unreserve_v, CycleRequestPtr(a->request), node);
}

/// The binding cycle: runs after the next pod has already been popped.
void bind(Self self, const AttemptPtr& a, const std::string& node, plugins::BindingChanges changes) {
  auto job = std::make_shared<BindJob>();
  const auto& meta = a->pod().meta();
  job->ns = meta.namespace_name;
  job->name = meta.name;
  job->uid = meta.uid;
  job->node = node;
  job->profile = a->profile();
  job->annotations = std::move(changes.annotations);
  job->pod_patches = std::move(changes.pod_patches);
  // A reserve pod is bound by writing its Reservation's status (the plugin's Bind).
  if (plugins::reservation::is_reserve_pod(meta)) job->reservation = plugins::reservation::reservation_name_of(meta);
  const auto bind_started = Clock::now();
  // kube-scheduler's extendersBinding: an interested binder extender binds instead of the API.
  const Extenders::Entry* binder =
      extenders_of(self) && job->reservation.empty() ? extenders_of(self)->binder(*a->pod().pod) : nullptr;
  auto pending = binder ? self->request(self->state.deps.writer, kBindTimeout, atom::bind_v, BindJobPtr(job),
                                        ExtenderBinderPtr(self->state.deps.extenders, binder))
                        : self->request(self->state.deps.writer, kBindTimeout, atom::bind_v, BindJobPtr(job));
  pending.then(
          [=](WriteOutcome& outcome) {
            a->framework().record_extension_point(plugins::MetricPoint::bind,
                                                  outcome.ok ? plugins::Code::success : plugins::Code::error,
                                                  seconds_since(bind_started));
            if (outcome.ok) {
              record_attempt(self, *a, "scheduled");
              a->framework().run_post_bind(*a->request->state, a->pod(), node);
              self->send(self->state.deps.queue, atom::done_v, a->pod().key);
              if (auto& m = self->state.deps.metrics) {
                m->observe("scheduler_pod_scheduling_sli_duration_seconds",
                           {std::to_string(std::min(a->queued->attempts + 1, 15))},
                           seconds_since(a->queued->first_queued));
                m->observe("scheduler_pod_scheduling_attempts", {}, a->queued->attempts + 1);
              }
              return;
            }
            unreserve(self, a, node);
            fail(self, a, "binding rejected: " + outcome.message, {}, true);
          },
          [=](caf::error& err) {
            a->framework().record_extension_point(plugins::MetricPoint::bind, plugins::Code::error,
                                                  seconds_since(bind_started));
            unreserve(self, a, node);
            fail(self, a, "binding failed: " + to_string(err), {}, true);
          });
}

/// After Reserve: Permit, PreBind, then hand over to the binding cycle. Every
/// path ends by popping the next pod exactly once.
void after_reserve(Self self, const AttemptPtr& a, const std::string& node) {
  auto& state = *a->request->state;
  auto permit = a->framework().run_permit(state, a->pod(), node);
  if (!permit.status.ok()) {
    unreserve(self, a, node);
    bool waiting = permit.status.code == plugins::Code::wait;
    // No plugin troupe ships makes pods wait at Permit yet (gang scheduling does, later).
    fail(self, a, waiting ? "waiting at Permit is not supported yet" : permit.status.message(),
         {permit.status.plugin}, waiting || permit.status.code == plugins::Code::error);
    return next(self);
  }
  plugins::BindingChanges changes;
  auto pre_bind = a->framework().run_pre_bind(state, a->pod(), node, changes);
  if (!pre_bind.ok()) {
    unreserve(self, a, node);
    fail(self, a, pre_bind.message(), {pre_bind.plugin}, true);
    return next(self);
  }
  bind(self, a, node, std::move(changes));
  next(self);
}

void reserve(Self self, const AttemptPtr& a, const std::string& node) {
  auto& nodes = self->state.deps.nodes;
  self->request(nodes[partition_of(node, nodes.size())], kNodeTimeout, atom::reserve_v,
                CycleRequestPtr(a->request), node)
      .then(
          [=](ReserveOutcome& outcome) {
            if (outcome.ok) return after_reserve(self, a, node);
            fail(self, a, outcome.message, {outcome.plugin}, true);
            next(self);
          },
          [=](caf::error& err) {
            fail(self, a, "reserve failed: " + to_string(err), {}, true);
            next(self);
          });
}

void select_and_reserve(Self self, const AttemptPtr& a, const std::vector<plugins::NodeScore>& scores) {
  auto chosen = plugins::Framework::select_host(scores, self->state.rng);
  if (!chosen) {
    fail(self, a, "no node could be scored", {}, true);
    return next(self);
  }
  reserve(self, a, scores[*chosen].node_name);
}

/// prioritizeNodes' extender part: their scores, weighted and scaled, are
/// added to the plugins' totals before a host is selected.
void prioritize_with_extenders(Self self, const AttemptPtr& a, std::vector<plugins::NodeScore> scores) {
  auto extenders = self->state.deps.extenders;
  auto pod = a->pod().pod;
  auto feasible = a->feasible;
  auto nodes = a->node_json;
  auto shared_scores = std::make_shared<std::vector<plugins::NodeScore>>(std::move(scores));
  bool posted = off_actor<std::map<std::string, int64_t>>(
      self, [extenders, pod, feasible, nodes] { return extenders->prioritize(*pod, feasible, *nodes); },
      [self, a, shared_scores](const std::map<std::string, int64_t>& extra) {
        for (auto& s : *shared_scores)
          if (auto it = extra.find(s.node_name); it != extra.end()) s.total += it->second;
        select_and_reserve(self, a, *shared_scores);
      });
  if (!posted) {
    fail(self, a, "extenders cannot be called: no I/O threads (the scheduler is shutting down)", {}, true);
    next(self);
  }
}

void on_scored(Self self, const AttemptPtr& a, std::vector<NodeScoresPtr>& parts) {
  std::vector<plugins::NodeScore> scores;
  size_t total = 0;
  for (const auto& part : parts) total += part->size();
  scores.reserve(total);  // one allocation for the merged scores
  for (const auto& part : parts) scores.insert(scores.end(), part->begin(), part->end());
  auto status = a->framework().finalize_scores(*a->request->state, a->pod(), scores);
  a->framework().record_extension_point(plugins::MetricPoint::score, status.ok() ? plugins::Code::success : status.code,
                                        seconds_since(a->phase_started));
  if (!status.ok()) {
    fail(self, a, status.message(), {status.plugin}, true);
    return next(self);
  }
  if (extenders_of(self) && extenders_of(self)->prioritizes(*a->pod().pod)) {
    auto shared_scores = std::make_shared<std::vector<plugins::NodeScore>>(std::move(scores));
    return with_node_objects(self, a, [self, a, shared_scores] {
      prioritize_with_extenders(self, a, std::move(*shared_scores));
    });
  }
  select_and_reserve(self, a, scores);
}

void score(Self self, const AttemptPtr& a) {
  auto pre_score = a->framework().run_pre_score(*a->request->state, a->pod(), a->feasible);
  if (!pre_score.ok()) {
    fail(self, a, pre_score.message(), {pre_score.plugin}, true);
    return next(self);
  }
  a->phase_started = Clock::now();
  fan_out<NodeScoresPtr>(
      self, self->state.deps.nodes, kNodeTimeout, [=](std::vector<NodeScoresPtr> parts) { on_scored(self, a, parts); },
      [=](caf::error err) {
        a->framework().record_extension_point(plugins::MetricPoint::score, plugins::Code::error,
                                              seconds_since(a->phase_started));
        fail(self, a, "score failed: " + to_string(err), {}, true);
        next(self);
      },
      atom::score_v, CycleRequestPtr(a->request));
}

void report_no_fit(Self self, const AttemptPtr& a, const plugins::PostFilterResult& post) {
  auto message = plugins::fit_error_message(a->total_nodes, a->failures.counts(), post.message);
  const auto& plugins_set = a->failures.plugins();
  fail(self, a, message, std::vector<std::string>(plugins_set.begin(), plugins_set.end()), false);
  next(self);
}

/// PostFilter: DefaultPreemption searches the partitions first (off the path of pods that fit).
void no_fit(Self self, const AttemptPtr& a) {
  if (const auto* preemption = preemption_plugin(a->framework())) {
    return search_preemption(self, a->request, a->statuses, a->total_nodes, *preemption,
                             [self, a, preemption](const plugins::PostFilterResult& post) {
                               act_on_preemption(self, *a->request, *preemption, post);
                               report_no_fit(self, a, post);
                             });
  }
  report_no_fit(self, a, a->framework().run_post_filter(*a->request->state, a->pod(), a->statuses));
}

/// After every filter (plugins, then extenders): nothing fits, one node
/// fits (nothing to compare), or score.
void after_filters(Self self, const AttemptPtr& a) {
  if (a->feasible.empty()) return no_fit(self, a);
  if (a->feasible.size() == 1) return reserve(self, a, a->feasible.front());
  score(self, a);
}

/// findNodesThatPassExtenders: the extenders narrow what the plugins let through.
void filter_with_extenders(Self self, const AttemptPtr& a) {
  auto extenders = self->state.deps.extenders;
  auto pod = a->pod().pod;
  auto feasible = a->feasible;
  auto nodes = a->node_json;
  bool posted = off_actor<ExtenderFilterOutcome>(
      self, [extenders, pod, feasible, nodes] { return extenders->filter(*pod, feasible, *nodes); },
      [self, a](const ExtenderFilterOutcome& outcome) {
        if (outcome.error) {
          fail(self, a, outcome.error_message, {}, true);
          return next(self);
        }
        for (const auto& [node, status] : outcome.statuses) {
          a->failures.add(status);
          a->statuses.emplace_back(node, status);
        }
        a->feasible = outcome.feasible;
        after_filters(self, a);
      });
  if (!posted) {
    fail(self, a, "extenders cannot be called: no I/O threads (the scheduler is shutting down)", {}, true);
    next(self);
  }
}

void on_filtered(Self self, const AttemptPtr& a, std::vector<FilterOutcomePtr>& parts) {
  int64_t total = 0;
  for (const auto& part : parts) {
    if (part->error) {
      a->framework().record_extension_point(plugins::MetricPoint::filter, plugins::Code::error,
                                            seconds_since(a->phase_started));
      fail(self, a, part->error_message, {}, true);
      return next(self);
    }
    total += part->nodes;
    a->feasible.insert(a->feasible.end(), part->feasible.begin(), part->feasible.end());
    a->failures.merge(part->failures);
    a->statuses.insert(a->statuses.end(), part->statuses.begin(), part->statuses.end());
  }
  a->total_nodes = total;
  self->state.total_nodes = total;
  a->framework().record_extension_point(plugins::MetricPoint::filter, plugins::Code::success,
                                        seconds_since(a->phase_started));
  if (auto& m = self->state.deps.metrics)
    m->observe("scheduler_scheduling_algorithm_duration_seconds", {}, seconds_since(a->started));
  if (!a->feasible.empty() && extenders_of(self) && extenders_of(self)->filters(*a->pod().pod))
    return with_node_objects(self, a, [self, a] { filter_with_extenders(self, a); });
  after_filters(self, a);
}

void attempt(Self self, QueuedPodPtr queued) {
  auto a = std::make_shared<Attempt>();
  a->queued = queued;
  a->started = Clock::now();
  auto request = std::make_shared<CycleRequest>();
  request->cycle = ++self->state.cycle;
  request->framework = queued->framework;
  request->pod = queued->pod;
  request->state = std::shared_ptr<plugins::CycleState>(queued->framework->new_cycle_state());
  self->state.task_learning.on_attempt(*queued, *request->state);  // actors/task_learning.hpp
  if (self->state.deps.evaluation_cache)
    request->scheduling_class = plugins::scheduling_class_of(*queued->pod->pod, request->state->inputs_version());
  a->request = request;
  release_nomination(self, *request->pod);

  auto pre_filter = a->framework().run_pre_filter(*request->state, a->pod());
  if (!pre_filter.ok()) {
    bool error = pre_filter.code == plugins::Code::error;
    auto message = error ? pre_filter.message()
                         : plugins::pre_filter_fit_error_message(self->state.total_nodes, pre_filter.message());
    fail(self, a, message, {pre_filter.plugin}, error);
    return next(self);
  }
  int32_t percentage = a->framework().percentage_of_nodes_to_score().value_or(
      self->state.deps.percentage_of_nodes_to_score);
  request->total_nodes = self->state.total_nodes;
  request->feasible_wanted = self->state.total_nodes > 0
                                 ? plugins::num_feasible_nodes_to_find(percentage, self->state.total_nodes)
                                 : 0;  // size unknown yet: every partition checks every node

  a->phase_started = Clock::now();
  fan_out<FilterOutcomePtr>(
      self, self->state.deps.nodes, kNodeTimeout,
      [=](std::vector<FilterOutcomePtr> parts) { on_filtered(self, a, parts); },
      [=](caf::error err) {
        a->framework().record_extension_point(plugins::MetricPoint::filter, plugins::Code::error,
                                              seconds_since(a->phase_started));
        fail(self, a, "filter failed: " + to_string(err), {}, true);
        next(self);
      },
      atom::filter_v, CycleRequestPtr(request));
}

}  // namespace

cycle_actor::behavior_type cycle_actor_fn(Self self, CycleDeps deps) {
  self->state.deps = std::move(deps);
  self->state.rng.seed(self->state.deps.seed);
  self->state.actor_metrics = actor_metrics(self->state.deps.metrics, "cycle");
  return {
      [=](atom::start) {
        MessageTimer timer(self->state.actor_metrics, self);
        if (self->state.started) return;
        self->state.started = true;
        next(self);
      },
      [=](atom::next) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->request(self->state.deps.queue, caf::infinite, atom::pop_v)
            .then([=](QueuedPodPtr& queued) { attempt(self, std::move(queued)); },
                  [=](caf::error& err) {
                    spdlog::error("scheduling-cycle lost the queue: {}", to_string(err));
                    self->quit(err);
                  });
      },
      [=](atom::next, CycleResumePtr resume) {
        MessageTimer timer(self->state.actor_metrics, self);
        (*resume)();
      },
      [=](atom::pod_gone, const std::string& uid) {
        MessageTimer timer(self->state.actor_metrics, self);
        forget_nomination(self, uid);
      },
      [=](atom::pod_bound, const QueuedPodPtr& pod) {
        MessageTimer timer(self->state.actor_metrics, self);
        self->state.task_learning.on_bound(*pod, self->state.started);
      },
  };
}

}  // namespace troupe::actors
