#pragma once
// A one-profile Framework ("troupe") with every default plugin and the given
// DeviceShare args (YAML flow text; empty: DeviceShare's defaults), for the
// tests of the learned task classes (task_learning, extender_learning).

#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "plugins/framework/framework.hpp"
#include "plugins/registry.hpp"

namespace troupe::actors::testing {

inline std::shared_ptr<const plugins::Framework> framework_with(const std::string& device_share_args) {
  std::string yaml =
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
      "  - schedulerName: troupe\n";
  if (!device_share_args.empty())
    yaml += "    pluginConfig:\n      - name: DeviceShare\n        args: " + device_share_args + "\n";
  auto config = plugins::parse_scheduler_configuration(yaml);
  REQUIRE(config.ok());
  auto frameworks = plugins::make_frameworks(*config);
  REQUIRE(frameworks.ok());
  return std::make_shared<const plugins::Framework>(std::move(frameworks->front()));
}

}  // namespace troupe::actors::testing
