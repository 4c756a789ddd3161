#include "plugins/default_preemption/nomination_book.hpp"

#include "plugins/framework/node_info.hpp"

namespace troupe::plugins::preemption {

std::shared_ptr<const PodInfo> nominated_placeholder(const PodInfo& pod, const std::string& node) {
  Pod copy = *pod.pod;
  copy.spec.node_name = node;
  copy.status.nominated_node_name = node;
  return PodInfo::make(std::move(copy));
}

std::shared_ptr<const PodInfo> NominationBook::nominate(const PodInfo& pod, const std::string& node,
                                                        std::set<std::string> victims) {
  auto placeholder = nominated_placeholder(pod, node);
  by_uid_[std::string(pod_identity(pod))] = Nomination{node, placeholder, std::move(victims)};
  return placeholder;
}

void NominationBook::restore(const std::string& uid, Nomination nomination) {
  by_uid_[uid] = std::move(nomination);
}

std::optional<Nomination> NominationBook::take(const std::string& uid) {
  auto it = by_uid_.find(uid);
  if (it == by_uid_.end()) return std::nullopt;
  Nomination out = std::move(it->second);
  by_uid_.erase(it);
  return out;
}

std::vector<Nomination> NominationBook::take_lower_priority(int32_t priority) {
  std::vector<Nomination> out;
  for (auto it = by_uid_.begin(); it != by_uid_.end();) {
    if (it->second.placeholder->priority < priority) {
      out.push_back(std::move(it->second));
      it = by_uid_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

std::map<std::string, int32_t> NominationBook::priorities() const {
  std::map<std::string, int32_t> out;
  for (const auto& [uid, nomination] : by_uid_) out[uid] = nomination.placeholder->priority;
  return out;
}

const Nomination* NominationBook::find(const std::string& uid) const {
  auto it = by_uid_.find(uid);
  return it == by_uid_.end() ? nullptr : &it->second;
}

}  // namespace troupe::plugins::preemption
