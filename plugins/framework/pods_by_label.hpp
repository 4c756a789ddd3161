#pragma once
// PodsByLabel: the placed pods of each (namespace, label key, label value),
// each with where it is placed. PodTopologySpread counts the pods a selector
// matches; a selector that requires `app=web` can only match pods labelled
// so, and with this index it visits those instead of every pod on every node.
//
// ClusterPods owns the one instance: it adds a pod when it places it and
// removes it before it lets the pod go, so every PodInfo and place here is
// alive. `Place` is what the owner needs to find the pod's node again.

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/label_selector.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins {

template <class Place>
class PodsByLabel {
 public:
  using Pods = std::unordered_map<const PodInfo*, const Place*>;

  void add(const PodInfo& pod, const Place& place) {
    for (const auto& [key, value] : pod.meta().labels)
      pods_[posting(pod.meta().namespace_name, key, value)][&pod] = &place;
  }

  void remove(const PodInfo& pod) {
    for (const auto& [key, value] : pod.meta().labels) {
      auto it = pods_.find(posting(pod.meta().namespace_name, key, value));
      if (it == pods_.end()) continue;
      it->second.erase(&pod);
      if (it->second.empty()) pods_.erase(it);
    }
  }

  /// The placed pods of `ns` labelled key=value; nullptr for none.
  const Pods* find(std::string_view ns, std::string_view key, std::string_view value) const {
    auto it = pods_.find(posting(ns, key, value));
    return it == pods_.end() ? nullptr : &it->second;
  }

  /// Lists of pods of `ns` that together hold every pod `selector` may match,
  /// each pod once: for the requirement that names values (matchLabels, In)
  /// with the fewest pods, one list per value. None for the selector that
  /// matches nothing; nullopt when no requirement names values (the empty
  /// selector matches every pod). The caller still checks the whole selector.
  std::optional<std::vector<const Pods*>> candidates(const LabelSelector& selector, std::string_view ns) const {
    using Op = LabelRequirement::Op;
    if (selector.matches_nothing()) return std::vector<const Pods*>{};
    std::optional<std::vector<const Pods*>> fewest;
    size_t fewest_pods = 0;
    for (const auto& r : selector.requirements()) {
      if (r.op != Op::equals && r.op != Op::in) continue;
      std::vector<const Pods*> lists;
      size_t pods = 0;
      for (std::string_view value : distinct_values(r)) {
        if (const Pods* labelled = find(ns, r.key, value)) {
          lists.push_back(labelled);
          pods += labelled->size();
        }
      }
      if (!fewest || pods < fewest_pods) {
        fewest = std::move(lists);
        fewest_pods = pods;
      }
    }
    return fewest;
  }

  /// A requirement's values, each once: a pod has one value per key, so it
  /// is in one of their lists at most.
  static std::vector<std::string_view> distinct_values(const LabelRequirement& r) {
    std::vector<std::string_view> values(r.values.begin(), r.values.end());
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
  }

 private:
  /// Namespaces, keys and values hold no NUL, so the joined text is unambiguous.
  static std::string posting(std::string_view ns, std::string_view key, std::string_view value) {
    std::string text;
    text.reserve(ns.size() + key.size() + value.size() + 2);
    text.append(ns).push_back('\0');
    text.append(key).push_back('\0');
    text.append(value);
    return text;
  }

  std::unordered_map<std::string, Pods> pods_;
};

}  // namespace troupe::plugins
