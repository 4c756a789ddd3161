#include "plugins/deviceshare/device_share_request.hpp"

#include <algorithm>

#include "model/pod_requests.hpp"
#include "plugins/deviceshare/device_allocated.hpp"

namespace troupe::plugins::deviceshare {

namespace {

constexpr const char* kNoMatchedTemplate = "no matched GPU shared resource template";

void narrow_joint_types(const JointAllocate& joint, DeviceShareRequest& out) {
  out.joint_present = true;
  out.joint_same_pcie = joint.same_pcie();
  for (const auto& name : joint.device_types) {
    auto type = device_type_of(name);
    if (!type) continue;  // no request can exist for an unknown type
    const DeviceHint* hint = out.hint(*type);
    if (hint != nullptr && hint->apply_for_all()) continue;
    if (out.requests.get(*type) == nullptr) continue;
    out.joint_types.push_back(*type);
  }
}

GpuRequirements gpu_requirements(const TypeRequest& gpu, const std::optional<GpuPartitionSpec>& spec,
                                 const DeviceHint* hint) {
  GpuPerCard split = split_gpu_request(gpu.resources);
  GpuRequirements out;
  out.count = split.count;
  out.per_gpu = std::move(split.per_gpu);
  out.per_gpu_amounts = split.amounts;
  out.shared = split.shared;
  if (spec) {
    out.honor_partition = true;
    out.restricted_partition = spec->restricted();
    out.ring_bus_bandwidth = spec->ring_bus_bandwidth;
  }
  if (hint != nullptr) {
    out.required_topology_scope = hint->required_topology_scope;
    out.required_topology_level = topology_scope_level(hint->required_topology_scope);
  }
  return out;
}

bool needs_template(const GpuRequirements& gpu, const TemplatePolicy& templates) {
  if (!gpu.shared) return false;
  return std::any_of(templates.matched_resources.begin(), templates.matched_resources.end(),
                     [&](const std::string& name) { return gpu.per_gpu.count(name) != 0; });
}

}  // namespace

PluginStatus prepare_device_share_request(const Pod& pod, const TemplatePolicy& templates, DeviceShareRequest& out) {
  return prepare_device_share_request(pod, pod_requests(pod.spec), templates, out);
}

PluginStatus prepare_device_share_request(const Pod& pod, const ResourceList& pod_requests,
                                          const TemplatePolicy& templates, DeviceShareRequest& out) {
  out = DeviceShareRequest{};
  auto requests = device_requests_from(pod_requests);
  if (!requests) return PluginStatus::unresolvable(requests.message());
  // An existing allocation annotation must at least decode (Koordinator
  // rejects the pod otherwise); it is not used as a designated allocation.
  auto designated = device_allocations_from(pod.meta.annotations);
  if (!designated) return PluginStatus::unresolvable(designated.message());
  out.requests = std::move(*requests);
  if (out.requests.empty()) return PluginStatus(Code::skip);

  auto hints = parse_device_allocate_hints(pod.meta.annotations);
  if (!hints) return PluginStatus::unresolvable(hints.message());
  out.hints = std::move(*hints);
  out.has_selectors = std::any_of(out.hints.begin(), out.hints.end(),
                                  [](const auto& h) { return h && h->selector.has_value(); });
  auto joint = parse_device_joint_allocate(pod.meta.annotations);
  if (!joint) return PluginStatus::unresolvable(joint.message());
  if (*joint) narrow_joint_types(**joint, out);

  if (const TypeRequest* gpu = out.requests.get(DeviceType::gpu)) {
    auto spec = parse_gpu_partition_spec(pod.meta.annotations);
    if (!spec) return PluginStatus::unresolvable(spec.message());
    out.gpu = gpu_requirements(*gpu, *spec, out.hint(DeviceType::gpu));
    // No shared-resource template table is loaded, so a request that must
    // match one finds none (Koordinator without its ConfigMap does the same).
    if (needs_template(*out.gpu, templates)) return PluginStatus::unresolvable(kNoMatchedTemplate);
  }
  out.fits_secondary_well_planned = out.gpu.has_value() && !out.gpu->shared;
  if (const std::string* provider = pod.meta.label(std::string(kLabelGpuIsolationProvider)))
    out.isolation_provider = *provider;
  return {};
}

}  // namespace troupe::plugins::deviceshare
