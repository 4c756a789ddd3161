#pragma once
// The Framework of a configuration without a `plugins` section: every plugin
// troupe implements, as `troupe scheduler` runs it by default. Shared by the
// actor tests that drive node partitions directly.

#include <catch2/catch.hpp>

#include <memory>

#include "plugins/framework/framework.hpp"
#include "plugins/registry.hpp"

namespace troupe::actors::testing {

inline std::shared_ptr<const plugins::Framework> default_framework() {
  auto config = plugins::parse_scheduler_configuration(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
  REQUIRE(config.ok());
  auto frameworks = plugins::make_frameworks(*config);
  REQUIRE(frameworks.ok());
  return std::make_shared<const plugins::Framework>(std::move(frameworks->front()));
}

}  // namespace troupe::actors::testing
