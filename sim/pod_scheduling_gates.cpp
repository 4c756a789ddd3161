#include "sim/pod_scheduling_gates.hpp"

#include <set>

#include "model/label_selector.hpp"
#include "sim/object_rules.hpp"
#include "sim/stored_object.hpp"

namespace troupe::sim {

namespace {

const rapidjson::Value* gates_of(const rapidjson::Value& pod) {
  if (!pod.IsObject()) return nullptr;
  auto spec = pod.FindMember("spec");
  if (spec == pod.MemberEnd() || !spec->value.IsObject()) return nullptr;
  auto gates = spec->value.FindMember("schedulingGates");
  if (gates == spec->value.MemberEnd() || gates->value.IsNull()) return nullptr;
  return &gates->value;
}

// The gates' names, in order; a gate without a string name reads as "".
std::vector<std::string> gate_names(const rapidjson::Value& pod) {
  std::vector<std::string> names;
  const rapidjson::Value* gates = gates_of(pod);
  if (gates == nullptr || !gates->IsArray()) return names;
  for (const auto& gate : gates->GetArray()) names.push_back(gate.IsObject() ? string_at(gate, "name") : "");
  return names;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string gate_field(size_t i) { return "spec.schedulingGates[" + std::to_string(i) + "]"; }

// One gate: an object whose name is a qualified name (upstream's ValidateQualifiedName).
std::optional<StatusCause> check_gate(const rapidjson::Value& gate, size_t i) {
  if (!gate.IsObject()) return invalid_field(gate_field(i), to_json(gate), "must be an object");
  auto name = gate.FindMember("name");
  if (name != gate.MemberEnd() && !name->value.IsString() && !name->value.IsNull())
    return invalid_field(gate_field(i) + ".name", to_json(name->value), "must be a string");
  const std::string text = string_at(gate, "name");
  if (Status valid = validate_label_key(text); !valid.ok())
    return invalid_field(gate_field(i), quoted(text), valid.message());
  return std::nullopt;
}

}  // namespace

bool has_scheduling_gates(const rapidjson::Value& pod) {
  const rapidjson::Value* gates = gates_of(pod);
  return gates && gates->IsArray() && !gates->Empty();
}

std::vector<StatusCause> check_scheduling_gates(const rapidjson::Value& pod) {
  std::vector<StatusCause> causes;
  const rapidjson::Value* gates = gates_of(pod);
  if (gates == nullptr) return causes;
  if (!gates->IsArray()) {
    causes.push_back(invalid_field("spec.schedulingGates", to_json(*gates), "must be an array"));
    return causes;
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < gates->Size(); ++i) {
    const rapidjson::Value& gate = (*gates)[static_cast<rapidjson::SizeType>(i)];
    if (auto cause = check_gate(gate, i)) causes.push_back(std::move(*cause));
    const std::string name = gate.IsObject() ? string_at(gate, "name") : "";
    if (!seen.insert(name).second) causes.push_back(duplicate_field(gate_field(i), quoted(name)));
  }
  if (!gates->Empty() && !string_at(pod, "spec", "nodeName").empty())
    causes.push_back(forbidden_field("spec.nodeName", "cannot be set until all schedulingGates have been cleared"));
  return causes;
}

std::vector<StatusCause> check_scheduling_gates_update(const rapidjson::Value& old, const rapidjson::Value& pod) {
  std::vector<StatusCause> causes;
  const std::vector<std::string> before = gate_names(old);
  const std::set<std::string> had(before.begin(), before.end());
  const std::vector<std::string> after = gate_names(pod);
  std::set<std::string> reported;
  for (size_t i = 0; i < after.size(); ++i)
    if (had.count(after[i]) == 0 && reported.insert(after[i]).second)
      causes.push_back(forbidden_field(gate_field(i) + ".name",
                                       "only deletion is allowed, but found new scheduling gate '" + after[i] + "'"));
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
