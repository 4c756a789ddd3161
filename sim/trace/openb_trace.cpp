#include "sim/trace/openb_trace.hpp"

#include <algorithm>
#include <set>

#include "sim/trace/csv_table.hpp"

namespace troupe::sim::trace {

namespace {

// Reads an integer column that must be >= 0 and fit `limit`.
Result<int64_t> non_negative(const CsvTable& table, const CsvRecord& record, size_t column,
                             int64_t limit = INT64_MAX) {
  auto value = table.integer(record, column);
  if (!value) return value;
  if (*value < 0 || *value > limit)
    return Error{table.where(record) + "column " + table.header()[column] + ": " + std::to_string(*value) +
                 (*value < 0 ? " is negative" : " is too large (at most " + std::to_string(limit) + ")")};
  return value;
}

std::vector<std::string> split_spec(const std::string& text) {
  std::vector<std::string> models;
  size_t start = 0;
  while (start <= text.size()) {
    size_t bar = text.find('|', start);
    if (bar == std::string::npos) bar = text.size();
    std::string model = text.substr(start, bar - start);
    if (!model.empty() && std::find(models.begin(), models.end(), model) == models.end())
      models.push_back(std::move(model));
    start = bar + 1;
  }
  return models;
}

Status check_unique_name(const CsvTable& table, const CsvRecord& record, const std::string& name,
                         std::set<std::string>& seen) {
  if (name.empty()) return Error{table.where(record) + "empty name"};
  if (!seen.insert(name).second) return Error{table.where(record) + "repeated name '" + name + "'"};
  return Status::success();
}

struct PodColumns {
  size_t name, cpu, memory, num_gpu, gpu_milli;
  int64_t gpu_spec;  // -1 when absent (the multigpu* lists)
};

Result<PodColumns> pod_columns(const CsvTable& table) {
  PodColumns c{};
  for (auto [field, name] : {std::pair{&c.name, "name"}, {&c.cpu, "cpu_milli"}, {&c.memory, "memory_mib"},
                             {&c.num_gpu, "num_gpu"}, {&c.gpu_milli, "gpu_milli"}}) {
    auto index = table.column(name);
    if (!index) return index.error();
    *field = *index;
  }
  c.gpu_spec = table.optional_column("gpu_spec");
  return c;
}

Result<TracePod> read_pod(const CsvTable& table, const CsvRecord& record, const PodColumns& c) {
  TracePod pod;
  pod.name = record.fields[c.name];
  auto cpu = non_negative(table, record, c.cpu);
  if (!cpu) return cpu.error();
  auto memory = non_negative(table, record, c.memory);
  if (!memory) return memory.error();
  auto num_gpu = non_negative(table, record, c.num_gpu, 1024);
  if (!num_gpu) return num_gpu.error();
  auto gpu_milli = non_negative(table, record, c.gpu_milli);
  if (!gpu_milli) return gpu_milli.error();
  pod.cpu_milli = *cpu;
  pod.memory_mib = *memory;
  pod.num_gpu = static_cast<int32_t>(*num_gpu);
  if (pod.num_gpu > 0) {
    if (*gpu_milli == 0)
      return Error{table.where(record) + "num_gpu " + std::to_string(pod.num_gpu) +
                   " with gpu_milli 0: a GPU task must ask for some of each GPU"};
    // The method reads more than one GPU's worth per GPU as one whole GPU.
    pod.gpu_milli = static_cast<int32_t>(std::min<int64_t>(*gpu_milli, 1000));
    if (pod.num_gpu > 1 && pod.gpu_milli < 1000)
      return Error{table.where(record) + "num_gpu " + std::to_string(pod.num_gpu) + " with gpu_milli " +
                   std::to_string(pod.gpu_milli) + ": a multi-GPU task must use whole GPUs (gpu_milli 1000)"};
    if (c.gpu_spec >= 0) pod.gpu_spec = split_spec(record.fields[static_cast<size_t>(c.gpu_spec)]);
  }
  return pod;
}

}  // namespace

std::string TracePod::gpu_spec_text() const {
  std::string text;
  for (const auto& model : gpu_spec) text += (text.empty() ? "" : "|") + model;
  return text;
}

Result<std::vector<TraceNode>> parse_trace_nodes(std::string_view csv, const std::string& origin) {
  auto table = CsvTable::parse(csv, origin);
  if (!table) return table.error();
  size_t col[5];
  const char* names[5] = {"sn", "cpu_milli", "memory_mib", "gpu", "model"};
  for (int i = 0; i < 5; ++i) {
    auto index = table->column(names[i]);
    if (!index) return index.error();
    col[i] = *index;
  }
  std::vector<TraceNode> nodes;
  std::set<std::string> seen;
  for (const auto& record : table->records()) {
    TraceNode node;
    node.name = record.fields[col[0]];
    if (auto unique = check_unique_name(*table, record, node.name, seen); !unique) return Error{unique.message()};
    auto cpu = non_negative(*table, record, col[1]);
    if (!cpu) return cpu.error();
    auto memory = non_negative(*table, record, col[2]);
    if (!memory) return memory.error();
    auto gpus = non_negative(*table, record, col[3], 1024);
    if (!gpus) return gpus.error();
    node.cpu_milli = *cpu;
    node.memory_mib = *memory;
    node.gpu_count = static_cast<int32_t>(*gpus);
    node.model = record.fields[col[4]];
    nodes.push_back(std::move(node));
  }
  return nodes;
}

Result<std::vector<TracePod>> parse_trace_pods(std::string_view csv, const std::string& origin) {
  auto table = CsvTable::parse(csv, origin);
  if (!table) return table.error();
  auto columns = pod_columns(*table);
  if (!columns) return columns.error();
  std::vector<TracePod> pods;
  std::set<std::string> seen;
  for (const auto& record : table->records()) {
    if (auto unique = check_unique_name(*table, record, record.fields[columns->name], seen); !unique)
      return Error{unique.message()};
    auto pod = read_pod(*table, record, *columns);
    if (!pod) return pod.error();
    pods.push_back(std::move(*pod));
  }
  return pods;
}

Result<std::vector<TraceNode>> load_trace_nodes(const std::string& path) {
  auto text = read_text_file(path);
  if (!text) return text.error();
  return parse_trace_nodes(*text, path);
}

Result<std::vector<TracePod>> load_trace_pods(const std::string& path) {
  auto text = read_text_file(path);
  if (!text) return text.error();
  return parse_trace_pods(*text, path);
}

int64_t cluster_gpu_milli(const std::vector<TraceNode>& nodes) {
  int64_t total = 0;
  for (const auto& node : nodes) total += static_cast<int64_t>(node.gpu_count) * 1000;
  return total;
}

std::vector<TraceNode> gpu_nodes_only(const std::vector<TraceNode>& nodes) {
  std::vector<TraceNode> out;
  for (const auto& node : nodes)
    if (node.gpu_count > 0) out.push_back(node);
  return out;
}

}  // namespace troupe::sim::trace
