#include "plugins/framework/node_domains.hpp"

namespace troupe::plugins {

const NodeDomains::Values* NodeDomains::values_of(const std::string& key) const {
  auto it = keys_.find(key);
  return it == keys_.end() ? nullptr : &it->second.values;
}

size_t NodeDomains::nodes_with(const std::string& key) const {
  auto it = keys_.find(key);
  return it == keys_.end() ? 0 : it->second.nodes;
}

void NodeDomains::change(const Labels& labels, bool added) {
  for (auto& [key, kept] : keys_) {
    auto label = labels.find(key);
    if (label == labels.end()) continue;
    if (added) {
      ++kept.values[label->second];
      ++kept.nodes;
      continue;
    }
    auto it = kept.values.find(label->second);
    if (it == kept.values.end()) continue;  // not added with these labels: nothing to take back
    --kept.nodes;
    // A value no node has any more is no domain.
    if (--it->second == 0) kept.values.erase(it);
  }
}

}  // namespace troupe::plugins
