#include "plugins/elastic_quota/quota_book.hpp"

#include <algorithm>
#include <set>

#include "plugins/elastic_quota/runtime_quota.hpp"

namespace troupe::plugins::elastic_quota {

namespace {

int64_t amount(const ResourceAmounts& amounts, const std::string& name) {
  auto it = amounts.find(name);
  return it == amounts.end() ? 0 : it->second;
}

/// request capped at max where max names the resource (getLimitRequestNoLock).
ResourceAmounts capped(const ResourceAmounts& request, const ResourceAmounts& max) {
  ResourceAmounts out = request;
  for (auto& [name, value] : out) {
    auto limit = max.find(name);
    if (limit != max.end()) value = std::min(value, limit->second);
  }
  return out;
}

/// Only the resources `names` has (quotav1.Mask).
ResourceAmounts masked(const ResourceAmounts& amounts, const ResourceAmounts& names) {
  ResourceAmounts out;
  for (const auto& [name, value] : names) {
    (void)value;
    out[name] = amount(amounts, name);
  }
  return out;
}

QuotaSpec builtin(const char* name) {
  QuotaSpec spec;
  spec.name = name;
  return spec;
}

void apply(ResourceAmounts& into, const ResourceAmounts& delta, int sign) {
  if (sign > 0) return add_to(into, delta);
  subtract_from(into, delta);
}

}  // namespace

void QuotaBook::set_builtin_max(ResourceAmounts system_max, ResourceAmounts default_max) {
  if (!system_.name.empty() && system_.max == system_max && default_.max == default_max) return;
  system_ = builtin(kSystemQuotaName);
  system_.max = std::move(system_max);
  default_ = builtin(kDefaultQuotaName);
  default_.max = std::move(default_max);
  stale_ = true;
}

void QuotaBook::set_min_quota_scale(bool enabled) {
  if (scale_min_ == enabled) return;
  scale_min_ = enabled;
  stale_ = true;
}

void QuotaBook::upsert_quota(QuotaSpec spec) {
  auto it = quotas_.find(spec.name);
  if (it != quotas_.end() && it->second == spec) return;
  const std::string name = spec.name;
  quotas_[name] = std::move(spec);
  recharge_all();  // a new quota, or new namespaces, may take pods from another
}

void QuotaBook::remove_quota(const std::string& name) {
  if (quotas_.erase(name) > 0) recharge_all();
}

void QuotaBook::upsert_node(const std::string& name, ResourceAmounts allocatable) {
  auto& held = nodes_[name];
  subtract_from(total_, held);
  held = std::move(allocatable);
  add_to(total_, held);
  stale_ = true;
}

void QuotaBook::remove_node(const std::string& name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end()) return;
  subtract_from(total_, it->second);
  nodes_.erase(it);
  stale_ = true;
}

void QuotaBook::upsert_pod(const std::string& uid, QuotaPod pod) {
  PodEntry entry{std::move(pod), "", false};
  entry.quota = quota_of(entry.pod.namespace_name, entry.pod.quota_label);
  auto it = pods_.find(uid);
  if (it != pods_.end()) entry.reserved = it->second.reserved && !entry.pod.placed;
  if (it != pods_.end() && it->second.quota == entry.quota && it->second.pod.request == entry.pod.request) {
    // The same request in the same quota (the pod was bound, relabelled
    // otherwise, ...): the runtimes stand, only what it uses may change.
    charge_used(it->second, -1);
    it->second = std::move(entry);
    charge_used(it->second, +1);
    return;
  }
  if (it != pods_.end()) charge(it->second, -1);
  charge(entry, +1);
  pods_[uid] = std::move(entry);
}

void QuotaBook::remove_pod(const std::string& uid) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  charge(it->second, -1);
  pods_.erase(it);
}

void QuotaBook::set_reserved(const std::string& uid, bool reserved) {
  auto it = pods_.find(uid);
  if (it == pods_.end() || it->second.reserved == reserved) return;
  charge_used(it->second, -1);
  it->second.reserved = reserved && !it->second.pod.placed;  // once bound, the informer's word holds
  charge_used(it->second, +1);
}

