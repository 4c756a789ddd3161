#include "model/resources.hpp"

#include <ostream>

namespace troupe {

Quantity ResourceList::get(std::string_view name) const {
  auto found = find(name);
  return found == end() ? Quantity() : found->second;
}

ResourceList& ResourceList::operator+=(const ResourceList& other) {
  for (const auto& [name, quantity] : other) {
    auto [slot, inserted] = try_emplace(name, quantity);
    if (!inserted) slot->second += quantity;
  }
  return *this;
}

ResourceList& ResourceList::operator-=(const ResourceList& other) {
  for (const auto& [name, quantity] : other) {
    // A fresh zero slot takes the subtrahend's format, as Quantity::Sub does.
    (*this)[name] -= quantity;
  }
  return *this;
}

ResourceList& ResourceList::operator*=(int64_t factor) {
  for (auto& entry : *this) entry.second *= factor;
  return *this;
}

void ResourceList::set_max(const ResourceList& other) {
  for (const auto& [name, quantity] : other) {
    auto [slot, inserted] = try_emplace(name, quantity);
    if (!inserted && quantity > slot->second) slot->second = quantity;
  }
}

std::vector<std::string> ResourceList::fits_within(const ResourceList& available) const {
  std::vector<std::string> short_names;
  for (const auto& [name, quantity] : *this)
    if (quantity.sign() > 0 && quantity > available.get(name)) short_names.push_back(name);
  return short_names;
}

bool ResourceList::is_zero() const {
  for (const auto& entry : *this)
    if (!entry.second.is_zero()) return false;
  return true;
}

ResourceList ResourceList::without_zeros() const {
  ResourceList kept;
  for (const auto& entry : *this)
    if (!entry.second.is_zero()) kept.emplace_hint(kept.end(), entry);
  return kept;
}

bool ResourceList::same_amounts(const ResourceList& other) const {
  for (const auto& [name, quantity] : *this)
    if (quantity != other.get(name)) return false;
  for (const auto& [name, quantity] : other)
    if (quantity != get(name)) return false;
  return true;
}

std::string ResourceList::to_string() const {
  std::string out = "{";
  for (const auto& [name, quantity] : *this) {
    if (out.size() > 1) out.append(", ");
    out.append(name).append(": ").append(quantity.to_string());
  }
  out.push_back('}');
  return out;
}

std::ostream& operator<<(std::ostream& out, const ResourceList& resources) { return out << resources.to_string(); }

}  // namespace troupe
