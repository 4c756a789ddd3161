#include "plugins/node_numa_resource/cpu_topology.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "plugins/node_numa_resource/annotation_json.hpp"

namespace troupe::plugins::numa {

Result<CpuTopology> CpuTopology::from(std::vector<CpuInfo> cpus) {
  std::sort(cpus.begin(), cpus.end(), [](const CpuInfo& a, const CpuInfo& b) { return a.cpu < b.cpu; });
  CpuTopology t;
  std::set<int> cores, sockets, nodes;
  for (size_t i = 0; i < cpus.size(); ++i) {
    const CpuInfo& c = cpus[i];
    const std::string where = "cpu " + std::to_string(c.cpu);
    if (c.cpu < 0 || c.cpu >= CpuSet::kMaxCpus)
      return Error{where + ": id outside 0.." + std::to_string(CpuSet::kMaxCpus - 1)};
    if (i > 0 && cpus[i - 1].cpu == c.cpu) return Error{where + ": listed twice"};
    if (c.core < 0 || c.socket < 0) return Error{where + ": negative core or socket id"};
    if (c.node < 0 || c.node > 63) return Error{where + ": NUMA node " + std::to_string(c.node) + " outside 0..63"};
    t.all_.insert(c.cpu);
    cores.insert(c.core);
    sockets.insert(c.socket);
    nodes.insert(c.node);
  }
  // Ids are checked and sorted, so the last one is the largest.
  if (!cpus.empty()) t.index_.assign(static_cast<size_t>(cpus.back().cpu) + 1, -1);
  for (size_t i = 0; i < cpus.size(); ++i) t.index_[cpus[i].cpu] = static_cast<int>(i);
  std::map<int, std::vector<int>> by_core;
  for (const CpuInfo& c : cpus) by_core[c.core].push_back(c.cpu);
  for (auto& [core, ids] : by_core) t.core_cpus_.push_back(std::move(ids));
  t.cpus_ = std::move(cpus);
  t.num_cores_ = static_cast<int>(cores.size());
  t.sockets_.assign(sockets.begin(), sockets.end());
  t.nodes_.assign(nodes.begin(), nodes.end());
  return t;
}

Result<CpuTopology> CpuTopology::parse(std::string_view annotation) {
  auto doc = parse_annotation(kAnnotationCpuTopology, annotation);
  if (!doc) return doc.error();
  const std::string prefix = std::string(kAnnotationCpuTopology) + ": ";
  if (!(*doc)->IsObject()) return Error{prefix + "expected an object, got " + describe(**doc)};
  std::vector<CpuInfo> cpus;
  if (const JsonValue* detail = member(**doc, "detail")) {
    if (!detail->IsArray()) return Error{prefix + "detail: expected an array, got " + describe(*detail)};
    for (rapidjson::SizeType i = 0; i < detail->Size(); ++i) {
      const std::string path = "detail[" + std::to_string(i) + "]";
      const JsonValue& item = (*detail)[i];
      if (!item.IsObject()) return Error{prefix + path + ": expected an object, got " + describe(item)};
      int64_t id = 0, core = 0, socket = 0, node = 0;
      Status s = read_int(item, "id", path, id);
      if (s) s = read_int(item, "core", path, core);
      if (s) s = read_int(item, "socket", path, socket);
      if (s) s = read_int(item, "node", path, node);
      if (!s) return Error{prefix + s.message()};
      if (id < 0 || id >= CpuSet::kMaxCpus || core < 0 || core > INT32_MAX || socket < 0 || socket > INT32_MAX ||
          node < 0 || node > 63)
        return Error{prefix + path + ": id, core, socket or node out of range"};
      cpus.push_back({static_cast<int>(id), static_cast<int>(core), static_cast<int>(socket), static_cast<int>(node)});
    }
  }
  auto topology = from(std::move(cpus));
  if (!topology) return Error{prefix + topology.message()};
  return topology;
}

const CpuInfo* CpuTopology::find(int cpu) const {
  if (cpu < 0 || static_cast<size_t>(cpu) >= index_.size() || index_[cpu] < 0) return nullptr;
  return &cpus_[index_[cpu]];
}

CpuSet CpuTopology::cpus_in_node(int node) const {
  CpuSet out;
  for (const CpuInfo& c : cpus_)
    if (c.node == node) out.insert(c.cpu);
  return out;
}

CpuSet CpuTopology::cpus_in_core(int core) const {
  CpuSet out;
  for (const CpuInfo& c : cpus_)
    if (c.core == core) out.insert(c.cpu);
  return out;
}

int CpuTopology::core_count(const CpuSet& cpus) const {
  std::set<int> cores;
  for (int cpu : cpus)
    if (all_.contains(cpu)) cores.insert(info(cpu).core);
  return static_cast<int>(cores.size());
}

}  // namespace troupe::plugins::numa