std::string QuotaBook::quota_of(const std::string& namespace_name, const std::string& quota_label) const {
  // The root is the tree, not a group of pods.
  auto takes_pods = [this](const std::string& name) { return name != kRootQuotaName && spec_of(name) != nullptr; };
  if (!quota_label.empty()) return takes_pods(quota_label) ? quota_label : kDefaultQuotaName;
  auto same_name = quotas_.find(namespace_name);
  if (same_name != quotas_.end() && same_name->second.namespace_name == namespace_name && takes_pods(namespace_name))
    return namespace_name;
  for (const auto& [name, spec] : quotas_)
    if (takes_pods(name) &&
        std::find(spec.namespaces.begin(), spec.namespaces.end(), namespace_name) != spec.namespaces.end())
      return name;
  return kDefaultQuotaName;
}

std::optional<QuotaUsage> QuotaBook::usage(const std::string& quota) {
  const QuotaSpec* spec = spec_of(quota);
  if (spec == nullptr) return std::nullopt;
  refresh();
  QuotaUsage out;
  out.name = quota;
  out.min = spec->min;
  out.max = spec->max;
  auto sums = sums_.find(quota);
  if (sums != sums_.end()) out.non_preemptible_used = sums->second.non_preemptible_used;
  if (is_builtin(quota)) {
    out.runtime = spec->max;
    if (sums != sums_.end()) {
      out.used = sums->second.used;
      out.request = sums->second.request;
    }
    return out;
  }
  const Figures& figures = figures_[quota];
  out.used = subtree_sum(quota, &Sums::used);
  out.non_preemptible_used = subtree_sum(quota, &Sums::non_preemptible_used);
  out.request = figures.request;
  if (quota == kRootQuotaName) {
    out.runtime = figures.runtime;  // what the tree shares: it has no max of its own
    return out;
  }
  if (!figures.reachable) {
    // Walk up to where the chain leaves the tree: a missing parent, or a loop.
    std::set<std::string> seen{quota};
    std::string at = spec->parent;
    while (spec_of(at) != nullptr && !is_builtin(at) && seen.insert(at).second) at = spec_of(at)->parent;
    out.unreachable_parent = at;
    return out;
  }
  out.runtime = masked(figures.runtime, spec->max);
  for (std::string at = spec->parent; at != kRootQuotaName;) {
    const QuotaSpec* parent = spec_of(at);
    const Figures& f = figures_[at];
    out.parents.push_back({at, subtree_sum(at, &Sums::used), masked(f.runtime, parent->max), parent->max});
    at = parent->parent;
  }
  return out;
}

std::vector<std::shared_ptr<const PodInfo>> QuotaBook::placed_pods(const std::string& quota) const {
  std::vector<std::shared_ptr<const PodInfo>> out;
  for (const auto& [uid, entry] : pods_) {
    (void)uid;
    if (entry.quota == quota && entry.uses() && entry.pod.info) out.push_back(entry.pod.info);
  }
  return out;
}

