#pragma once
// DefaultPreemption, the PostFilter plugin: preempts with its
// DefaultPreemptionArgs through the cycle's partition search
// (preemption_post_filter.hpp says how the search and PostFilter meet).

#include <memory>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/default_preemption/default_preemption_args.hpp"
#include "plugins/default_preemption/preemption_post_filter.hpp"

namespace troupe::plugins::preemption {

class DefaultPreemption : public PreemptionPostFilter {
 public:
  static constexpr const char* kName = "DefaultPreemption";

  explicit DefaultPreemption(DefaultPreemptionArgs args) : args_(args) {}
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);

  std::string_view name() const override { return kName; }
  const DefaultPreemptionArgs& args() const { return args_; }

  bool preempts() const override { return true; }
  PreemptionOptions options(Timestamp now) const override;
  PostFilterResult post_filter(CycleState& state, const PodInfo& pod, const NodeStatuses& statuses) const override;

 private:
  DefaultPreemptionArgs args_;
};

}  // namespace troupe::plugins::preemption
