#pragma once
// --feature-gates: kube-scheduler's (and koord-scheduler's) "Name=bool,..."
// flag, so a koord-scheduler Deployment's arguments start troupe too. troupe
// knows one of Koordinator's gates: DevicePluginAdaption, which turns on
// DeviceShare's `devicePluginAdaption` in every profile that runs DeviceShare
// and whose args do not set it. Every other gate is accepted and ignored with
// a warning (troupe has no such switch: what it implements is always on);
// upstream rejects a gate it does not know ("unrecognized feature gate"), but
// troupe cannot know every gate a koord-scheduler Deployment may pass.

#include <map>
#include <string>
#include <vector>

#include "config/scheduler_config.hpp"
#include "model/result.hpp"

namespace troupe::config {

using FeatureGates = std::map<std::string, bool>;

/// "A=true,B=false" (component-base's syntax and messages: values as Go's
/// ParseBool, spaces around names and values ignored, empty entries skipped).
Result<FeatureGates> parse_feature_gates(const std::string& text);

/// Applies the gates troupe knows to `config`; returns one warning per gate it ignores.
std::vector<std::string> apply_feature_gates(SchedulerConfiguration& config, const FeatureGates& gates);

}  // namespace troupe::config
