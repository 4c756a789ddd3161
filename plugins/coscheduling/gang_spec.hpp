#pragma once
// Which gang a pod belongs to, and the gang's rules, read from the pod the
// way Koordinator's Coscheduling reads a lightweight (annotation) gang
// (apis/extension/coscheduling.go):
//   name        label pod-group.scheduling.sigs.k8s.io, then the deprecated
//               label pod-group.scheduling.sigs.k8s.io/name, then annotation
//               gang.scheduling.koordinator.sh/name; gang id = "<ns>/<name>"
//   min         annotation gang.scheduling.koordinator.sh/min-available (the
//               deprecated label pod-group.scheduling.sigs.k8s.io/min-available
//               wins); required, a positive integer
//   total       .../total-number; 0, invalid or < min → min
//   mode        .../mode: Strict (default) or NonStrict; anything else → Strict
//   wait        .../waiting-time: a Go duration; 0 or invalid → defaultTimeout
//   policy      .../match-policy (alias pod-group.scheduling.sigs.k8s.io/match-policy):
//               only-waiting, waiting-and-running, once-satisfied; else the args' default
//   group       .../groups: JSON array of gang ids scheduled together; absent → this gang
// The lenient defaults are Koordinator's. A pod named into a gang by the
// PodGroup label alone takes its gang's rules from that PodGroup object
// (gang_spec_of_pod_group: spec.minMember, 0 when omitted, as upstream: the
// gang is complete at once; spec.scheduleTimeoutSeconds, else the default
// waiting time; and the annotations above but waiting-time on the PodGroup).
// What troupe cannot honour is an error instead of a silent default: an
// annotation gang without min-available, a groups annotation that is not a
// JSON array of strings.

#include <chrono>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/object_meta.hpp"
#include "model/pod_group.hpp"
#include "model/result.hpp"

namespace troupe::plugins::coscheduling {

inline constexpr const char* kLabelPodGroup = "pod-group.scheduling.sigs.k8s.io";
inline constexpr const char* kLabelPodGroupName = "pod-group.scheduling.sigs.k8s.io/name";
inline constexpr const char* kLabelMinAvailable = "pod-group.scheduling.sigs.k8s.io/min-available";
inline constexpr const char* kLabelMatchPolicy = "pod-group.scheduling.sigs.k8s.io/match-policy";
inline constexpr const char* kAnnotationName = "gang.scheduling.koordinator.sh/name";
inline constexpr const char* kAnnotationMinAvailable = "gang.scheduling.koordinator.sh/min-available";
inline constexpr const char* kAnnotationTotalNumber = "gang.scheduling.koordinator.sh/total-number";
inline constexpr const char* kAnnotationMode = "gang.scheduling.koordinator.sh/mode";
inline constexpr const char* kAnnotationWaitingTime = "gang.scheduling.koordinator.sh/waiting-time";
inline constexpr const char* kAnnotationGroups = "gang.scheduling.koordinator.sh/groups";
inline constexpr const char* kAnnotationMatchPolicy = "gang.scheduling.koordinator.sh/match-policy";

enum class GangMode { strict, non_strict };
enum class MatchPolicy { only_waiting, waiting_and_running, once_satisfied };

/// "only-waiting", ... as the annotation spells them; nullopt for anything else.
std::optional<MatchPolicy> parse_match_policy(const std::string& text);
const char* to_string(MatchPolicy policy);
const char* to_string(GangMode mode);

struct GangDefaults {
  std::chrono::milliseconds timeout{std::chrono::seconds(600)};
  MatchPolicy match_policy = MatchPolicy::once_satisfied;
};

struct GangSpec {
  std::string id;  // "<ns>/<name>"
  int min_member = 0;
  int total_number = 0;
  GangMode mode = GangMode::strict;
  std::chrono::milliseconds wait_time{0};
  MatchPolicy match_policy = MatchPolicy::once_satisfied;
  std::vector<std::string> group;  // gang ids of the group, sorted; holds `id`
  std::string group_id;            // the group's ids joined with ","
  /// The pod names its gang by the PodGroup label only: the rules above are
  /// placeholders (min_member 0) until the PodGroup object gives them.
  bool from_pod_group = false;

  bool operator==(const GangSpec& o) const;
};

/// The gang name the pod names, if any (the lookup order above).
std::optional<std::string> gang_name_of(const ObjectMeta& meta);

/// nullopt: the pod is in no gang. An error: it names a gang troupe cannot
/// read (the message names the annotation).
Result<std::optional<GangSpec>> read_gang_spec(const ObjectMeta& meta, const GangDefaults& defaults);

/// The gang group a pending pod is tried with (the queue hands a group's
/// members out back to back: actors/scheduling_queue.hpp, "Gang rounds"):
/// the group id its PodGroup sets (`pod_group_groups`, by gang id) when the
/// gang has one, as the GangBook goes by the PodGroup's rules; else the one
/// the pod's groups annotation names, or its gang alone when it names none
/// or one troupe cannot read. Empty for a pod in no gang.
std::string gang_group_key(const ObjectMeta& meta,
                           const std::unordered_map<std::string, std::string>& pod_group_groups);

/// The rules a PodGroup object sets for its gang "<ns>/<name>".
Result<GangSpec> gang_spec_of_pod_group(const PodGroup& group, const GangDefaults& defaults);

}  // namespace troupe::plugins::coscheduling
