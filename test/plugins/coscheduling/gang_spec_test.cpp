#include <catch2/catch.hpp>

#include "plugins/coscheduling/gang_spec.hpp"

using namespace troupe;
using namespace troupe::plugins::coscheduling;
using namespace std::chrono_literals;

namespace {

ObjectMeta meta(std::map<std::string, std::string> annotations, std::map<std::string, std::string> labels = {}) {
  ObjectMeta m;
  m.namespace_name = "team";
  m.name = "worker-0";
  m.annotations = std::move(annotations);
  m.labels = std::move(labels);
  return m;
}

GangSpec read(const ObjectMeta& m, GangDefaults defaults = {}) {
  auto spec = read_gang_spec(m, defaults);
  if (!spec) FAIL(spec.message());
  REQUIRE(spec->has_value());
  return **spec;
}

}  // namespace

TEST_CASE("gang spec: a pod outside any gang has none", "[coscheduling]") {
  auto spec = read_gang_spec(meta({{"unrelated", "1"}}), {});
  REQUIRE(spec.ok());
  CHECK_FALSE(spec->has_value());
  // An empty name is no name.
  auto empty = read_gang_spec(meta({{kAnnotationName, ""}, {kAnnotationMinAvailable, "2"}}), {});
  REQUIRE(empty.ok());
  CHECK_FALSE(empty->has_value());
}

