#include "config/extension_point.hpp"

namespace troupe::config {
namespace {

struct Names {
  std::string_view yaml;
  std::string_view interface;
};

constexpr std::array<Names, kExtensionPointCount> kNames = {{
    {"preEnqueue", "PreEnqueuePlugin"},
    {"queueSort", "QueueSortPlugin"},
    {"preFilter", "PreFilterPlugin"},
    {"filter", "FilterPlugin"},
    {"postFilter", "PostFilterPlugin"},
    {"preScore", "PreScorePlugin"},
    {"score", "ScorePlugin"},
    {"reserve", "ReservePlugin"},
    {"permit", "PermitPlugin"},
    {"preBind", "PreBindPlugin"},
    {"bind", "BindPlugin"},
    {"postBind", "PostBindPlugin"},
}};

}  // namespace

std::string_view yaml_key(ExtensionPoint point) { return kNames[index_of(point)].yaml; }

std::string_view interface_name(ExtensionPoint point) { return kNames[index_of(point)].interface; }

std::optional<ExtensionPoint> extension_point_from_yaml_key(std::string_view key) {
  for (auto point : kAllExtensionPoints)
    if (yaml_key(point) == key) return point;
  return std::nullopt;
}

}  // namespace troupe::config
