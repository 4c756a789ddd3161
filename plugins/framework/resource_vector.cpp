#include "plugins/framework/resource_vector.hpp"

#include <algorithm>

#include "model/resource_names.hpp"

namespace troupe::plugins {

namespace rn = resource_names;

namespace {

using Scalars = std::vector<std::pair<ResourceName, int64_t>>;

auto find_scalar(const Scalars& scalars, std::string_view name) {
  return std::lower_bound(scalars.begin(), scalars.end(), name,
                          [](const auto& entry, std::string_view n) { return entry.first < n; });
}

/// Adds sign*other into scalars, keeping them sorted; entries that reach zero
/// are dropped so that subtracting what was added restores the exact vector.
void merge_scalars(Scalars& scalars, const Scalars& other, int64_t sign) {
  for (const auto& [name, amount] : other) {
    auto it = std::lower_bound(scalars.begin(), scalars.end(), name,
                               [](const auto& entry, ResourceName n) { return entry.first < n; });
    if (it != scalars.end() && it->first == name) {
      it->second += sign * amount;
      if (it->second == 0) scalars.erase(it);
    } else if (amount != 0) {
      scalars.insert(it, {name, sign * amount});
    }
  }
}

}  // namespace

ResourceVector ResourceVector::from(const ResourceList& list) {
  ResourceVector v;
  for (const auto& [name, quantity] : list) {
    if (name == rn::kCpu) {
      v.milli_cpu = quantity.milli_value();
    } else if (name == rn::kMemory) {
      v.memory = quantity.value();
    } else if (name == rn::kEphemeralStorage) {
      v.ephemeral_storage = quantity.value();
    } else if (name == rn::kPods) {
      v.allowed_pods = quantity.value();
    } else if (rn::is_scalar_resource_name(name)) {
      v.scalars.emplace_back(name, quantity.value());  // the list is sorted by name already, names interned
    }
  }
  return v;
}

int64_t ResourceVector::scalar(std::string_view name) const {
  auto it = find_scalar(scalars, name);
  return it != scalars.end() && it->first == name ? it->second : 0;
}

bool ResourceVector::has_scalar(std::string_view name) const {
  auto it = find_scalar(scalars, name);
  return it != scalars.end() && it->first == name;
}

int64_t ResourceVector::get(std::string_view name) const {
  if (name == rn::kCpu) return milli_cpu;
  if (name == rn::kMemory) return memory;
  if (name == rn::kEphemeralStorage) return ephemeral_storage;
  if (name == rn::kPods) return allowed_pods;
  return scalar(name);
}

void ResourceVector::add(const ResourceVector& other) {
  milli_cpu += other.milli_cpu;
  memory += other.memory;
  ephemeral_storage += other.ephemeral_storage;
  allowed_pods += other.allowed_pods;
  merge_scalars(scalars, other.scalars, 1);
}

void ResourceVector::subtract(const ResourceVector& other) {
  milli_cpu -= other.milli_cpu;
  memory -= other.memory;
  ephemeral_storage -= other.ephemeral_storage;
  allowed_pods -= other.allowed_pods;
  merge_scalars(scalars, other.scalars, -1);
}

bool ResourceVector::is_zero() const {
  if (milli_cpu != 0 || memory != 0 || ephemeral_storage != 0 || allowed_pods != 0) return false;
  return std::all_of(scalars.begin(), scalars.end(), [](const auto& e) { return e.second == 0; });
}

bool operator==(const ResourceVector& a, const ResourceVector& b) {
  return a.milli_cpu == b.milli_cpu && a.memory == b.memory && a.ephemeral_storage == b.ephemeral_storage &&
         a.allowed_pods == b.allowed_pods && a.scalars == b.scalars;
}

}  // namespace troupe::plugins
