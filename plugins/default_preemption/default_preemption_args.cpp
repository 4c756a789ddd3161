#include "plugins/default_preemption/default_preemption_args.hpp"

#include <limits>
#include <string>

#include "config/yaml_fields.hpp"

namespace troupe::plugins::preemption {

namespace {

constexpr const char* kPercentage = "minCandidateNodesPercentage";
constexpr const char* kAbsolute = "minCandidateNodesAbsolute";

int32_t read_bounded(const YAML::Node& args, const char* key, int64_t max, const char* range) {
  const int64_t value = config::read_int(args[key], key);
  if (value < 0 || value > max)
    throw config::FieldError(key, "Invalid value: " + std::to_string(value) + ": not in valid range " + range);
  return static_cast<int32_t>(value);
}

}  // namespace

DefaultPreemptionArgs DefaultPreemptionArgs::from_yaml(const YAML::Node& args) {
  DefaultPreemptionArgs out;
  if (config::is_absent(args)) return out;
  config::reject_unknown_fields(args, "", {kPercentage, kAbsolute});
  if (!config::is_absent(args[kPercentage]))
    out.min_candidate_nodes_percentage = read_bounded(args, kPercentage, 100, "[0, 100]");
  if (!config::is_absent(args[kAbsolute]))
    out.min_candidate_nodes_absolute =
        read_bounded(args, kAbsolute, std::numeric_limits<int32_t>::max(), "[0, inf)");
  // Both zero would make the search stop before finding any candidate.
  if (out.min_candidate_nodes_percentage == 0 && out.min_candidate_nodes_absolute == 0)
    throw config::FieldError(kPercentage, std::string("Invalid value: 0: cannot be zero at the same time as ") +
                                              kAbsolute);
  return out;
}

}  // namespace troupe::plugins::preemption
