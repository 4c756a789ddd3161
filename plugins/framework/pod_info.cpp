#include "plugins/framework/pod_info.hpp"

#include "model/pod_requests.hpp"

namespace troupe::plugins {

std::shared_ptr<const PodInfo> PodInfo::make(std::shared_ptr<const Pod> pod) {
  auto info = std::make_shared<PodInfo>();
  info->key = pod->meta.key();
  info->priority = pod_priority(pod->spec);
  info->requests = ResourceVector::from(pod_requests(*pod));
  info->non_zero_requests = ResourceVector::from(pod_non_zero_requests(*pod));
  info->host_ports = pod_host_ports(pod->spec);
  const auto& affinity = pod->spec.affinity;
  if (affinity && (affinity->pod_affinity || affinity->pod_anti_affinity)) {
    // Namespace selectors stay in the terms: matched by the labels of each candidate's namespace.
    info->placed_terms = std::make_shared<const affinity::PodTerms>(affinity::resolve_terms(*pod, nullptr));
  }
  info->pod = std::move(pod);
  return info;
}

}  // namespace troupe::plugins