std::vector<std::string> QuotaBook::quota_names() const {
  std::vector<std::string> out;
  for (const auto& [name, spec] : quotas_) {
    (void)spec;
    out.push_back(name);
  }
  for (const char* name : {kSystemQuotaName, kDefaultQuotaName})
    if (quotas_.count(name) == 0) out.emplace_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

void QuotaBook::charge(const PodEntry& entry, int sign) {
  apply(sums_[entry.quota].request, entry.pod.request, sign);
  charge_used(entry, sign);
  stale_ = true;  // requests share the runtimes out
}

void QuotaBook::charge_used(const PodEntry& entry, int sign) {
  if (!entry.uses()) return;
  Sums& sums = sums_[entry.quota];
  apply(sums.used, entry.pod.request, sign);
  if (entry.pod.non_preemptible) apply(sums.non_preemptible_used, entry.pod.request, sign);
  // What the system and default quotas use is not shared out; other quotas' use changes no runtime.
  if (is_builtin(entry.quota)) stale_ = true;
}

ResourceAmounts QuotaBook::subtree_sum(const std::string& name, ResourceAmounts Sums::*figure) const {
  ResourceAmounts sum;
  auto own = sums_.find(name);
  if (own != sums_.end()) sum = own->second.*figure;
  auto children = children_.find(name);
  if (children == children_.end()) return sum;
  for (const std::string& child : children->second) {
    auto figures = figures_.find(child);
    // Only the tree the root reaches: a loop of parents would never end.
    if (figures != figures_.end() && figures->second.reachable) add_to(sum, subtree_sum(child, figure));
  }
  return sum;
}

void QuotaBook::recharge_all() {
  sums_.clear();
  for (auto& [uid, entry] : pods_) {
    (void)uid;
    entry.quota = quota_of(entry.pod.namespace_name, entry.pod.quota_label);
    charge(entry, +1);
  }
  stale_ = true;
}

bool QuotaBook::is_builtin(const std::string& name) const {
  return name == kSystemQuotaName || name == kDefaultQuotaName;
}

const QuotaSpec* QuotaBook::spec_of(const std::string& name) const {
  auto it = quotas_.find(name);
  if (it != quotas_.end()) return &it->second;
  if (name == kSystemQuotaName) return &system_;
  if (name == kDefaultQuotaName) return &default_;
  return nullptr;
}

void QuotaBook::refresh() {
  if (!stale_) return;
  stale_ = false;
  children_.clear();
  figures_.clear();
  std::set<std::string> keys;
  for (const auto& [name, spec] : quotas_) {
    if (is_builtin(name) || name == kRootQuotaName) continue;  // outside the tree, or the tree itself
    children_[spec.parent].push_back(name);
    for (const auto& [key, value] : spec.max) {
      (void)value;
      keys.insert(key);
    }
  }
  resource_keys_.assign(keys.begin(), keys.end());
  sum_subtree(kRootQuotaName);
  // The tree shares what the system and default quotas do not use.
  ResourceAmounts total = total_;
  for (const char* builtin_quota : {kSystemQuotaName, kDefaultQuotaName}) {
    auto sums = sums_.find(builtin_quota);
    if (sums == sums_.end()) continue;
    for (const auto& [key, used] : sums->second.used) total[key] -= used;
  }
  figures_[kRootQuotaName].runtime = total;
  share_among_children(kRootQuotaName, total);
}

/// Requests from the leaves up; marks what the root reaches.
void QuotaBook::sum_subtree(const std::string& name) {
  Figures& figures = figures_[name];
  figures.reachable = true;
  auto own = sums_.find(name);
  if (own != sums_.end()) figures.request = own->second.request;
  auto children = children_.find(name);
  if (children == children_.end()) return;
  for (const std::string& child : children->second) {
    if (figures_[child].reachable) continue;  // a loop back into the tree
    sum_subtree(child);
    const Figures& sub = figures_[child];
    add_to(figures_[name].request, capped(sub.request, spec_of(child)->max));
  }
}

/// Each resource of `total` split among the parent's children, then each
/// child's runtime split among its own.
void QuotaBook::share_among_children(const std::string& parent, const ResourceAmounts& total) {
  auto children = children_.find(parent);
  if (children == children_.end()) return;
  const std::vector<std::string>& names = children->second;
  for (const std::string& key : resource_keys_) {
    std::vector<QuotaShare> shares;
    std::vector<int64_t> mins;
    for (const std::string& child : names) {
      const QuotaSpec& spec = *spec_of(child);
      QuotaShare share;
      share.name = child;
      share.request = amount(capped(figures_[child].request, spec.max), key);
      share.shared_weight = amount(spec.shared_weight, key);
      share.allow_lent_resource = spec.allow_lent_resource;
      shares.push_back(share);
      mins.push_back(amount(spec.min, key));
    }
    // Koordinator scales only the resources the parent's total names.
    if (scale_min_ && total.count(key) > 0) mins = scaled_mins(amount(total, key), mins);
    for (size_t i = 0; i < shares.size(); ++i) shares[i].min = mins[i];
    redistribute(amount(total, key), shares);
    for (const QuotaShare& share : shares) figures_[share.name].runtime[key] = share.runtime;
  }
  for (const std::string& child : names)
    if (spec_of(child)->is_parent || children_.count(child) > 0) share_among_children(child, figures_[child].runtime);
}

}  // namespace troupe::plugins::elastic_quota
