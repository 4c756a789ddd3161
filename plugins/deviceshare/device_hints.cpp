#include "plugins/deviceshare/device_hints.hpp"

#include "model/json.hpp"
#include "plugins/deviceshare/go_json.hpp"

namespace troupe::plugins::deviceshare {

namespace {

const std::string* annotation(const Annotations& annotations, std::string_view key) {
  auto it = annotations.find(std::string(key));
  return it == annotations.end() ? nullptr : &it->second;
}

Result<std::string> string_member(const JsonValue& v, const std::string& path) {
  if (!v.IsString()) return Error{path + ": expected a string, got " + describe_json(v)};
  return std::string(member_name(v));
}

// One DeviceHint object. Selector problems are reported with Koordinator's
// own wording (newHintSelectors), so they come back separately.
Status decode_hint(const JsonValue& v, const std::string& type, DeviceHint& out, std::string& selector_error) {
  if (!v.IsObject()) return Error{type + ": expected an object, got " + describe_json(v)};
  for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
    const std::string_view key = member_name(m->name);
    if (m->value.IsNull()) continue;
    const std::string path = type + "." + std::string(key);
    const bool is_selector = equals_fold(key, "selector");
    if (is_selector || equals_fold(key, "vfSelector")) {
      if (!m->value.IsObject()) return Error{path + ": expected an object, got " + describe_json(m->value)};
      auto selector = decode_label_selector(m->value, path);
      if (!selector) {
        if (selector_error.empty())
          selector_error = std::string("invalid ") + (is_selector ? "Selector" : "VFSelector") +
                           " of DeviceHint, deviceType: " + type + ", err: " + selector.message();
        continue;
      }
      (is_selector ? out.selector : out.vf_selector) = std::move(*selector);
      continue;
    }
    std::string* target = equals_fold(key, "allocateStrategy")        ? &out.allocate_strategy
                          : equals_fold(key, "requiredTopologyScope") ? &out.required_topology_scope
                          : equals_fold(key, "exclusivePolicy")       ? &out.exclusive_policy
                                                                      : nullptr;
    if (target == nullptr) continue;
    auto s = string_member(m->value, path);
    if (!s) return s.error();
    *target = std::move(*s);
  }
  return {};
}

}  // namespace

int topology_scope_level(std::string_view scope) {
  if (scope == "Device") return 4;
  if (scope == "PCIe") return kScopeLevelPcie;
  if (scope == "NUMANode") return kScopeLevelNumaNode;
  if (scope == "Node") return kScopeLevelNode;
  return 0;
}

Result<DeviceHints> parse_device_allocate_hints(const Annotations& annotations) {
  DeviceHints hints;
  const std::string* text = annotation(annotations, kAnnotationDeviceAllocateHint);
  if (text == nullptr) return hints;
  const std::string prefix = "invalid DeviceAllocateHint annotation, err: ";
  auto doc = parse_json(*text);
  if (!doc) return Error{prefix + doc.message()};
  const JsonValue& root = **doc;
  if (root.IsNull()) return hints;
  if (!root.IsObject()) return Error{prefix + "expected an object of device types, got " + describe_json(root)};
  std::string selector_error;
  for (auto m = root.MemberBegin(); m != root.MemberEnd(); ++m) {
    const std::string type(member_name(m->name));
    if (m->value.IsNull()) continue;
    DeviceHint hint;
    Status decoded = decode_hint(m->value, type, hint, selector_error);
    if (!decoded) return Error{prefix + decoded.message()};
    if (auto t = device_type_of(type)) hints[type_index(*t)] = std::move(hint);
  }
  if (!selector_error.empty()) return Error{selector_error};
  return hints;
}

Result<std::optional<JointAllocate>> parse_device_joint_allocate(const Annotations& annotations) {
  const std::string* text = annotation(annotations, kAnnotationDeviceJointAllocate);
  if (text == nullptr) return std::optional<JointAllocate>();
  const std::string prefix = "invalid DeviceJointAllocate annotation, err: ";
  auto doc = parse_json(*text);
  if (!doc) return Error{prefix + doc.message()};
  const JsonValue& root = **doc;
  JointAllocate out;
  if (root.IsNull()) return std::optional<JointAllocate>(out);  // Go: a zero-valued struct
  if (!root.IsObject()) return Error{prefix + "expected an object, got " + describe_json(root)};
  for (auto m = root.MemberBegin(); m != root.MemberEnd(); ++m) {
    const std::string_view key = member_name(m->name);
    if (m->value.IsNull()) continue;
    if (equals_fold(key, "deviceTypes")) {
      if (!m->value.IsArray()) return Error{prefix + "deviceTypes: expected an array, got " + describe_json(m->value)};
      out.device_types.clear();
      for (rapidjson::SizeType i = 0; i < m->value.Size(); ++i) {
        auto s = string_member(m->value[i], "deviceTypes[" + std::to_string(i) + "]");
        if (!s) return Error{prefix + s.message()};
        out.device_types.push_back(std::move(*s));
      }
    } else if (equals_fold(key, "requiredScope")) {
      auto s = string_member(m->value, "requiredScope");
      if (!s) return Error{prefix + s.message()};
      out.required_scope = std::move(*s);
    }
  }
  return std::optional<JointAllocate>(std::move(out));
}

Result<std::optional<GpuPartitionSpec>> parse_gpu_partition_spec(const Annotations& annotations) {
  const std::string* text = annotation(annotations, kAnnotationGpuPartitionSpec);
  if (text == nullptr) return std::optional<GpuPartitionSpec>();
  const std::string prefix = "invalid GPUPartitionSpec annotation, err: ";
  auto doc = parse_json(*text);
  if (!doc) return Error{prefix + doc.message()};
  const JsonValue& root = **doc;
  GpuPartitionSpec out;
  if (root.IsNull()) return std::optional<GpuPartitionSpec>(out);
  if (!root.IsObject()) return Error{prefix + "expected an object, got " + describe_json(root)};
  for (auto m = root.MemberBegin(); m != root.MemberEnd(); ++m) {
    const std::string_view key = member_name(m->name);
    if (m->value.IsNull()) continue;
    if (equals_fold(key, "allocatePolicy")) {
      auto s = string_member(m->value, "allocatePolicy");
      if (!s) return Error{prefix + s.message()};
      out.allocate_policy = s->empty() ? "BestEffort" : std::move(*s);
    } else if (equals_fold(key, "ringBusBandwidth")) {
      std::string q_text;
      if (m->value.IsString()) q_text = std::string(member_name(m->value));
      else if (m->value.IsNumber()) q_text = to_json(m->value);
      else return Error{prefix + "ringBusBandwidth: expected a quantity, got " + describe_json(m->value)};
      auto q = Quantity::parse(q_text);
      if (!q) return Error{prefix + "ringBusBandwidth: " + q.message()};
      out.ring_bus_bandwidth = *q;
    }
  }
  return std::optional<GpuPartitionSpec>(std::move(out));
}

}  // namespace troupe::plugins::deviceshare
