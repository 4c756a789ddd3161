#include "actors/quota_accounting.hpp"

#include "plugins/elastic_quota/overuse_revoke.hpp"
#include "plugins/elastic_quota/quota_summary.hpp"

namespace troupe::actors {

namespace {

namespace eq = plugins::elastic_quota;

eq::QuotaPod quota_pod_of(const plugins::PodInfo& pod, bool placed) {
  eq::QuotaPod out;
  out.namespace_name = pod.meta().namespace_name;
  const std::string* label = pod.meta().label(eq::kLabelQuotaName);
  if (label != nullptr) out.quota_label = *label;
  out.non_preemptible = eq::is_non_preemptible(pod.meta());
  out.request = eq::amounts_of(pod.requests);
  out.placed = placed;
  return out;
}

/// The book keeps the pod too: the overuse revoke chooses among them.
eq::QuotaPod quota_pod_of(const PodInfoPtr& pod, bool placed) {
  eq::QuotaPod out = quota_pod_of(*pod, placed);
  out.info = pod;
  return out;
}

}  // namespace

void QuotaAccounting::upsert_node(const Node& node) {
  book_.upsert_node(node.meta.name, eq::amounts_of(node.status.allocatable));
}

void QuotaAccounting::pod_pending(const PodInfoPtr& pod) { book_.upsert_pod(pod->meta().uid, quota_pod_of(pod, false)); }

void QuotaAccounting::pod_placed(const PodInfoPtr& pod) { book_.upsert_pod(pod->meta().uid, quota_pod_of(pod, true)); }

void QuotaAccounting::share_view(const plugins::Framework& framework, plugins::CycleState& state,
                                 const plugins::PodInfo& pod) {
  const auto* plugin = eq::ElasticQuotaPlugin::of(framework);
  if (plugin == nullptr) return;
  // The profile's args decide what the system and default quotas may use
  // and whether mins are scaled (the book only recomputes when they change).
  book_.set_builtin_max(eq::amounts_of(plugin->args().system_quota_group_max),
                        eq::amounts_of(plugin->args().default_quota_group_max));
  book_.set_min_quota_scale(plugin->args().enable_min_quota_scale);
  eq::QuotaView view;
  const eq::QuotaPod quota_pod = quota_pod_of(pod, false);
  view.quota_name = book_.quota_of(quota_pod.namespace_name, quota_pod.quota_label);
  view.quota = book_.usage(view.quota_name);
  view.request = quota_pod.request;
  view.non_preemptible = quota_pod.non_preemptible;
  plugin->share_view(state, std::move(view));
}

PodInfoListPtr QuotaAccounting::revocations(Clock::time_point now, Clock::duration delay) {
  auto out = std::make_shared<std::vector<PodInfoPtr>>();
  const Timestamp wall_now = timestamp_now();
  for (const std::string& name : book_.quota_names()) {
    // As Koordinator: the system and root quotas are never watched, and the
    // default quota has no runtime there, so it is never over it.
    if (name == eq::kSystemQuotaName || name == eq::kDefaultQuotaName || name == eq::kRootQuotaName) continue;
    auto usage = book_.usage(name);
    if (!usage) continue;
    auto monitor = monitors_.try_emplace(name, now).first;
    if (!monitor->second.due(*usage, now, delay)) continue;
    for (auto& pod : eq::pods_to_revoke(usage->used, usage->runtime, book_.placed_pods(name), wall_now))
      out->push_back(std::move(pod));
  }
  // Quotas that are gone are watched no more.
  for (auto it = monitors_.begin(); it != monitors_.end();)
    it = book_.spec_of(it->first) == nullptr ? monitors_.erase(it) : std::next(it);
  return out;
}

QuotaFiguresPtr QuotaAccounting::figures() {
  auto out = std::make_shared<QuotaFigures>();
  for (const std::string& name : book_.quota_names())
    if (auto usage = book_.usage(name)) out->emplace(name, std::move(*usage));
  return out;
}

std::optional<std::string> QuotaAccounting::summary_json(const std::string& name) {
  if (name.empty()) return eq::quota_summaries_json(book_);
  return eq::quota_summary_json(book_, name);
}

}  // namespace troupe::actors
