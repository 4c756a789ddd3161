#include "plugins/deviceshare/task_classes_json.hpp"

#include <cstdio>

#include "plugins/deviceshare/go_json.hpp"

namespace troupe::plugins::deviceshare {

namespace {

// Enough digits that reading the weight back gives the same double.
std::string weight_text(double weight) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", weight);
  return buffer;
}

void append_class(std::string& out, const GpuTaskClass& c) {
  out += "{\"cpuMilli\":" + std::to_string(c.cpu_milli);
  if (c.memory_mib > 0) out += ",\"memory\":\"" + std::to_string(c.memory_mib) + "Mi\"";
  if (!c.cpu_only()) out += ",\"gpuMilli\":" + std::to_string(c.gpu_milli) + ",\"gpuCount\":" + std::to_string(c.gpu_count);
  if (!c.gpu_models.empty()) {
    out += ",\"gpuModels\":[";
    for (size_t i = 0; i < c.gpu_models.size(); ++i) out += (i > 0 ? "," : "") + go_json_string(c.gpu_models[i]);
    out += "]";
  }
  out += ",\"weight\":" + weight_text(c.weight) + "}";
}

}  // namespace

std::string task_classes_json(const TaskDistribution& tasks) {
  std::string out = "[";
  for (size_t i = 0; i < tasks.classes().size(); ++i) {
    if (i > 0) out += ',';
    append_class(out, tasks.classes()[i]);
  }
  out += "]";
  return out;
}

}  // namespace troupe::plugins::deviceshare
