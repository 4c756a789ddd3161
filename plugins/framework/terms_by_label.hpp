#pragma once
// TermsByLabel: the pod (anti-)affinity terms of the placed pods, by a label
// value a pod must have to be selected by them. InterPodAffinity asks, for
// every pod it places, which placed pods' terms select it; a term whose
// selector requires `app In (web, api)` can select only a pod labelled
// app=web or app=api, so with this index it looks at the terms filed under
// the pod's own labels (and those that require no value) instead of every
// placed pod's terms.
//
// A term is filed under one key only, the first of its selector's
// requirements that names values (matchLabels, In), once per value; a pod
// has one value per key, so visit() meets each term at most once. ClusterPods
// owns the one instance, beside PodsByLabel, and keeps it in step. It also
// counts the label keys the terms' selectors name (selected_keys()): the
// labels of a pod being placed that these terms can tell apart.

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "plugins/framework/affinity_term.hpp"
#include "plugins/framework/label_key_counts.hpp"
#include "plugins/framework/pod_info.hpp"
#include "plugins/framework/pods_by_label.hpp"

namespace troupe::plugins {

enum class TermKind { required_affinity, required_anti_affinity, preferred_affinity, preferred_anti_affinity };

template <class Place>
struct PlacedTerm {
  const PodInfo* pod = nullptr;
  const Place* place = nullptr;
  const affinity::ResolvedTerm* term = nullptr;
  TermKind kind = TermKind::required_affinity;
};

template <class Place>
class TermsByLabel {
 public:
  void add(const PodInfo& pod, const Place& place) {
    if (!pod.placed_terms) return;
    for_each_term(*pod.placed_terms, [&](const affinity::ResolvedTerm& term, TermKind kind) {
      const PlacedTerm<Place> placed{&pod, &place, &term, kind};
      selected_keys_.add(term.selector);
      const LabelRequirement* filed_by = filing_requirement(term);
      if (filed_by == nullptr) {
        unfiled_[&pod].push_back(placed);
        return;
      }
      for (std::string_view value : PodsByLabel<Place>::distinct_values(*filed_by))
        filed_[entry_key(filed_by->key, value)][&pod].push_back(placed);
    });
  }

  void remove(const PodInfo& pod) {
    if (!pod.placed_terms) return;
    unfiled_.erase(&pod);
    for_each_term(*pod.placed_terms, [&](const affinity::ResolvedTerm& term, TermKind) {
      selected_keys_.remove(term.selector);
      const LabelRequirement* filed_by = filing_requirement(term);
      if (filed_by == nullptr) return;
      for (std::string_view value : PodsByLabel<Place>::distinct_values(*filed_by)) {
        auto it = filed_.find(entry_key(filed_by->key, value));
        if (it == filed_.end()) continue;
        it->second.erase(&pod);
        if (it->second.empty()) filed_.erase(it);
      }
    });
  }

  /// The label keys the placed terms' selectors name.
  const LabelKeyCounts& selected_keys() const { return selected_keys_; }

  /// Calls visit(const PlacedTerm<Place>&) for every placed term that may
  /// select a pod with these labels; the caller still checks the term.
  template <class Visit>
  void visit(const Labels& labels, Visit visit) const {
    for (const auto& [pod, terms] : unfiled_)
      for (const auto& t : terms) visit(t);
    for (const auto& [key, value] : labels) {
      auto it = filed_.find(entry_key(key, value));
      if (it == filed_.end()) continue;
      for (const auto& [pod, terms] : it->second)
        for (const auto& t : terms) visit(t);
    }
  }

 private:
  using ByPod = std::unordered_map<const PodInfo*, std::vector<PlacedTerm<Place>>>;

  template <class Each>
  static void for_each_term(const affinity::PodTerms& terms, Each each) {
    for (const auto& t : terms.required_affinity) each(t, TermKind::required_affinity);
    for (const auto& t : terms.required_anti_affinity) each(t, TermKind::required_anti_affinity);
    for (const auto& t : terms.preferred_affinity) each(t, TermKind::preferred_affinity);
    for (const auto& t : terms.preferred_anti_affinity) each(t, TermKind::preferred_anti_affinity);
  }

  /// The requirement a term is filed by; nullptr when none names values (or
  /// the selector matches nothing: such a term is never met, filed or not).
  static const LabelRequirement* filing_requirement(const affinity::ResolvedTerm& term) {
    for (const auto& r : term.selector.requirements())
      if (r.op == LabelRequirement::Op::equals || r.op == LabelRequirement::Op::in) return &r;
    return nullptr;
  }

  static std::string entry_key(std::string_view key, std::string_view value) {
    std::string text;
    text.reserve(key.size() + value.size() + 1);
    text.append(key).push_back('\0');
    text.append(value);
    return text;
  }

  std::unordered_map<std::string, ByPod> filed_;
  ByPod unfiled_;
  LabelKeyCounts selected_keys_;
};

}  // namespace troupe::plugins
