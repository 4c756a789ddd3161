#pragma once
// A set of node names that narrows: nullopt means every node, and each
// restriction keeps only the names it shares with what is kept so far
// (PreFilter results, pinned node names, the nodes local volumes reach).

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <string>

namespace troupe::plugins {

using NodeNameSet = std::optional<std::set<std::string>>;

/// Keeps in `names` only what `these` also holds (`these` whole when
/// `names` is still every node).
inline void narrow_node_names(NodeNameSet& names, std::set<std::string> these) {
  if (!names) {
    names = std::move(these);
    return;
  }
  std::set<std::string> both;
  std::set_intersection(names->begin(), names->end(), these.begin(), these.end(), std::inserter(both, both.begin()));
  names = std::move(both);
}

}  // namespace troupe::plugins
