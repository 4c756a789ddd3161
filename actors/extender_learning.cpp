#include "actors/extender_learning.hpp"

#include <algorithm>

#include "plugins/framework/node_info.hpp"

namespace troupe::actors {

ExtenderLearning::ExtenderLearning(std::shared_ptr<const plugins::Framework> framework, size_t remembered_pods)
    : framework_(std::move(framework)),
      learns_(TaskLearning::learns(*framework_)),
      remembered_pods_(std::max<size_t>(remembered_pods, 1)) {}

bool ExtenderLearning::first_time(const std::string& key) {
  if (!seen_.insert(key).second) return false;
  remembered_.push_back(key);
  if (remembered_.size() > remembered_pods_) {
    seen_.erase(remembered_.front());
    remembered_.pop_front();
  }
  return true;
}

void ExtenderLearning::on_request(const PodInfoPtr& pod, bool count, plugins::CycleState& state) {
  if (!pod || !learns_) return;
  // The cycle's rule, as for a first attempt (counted) or a retry (shared only).
  QueuedPod queued;
  queued.pod = pod;
  queued.framework = framework_;
  queued.attempts = count && first_time(std::string(plugins::pod_identity(*pod))) ? 0 : 1;
  learning_.on_attempt(queued, state);
}

}  // namespace troupe::actors
