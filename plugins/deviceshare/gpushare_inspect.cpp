#include "plugins/deviceshare/gpushare_inspect.hpp"

#include "plugins/deviceshare/go_json.hpp"

namespace troupe::plugins::deviceshare {

namespace {

struct InspectPod {
  const Pod* pod;
  int device;
};

void append_pod(std::string& out, const Pod& pod) {
  out += "{\"name\":" + go_json_string(pod.meta.name) + ",\"namespace\":" + go_json_string(pod.meta.namespace_name) +
         ",\"usedGPU\":" + std::to_string(gpushare_pod_request(pod.spec)) + "}";
}

void append_device(std::string& out, const GpuShareDevice& device, const std::vector<InspectPod>& pods) {
  out += "{\"id\":" + std::to_string(device.index) + ",\"totalGPU\":" + std::to_string(device.total) +
         ",\"usedGPU\":" + std::to_string(device.used) + ",\"pods\":[";
  bool first = true;
  for (const auto& p : pods) {
    if (p.device != device.index) continue;
    if (!first) out += ',';
    first = false;
    append_pod(out, *p.pod);
  }
  out += "]}";
}

}  // namespace

std::string gpushare_inspect_node_json(const GpuShareNode& gpus, const std::vector<const Pod*>& pods) {
  std::vector<InspectPod> listed;
  for (const Pod* pod : pods) {
    if (pod == nullptr) continue;
    if (auto device = gpus.accounted_device(*pod)) listed.push_back(InspectPod{pod, *device});
  }
  const std::vector<GpuShareDevice> devices = gpus.devices();
  int64_t used = 0;
  for (const auto& d : devices) used += d.used;
  std::string out = "{\"name\":" + go_json_string(gpus.name()) + ",\"totalGPU\":" +
                    std::to_string(gpus.total_memory()) + ",\"usedGPU\":" + std::to_string(used) + ",\"devs\":[";
  for (size_t i = 0; i < devices.size(); ++i) {
    if (i > 0) out += ',';
    append_device(out, devices[i], listed);
  }
  out += "]}";
  return out;
}

std::string gpushare_inspect_json(const std::vector<std::string>& nodes, const std::string& error) {
  std::string out = "{\"nodes\":[";
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i > 0) out += ',';
    out += nodes[i];
  }
  out += "]";
  if (!error.empty()) out += ",\"error\":" + go_json_string(error);
  out += "}";
  return out;
}

}  // namespace troupe::plugins::deviceshare
