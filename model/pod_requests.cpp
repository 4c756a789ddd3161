#include "model/pod_requests.hpp"

#include <initializer_list>
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

/// What one container contributes: from its spec, and from what the kubelet
/// reports of it (null when not reported, or when status is not consulted).
using ContainerAmounts = ResourceList (*)(const Container&, const ContainerStatus*, bool resize_infeasible);

ResourceList spec_requests(const Container& c, const ContainerStatus*, bool) { return c.resources.requests; }
ResourceList spec_limits(const Container& c, const ContainerStatus*, bool) { return c.resources.limits; }

// containerAllocatedRequests: what the kubelet admitted.
ResourceList allocated_requests(const Container& c, const ContainerStatus* cs, bool resize_infeasible) {
  if (cs != nullptr && cs->allocated_resources) return *cs->allocated_resources;
  return resize_infeasible ? ResourceList{} : c.resources.requests;
}

// containerActuatedRequests: what the container runs with.
ResourceList actuated_requests(const Container& c, const ContainerStatus* cs, bool resize_infeasible) {
  if (cs != nullptr && cs->resources && !cs->resources->requests.empty()) return cs->resources->requests;
  if (cs != nullptr && cs->allocated_resources) return *cs->allocated_resources;
  return resize_infeasible ? ResourceList{} : c.resources.requests;
}

ResourceList actuated_limits(const Container& c, const ContainerStatus* cs, bool resize_infeasible) {
  if (cs != nullptr && cs->resources && !cs->resources->limits.empty()) return cs->resources->limits;
  return resize_infeasible ? ResourceList{} : c.resources.limits;
}

const ContainerStatus* find_status(const PodStatus* status, const std::string& name) {
  if (status == nullptr) return nullptr;
  for (const auto* list : {&status->container_statuses, &status->init_container_statuses})
    for (const ContainerStatus& cs : *list)
      if (cs.name == name) return &cs;
  return nullptr;
}

// aggregateContainerResourcesByFn: app containers and sidecars run together;
// while init container i runs, the sidecars declared before it run too, so
// the init phase needs max over i of (init i + earlier sidecars).
ResourceList aggregate_containers(const PodSpec& spec, const PodStatus* status, bool resize_infeasible,
                                  ContainerAmounts amounts, const ResourceList& non_missing) {
  auto container_resources = [&](const Container& c) {
    ResourceList own = amounts(c, find_status(status, c.name), resize_infeasible);
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

/// The kubelet reported some container's resources: only then can the
/// status change what a pod needs.
bool reports_container_resources(const PodStatus& status) {
  for (const auto* list : {&status.container_statuses, &status.init_container_statuses})
    for (const ContainerStatus& cs : *list)
      if (cs.allocated_resources || cs.resources) return true;
  return false;
}

// AggregateContainerRequests / AggregateContainerLimits with
// UseStatusResources: while a resize is in progress the pod needs the most
// of its spec and of each status reading; an infeasible resize leaves the
// spec out. Aggregated per reading, then the most taken (not per container).
ResourceList with_status(const PodSpec& spec, const PodStatus* status, ContainerAmounts from_spec,
                         std::initializer_list<ContainerAmounts> from_status, const ResourceList& non_missing) {
  const bool resize_infeasible = status != nullptr && pod_resize_infeasible(*status);
  if (status == nullptr || (!resize_infeasible && !reports_container_resources(*status)))
    return aggregate_containers(spec, nullptr, false, from_spec, non_missing);
  ResourceList out = resize_infeasible ? ResourceList{} : aggregate_containers(spec, nullptr, false, from_spec, non_missing);
  for (ContainerAmounts reading : from_status)
    out.set_max(aggregate_containers(spec, status, resize_infeasible, reading, non_missing));
  return out;
}

ResourceList container_requests(const PodSpec& spec, const PodStatus* status, const ResourceList& non_missing) {
  return with_status(spec, status, spec_requests, {actuated_requests, allocated_requests}, non_missing);
}

ResourceList container_limits(const PodSpec& spec, const PodStatus* status) {
  return with_status(spec, status, spec_limits, {actuated_limits}, {});
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

ResourceList requests_of(const PodSpec& spec, const PodStatus* status, const PodResourcesOptions& options) {
  ResourceList requests = container_requests(spec, status, options.non_missing_container_requests);
  if (!options.skip_pod_level_resources && spec.resources && has_supported_pod_level_resource(spec.resources->requests))
    apply_pod_level_resources(requests, spec.resources->requests);
  if (!options.exclude_overhead) requests += spec.overhead;
  return requests;
}

PodResourcesOptions non_zero_options() {
  PodResourcesOptions options;
  options.non_missing_container_requests = {
      {"cpu", Quantity::from_milli(kDefaultMilliCpuRequest)},
      {"memory", Quantity::from_value(kDefaultMemoryRequest, Quantity::Format::binary_si)}};
  return options;
}

ResourceList limits_of(const PodSpec& spec, const PodStatus* status, const PodResourcesOptions& options) {
  ResourceList limits = container_limits(spec, status);
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

}  // namespace

bool pod_resize_infeasible(const PodStatus& status) {
  for (const Condition& condition : status.conditions)
    if (condition.type == "PodResizePending") return condition.reason == "Infeasible";
  return false;
}

ResourceList pod_requests(const PodSpec& spec, const PodResourcesOptions& options) {
  return requests_of(spec, nullptr, options);
}

ResourceList pod_requests(const Pod& pod, const PodResourcesOptions& options) {
  return requests_of(pod.spec, &pod.status, options);
}

ResourceList pod_non_zero_requests(const PodSpec& spec) { return requests_of(spec, nullptr, non_zero_options()); }

ResourceList pod_non_zero_requests(const Pod& pod) { return requests_of(pod.spec, &pod.status, non_zero_options()); }

ResourceList pod_limits(const PodSpec& spec, const PodResourcesOptions& options) {
  return limits_of(spec, nullptr, options);
}

ResourceList pod_limits(const Pod& pod, const PodResourcesOptions& options) {
  return limits_of(pod.spec, &pod.status, options);
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
