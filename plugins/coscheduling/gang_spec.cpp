#include "plugins/coscheduling/gang_spec.hpp"

#include <algorithm>
#include <charconv>

#include "model/go_duration.hpp"
#include "model/json.hpp"

namespace troupe::plugins::coscheduling {

namespace {

const std::string* find(const std::map<std::string, std::string>& map, const char* key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

/// strconv.Atoi: an optional sign and decimal digits, nothing else.
std::optional<int> parse_int(const std::string& text) {
  int value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (begin != end && *begin == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end || begin == end) return std::nullopt;
  return value;
}

Result<int> read_min_member(const ObjectMeta& meta, const std::string& gang_id) {
  const char* key = kAnnotationMinAvailable;
  const std::string* text = find(meta.labels, kLabelMinAvailable);
  if (text != nullptr) key = kLabelMinAvailable;
  else text = find(meta.annotations, kAnnotationMinAvailable);
  if (text == nullptr)
    return Error{"gang " + gang_id + " has no " + kAnnotationMinAvailable};
  auto value = parse_int(*text);
  if (!value || *value < 1) return Error{std::string(key) + ": must be a positive integer, got \"" + *text + "\""};
  return *value;
}

int read_total_number(const ObjectMeta& meta, int min_member) {
  const std::string* text = find(meta.annotations, kAnnotationTotalNumber);
  auto value = text ? parse_int(*text) : std::nullopt;
  return value && *value >= min_member ? *value : min_member;
}

GangMode read_mode(const ObjectMeta& meta) {
  const std::string* text = find(meta.annotations, kAnnotationMode);
  return text != nullptr && *text == "NonStrict" ? GangMode::non_strict : GangMode::strict;
}

std::chrono::milliseconds read_wait_time(const ObjectMeta& meta, std::chrono::milliseconds fallback) {
  const std::string* text = find(meta.annotations, kAnnotationWaitingTime);
  if (text == nullptr) return fallback;
  auto parsed = parse_go_duration(*text);
  if (!parsed || parsed->count() <= 0) return fallback;
  auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(*parsed);
  return wait.count() > 0 ? wait : std::chrono::milliseconds(1);
}

MatchPolicy read_match_policy(const ObjectMeta& meta, MatchPolicy fallback) {
  const std::string* text = find(meta.annotations, kAnnotationMatchPolicy);
  if (text == nullptr) text = find(meta.labels, kLabelMatchPolicy);
  if (text == nullptr) text = find(meta.annotations, kLabelMatchPolicy);
  if (text == nullptr) return fallback;
  return parse_match_policy(*text).value_or(fallback);
}

Result<std::vector<std::string>> read_group(const ObjectMeta& meta, const std::string& gang_id) {
  const std::string* text = find(meta.annotations, kAnnotationGroups);
  std::vector<std::string> group;
  if (text != nullptr && !text->empty()) {
    auto doc = parse_json(*text);
    const std::string expected = std::string(kAnnotationGroups) + ": must be a JSON array of gang ids";
    if (!doc) return Error{expected + " (" + doc.message() + ")"};
    if (!(*doc)->IsArray()) return Error{expected + ", got a JSON " + json_type_name(**doc)};
    for (const auto& item : (*doc)->GetArray()) {
      if (!item.IsString() || item.GetStringLength() == 0) return Error{expected + ", found " + to_json(item)};
      group.emplace_back(item.GetString(), item.GetStringLength());
    }
  }
  // A group is scheduled as one: it always holds the pod's own gang.
  if (std::find(group.begin(), group.end(), gang_id) == group.end()) group.push_back(gang_id);
  std::sort(group.begin(), group.end());
  group.erase(std::unique(group.begin(), group.end()), group.end());
  return group;
}

std::string joined(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) {
    if (!out.empty()) out += ',';
    out += id;
  }
  return out;
}

}  // namespace

std::optional<MatchPolicy> parse_match_policy(const std::string& text) {
  if (text == "only-waiting") return MatchPolicy::only_waiting;
  if (text == "waiting-and-running") return MatchPolicy::waiting_and_running;
  if (text == "once-satisfied") return MatchPolicy::once_satisfied;
  return std::nullopt;
}

const char* to_string(MatchPolicy policy) {
  switch (policy) {
    case MatchPolicy::only_waiting: return "only-waiting";
    case MatchPolicy::waiting_and_running: return "waiting-and-running";
    case MatchPolicy::once_satisfied: return "once-satisfied";
  }
  return "once-satisfied";
}

const char* to_string(GangMode mode) { return mode == GangMode::strict ? "Strict" : "NonStrict"; }

bool GangSpec::operator==(const GangSpec& o) const {
  return id == o.id && min_member == o.min_member && total_number == o.total_number && mode == o.mode &&
         wait_time == o.wait_time && match_policy == o.match_policy && group == o.group &&
         from_pod_group == o.from_pod_group;
}

std::optional<std::string> gang_name_of(const ObjectMeta& meta) {
  for (const std::string* name : {find(meta.labels, kLabelPodGroup), find(meta.labels, kLabelPodGroupName),
                                  find(meta.annotations, kAnnotationName)})
    if (name != nullptr && !name->empty()) return *name;
  return std::nullopt;
}

namespace {

/// What a pod's or a PodGroup's annotations say beyond the minimum: total,
/// mode, waiting time, match policy, group.
Status read_rules(const ObjectMeta& meta, const GangDefaults& defaults, GangSpec& spec) {
  spec.total_number = read_total_number(meta, spec.min_member);
  spec.mode = read_mode(meta);
  spec.wait_time = read_wait_time(meta, defaults.timeout);
  spec.match_policy = read_match_policy(meta, defaults.match_policy);
  auto group = read_group(meta, spec.id);
  if (!group) return group.error();
  spec.group = std::move(*group);
  spec.group_id = joined(spec.group);
  return {};
}

/// Only the PodGroup label names the gang, and no min-available is on the pod.
bool named_by_pod_group_only(const ObjectMeta& meta) {
  const std::string* label = find(meta.labels, kLabelPodGroup);
  return label != nullptr && !label->empty() && find(meta.labels, kLabelMinAvailable) == nullptr &&
         find(meta.annotations, kAnnotationMinAvailable) == nullptr;
}

}  // namespace

Result<std::optional<GangSpec>> read_gang_spec(const ObjectMeta& meta, const GangDefaults& defaults) {
  auto name = gang_name_of(meta);
  if (!name) return std::optional<GangSpec>();
  GangSpec spec;
  spec.id = meta.namespace_name + "/" + *name;
  if (named_by_pod_group_only(meta)) {
    spec.from_pod_group = true;
  } else {
    auto min_member = read_min_member(meta, spec.id);
    if (!min_member) return min_member.error();
    spec.min_member = *min_member;
  }
  if (Status read = read_rules(meta, defaults, spec); !read) return Error{read.message()};
  return std::optional<GangSpec>(std::move(spec));
}

std::string gang_group_key(const ObjectMeta& meta,
                           const std::unordered_map<std::string, std::string>& pod_group_groups) {
  auto name = gang_name_of(meta);
  if (!name) return {};
  const std::string gang_id = meta.namespace_name + "/" + *name;
  if (auto it = pod_group_groups.find(gang_id); it != pod_group_groups.end()) return it->second;
  auto group = read_group(meta, gang_id);
  return group ? joined(*group) : gang_id;
}

Result<GangSpec> gang_spec_of_pod_group(const PodGroup& group, const GangDefaults& defaults) {
  GangSpec spec;
  spec.id = group.meta.namespace_name + "/" + group.meta.name;
  // minMember omitted is 0, as upstream reads it: the gang is complete at
  // once (a negative one does not decode, model/pod_group.cpp).
  spec.min_member = group.spec.min_member;
  if (Status read = read_rules(group.meta, defaults, spec); !read)
    return Error{"PodGroup " + spec.id + ": " + read.message()};
  // A PodGroup's waiting time is its scheduleTimeoutSeconds, else the
  // default (GetWaitTimeDuration): its waiting-time annotation is not read.
  spec.wait_time = group.spec.schedule_timeout_seconds && *group.spec.schedule_timeout_seconds > 0
                       ? std::chrono::milliseconds(std::chrono::seconds(*group.spec.schedule_timeout_seconds))
                       : defaults.timeout;
  return spec;
}

}  // namespace troupe::plugins::coscheduling
