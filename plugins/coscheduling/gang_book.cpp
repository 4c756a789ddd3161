#include "plugins/coscheduling/gang_book.hpp"

#include <algorithm>

namespace troupe::plugins::coscheduling {

void GangBook::add_member(const std::string& uid, const GangSpec& spec, bool bound, const std::string& pod_key) {
  auto known = member_gang_.find(uid);
  if (known != member_gang_.end() && known->second != spec.id) remove_member(uid);  // moved to another gang
  auto [it, created] = gangs_.try_emplace(spec.id);
  Gang& gang = it->second;
  if (created) gang.spec = spec;
  gang.children.insert(uid);
  member_gang_[uid] = spec.id;
  pod_keys_[uid] = pod_key.empty() ? uid : pod_key;
  if (bound) mark_bound(uid);
  // The gang has rules now: the members that could not give them join.
  if (auto unread = unread_members_.find(spec.id); created && unread != unread_members_.end()) {
    auto members = std::move(unread->second);
    unread_members_.erase(unread);
    for (const auto& [member, place] : members) add_member(member, spec, place.first, place.second);
  }
}

void GangBook::add_unreadable_member(const std::string& uid, const std::string& gang_id, bool bound,
                                     const std::string& pod_key) {
  if (const Gang* gang = find(gang_id)) {
    const GangSpec rules = gang->spec;
    return add_member(uid, rules, bound, pod_key);
  }
  remove_member(uid);  // it may have moved here from another gang
  unread_members_[gang_id][uid] = {bound, pod_key};
}

void GangBook::remove_member(const std::string& uid) {
  for (auto unread = unread_members_.begin(); unread != unread_members_.end(); ++unread) {
    if (unread->second.erase(uid) == 0) continue;
    if (unread->second.empty()) unread_members_.erase(unread);
    break;
  }
  stop_waiting(uid);
  forget_member_cycle(uid);
  auto member = member_gang_.find(uid);
  if (member == member_gang_.end()) return;
  auto it = gangs_.find(member->second);
  member_gang_.erase(member);
  pod_keys_.erase(uid);
  if (it == gangs_.end()) return;
  Gang& gang = it->second;
  gang.children.erase(uid);
  gang.bound.erase(uid);
  gang.binding.erase(uid);
  // Koordinator keeps an empty gang until its pods are all gone: so do we,
  // then forget it (a later gang of that name starts afresh).
  if (gang.children.empty() && gang.waiting.empty()) gangs_.erase(it);
}

void GangBook::mark_bound(const std::string& uid) {
  auto member = member_gang_.find(uid);
  if (member == member_gang_.end()) return;
  auto it = gangs_.find(member->second);
  if (it == gangs_.end()) return;
  it->second.bound.insert(uid);
  it->second.binding.erase(uid);
  // A bound member satisfies its whole gang group once (Koordinator's
  // GangGroupInfo.setResourceSatisfied, on the bound pod's add).
  for (const auto& id : rules_of(it->second).group)
    if (auto gang = gangs_.find(id); gang != gangs_.end()) gang->second.once_satisfied = true;
  it->second.once_satisfied = true;
  forget_member_cycle(uid);
}

const GangBook::Gang* GangBook::find(const std::string& gang_id) const {
  auto it = gangs_.find(gang_id);
  return it == gangs_.end() ? nullptr : &it->second;
}

void GangBook::set_pod_group(const std::string& gang_id, Result<GangSpec> rules) {
  pod_groups_.insert_or_assign(gang_id, std::move(rules));
}

void GangBook::remove_pod_group(const std::string& gang_id) { pod_groups_.erase(gang_id); }

const GangSpec& GangBook::rules_of(const Gang& gang) const {
  auto it = pod_groups_.find(gang.spec.id);
  return it != pod_groups_.end() && it->second.ok() ? it->second.value() : gang.spec;
}

const GangSpec* GangBook::rules(const std::string& gang_id) const {
  const Gang* gang = find(gang_id);
  return gang ? &rules_of(*gang) : nullptr;
}

std::optional<std::string> GangBook::pod_group_problem(const Gang& gang, const std::string& pod_key) const {
  if (!gang.spec.from_pod_group) return std::nullopt;
  auto it = pod_groups_.find(gang.spec.id);
  if (it == pod_groups_.end())
    return "can't find gang, gangName: " + gang.spec.id + ", podName: " + pod_key + " (no PodGroup " +
           gang.spec.id + ")";
  if (!it->second.ok()) return it->second.message();
  return std::nullopt;
}

std::optional<std::string> GangBook::pre_filter(const GangSpec& spec, const std::string& pod_key) const {
  const Gang* own = find(spec.id);
  const GangSpec& own_rules = own ? rules_of(*own) : spec;
  if (own && own->once_satisfied && own_rules.match_policy == MatchPolicy::once_satisfied) return std::nullopt;
  for (const auto& id : own_rules.group) {
    const Gang* gang = find(id);
    if (gang == nullptr) return "can't find gang, gangName: " + id + ", podName: " + pod_key;
    if (auto problem = pod_group_problem(*gang, pod_key)) return problem;
    const int min_member = rules_of(*gang).min_member;
    if (static_cast<int>(gang->children.size()) < min_member)
      return "gang child pod not collect enough, gangName: " + id + ", podName: " + pod_key + " (" +
             std::to_string(gang->children.size()) + " of " + std::to_string(min_member) + " members exist)";
  }
  return std::nullopt;
}

bool GangBook::valid_for_permit(const Gang& gang) const {
  const GangSpec& rules = rules_of(gang);
  if (pod_group_problem(gang, "")) return false;
  const int waiting = static_cast<int>(gang.waiting.size() + gang.binding.size());
  switch (rules.match_policy) {
    case MatchPolicy::only_waiting: return waiting >= rules.min_member;
    case MatchPolicy::waiting_and_running: return waiting + static_cast<int>(gang.bound.size()) >= rules.min_member;
    case MatchPolicy::once_satisfied: return gang.once_satisfied || waiting >= rules.min_member;
  }
  return false;
}

GangBook::PermitDecision GangBook::permit(const GangSpec& spec, const std::string& uid) {
  PermitDecision decision;
  auto member = member_gang_.find(uid);
  if (member == member_gang_.end() || member->second != spec.id) {
    decision.gone = true;
    return decision;
  }
  Gang& own = gangs_.at(spec.id);
  own.waiting.insert(uid);
  waiting_gang_[uid] = spec.id;
  const std::vector<std::string> group = rules_of(own).group;
  for (const auto& id : group) {
    const Gang* gang = find(id);
    if (gang == nullptr || !valid_for_permit(*gang)) return decision;
  }
  decision.allowed = true;
  // Not satisfied yet: that takes a member bound (mark_bound), so a group
  // whose bindings all fail is still tried as a whole.
  for (const auto& id : group) {
    Gang& gang = gangs_.at(id);
    for (const auto& waiting : gang.waiting) {
      if (waiting != uid) decision.released.push_back(waiting);
      gang.binding.insert(waiting);  // the pod itself too: it waits in its own gang
    }
  }
  for (const auto& released : decision.released) stop_waiting(released);
  stop_waiting(uid);
  return decision;
}

bool GangBook::failure_rejects_group(const GangSpec& spec) const {
  const Gang* own = find(spec.id);
  const GangSpec& rules = own ? rules_of(*own) : spec;
  if (rules.mode != GangMode::strict) return false;
  return !(own && own->once_satisfied && rules.match_policy == MatchPolicy::once_satisfied);
}

std::vector<std::string> GangBook::take_waiting_of_group(const GangSpec& spec) {
  const Gang* own = find(spec.id);
  const std::vector<std::string> group = own ? rules_of(*own).group : spec.group;
  std::vector<std::string> taken;
  for (const auto& id : group)
    if (const Gang* gang = find(id)) taken.insert(taken.end(), gang->waiting.begin(), gang->waiting.end());
  for (const auto& uid : taken) stop_waiting(uid);
  return taken;
}

bool GangBook::stop_waiting(const std::string& uid) {
  auto it = waiting_gang_.find(uid);
  if (it == waiting_gang_.end()) return false;
  auto gang = gangs_.find(it->second);
  waiting_gang_.erase(it);
  if (gang == gangs_.end()) return true;
  gang->second.waiting.erase(uid);
  if (gang->second.children.empty() && gang->second.waiting.empty()) gangs_.erase(gang);
  return true;
}

void GangBook::binding_failed(const std::string& uid) {
  auto member = member_gang_.find(uid);
  if (member == member_gang_.end()) return;
  if (auto it = gangs_.find(member->second); it != gangs_.end()) it->second.binding.erase(uid);
}

size_t GangBook::waiting_groups() const {
  std::set<std::string> groups;
  for (const auto& [uid, gang_id] : waiting_gang_)
    if (const Gang* gang = find(gang_id)) groups.insert(rules_of(*gang).group_id);
  return groups.size();
}

std::optional<GangBook::Counts> GangBook::counts(const std::string& gang_id) const {
  const Gang* gang = find(gang_id);
  if (gang == nullptr) return std::nullopt;
  return Counts{gang->children.size(), gang->bound.size(), gang->waiting.size(), gang->once_satisfied};
}

std::optional<GangBook::Summary> GangBook::summary(const std::string& gang_id) const {
  const Gang* gang = find(gang_id);
  if (gang == nullptr) return std::nullopt;
  Summary out;
  out.rules = rules_of(*gang);
  out.from_pod_group = gang->spec.from_pod_group || pod_groups_.count(gang_id) > 0;
  out.initialised = !gang->spec.from_pod_group || !pod_group_problem(*gang, "");
  out.once_satisfied = gang->once_satisfied;
  auto keys = [this](const std::set<std::string>& uids) {
    std::vector<std::string> names;
    for (const auto& uid : uids) {
      auto it = pod_keys_.find(uid);
      names.push_back(it == pod_keys_.end() ? uid : it->second);
    }
    std::sort(names.begin(), names.end());
    return names;
  };
  std::set<std::string> pending;
  for (const auto& uid : gang->children)
    if (gang->bound.count(uid) == 0 && gang->waiting.count(uid) == 0) pending.insert(uid);
  out.children = keys(gang->children);
  out.pending = keys(pending);
  out.waiting = keys(gang->waiting);
  out.bound = keys(gang->bound);
  return out;
}

std::vector<std::string> GangBook::gang_ids() const {
  std::vector<std::string> ids;
  for (const auto& [id, gang] : gangs_) ids.push_back(id);
  return ids;
}

}  // namespace troupe::plugins::coscheduling
