#pragma once
// NodeDomains: for the node labels that serve as topology keys, how many
// nodes have each value (kubernetes.io/hostname → one node per value, a zone
// key → a few values with many nodes each). PodTopologySpread needs the set
// of a key's values (its domains) for every pod it places; with this it no
// longer looks the key up on every node for each pod.
//
// Only keys asked for are kept (track): a hostname key costs one entry per
// node, and most label keys never serve as a topology key. ClusterPods owns
// the one instance and keeps it in step with its nodes.

#include <cstddef>
#include <string>
#include <unordered_map>

#include "model/label_selector.hpp"

namespace troupe::plugins {

class NodeDomains {
 public:
  using Values = std::unordered_map<std::string, size_t>;  // value → nodes with it

  /// Starts keeping `key`, counting the labels of the nodes `each_node`
  /// visits (called as each_node(visit), visit(const Labels&)). Nothing
  /// happens for a key already kept.
  template <class EachNode>
  void track(const std::string& key, EachNode each_node) {
    if (keys_.count(key) > 0) return;
    Kept& kept = keys_[key];
    each_node([&](const Labels& labels) {
      auto it = labels.find(key);
      if (it == labels.end()) return;
      ++kept.values[it->second];
      ++kept.nodes;
    });
  }

  void add_node(const Labels& labels) { change(labels, true); }
  /// `labels` are the ones the node was added with.
  void remove_node(const Labels& labels) { change(labels, false); }

  /// The values of a kept key; nullptr for a key not kept.
  const Values* values_of(const std::string& key) const;
  /// How many nodes have the kept key (0 for a key not kept).
  size_t nodes_with(const std::string& key) const;

 private:
  struct Kept {
    Values values;
    size_t nodes = 0;  // the sum of values' counts
  };
  void change(const Labels& labels, bool added);
  std::unordered_map<std::string, Kept> keys_;
};

}  // namespace troupe::plugins
