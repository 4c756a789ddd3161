#include "plugins/framework/own_selectors.hpp"

#include <algorithm>

#include "plugins/framework/cluster_pods.hpp"

namespace troupe::plugins {

namespace {

void add_terms(std::vector<const LabelSelector*>& out, const std::optional<PodAffinity>& affinity) {
  if (!affinity) return;
  for (const auto& term : affinity->required)
    if (term.label_selector) out.push_back(&*term.label_selector);
  for (const auto& weighted : affinity->preferred)
    if (weighted.term.label_selector) out.push_back(&*weighted.term.label_selector);
}

}  // namespace

OwnSelectors::OwnSelectors(const Pod& pod, std::optional<LabelSelector> by_default)
    : by_default_(std::move(by_default)) {
  for (const auto& c : pod.spec.topology_spread_constraints)
    if (c.label_selector) selectors_.push_back(&*c.label_selector);
  if (pod.spec.affinity) {
    add_terms(selectors_, pod.spec.affinity->pod_affinity);
    add_terms(selectors_, pod.spec.affinity->pod_anti_affinity);
  }
}

bool OwnSelectors::may_count(const Pod& placed) const {
  return has_pod_affinity_terms(placed) || selects(placed.meta.labels);
}

bool OwnSelectors::selects(const Labels& labels) const {
  if (by_default_ && by_default_->matches(labels)) return true;
  return std::any_of(selectors_.begin(), selectors_.end(), [&](const LabelSelector* s) { return s->matches(labels); });
}

}  // namespace troupe::plugins
