#include "plugins/deviceshare/observed_task.hpp"

#include "plugins/deviceshare/device_types.hpp"
#include "plugins/deviceshare/fragmentation_scoring.hpp"

namespace troupe::plugins::deviceshare {

namespace {

// The In values on `key` of one term; nullopt when the term does not restrict it that way.
std::optional<std::vector<std::string>> term_models(const NodeSelectorTerm& term, const std::string& key) {
  for (const auto& r : term.match_expressions)
    if (r.key == key && r.op == LabelRequirement::Op::in) return r.values;
  return std::nullopt;
}

}  // namespace

std::vector<std::string> gpu_models_of(const Pod& pod) {
  const std::string& key = label_keys().gpu_model;
  if (auto it = pod.spec.node_selector.find(key); it != pod.spec.node_selector.end()) return {it->second};
  const auto& affinity = pod.spec.affinity;
  if (!affinity || !affinity->node_affinity || !affinity->node_affinity->required) return {};
  std::vector<std::string> models;
  for (const auto& term : affinity->node_affinity->required->terms) {
    auto values = term_models(term, key);
    if (!values) return {};
    models.insert(models.end(), values->begin(), values->end());
  }
  return models;
}

std::optional<ObservedTask> observed_task(const PodInfo& pod, const TemplatePolicy& templates) {
  if (pod.pod == nullptr) return std::nullopt;
  DeviceShareRequest request;
  const PluginStatus status = prepare_device_share_request(*pod.pod, templates, request);
  if (!status.ok() && !status.is_skip()) return std::nullopt;
  const GpuRequest shape = fragmentation_request(pod, status.ok() ? &request : nullptr);
  ObservedTask task;
  task.cpu_milli = shape.cpu_milli;
  task.memory_mib = shape.memory_mib;
  task.gpu_milli = shape.gpu_milli;
  task.gpu_count = shape.gpu_count;
  if (task.gpu_count > 0) task.gpu_models = gpu_models_of(*pod.pod);
  return task;
}

}  // namespace troupe::plugins::deviceshare
