#include "actors/task_learning.hpp"

#include <cstdio>
#include <map>

#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "plugins/deviceshare/go_json.hpp"
#include "plugins/deviceshare/observed_task.hpp"
#include "plugins/deviceshare/task_classes_json.hpp"
#include "plugins/reservation/reserve_pod.hpp"

namespace troupe::actors {

namespace ds = plugins::deviceshare;

namespace {

// The profile's DeviceShare when it learns its task classes, else null.
const ds::DeviceShare* learning_device_share(const plugins::Framework& framework) {
  const auto* plugin = framework.find_plugin<ds::DeviceShare>();
  const bool learns = plugin != nullptr && plugin->args().strategy == ds::ScoringStrategy::fragmentation &&
                      plugin->args().fragmentation.learned();
  return learns ? plugin : nullptr;
}

}  // namespace

bool TaskLearning::learns(const plugins::Framework& framework) { return learning_device_share(framework) != nullptr; }

TaskLearning::Profile& TaskLearning::profile_of(const std::shared_ptr<const plugins::Framework>& framework) {
  auto [it, inserted] = profiles_.try_emplace(framework.get());
  Profile& profile = it->second;
  if (inserted) {
    profile.framework = framework;
    profile.plugin = learning_device_share(*framework);
    if (profile.plugin != nullptr)
      profile.learner = std::make_unique<ds::TaskLearner>(profile.plugin->args().fragmentation.card_waste_weight);
  }
  return profile;
}

void TaskLearning::count(Profile& profile, const plugins::PodInfo& pod) {
  // A Reservation's reserve pod holds room for its owners, which are counted when they come.
  if (plugins::reservation::is_reserve_pod(pod.meta())) return;
  // A pod DeviceShare cannot read is rejected at PreFilter: nothing to count.
  if (auto task = ds::observed_task(pod, profile.plugin->templates())) profile.learner->observe(std::move(*task));
}

void TaskLearning::on_attempt(const QueuedPod& queued, plugins::CycleState& state) {
  if (!queued.framework || !queued.pod) return;
  Profile& profile = profile_of(queued.framework);
  if (!profile.learner) return;
  if (queued.attempts == 0) count(profile, *queued.pod);
  if (const auto& snapshot = profile.learner->snapshot()) state.share_input(snapshot, snapshot->id, /*read_by_filter=*/false);
}

void TaskLearning::on_bound(const QueuedPod& pod, bool scheduling) {
  if (scheduling || !pod.framework || !pod.pod) return;
  Profile& profile = profile_of(pod.framework);
  if (profile.learner) count(profile, *pod.pod);
}

std::string TaskLearning::summary_json() const {
  std::map<std::string, const Profile*> by_name;  // sorted, as encoding/json writes a map
  for (const auto& [framework, profile] : profiles_)
    if (profile.learner) by_name.emplace(profile.framework->profile_name(), &profile);
  std::string out = "{";
  for (const auto& [name, profile] : by_name) {
    if (out.size() > 1) out += ',';
    const auto& snapshot = profile->learner->snapshot();
    char observed[32];
    std::snprintf(observed, sizeof observed, "%.6g", profile->learner->observed());
    out += ds::go_json_string(name) + ":{\"observed\":" + observed +
           ",\"taskClasses\":" + (snapshot ? ds::task_classes_json(snapshot->tasks) : "[]") + "}";
  }
  return out + "}";
}

const ds::TaskLearner* TaskLearning::learner(const plugins::Framework& framework) const {
  auto it = profiles_.find(&framework);
  return it == profiles_.end() ? nullptr : it->second.learner.get();
}

}  // namespace troupe::actors
