#include "plugins/reservation/resource_list_ops.hpp"

#include <algorithm>

namespace troupe::plugins::reservation {

std::vector<std::string> resource_names(const ResourceList& list) {
  std::vector<std::string> names;
  names.reserve(list.size());
  for (const auto& [name, quantity] : list) names.push_back(name);
  return names;
}

ResourceList mask(const ResourceList& list, const std::vector<std::string>& names) {
  ResourceList out;
  for (const auto& name : names) {
    auto it = list.find(name);
    if (it != list.end()) out.emplace(it->first, it->second);
  }
  return out;
}

ResourceList subtract_non_negative(const ResourceList& a, const ResourceList& b) {
  ResourceList out;
  for (const auto& [name, quantity] : a) {
    Quantity left = quantity - b.get(name);
    out.emplace(name, left.sign() < 0 ? Quantity{} : left);
  }
  return out;
}

std::vector<std::string> intersection(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const auto& name : a)
    if (std::find(b.begin(), b.end(), name) != b.end()) out.push_back(name);
  return out;
}

}  // namespace troupe::plugins::reservation
