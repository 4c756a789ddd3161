#pragma once
// OwnSelectors: the label selectors through which a pod's own placement
// rules pick other pods: its spread constraints', its pod (anti-)affinity
// terms' and, when it is spread by default, its default constraints'. A
// placed pod none of them matches, and without affinity terms of its own,
// changes nothing InterPodAffinity or PodTopologySpread count for the pod
// (placed pods' terms are what points at the pod the other way). The
// selectors are taken as written: matchLabelKeys, mismatchLabelKeys and
// namespaces only narrow what they select, so `may_count` may say yes where
// the plugins would not count, never no where they would.

#include <optional>
#include <vector>

#include "model/label_selector.hpp"
#include "model/pod.hpp"

namespace troupe::plugins {

class OwnSelectors {
 public:
  /// `by_default`: the selector of the pod's default spread constraints, if they apply.
  OwnSelectors(const Pod& pod, std::optional<LabelSelector> by_default);

  /// Whether `placed` may change what the pod's InterPodAffinity or
  /// PodTopologySpread count.
  bool may_count(const Pod& placed) const;
  /// Whether one of the selectors matches these labels (what may_count asks
  /// of a placed pod without terms).
  bool selects(const Labels& labels) const;

 private:
  std::vector<const LabelSelector*> selectors_;  // into the pod, which outlives this
  std::optional<LabelSelector> by_default_;
};

}  // namespace troupe::plugins
