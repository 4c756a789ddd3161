// Fuzz target: a KubeSchedulerConfiguration as the ConfigMap or --config
// file holds it (YAML or JSON). A configuration troupe refuses must say why
// (the field it names); one it accepts must build its frameworks, or be
// refused there with a message, without a crash or a sanitizer report.
//
//   fuzz/fuzz_scheduler_config -dict=../main/fuzz/koordinator.dict corpus ../main/config/examples

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "plugins/registry.hpp"

using namespace troupe;

namespace {

[[noreturn]] void fail(const char* stage) {
  std::fprintf(stderr, "fuzz_scheduler_config: %s refused the configuration without a message\n", stage);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto config = plugins::parse_scheduler_configuration(text);
  if (!config.ok()) {
    if (config.error().message.empty()) fail("parse_scheduler_configuration");
    return 0;
  }
  auto frameworks = plugins::make_frameworks(*config);
  if (!frameworks.ok() && frameworks.error().message.empty()) fail("make_frameworks");
  return 0;
}
