#include "sim/pod_scheduling_gates.hpp"

#include <set>

#include "sim/object_rules.hpp"

namespace troupe::sim {

namespace {

const rapidjson::Value* gates_of(const rapidjson::Value& pod) {
  if (!pod.IsObject()) return nullptr;
  auto spec = pod.FindMember("spec");
  if (spec == pod.MemberEnd() || !spec->value.IsObject()) return nullptr;
  auto gates = spec->value.FindMember("schedulingGates");
  if (gates == spec->value.MemberEnd() || !gates->value.IsArray()) return nullptr;
  return &gates->value;
}

// The gates' names; a gate without a string name reads as "".
std::vector<std::string> gate_names(const rapidjson::Value& pod) {
  std::vector<std::string> names;
  if (const rapidjson::Value* gates = gates_of(pod))
    for (const auto& gate : gates->GetArray()) names.push_back(gate.IsObject() ? string_at(gate, "name") : "");
  return names;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

}  // namespace

bool has_scheduling_gates(const rapidjson::Value& pod) {
  const rapidjson::Value* gates = gates_of(pod);
  return gates && !gates->Empty();
}

std::vector<StatusCause> check_scheduling_gates(const rapidjson::Value& pod) {
  std::vector<StatusCause> causes;
  const std::vector<std::string> names = gate_names(pod);
  std::set<std::string> seen;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string field = "spec.schedulingGates[" + std::to_string(i) + "]";
    if (names[i].empty()) causes.push_back(invalid_field(field, quoted(""), "name part must be non-empty"));
    if (!seen.insert(names[i]).second) causes.push_back(duplicate_field(field, quoted(names[i])));
  }
  if (!names.empty() && !string_at(pod, "spec", "nodeName").empty())
    causes.push_back(forbidden_field("spec.nodeName", "cannot be set until all schedulingGates have been cleared"));
  return causes;
}

std::vector<StatusCause> check_scheduling_gates_update(const rapidjson::Value& old, const rapidjson::Value& pod) {
  std::vector<StatusCause> causes;
  const std::vector<std::string> before = gate_names(old);
  const std::set<std::string> had(before.begin(), before.end());
  for (const std::string& name : gate_names(pod))
    if (had.count(name) == 0)
      causes.push_back(forbidden_field("spec.schedulingGates",
                                       "only deletion is allowed, but found new scheduling gate '" + name + "'"));
  return causes;
}

void mark_scheduling_gated(rapidjson::Document& pod) {
  if (!has_scheduling_gates(pod)) return;
  rapidjson::Value& conditions = conditions_of(pod);
  for (const auto& c : conditions.GetArray())
    if (c.IsObject() && string_at(c, "type") == "PodScheduled") return;
  auto& alloc = pod.GetAllocator();
  rapidjson::Value condition(rapidjson::kObjectType);
  condition.AddMember("type", "PodScheduled", alloc);
  condition.AddMember("status", "False", alloc);
  condition.AddMember("reason", "SchedulingGated", alloc);
  condition.AddMember("message", "Scheduling is blocked due to non-empty scheduling gates", alloc);
  conditions.PushBack(std::move(condition), alloc);
}

}  // namespace troupe::sim