TEST_CASE("gang spec: the gang name's lookup order", "[coscheduling]") {
  struct Case {
    const char* name;
    std::map<std::string, std::string> labels;
    std::map<std::string, std::string> annotations;
    const char* id;
  };
  const std::vector<Case> cases = {
      {"annotation", {}, {{kAnnotationName, "a"}}, "team/a"},
      {"deprecated label beats annotation", {{kLabelPodGroupName, "l"}}, {{kAnnotationName, "a"}}, "team/l"},
      {"PodGroup label beats both", {{kLabelPodGroup, "pg"}, {kLabelPodGroupName, "l"}}, {{kAnnotationName, "a"}},
       "team/pg"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto annotations = c.annotations;
    annotations[kAnnotationMinAvailable] = "1";
    CHECK(read(meta(annotations, c.labels)).id == c.id);
  }
}

TEST_CASE("gang spec: min-available, total-number, mode, waiting time, match policy", "[coscheduling]") {
  GangDefaults defaults{90s, MatchPolicy::once_satisfied};
  struct Case {
    const char* name;
    std::map<std::string, std::string> annotations;
    int min, total;
    GangMode mode;
    std::chrono::milliseconds wait;
    MatchPolicy policy;
  };
  const std::vector<Case> cases = {
      {"defaults", {{kAnnotationMinAvailable, "3"}}, 3, 3, GangMode::strict, 90s, MatchPolicy::once_satisfied},
      {"total above min", {{kAnnotationMinAvailable, "3"}, {kAnnotationTotalNumber, "5"}}, 3, 5, GangMode::strict, 90s,
       MatchPolicy::once_satisfied},
      {"total below min becomes min", {{kAnnotationMinAvailable, "3"}, {kAnnotationTotalNumber, "2"}}, 3, 3,
       GangMode::strict, 90s, MatchPolicy::once_satisfied},
      {"total invalid becomes min", {{kAnnotationMinAvailable, "3"}, {kAnnotationTotalNumber, "x"}}, 3, 3,
       GangMode::strict, 90s, MatchPolicy::once_satisfied},
      {"NonStrict", {{kAnnotationMinAvailable, "2"}, {kAnnotationMode, "NonStrict"}}, 2, 2, GangMode::non_strict, 90s,
       MatchPolicy::once_satisfied},
      {"unknown mode is Strict", {{kAnnotationMinAvailable, "2"}, {kAnnotationMode, "nonstrict"}}, 2, 2,
       GangMode::strict, 90s, MatchPolicy::once_satisfied},
      {"waiting time", {{kAnnotationMinAvailable, "2"}, {kAnnotationWaitingTime, "1m30s"}}, 2, 2, GangMode::strict,
       90s, MatchPolicy::once_satisfied},
      {"waiting time in ms", {{kAnnotationMinAvailable, "2"}, {kAnnotationWaitingTime, "250ms"}}, 2, 2,
       GangMode::strict, 250ms, MatchPolicy::once_satisfied},
      {"zero waiting time is the default", {{kAnnotationMinAvailable, "2"}, {kAnnotationWaitingTime, "0s"}}, 2, 2,
       GangMode::strict, 90s, MatchPolicy::once_satisfied},
      {"invalid waiting time is the default", {{kAnnotationMinAvailable, "2"}, {kAnnotationWaitingTime, "soon"}}, 2, 2,
       GangMode::strict, 90s, MatchPolicy::once_satisfied},
      {"negative waiting time is the default", {{kAnnotationMinAvailable, "2"}, {kAnnotationWaitingTime, "-5s"}}, 2, 2,
       GangMode::strict, 90s, MatchPolicy::once_satisfied},
      {"only-waiting", {{kAnnotationMinAvailable, "2"}, {kAnnotationMatchPolicy, "only-waiting"}}, 2, 2,
       GangMode::strict, 90s, MatchPolicy::only_waiting},
      {"waiting-and-running (alias key)", {{kAnnotationMinAvailable, "2"}, {kLabelMatchPolicy, "waiting-and-running"}},
       2, 2, GangMode::strict, 90s, MatchPolicy::waiting_and_running},
      {"unknown policy is the default", {{kAnnotationMinAvailable, "2"}, {kAnnotationMatchPolicy, "all"}}, 2, 2,
       GangMode::strict, 90s, MatchPolicy::once_satisfied},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto annotations = c.annotations;
    annotations[kAnnotationName] = "g";
    GangSpec spec = read(meta(annotations), defaults);
    CHECK(spec.min_member == c.min);
    CHECK(spec.total_number == c.total);
    CHECK(spec.mode == c.mode);
    CHECK(spec.wait_time == c.wait);
    CHECK(spec.match_policy == c.policy);
  }
}

TEST_CASE("gang spec: the deprecated min-available label wins over the annotation", "[coscheduling]") {
  auto spec = read(meta({{kAnnotationName, "g"}, {kAnnotationMinAvailable, "3"}}, {{kLabelMinAvailable, "5"}}));
  CHECK(spec.min_member == 5);
}

TEST_CASE("gang spec: groups", "[coscheduling]") {
  struct Case {
    const char* name;
    const char* groups;
    std::vector<std::string> group;
    const char* group_id;
  };
  const std::vector<Case> cases = {
      {"absent: the gang alone", nullptr, {"team/g"}, "team/g"},
      {"empty string: the gang alone", "", {"team/g"}, "team/g"},
      {"sorted, own gang added", R"(["team/z","other/a"])", {"other/a", "team/g", "team/z"}, "other/a,team/g,team/z"},
      {"duplicates once", R"(["team/g","team/g","x/y"])", {"team/g", "x/y"}, "team/g,x/y"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    std::map<std::string, std::string> annotations = {{kAnnotationName, "g"}, {kAnnotationMinAvailable, "1"}};
    if (c.groups) annotations[kAnnotationGroups] = c.groups;
    GangSpec spec = read(meta(annotations));
    CHECK(spec.group == c.group);
    CHECK(spec.group_id == c.group_id);
  }
}

TEST_CASE("gang spec: the group a pending pod is queued with", "[coscheduling]") {
  struct Case {
    const char* name;
    std::map<std::string, std::string> labels;
    std::map<std::string, std::string> annotations;
    std::unordered_map<std::string, std::string> pod_group_groups;
    const char* key;
  };
  const std::vector<Case> cases = {
      {"in no gang", {}, {{"unrelated", "1"}}, {}, ""},
      {"a gang alone", {}, {{kAnnotationName, "g"}}, {}, "team/g"},
      {"min-available is not needed", {}, {{kAnnotationName, "g"}, {kAnnotationMinAvailable, "x"}}, {}, "team/g"},
      {"the groups annotation", {}, {{kAnnotationName, "g"}, {kAnnotationGroups, R"(["team/h"])"}}, {},
       "team/g,team/h"},
      {"an unreadable groups annotation: the gang alone", {}, {{kAnnotationName, "g"}, {kAnnotationGroups, "[1]"}},
       {}, "team/g"},
      {"a PodGroup's group wins", {{kLabelPodGroup, "pg"}}, {{kAnnotationGroups, R"(["team/h"])"}},
       {{"team/pg", "team/h,team/pg"}}, "team/h,team/pg"},
      {"another gang's PodGroup does not count", {{kLabelPodGroup, "pg"}}, {}, {{"team/other", "team/other,x/y"}},
       "team/pg"},
      {"by the deprecated label", {{kLabelPodGroupName, "old"}}, {}, {}, "team/old"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(gang_group_key(meta(c.annotations, c.labels), c.pod_group_groups) == c.key);
  }
}

TEST_CASE("gang spec: what troupe cannot read is an error naming the annotation", "[coscheduling]") {
  struct Case {
    const char* name;
    std::map<std::string, std::string> annotations;
    const char* message_part;
  };
  const std::vector<Case> cases = {
      {"no min-available", {}, "gang team/g has no gang.scheduling.koordinator.sh/min-available"},
      {"min-available zero", {{kAnnotationMinAvailable, "0"}},
       "gang.scheduling.koordinator.sh/min-available: must be a positive integer, got \"0\""},
      {"min-available negative", {{kAnnotationMinAvailable, "-2"}}, "must be a positive integer, got \"-2\""},
      {"min-available not a number", {{kAnnotationMinAvailable, "three"}}, "got \"three\""},
      {"min-available with junk", {{kAnnotationMinAvailable, "3x"}}, "got \"3x\""},
      {"groups not JSON", {{kAnnotationMinAvailable, "1"}, {kAnnotationGroups, "[team/a"}},
       "gang.scheduling.koordinator.sh/groups: must be a JSON array of gang ids ("},
      {"groups an object", {{kAnnotationMinAvailable, "1"}, {kAnnotationGroups, R"({"a":1})"}}, "got a JSON object"},
      {"groups with a number", {{kAnnotationMinAvailable, "1"}, {kAnnotationGroups, R"(["team/a",3])"}}, "found 3"},
      {"groups with an empty id", {{kAnnotationMinAvailable, "1"}, {kAnnotationGroups, R"([""])"}}, "found \"\""},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto annotations = c.annotations;
    annotations[kAnnotationName] = "g";
    auto spec = read_gang_spec(meta(annotations), {});
    REQUIRE_FALSE(spec.ok());
    CHECK_THAT(spec.message(), Catch::Contains(c.message_part));
  }
}

TEST_CASE("gang spec: a pod named by the PodGroup label alone takes its rules from the PodGroup", "[coscheduling]") {
  auto spec = read(meta({}, {{kLabelPodGroup, "pg"}}));
  CHECK(spec.id == "team/pg");
  CHECK(spec.from_pod_group);
  CHECK(spec.min_member == 0);
  // With min-available on the pod it is a lightweight gang again.
  auto lightweight = read(meta({{kAnnotationMinAvailable, "2"}}, {{kLabelPodGroup, "pg"}}));
  CHECK_FALSE(lightweight.from_pod_group);
  CHECK(lightweight.min_member == 2);
}

TEST_CASE("gang spec: a PodGroup's rules", "[coscheduling]") {
  auto group = [](int32_t min, std::optional<int32_t> timeout, std::map<std::string, std::string> annotations) {
    PodGroup pg;
    pg.meta.namespace_name = "team";
    pg.meta.name = "pg";
    pg.meta.annotations = std::move(annotations);
    pg.spec.min_member = min;
    pg.spec.schedule_timeout_seconds = timeout;
    return pg;
  };
  GangDefaults defaults{90s, MatchPolicy::once_satisfied};
  struct Case {
    const char* name;
    PodGroup pg;
    int min;
    std::chrono::milliseconds wait;
    GangMode mode;
    std::vector<std::string> group;
  };
  const std::vector<Case> cases = {
      {"minMember, default wait", group(3, std::nullopt, {}), 3, 90s, GangMode::strict, {"team/pg"}},
      {"scheduleTimeoutSeconds overrides", group(3, 20, {}), 3, 20s, GangMode::strict, {"team/pg"}},
      {"scheduleTimeoutSeconds 0 keeps the default", group(3, 0, {}), 3, 90s, GangMode::strict, {"team/pg"}},
      {"annotations on the PodGroup", group(2, std::nullopt, {{kAnnotationMode, "NonStrict"},
                                                             {kAnnotationGroups, R"(["team/other"])"}}),
       2, 90s, GangMode::non_strict, {"team/other", "team/pg"}},
      {"a waiting-time annotation on the PodGroup is not read", group(2, std::nullopt, {{kAnnotationWaitingTime, "5s"}}),
       2, 90s, GangMode::strict, {"team/pg"}},
      {"minMember omitted: 0, complete at once", group(0, std::nullopt, {}), 0, 90s, GangMode::strict, {"team/pg"}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    auto spec = gang_spec_of_pod_group(c.pg, defaults);
    if (!spec) FAIL(spec.message());
    CHECK(spec->id == "team/pg");
    CHECK(spec->min_member == c.min);
    CHECK(spec->wait_time == c.wait);
    CHECK(spec->mode == c.mode);
    CHECK(spec->group == c.group);
    CHECK_FALSE(spec->from_pod_group);
  }
  auto bad_groups = gang_spec_of_pod_group(group(1, std::nullopt, {{kAnnotationGroups, "x"}}), defaults);
  REQUIRE_FALSE(bad_groups.ok());
  CHECK_THAT(bad_groups.message(), Catch::StartsWith("PodGroup team/pg: gang.scheduling.koordinator.sh/groups"));
}
