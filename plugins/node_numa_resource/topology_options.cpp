#include "plugins/node_numa_resource/topology_options.hpp"

#include <algorithm>

#include "plugins/node_numa_resource/annotation_json.hpp"
#include "plugins/node_numa_resource/cpu_topology_cache.hpp"

namespace troupe::plugins::numa {

namespace {

std::string_view value_of(const std::map<std::string, std::string>& m, const char* key) {
  auto it = m.find(key);
  return it == m.end() ? std::string_view() : std::string_view(it->second);
}

Result<CpuSet> parse_cpus(const std::string& where, const std::string& text) {
  auto cpus = CpuSet::parse(text);
  if (!cpus) return Error{where + ": " + cpus.message()};
  return cpus;
}

}  // namespace

bool KubeletCpuPolicy::full_pcpus_only() const {
  return policy == "static" && value_of(options, "full-pcpus-only") == "true";
}

bool KubeletCpuPolicy::distribute_cpus_across_numa() const {
  return policy == "static" && value_of(options, "distribute-cpus-across-numa") == "true";
}

namespace {

void report(std::vector<std::string>* problems, std::string message) {
  if (problems) problems->push_back(std::move(message));
}

}  // namespace

Result<KubeletCpuPolicy> decode_kubelet_cpu_policy(std::string_view text, std::vector<std::string>* problems) {
  const std::string what = kAnnotationKubeletCpuManagerPolicy;
  auto doc = parse_annotation(what, text);
  if (!doc) return doc.error();
  if (!(*doc)->IsObject()) return Error{what + ": expected an object, got " + describe(**doc)};
  KubeletCpuPolicy out;
  std::string reserved;
  Status s = read_string(**doc, "policy", "", out.policy);
  if (s) s = read_string(**doc, "reservedCPUs", "", reserved);
  if (!s) return Error{what + ": " + s.message()};
  if (const JsonValue* options = member(**doc, "options")) {
    if (!options->IsObject()) return Error{what + ": options: expected an object, got " + describe(*options)};
    for (auto it = options->MemberBegin(); it != options->MemberEnd(); ++it) {
      if (!it->value.IsString())
        return Error{what + ": options." + it->name.GetString() + ": expected a string, got " + describe(it->value)};
      out.options[it->name.GetString()] = it->value.GetString();
    }
  }
  auto cpus = parse_cpus(what + ": reservedCPUs", reserved);
  if (cpus)
    out.reserved_cpus = *cpus;
  else
    report(problems, cpus.message());
  return out;
}

Result<CpuSet> decode_kubelet_pod_cpus(std::string_view text, std::vector<std::string>* problems) {
  const std::string what = kAnnotationPodCpuAllocs;
  auto doc = parse_annotation(what, text);
  if (!doc) return doc.error();
  if (!(*doc)->IsArray()) return Error{what + ": expected an array, got " + describe(**doc)};
  CpuSet out;
  for (rapidjson::SizeType i = 0; i < (*doc)->Size(); ++i) {
    const std::string path = "[" + std::to_string(i) + "]";
    const JsonValue& item = (**doc)[i];
    if (!item.IsObject()) return Error{what + ": " + path + ": expected an object, got " + describe(item)};
    std::string uid, cpuset;
    bool managed = false;
    Status s = read_string(item, "uid", path, uid);
    if (s) s = read_string(item, "cpuset", path, cpuset);
    if (s) s = read_bool(item, "managedByKubelet", path, managed);
    if (!s) return Error{what + ": " + s.message()};
    if (!managed || uid.empty() || cpuset.empty()) continue;
    auto cpus = parse_cpus(what + ": " + path + ".cpuset", cpuset);
    if (!cpus) {
      report(problems, cpus.message());
      continue;
    }
    out |= *cpus;
  }
  return out;
}

Result<CpuSet> decode_node_reservation_cpus(std::string_view text) {
  const std::string what = kAnnotationNodeReservation;
  auto doc = parse_annotation(what, text);
  if (!doc) return doc.error();
  if (!(*doc)->IsObject()) return Error{what + ": expected an object, got " + describe(**doc)};
  std::string reserved;
  Status s = read_string(**doc, "reservedCPUs", "", reserved);
  if (!s) return Error{what + ": " + s.message()};
  return parse_cpus(what + ": reservedCPUs", reserved);
}

Result<CpuSet> decode_system_qos_cpus(std::string_view text) {
  const std::string what = kAnnotationSystemQos;
  auto doc = parse_annotation(what, text);
  if (!doc) return doc.error();
  if (!(*doc)->IsObject()) return Error{what + ": expected an object, got " + describe(**doc)};
  std::string cpuset;
  bool exclusive = true;
  Status s = read_string(**doc, "cpuset", "", cpuset);
  if (s) s = read_bool(**doc, "cpusetExclusive", "", exclusive);
  if (!s) return Error{what + ": " + s.message()};
  auto cpus = parse_cpus(what + ": cpuset", cpuset);
  if (!cpus) return cpus.error();
  return exclusive ? *cpus : CpuSet{};
}

std::vector<int> TopologyOptions::numa_node_ids() const {
  std::vector<int> out;
  for (const auto& n : numa_nodes) out.push_back(n.node);
  return out;
}

const ResourceList* TopologyOptions::allocatable_of(int node) const {
  for (const auto& n : numa_nodes)
    if (n.node == node) return &n.allocatable;
  return nullptr;
}

namespace {

/// "node-3" -> 3; -1 when the name is not of that form.
int numa_id_of(const std::string& zone_name) {
  const std::string prefix = "node-";
  if (zone_name.rfind(prefix, 0) != 0 || zone_name.size() == prefix.size() || zone_name.size() > prefix.size() + 2)
    return -1;
  int id = 0;
  for (size_t i = prefix.size(); i < zone_name.size(); ++i) {
    if (zone_name[i] < '0' || zone_name[i] > '9') return -1;
    id = id * 10 + (zone_name[i] - '0');
  }
  return id <= 63 ? id : -1;
}

template <class Decode>
void union_annotation(const std::map<std::string, std::string>& annotations, const char* key, Decode decode,
                      TopologyOptions& out) {
  auto it = annotations.find(key);
  if (it == annotations.end()) return;
  auto cpus = decode(it->second);
  if (!cpus) {
    out.errors.push_back(cpus.message());
    return;
  }
  out.reserved_cpus |= *cpus;
}

void read_zones(const NodeResourceTopology& nrt, TopologyOptions& out) {
  for (const NrtZone& zone : nrt.zones) {
    if (zone.type != "Node") continue;
    const int id = numa_id_of(zone.name);
    if (id < 0) {
      out.errors.push_back("zone \"" + zone.name + "\": NUMA zones must be named node-<id>");
      continue;
    }
    NumaNodeAllocatable n{id, {}};
    for (const NrtResource& r : zone.resources) n.allocatable[r.name] = r.allocatable;
    out.numa_nodes.push_back(std::move(n));
  }
  std::sort(out.numa_nodes.begin(), out.numa_nodes.end(),
            [](const NumaNodeAllocatable& a, const NumaNodeAllocatable& b) { return a.node < b.node; });
}

/// Reserved CPUs cannot be handed out, so a NUMA node offers that much less cpu.
void subtract_reserved(TopologyOptions& out) {
  if (!out.valid_cpu_topology() || out.reserved_cpus.empty()) return;
  for (auto& n : out.numa_nodes) {
    auto cpu = n.allocatable.find("cpu");
    if (cpu == n.allocatable.end()) continue;
    const int64_t reserved = static_cast<int64_t>((out.reserved_cpus & out.cpu_topology->cpus_in_node(n.node)).size());
    int64_t milli = cpu->second.milli_value() - reserved * 1000;
    cpu->second = Quantity::from_milli(std::max<int64_t>(milli, 0));
  }
}

}  // namespace

TopologyOptions build_topology_options(const NodeResourceTopology& nrt) {
  TopologyOptions out;
  const auto& annotations = nrt.meta.annotations;
  if (auto it = annotations.find(kAnnotationCpuTopology); it != annotations.end()) {
    auto topology = process_cpu_topology_cache().get(it->second);
    if (topology && (*topology)->valid())
      out.cpu_topology = std::move(*topology);
    else if (!topology)
      out.errors.push_back(topology.message());
  }
  if (auto it = annotations.find(kAnnotationKubeletCpuManagerPolicy); it != annotations.end()) {
    auto kubelet = decode_kubelet_cpu_policy(it->second, &out.errors);
    if (kubelet) {
      out.kubelet = std::move(*kubelet);
      out.reserved_cpus |= out.kubelet.reserved_cpus;
    } else {
      out.errors.push_back(kubelet.message());
    }
  }
  union_annotation(annotations, kAnnotationPodCpuAllocs,
                   [&out](std::string_view text) { return decode_kubelet_pod_cpus(text, &out.errors); }, out);
  union_annotation(annotations, kAnnotationNodeReservation, decode_node_reservation_cpus, out);
  union_annotation(annotations, kAnnotationSystemQos, decode_system_qos_cpus, out);
  // The first policy that maps to one wins (Koordinator's loop keeps the last; NRTs list one).
  for (const std::string& p : nrt.topology_policies) {
    out.numa_policy = topology::numa_policy_from_nrt(p);
    if (out.numa_policy != topology::NumaPolicy::none) break;
  }
  read_zones(nrt, out);
  subtract_reserved(out);
  return out;
}

CpuSet node_annotation_reserved_cpus(const Node& node) {
  auto it = node.meta.annotations.find(kAnnotationNodeReservation);
  if (it == node.meta.annotations.end()) return {};
  auto cpus = decode_node_reservation_cpus(it->second);
  return cpus ? *cpus : CpuSet{};
}

}  // namespace troupe::plugins::numa
