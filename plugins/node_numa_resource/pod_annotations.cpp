#include "plugins/node_numa_resource/pod_annotations.hpp"

#include "plugins/deviceshare/go_json.hpp"
#include "plugins/node_numa_resource/annotation_json.hpp"

namespace troupe::plugins::numa {

using deviceshare::go_json_string;

namespace {

const std::string* find(const Annotations& annotations, const char* key) {
  auto it = annotations.find(key);
  return it == annotations.end() ? nullptr : &it->second;
}

/// Parses and checks the top level is an object; `what` prefixes errors.
Result<std::shared_ptr<JsonDocument>> parse_object(const char* what, std::string_view text) {
  auto doc = parse_annotation(what, text);
  if (!doc) return doc;
  if (!(*doc)->IsObject()) return Error{std::string(what) + ": expected an object, got " + describe(**doc)};
  return doc;
}

Error prefixed(const char* what, const Status& status) { return Error{std::string(what) + ": " + status.message()}; }

void add_field(std::string& out, const char* key, const std::string& value) {
  if (value.empty()) return;
  out += out.size() > 1 ? "," : "";
  out += "\"";
  out += key;
  out += "\":" + go_json_string(value);
}

}  // namespace

Result<ResourceSpec> decode_resource_spec_json(std::string_view text) {
  auto doc = parse_object(kAnnotationResourceSpec, text);
  if (!doc) return doc.error();
  ResourceSpec spec;
  for (auto [key, out] : {std::pair{"requiredCPUBindPolicy", &spec.required_cpu_bind_policy},
                          std::pair{"preferredCPUBindPolicy", &spec.preferred_cpu_bind_policy},
                          std::pair{"preferredCPUExclusivePolicy", &spec.preferred_cpu_exclusive_policy}}) {
    Status s = read_string(**doc, key, "", *out);
    if (!s) return prefixed(kAnnotationResourceSpec, s);
  }
  return spec;
}

Result<ResourceSpec> decode_resource_spec(const Annotations& annotations) {
  const std::string* text = find(annotations, kAnnotationResourceSpec);
  if (text == nullptr) return ResourceSpec{};
  return decode_resource_spec_json(*text);
}

std::string encode(const ResourceSpec& spec) {
  std::string out = "{";
  add_field(out, "requiredCPUBindPolicy", spec.required_cpu_bind_policy);
  add_field(out, "preferredCPUBindPolicy", spec.preferred_cpu_bind_policy);
  add_field(out, "preferredCPUExclusivePolicy", spec.preferred_cpu_exclusive_policy);
  return out + "}";
}

std::optional<ResourceSpec> resource_spec_to_write_back(ResourceSpec spec, CpuBindPolicy required,
                                                        CpuBindPolicy preferred) {
  const bool is_required = required != CpuBindPolicy::unset;
  const std::string policy(to_string(is_required ? required : preferred));
  bool changed = false;
  if (is_required && (spec.required_cpu_bind_policy.empty() || spec.required_cpu_bind_policy == "Default")) {
    spec.required_cpu_bind_policy = policy;
    changed = true;
  }
  if (spec.preferred_cpu_bind_policy == "Default") {
    spec.preferred_cpu_bind_policy = policy;
    changed = true;
  }
  if (spec.required_cpu_bind_policy.empty() && spec.preferred_cpu_bind_policy.empty() && !policy.empty()) {
    spec.preferred_cpu_bind_policy = policy;
    changed = true;
  }
  if (!changed) return std::nullopt;
  return spec;
}

Result<NumaTopologySpec> decode_numa_topology_spec_json(std::string_view text) {
  auto doc = parse_object(kAnnotationNumaTopologySpec, text);
  if (!doc) return doc.error();
  std::string policy, exclusive;
  Status s = read_string(**doc, "numaTopologyPolicy", "", policy);
  if (s) s = read_string(**doc, "singleNUMANodeExclusive", "", exclusive);
  if (!s) return prefixed(kAnnotationNumaTopologySpec, s);
  NumaTopologySpec spec;
  auto p = topology::parse_numa_policy(policy);
  if (!p) return Error{std::string(kAnnotationNumaTopologySpec) + ": numaTopologyPolicy: " + p.message()};
  auto e = topology::parse_numa_exclusive(exclusive);
  if (!e) return Error{std::string(kAnnotationNumaTopologySpec) + ": singleNUMANodeExclusive: " + e.message()};
  spec.policy = *p;
  spec.exclusive = *e;
  return spec;
}

Result<NumaTopologySpec> decode_numa_topology_spec(const Annotations& annotations) {
  const std::string* text = find(annotations, kAnnotationNumaTopologySpec);
  if (text == nullptr) return NumaTopologySpec{};
  return decode_numa_topology_spec_json(*text);
}

std::string encode(const NumaTopologySpec& spec) {
  std::string out = "{";
  add_field(out, "numaTopologyPolicy", std::string(topology::to_string(spec.policy)));
  add_field(out, "singleNUMANodeExclusive", std::string(topology::to_string(spec.exclusive)));
  return out + "}";
}

namespace {

Status decode_numa_resources(const JsonValue& list, std::vector<NumaNodeResource>& out) {
  if (!list.IsArray()) return Error{"numaNodeResources: expected an array, got " + describe(list)};
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    const std::string path = "numaNodeResources[" + std::to_string(i) + "]";
    const JsonValue& item = list[i];
    if (item.IsNull()) continue;
    if (!item.IsObject()) return Error{path + ": expected an object, got " + describe(item)};
    NumaNodeResource r;
    int64_t node = 0;
    Status s = read_int(item, "node", path, node);
    if (!s) return s;
    if (node < 0 || node > 63) return Error{path + ".node: NUMA node id " + std::to_string(node) + " outside 0..63"};
    r.node = static_cast<int32_t>(node);
    if (const JsonValue* res = member(item, "resources")) {
      s = read_resource_list(*res, path + ".resources", r.resources);
      if (!s) return s;
    }
    out.push_back(std::move(r));
  }
  return {};
}

}  // namespace

