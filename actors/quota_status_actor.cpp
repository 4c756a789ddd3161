#include "actors/quota_status_actor.hpp"

#include <map>
#include <set>

#include <spdlog/spdlog.h>

#include "actors/atoms.hpp"
#include "actors/messages.hpp"
#include "model/elastic_quota.hpp"
#include "model/json.hpp"
#include "plugins/elastic_quota/quota_spec.hpp"
#include "plugins/elastic_quota/quota_status.hpp"
#include "watch/object_writes.hpp"
#include "watch/pod_writes.hpp"

namespace troupe::actors {

/// What an I/O task reports back about one quota's write.
struct QuotaWriteDone {
  std::string name;  // the quota's, or the evicted pod's key
  watch::ApiResult result;
  bool eviction = false;
};
using QuotaWriteDonePtr = std::shared_ptr<const QuotaWriteDone>;

}  // namespace troupe::actors

// In-process only: the outcome of a write, sent back by the I/O thread.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(troupe::actors::QuotaWriteDonePtr)

namespace troupe::actors {

namespace eq = plugins::elastic_quota;

namespace {

constexpr const char* kElasticQuotas = "elasticquotas";
constexpr const char* kElasticQuotasPath = "/apis/scheduling.sigs.k8s.io/v1alpha1/elasticquotas";
constexpr const char* kStatusMetric = "scheduler_elastic_quota_status";
constexpr const char* kSpecMetric = "scheduler_elastic_quota_spec";

struct QuotaStatusState {
  QuotaStatusDeps deps;
  std::map<std::string, ElasticQuota> quotas;  // by name (unique in the cluster)
  bool synced = false;
  std::set<std::string> busy;  // quotas with a write on the I/O pool
  std::set<std::string> evicting;  // pods ("ns/name") with an eviction on the I/O pool
  /// When to create the system, default and root quotas that are missing
  /// (again a minute after a try that left any missing: the namespace may come later).
  std::chrono::steady_clock::time_point next_builtin_check{};
};

using Self = caf::stateful_actor<QuotaStatusState>*;

/// The figures are whole: the quotas listed and the scheduler's view synced.
bool figures_whole(const QuotaStatusState& st) { return st.synced && (!st.deps.ready || st.deps.ready->load()); }

bool may_write(const QuotaStatusState& st) {
  return figures_whole(st) && (!st.deps.leading || st.deps.leading->load());
}

void on_quota(Self self, watch::EventType type, const watch::ObjectPtr& object) {
  auto& quotas = self->state.quotas;
  const std::string name = get_string(*object, "metadata", "name");
  if (type == watch::EventType::deleted) {
    quotas.erase(name);
    return;
  }
  auto decoded = decode_elastic_quota(object);
  if (!decoded) {
    // The informer reports it (an event); its status is left as it is.
    quotas.erase(name);
    return;
  }
  quotas[name] = std::move(*decoded);
}

void post_write(Self self, const ElasticQuota& quota, std::string patch) {
  auto& st = self->state;
  const std::string name = quota.meta.name;
  st.busy.insert(name);
  auto me = caf::actor_cast<caf::actor>(self);
  auto api = st.deps.api;
  const std::string path =
      watch::object_path("/apis/scheduling.sigs.k8s.io/v1alpha1", kElasticQuotas, quota.meta.namespace_name, name);
  const bool posted = st.deps.io->post([me, api, name, path, patch = std::move(patch)] {
    auto done = std::make_shared<QuotaWriteDone>();
    done->name = name;
    done->result = watch::patch_object(*api, path, patch, watch::PatchType::merge);
    caf::anon_send(me, atom::done_v, QuotaWriteDonePtr(std::move(done)));
  });
  if (!posted) st.busy.erase(name);  // shutting down
}

/// Koordinator's createDefaultQuotaIfNotPresent and its system and root
/// twins, while any of them is missing and this replica may write.
void create_missing_builtins(Self self) {
  auto& st = self->state;
  const auto now = std::chrono::steady_clock::now();
  if (!may_write(st) || now < st.next_builtin_check) return;
  st.next_builtin_check = now + std::chrono::minutes(1);
  const auto& args = st.deps.args;
  const std::string collection = watch::object_path("/apis/scheduling.sigs.k8s.io/v1alpha1", kElasticQuotas,
                                                    args.quota_group_namespace, "");
  for (auto& object : eq::builtin_quota_objects(args.quota_group_namespace, args.system_quota_group_max,
                                                args.default_quota_group_max)) {
    if (st.quotas.count(object.name) > 0) continue;
    auto api = st.deps.api;
    st.deps.io->post([api, collection, ns = args.quota_group_namespace, object = std::move(object)] {
      auto result = watch::create_object(*api, collection, object.body);
      if (result.ok) spdlog::info("ElasticQuota: created {}/{}", ns, object.name);
      else if (result.code != 409)  // created meanwhile, by another scheduler
        spdlog::warn("ElasticQuota: cannot create {}/{}: {}", ns, object.name, result.message);
    });
  }
}

/// Evicts a pod the overuse revoke chose, unless its eviction is under way.
void post_eviction(Self self, const plugins::PodInfo& pod) {
  auto& st = self->state;
  if (!st.evicting.insert(pod.key).second) return;
  spdlog::info("ElasticQuota: evicting pod {}: its quota has used more than its runtime for longer than "
               "delayEvictTime",
               pod.key);
  auto me = caf::actor_cast<caf::actor>(self);
  auto api = st.deps.api;
  const bool posted = st.deps.io->post([me, api, key = pod.key, ns = pod.meta().namespace_name, name = pod.meta().name] {
    auto done = std::make_shared<QuotaWriteDone>();
    done->name = key;
    done->eviction = true;
    done->result = watch::evict_pod(*api, ns, name);
    caf::anon_send(me, atom::done_v, QuotaWriteDonePtr(std::move(done)));
  });
  if (!posted) st.evicting.erase(pod.key);  // shutting down
}

/// Koordinator's gauges: one series per quota, resource and field.
void record_metrics(QuotaStatusState& st, const QuotaFigures& figures) {
  if (!st.deps.metrics) return;
  std::vector<std::pair<LabelValues, double>> status, spec;
  for (const auto& [quota_name, quota] : st.quotas) {
    const std::string& name = quota_name;  // C++17 lambdas cannot capture a structured binding
    auto it = figures.find(name);
    if (it == figures.end()) continue;
    const eq::QuotaSpec s = eq::quota_spec_of(quota);
    auto add = [&](auto& series, const eq::ResourceAmounts& amounts, const char* field) {
      for (const auto& [resource, value] : amounts)
        series.push_back({{name, resource, "", s.is_parent ? "true" : "false", s.parent, field},
                          static_cast<double>(value)});
    };
    const eq::QuotaUsage& usage = it->second;
    add(status, usage.runtime, "runtime");
    add(status, usage.request, "request");
    add(status, usage.used, "used");
    add(status, usage.non_preemptible_used, "non-preemptible-used");
    add(spec, s.min, "min");
    add(spec, s.max, "max");
    add(spec, s.shared_weight, "sharedWeight");
  }
  st.deps.metrics->replace(kStatusMetric, status);
  st.deps.metrics->replace(kSpecMetric, spec);
}

/// Writes back what differs, for the quotas with no write in flight.
void write_changes(Self self, const QuotaFigures& figures) {
  auto& st = self->state;
  record_metrics(st, figures);
  if (!may_write(st)) return;
  for (const auto& [name, quota] : st.quotas) {
    if (st.busy.count(name) > 0) continue;
    auto it = figures.find(name);
    if (it == figures.end()) continue;
    if (auto patch = eq::quota_status_patch(quota, it->second)) post_write(self, quota, std::move(*patch));
  }
}

caf::behavior quota_status_actor_fn(Self self, QuotaStatusDeps deps) {
  self->state.deps = std::move(deps);
  if (auto& m = self->state.deps.metrics) {
    const std::vector<std::string> labels = {"name", "resource", "tree", "is_parent", "parent", "field"};
    m->declare(kStatusMetric, MetricsRegistry::Type::gauge, "ElasticQuota current status", labels);
    m->declare(kSpecMetric, MetricsRegistry::Type::gauge, "ElasticQuota specifications", labels);
  }
  self->send(self, atom::tick_v);
  if (self->state.deps.args.monitor_all_quotas) self->send(self, atom::revoke_round_v);
  return {
      [=](atom::watch_event, const ObjectEventPtr& event) {
        if (event->resource == kElasticQuotas) on_quota(self, event->type, event->object);
      },
      [=](atom::synced, const std::string& resource) {
        if (resource != kElasticQuotas || self->state.synced) return;
        self->state.synced = true;
        spdlog::info("quota status controller: synced ({} ElasticQuotas)", self->state.quotas.size());
      },
      [=](atom::tick) {
        auto& st = self->state;
        self->delayed_send(self, st.deps.period, atom::tick_v);
        create_missing_builtins(self);
        if (!figures_whole(st)) return;
        self->request(st.deps.cycle, std::chrono::seconds(10), atom::quota_figures_v)
            .then([=](const QuotaFiguresPtr& figures) { write_changes(self, *figures); },
                  [](const caf::error&) {});  // a busy cycle: the next tick asks again
      },
      [=](atom::revoke_round) {
        auto& st = self->state;
        const auto& args = st.deps.args;
        self->delayed_send(self, std::chrono::duration_cast<std::chrono::milliseconds>(args.revoke_pod_interval),
                           atom::revoke_round_v);
        if (!may_write(st)) return;
        self->request(st.deps.cycle, std::chrono::seconds(10), atom::quota_revoke_v, args.delay_evict_time.count())
            .then(
                [=](const PodInfoListPtr& pods) {
                  if (!may_write(self->state)) return;  // the lease was lost while the cycle answered
                  for (const auto& pod : *pods) post_eviction(self, *pod);
                },
                [](const caf::error&) {});  // a busy cycle: the next round asks again
      },
      [=](atom::done, const QuotaWriteDonePtr& done) {
        if (done->eviction) {
          self->state.evicting.erase(done->name);
          if (!done->result.ok && done->result.code != 404)
            spdlog::warn("ElasticQuota: evicting pod {} failed: {}", done->name, done->result.message);
          return;
        }
        self->state.busy.erase(done->name);
        if (!done->result.ok && done->result.code != 404)
          spdlog::warn("ElasticQuota {}: writing its status failed: {}", done->name, done->result.message);
      },
  };
}

}  // namespace

Result<std::unique_ptr<QuotaStatusController>> QuotaStatusController::start(QuotaStatusDeps deps) {
  if (deps.reflectors == nullptr) return Error{"quota status controller: no reflectors to subscribe to"};
  std::unique_ptr<QuotaStatusController> controller(new QuotaStatusController());
  auto* reflectors = deps.reflectors;
  controller->actor_ = deps.system->spawn(quota_status_actor_fn, std::move(deps));
  // The same collection the informer follows for the cycle's QuotaBook.
  if (auto subscribed =
          reflectors->subscribe(CollectionSpec{kElasticQuotas, kElasticQuotasPath, "", true}, controller->actor_);
      !subscribed) {
    controller->stop();
    return Error{subscribed.message()};
  }
  return controller;
}

QuotaStatusController::~QuotaStatusController() { stop(); }

void QuotaStatusController::stop() {
  if (actor_) caf::anon_send_exit(actor_, caf::exit_reason::user_shutdown);
  actor_ = nullptr;
}

}  // namespace troupe::actors
