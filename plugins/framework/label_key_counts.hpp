#pragma once
// LabelKeyCounts: the label keys some selectors name, each counted once per
// selector that names it, so a key stays while any selector still names it.
// The cycle keeps two (placed pods' affinity terms, in TermsByLabel; the
// Services' and controllers' selectors, in WorkloadSelectors): a pod's label
// whose key none of them names cannot change what those selectors select, so
// the pod's scheduling class may leave it out (plugins/framework/class_labels.hpp).
//
// generation() moves only when a key appears or goes, not when one more
// selector names a key already named: classes narrowed under one generation
// compare with each other.

#include <cstdint>
#include <string>
#include <unordered_map>

#include "model/label_selector.hpp"

namespace troupe::plugins {

class LabelKeyCounts {
 public:
  void add(const std::string& key) {
    if (++counts_[key] == 1) ++generation_;
  }
  void remove(const std::string& key) {
    auto it = counts_.find(key);
    if (it == counts_.end()) return;
    if (--it->second == 0) {
      counts_.erase(it);
      ++generation_;
    }
  }
  void add(const LabelSelector& selector) {
    for (const LabelRequirement& r : selector.requirements()) add(r.key);
  }
  void remove(const LabelSelector& selector) {
    for (const LabelRequirement& r : selector.requirements()) remove(r.key);
  }

  bool contains(const std::string& key) const { return counts_.find(key) != counts_.end(); }
  size_t size() const { return counts_.size(); }
  uint64_t generation() const { return generation_; }

 private:
  std::unordered_map<std::string, uint64_t> counts_;
  uint64_t generation_ = 0;
};

}  // namespace troupe::plugins