Result<ResourceStatus> decode_resource_status_json(std::string_view text) {
  auto doc = parse_object(kAnnotationResourceStatus, text);
  if (!doc) return doc.error();
  ResourceStatus status;
  std::string cpuset;
  Status s = read_string(**doc, "cpuset", "", cpuset);
  if (!s) return prefixed(kAnnotationResourceStatus, s);
  auto cpus = CpuSet::parse(cpuset);
  if (!cpus) return Error{std::string(kAnnotationResourceStatus) + ": cpuset: " + cpus.message()};
  status.cpuset = *cpus;
  if (const JsonValue* list = member(**doc, "numaNodeResources")) {
    s = decode_numa_resources(*list, status.numa_node_resources);
    if (!s) return prefixed(kAnnotationResourceStatus, s);
  }
  return status;
}

Result<ResourceStatus> decode_resource_status(const Annotations& annotations) {
  const std::string* text = find(annotations, kAnnotationResourceStatus);
  if (text == nullptr) return ResourceStatus{};
  return decode_resource_status_json(*text);
}

std::string encode(const ResourceStatus& status) {
  std::string out = "{";
  add_field(out, "cpuset", status.cpuset.to_string());
  if (!status.numa_node_resources.empty()) {
    out += out.size() > 1 ? "," : "";
    out += "\"numaNodeResources\":[";
    for (size_t i = 0; i < status.numa_node_resources.size(); ++i) {
      const NumaNodeResource& r = status.numa_node_resources[i];
      out += i > 0 ? ",{" : "{";
      out += "\"node\":" + std::to_string(r.node);
      if (!r.resources.empty()) {
        out += ",\"resources\":{";
        bool first = true;
        for (const auto& [name, q] : r.resources) {
          out += first ? "" : ",";
          first = false;
          out += go_json_string(name) + ":" + go_json_string(q.to_string());
        }
        out += "}";
      }
      out += "}";
    }
    out += "]";
  }
  return out + "}";
}

}  // namespace troupe::plugins::numa
