#include "plugins/framework/class_labels.hpp"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "plugins/framework/keys_read_by_name.hpp"

namespace troupe::plugins {

namespace {

void add_selector_keys(std::vector<std::string_view>& keys, const std::optional<LabelSelector>& selector) {
  if (!selector) return;
  for (const LabelRequirement& r : selector->requirements()) keys.push_back(r.key);
}

void add_term_keys(std::vector<std::string_view>& keys, const PodAffinityTerm& term) {
  add_selector_keys(keys, term.label_selector);
  keys.insert(keys.end(), term.match_label_keys.begin(), term.match_label_keys.end());
  keys.insert(keys.end(), term.mismatch_label_keys.begin(), term.mismatch_label_keys.end());
}

void add_affinity_keys(std::vector<std::string_view>& keys, const std::optional<PodAffinity>& affinity) {
  if (!affinity) return;
  for (const auto& term : affinity->required) add_term_keys(keys, term);
  for (const auto& weighted : affinity->preferred) add_term_keys(keys, weighted.term);
}

/// The label keys the pod's own terms and spread constraints read of it.
std::vector<std::string_view> own_selected_keys(const Pod& pod) {
  std::vector<std::string_view> keys;
  for (const auto& c : pod.spec.topology_spread_constraints) {
    add_selector_keys(keys, c.label_selector);
    keys.insert(keys.end(), c.match_label_keys.begin(), c.match_label_keys.end());
  }
  if (pod.spec.affinity) {
    add_affinity_keys(keys, pod.spec.affinity->pod_affinity);
    add_affinity_keys(keys, pod.spec.affinity->pod_anti_affinity);
  }
  return keys;
}

}  // namespace

std::string labels_read(const Pod& pod, const SelectedLabelKeys& selected) {
  const std::vector<std::string_view> own = own_selected_keys(pod);
  std::string out = "\nlabel keys " + std::to_string(selected.placed_terms.generation()) + "." +
                    std::to_string(selected.workloads.generation());
  for (const auto& [key, value] : pod.meta.labels) {
    const bool read = selected.placed_terms.contains(key) || selected.workloads.contains(key) ||
                      key_read_by_name(key) || std::find(own.begin(), own.end(), key) != own.end();
    if (read) out += "\nlabel " + key + "=" + value;
  }
  return out;
}

std::shared_ptr<const SchedulingClass> with_labels_read(std::shared_ptr<const SchedulingClass> base, const Pod& pod,
                                                        const SelectedLabelKeys& selected) {
  return with_labels(std::move(base), labels_read(pod, selected));
}

}  // namespace troupe::plugins
