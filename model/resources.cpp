#include "model/resources.hpp"

#include <algorithm>
#include <ostream>
#include <stdexcept>

namespace troupe {

ResourceList::ResourceList(std::initializer_list<value_type> entries) {
  for (const auto& e : entries) emplace(e.first, e.second);
}

ResourceList::iterator ResourceList::lower_bound(std::string_view name) {
  return std::lower_bound(entries_.begin(), entries_.end(), name,
                          [](const value_type& e, std::string_view n) { return std::string_view(e.first) < n; });
}

ResourceList::iterator ResourceList::find(std::string_view name) {
  auto it = lower_bound(name);
  return it != entries_.end() && it->first == name ? it : entries_.end();
}

ResourceList::const_iterator ResourceList::find(std::string_view name) const {
  return const_cast<ResourceList*>(this)->find(name);
}

const Quantity& ResourceList::at(std::string_view name) const {
  auto it = find(name);
  if (it == end()) throw std::out_of_range("ResourceList::at: no " + std::string(name));
  return it->second;
}

Quantity& ResourceList::at(std::string_view name) {
  return const_cast<Quantity&>(static_cast<const ResourceList&>(*this).at(name));
}

Quantity& ResourceList::operator[](std::string_view name) {
  auto it = lower_bound(name);
  if (it == entries_.end() || it->first != name) it = entries_.insert(it, value_type(ResourceName(name), Quantity()));
  return it->second;
}

std::pair<ResourceList::iterator, bool> ResourceList::emplace(ResourceName name, const Quantity& quantity) {
  auto it = lower_bound(name);
  if (it != entries_.end() && it->first == name) return {it, false};
  return {entries_.insert(it, value_type(name, quantity)), true};
}

std::pair<ResourceList::iterator, bool> ResourceList::insert_or_assign(ResourceName name, const Quantity& quantity) {
  auto [it, inserted] = emplace(name, quantity);
  if (!inserted) it->second = quantity;
  return {it, inserted};
}

size_t ResourceList::erase(std::string_view name) {
  auto it = find(name);
  if (it == entries_.end()) return 0;
  entries_.erase(it);
  return 1;
}

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
    if (quantity.sign() > 0 && quantity > available.get(name)) short_names.push_back(name.str());
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
    if (!entry.second.is_zero()) kept.entries_.push_back(entry);  // already in name order
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
