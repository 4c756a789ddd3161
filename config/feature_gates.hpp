#pragma once
// --feature-gates: kube-scheduler's (and koord-scheduler's) "Name=bool,..."
// flag, so a koord-scheduler Deployment's arguments start troupe too. troupe
// knows one of Koordinator's gates: DevicePluginAdaption, which turns on
// DeviceShare's `devicePluginAdaption` in every profile whose DeviceShare
// args do not set it. Every other gate is accepted and ignored with a warning
// (troupe has no such switch: what it implements is always on).

#include <map>
#include <string>
#include <vector>

#include "config/scheduler_config.hpp"
#include "model/result.hpp"

namespace troupe::config {

using FeatureGates = std::map<std::string, bool>;

/// "A=true,B=false" (component-base's syntax: values as Go's ParseBool, spaces
/// around entries ignored, empty entries skipped); an error names the entry.
Result<FeatureGates> parse_feature_gates(const std::string& text);

/// Applies the gates troupe knows to `config`; returns one warning per gate it ignores.
std::vector<std::string> apply_feature_gates(SchedulerConfiguration& config, const FeatureGates& gates);

}  // namespace troupe::config
