#include "model/pod_requests.hpp"

#include <optional>
#include <string_view>

namespace troupe {

namespace {

// applyNonMissing: fills in names the container does not mention at all.
ResourceList with_non_missing(const ResourceList& resources, const ResourceList& non_missing) {
  ResourceList out = resources;
  for (const auto& [name, quantity] : non_missing)
    if (resources.find(name) == resources.end()) out.emplace(name, quantity);
  return out;
}

bool is_supported_pod_level_resource(std::string_view name) {
  return name == "cpu" || name == "memory" || name.substr(0, 10) == "hugepages-";
}

bool has_supported_pod_level_resource(const ResourceList& list) {
  for (const auto& entry : list)
    if (is_supported_pod_level_resource(entry.first)) return true;
  return false;
}

void apply_pod_level_resources(ResourceList& into, const ResourceList& pod_level) {
  for (const auto& [name, quantity] : pod_level)
    if (is_supported_pod_level_resource(name)) into[name] = quantity;
}

enum class Side { requests, limits };

const ResourceList& side_of(const ResourceRequirements& r, Side side) {
  return side == Side::requests ? r.requests : r.limits;
}

// aggregateContainerResourcesByFn: app containers and sidecars run together;
// while init container i runs, the sidecars declared before it run too, so
// the init phase needs max over i of (init i + earlier sidecars).
ResourceList aggregate_containers(const PodSpec& spec, Side side, const ResourceList& non_missing) {
  auto container_resources = [&](const Container& c) {
    const ResourceList& own = side_of(c.resources, side);
    return non_missing.empty() ? own : with_non_missing(own, non_missing);
  };
  ResourceList result;
  for (const auto& container : spec.containers) result += container_resources(container);

  ResourceList sidecars;
  ResourceList init_peak;
  for (const auto& container : spec.init_containers) {
    ResourceList own = container_resources(container);
    if (container.is_restartable()) {
      result += own;
      sidecars += own;
      init_peak.set_max(sidecars);
    } else {
      own += sidecars;
      init_peak.set_max(own);
    }
  }
  result.set_max(init_peak);
  return result;
}

std::optional<QosClass> parse_qos(const std::string& text) {
  if (text == "Guaranteed") return QosClass::guaranteed;
  if (text == "Burstable") return QosClass::burstable;
  if (text == "BestEffort") return QosClass::best_effort;
  return std::nullopt;
}

// resourceQOS: one set of requirements (a container, or the pod level).
QosClass resources_qos(const ResourceRequirements& r) {
  if (r.requests.empty() && r.limits.empty()) return QosClass::best_effort;
  std::optional<QosClass> qos;
  for (const char* name : {"cpu", "memory"}) {
    const Quantity request = r.requests.get(name);
    const Quantity limit = r.limits.get(name);
    if (request != limit) return QosClass::burstable;
    const bool best_effort = request.is_zero();
    if (!qos) {
      qos = best_effort ? QosClass::best_effort : QosClass::guaranteed;
    } else if (best_effort != (*qos == QosClass::best_effort)) {
      return QosClass::burstable;
    }
  }
  return *qos;
}

}  // namespace

ResourceList pod_requests(const PodSpec& spec, const PodResourcesOptions& options) {
  ResourceList requests = aggregate_containers(spec, Side::requests, options.non_missing_container_requests);
  if (!options.skip_pod_level_resources && spec.resources && has_supported_pod_level_resource(spec.resources->requests))
    apply_pod_level_resources(requests, spec.resources->requests);
  if (!options.exclude_overhead) requests += spec.overhead;
  return requests;
}

ResourceList pod_non_zero_requests(const PodSpec& spec) {
  PodResourcesOptions options;
  options.non_missing_container_requests = {
      {"cpu", Quantity::from_milli(kDefaultMilliCpuRequest)},
      {"memory", Quantity::from_value(kDefaultMemoryRequest, Quantity::Format::binary_si)}};
  return pod_requests(spec, options);
}

ResourceList pod_limits(const PodSpec& spec, const PodResourcesOptions& options) {
  ResourceList limits = aggregate_containers(spec, Side::limits, {});
  if (!options.skip_pod_level_resources && spec.resources &&
      (has_supported_pod_level_resource(spec.resources->requests) ||
       has_supported_pod_level_resource(spec.resources->limits)))
    apply_pod_level_resources(limits, spec.resources->limits);
  if (!options.exclude_overhead) {
    for (const auto& [name, quantity] : spec.overhead) {
      auto found = limits.find(name);
      if (found != limits.end() && !found->second.is_zero()) found->second += quantity;
    }
  }
  return limits;
}

const char* to_string(QosClass qos) {
  switch (qos) {
    case QosClass::guaranteed: return "Guaranteed";
    case QosClass::burstable: return "Burstable";
    case QosClass::best_effort: return "BestEffort";
  }
  return "BestEffort";
}

QosClass compute_qos(const PodSpec& spec) {
  if (spec.resources) return resources_qos(*spec.resources);
  std::optional<QosClass> pod_qos;
  auto visit = [&pod_qos](const Container& c) -> bool {
    QosClass qos = resources_qos(c.resources);
    if (qos == QosClass::burstable || (pod_qos && *pod_qos != qos)) return false;
    pod_qos = qos;
    return true;
  };
  for (const auto& c : spec.init_containers)
    if (!visit(c)) return QosClass::burstable;
  for (const auto& c : spec.containers)
    if (!visit(c)) return QosClass::burstable;
  return pod_qos.value_or(QosClass::best_effort);
}

QosClass pod_qos(const Pod& pod) {
  if (auto reported = parse_qos(pod.status.qos_class)) return *reported;
  return compute_qos(pod.spec);
}

int32_t pod_priority(const PodSpec& spec) { return spec.priority.value_or(0); }

}  // namespace troupe
