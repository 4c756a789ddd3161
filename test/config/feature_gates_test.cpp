// --feature-gates: parsing as component-base does, and what troupe does with them.
#include <catch2/catch.hpp>

#include "config/feature_gates.hpp"

using namespace troupe::config;

TEST_CASE("feature gates: the flag parses Name=bool lists, table-driven", "[config][feature-gates]") {
  struct Case {
    const char* text;
    FeatureGates want;
  };
  const std::vector<Case> ok = {
      {"", {}},
      {"DevicePluginAdaption=true", {{"DevicePluginAdaption", true}}},
      {"A=false,B=true", {{"A", false}, {"B", true}}},
      {" A = 1 ,,B=F,", {{"A", true}, {"B", false}}},
      {"A=TRUE,A=False", {{"A", false}}},  // the last one wins
      {"A=t,B=0,C=True,D=FALSE", {{"A", true}, {"B", false}, {"C", true}, {"D", false}}},
  };
  for (const auto& c : ok) {
    INFO(c.text);
    auto gates = parse_feature_gates(c.text);
    REQUIRE(gates);
    CHECK(*gates == c.want);
  }
  struct Bad {
    const char* text;
    const char* error;
  };
  const std::vector<Bad> bad = {
      {"A", "--feature-gates: missing bool value for A"},
      {"A=true,B", "--feature-gates: missing bool value for B"},
      {"A=true, ,B=false", "--feature-gates: missing bool value for "},  // a blank entry is not empty
      {"A=yes", "--feature-gates: invalid value of A=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"},
      {"A=", "--feature-gates: invalid value of A=, err: strconv.ParseBool: parsing \"\": invalid syntax"},
      {"=true", "--feature-gates: an entry without a name: \"=true\""},
  };
  for (const auto& c : bad) {
    INFO(c.text);
    auto gates = parse_feature_gates(c.text);
    REQUIRE_FALSE(gates);
    CHECK(gates.message() == c.error);
  }
}

TEST_CASE("DevicePluginAdaption fills DeviceShare's arg where a profile leaves it unset", "[config][feature-gates]") {
  SchedulerConfiguration config;
  config.profiles.resize(4);
  for (size_t i = 0; i < 3; ++i) config.profiles[i].enabled[index_of(ExtensionPoint::filter)].push_back({"DeviceShare", 0});
  config.profiles[1].plugin_args["DeviceShare"] = YAML::Load("{devicePluginAdaption: false, scoringStrategy: {type: MostAllocated}}");
  // Two profiles sharing one args node (a YAML anchor): the copy it gets leaves the other alone.
  const YAML::Node shared = YAML::Load("{scoringStrategy: {type: MostAllocated}}");
  config.profiles[2].plugin_args["DeviceShare"] = shared;
  config.profiles[3].plugin_args["DeviceShare"] = shared;  // profile 3 does not run DeviceShare
  auto warnings = apply_feature_gates(config, {{"DevicePluginAdaption", true}, {"GPUPartition", false}});
  CHECK(config.profiles[0].args_for("DeviceShare")["devicePluginAdaption"].as<bool>());
  CHECK_FALSE(config.profiles[1].args_for("DeviceShare")["devicePluginAdaption"].as<bool>());  // the profile's own
  CHECK(config.profiles[2].args_for("DeviceShare")["devicePluginAdaption"].as<bool>());
  CHECK(config.profiles[2].args_for("DeviceShare")["scoringStrategy"]["type"].as<std::string>() == "MostAllocated");
  CHECK_FALSE(config.profiles[3].args_for("DeviceShare")["devicePluginAdaption"]);
  CHECK_FALSE(shared["devicePluginAdaption"]);
  CHECK(warnings == std::vector<std::string>{
                        "feature gate GPUPartition=false ignored: troupe has no such switch (what it implements is "
                        "always on)"});
  SchedulerConfiguration untouched;
  untouched.profiles.resize(1);
  CHECK(apply_feature_gates(untouched, {}).empty());
  CHECK(untouched.profiles[0].plugin_args.empty());
}
