#include "plugins/descheduler/victim_order.hpp"

#include <algorithm>

#include "model/pod_requests.hpp"
#include "plugins/descheduler/pod_classes.hpp"

namespace troupe::plugins::descheduler {

double coverage_score(int64_t used, int64_t excess) {
  if (excess == 0) return 0;
  const double ratio = static_cast<double>(used) / static_cast<double>(excess);
  return ratio >= 1 ? 1 / ratio + 1 : ratio;
}

double usage_score(const Amounts& pod_usage, const Amounts& excess, const std::vector<int64_t>& weights) {
  double score = 0;
  int64_t weight_sum = 0;
  for (size_t i = 0; i < excess.size(); ++i) {
    if (excess[i] <= 0) continue;
    score += coverage_score(pod_usage[i], excess[i]) * static_cast<double>(weights[i]);
    weight_sum += weights[i];
  }
  return weight_sum == 0 ? 0 : score / static_cast<double>(weight_sum);
}

int64_t node_usage_score(const Amounts& usage, const Amounts& capacity, const std::vector<int64_t>& weights) {
  int64_t score = 0;
  int64_t weight_sum = 0;
  for (size_t i = 0; i < usage.size(); ++i) {
    int64_t resource_score = 0;
    if (capacity[i] > 0) resource_score = std::min(usage[i], capacity[i]) * 1000 / capacity[i];
    score += resource_score * weights[i];
    weight_sum += weights[i];
  }
  return weight_sum == 0 ? 0 : score / weight_sum;
}

namespace {

int k8s_qos_rank(QosClass qos) {
  switch (qos) {
    case QosClass::best_effort: return 1;
    case QosClass::burstable: return 2;
    case QosClass::guaranteed: return 3;
  }
  return 3;
}

/// The keys compared before usage, precomputed once per pod.
struct SortKey {
  int priority_class;
  int32_t priority;
  int k8s_qos;
  int koord_qos;
  int32_t deletion_cost;
  int32_t eviction_cost;
  int has_no_metric;   // pods without metrics after those with
  double neg_usage;    // higher usage score first
  int64_t neg_created;  // newer first
};

SortKey key_of(const Victim& victim, const Amounts& excess, const std::vector<int64_t>& weights) {
  const Pod& pod = *victim.pod;
  const auto created = pod.meta.creation_timestamp ? pod.meta.creation_timestamp->time_since_epoch().count() : 0;
  // pod_qos walks every container: worked out once for the three keys that depend on it.
  const QosClass qos = pod_qos(pod);
  const KoordQos koord = koord_qos(pod, qos);
  return SortKey{static_cast<int>(koord_priority_class(pod, koord)),
                 pod_priority(pod.spec),
                 k8s_qos_rank(qos),
                 qos_rank(koord),
                 deletion_cost(pod),
                 eviction_cost(pod),
                 victim.usage ? 0 : 1,
                 victim.usage ? -usage_score(*victim.usage, excess, weights) : 0.0,
                 -static_cast<int64_t>(created)};
}

/// Lexicographic over the keys in SortKey's order (as std::tie's <, with
/// one comparison per key; no key is NaN), then the input position.
bool earlier(const SortKey& x, const SortKey& y, size_t x_position, size_t y_position) {
  if (x.priority_class != y.priority_class) return x.priority_class < y.priority_class;
  if (x.priority != y.priority) return x.priority < y.priority;
  if (x.k8s_qos != y.k8s_qos) return x.k8s_qos < y.k8s_qos;
  if (x.koord_qos != y.koord_qos) return x.koord_qos < y.koord_qos;
  if (x.deletion_cost != y.deletion_cost) return x.deletion_cost < y.deletion_cost;
  if (x.eviction_cost != y.eviction_cost) return x.eviction_cost < y.eviction_cost;
  if (x.has_no_metric != y.has_no_metric) return x.has_no_metric < y.has_no_metric;
  if (x.neg_usage != y.neg_usage) return x.neg_usage < y.neg_usage;
  if (x.neg_created != y.neg_created) return x.neg_created < y.neg_created;
  return x_position < y_position;
}

}  // namespace

void sort_victims(std::vector<Victim>& victims, const Amounts& excess, const std::vector<int64_t>& weights) {
  std::vector<std::pair<SortKey, size_t>> keyed;
  keyed.reserve(victims.size());
  for (size_t i = 0; i < victims.size(); ++i) keyed.emplace_back(key_of(victims[i], excess, weights), i);
  // The input position breaks ties, so std::sort gives stable_sort's order
  // without its merge buffer (a hot node's pods are sorted once per phase).
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    return earlier(a.first, b.first, a.second, b.second);
  });
  std::vector<Victim> sorted;
  sorted.reserve(victims.size());
  for (const auto& entry : keyed) sorted.push_back(std::move(victims[entry.second]));
  victims = std::move(sorted);
}

}  // namespace troupe::plugins::descheduler
