#pragma once
// DefaultBinder: claims every binding; the binder performs it as a POST to
// pods/{name}/binding (plugins hold no I/O).

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

class DefaultBinder final : public BindPlugin {
 public:
  static constexpr const char* kName = names::kDefaultBinder;
  std::string_view name() const override { return kName; }
  PluginStatus bind(const CycleState&, const PodInfo&, const std::string&) const override { return {}; }
};

}  // namespace troupe::plugins
