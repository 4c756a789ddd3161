#include "plugins/framework/pod_info.hpp"

#include "model/pod_requests.hpp"

namespace troupe::plugins {

std::shared_ptr<const PodInfo> PodInfo::make(std::shared_ptr<const Pod> pod) {
  auto info = std::make_shared<PodInfo>();
  info->key = pod->meta.key();
  info->priority = pod_priority(pod->spec);
  info->requests = ResourceVector::from(pod_requests(pod->spec));
  info->non_zero_requests = ResourceVector::from(pod_non_zero_requests(pod->spec));
  info->host_ports = pod_host_ports(pod->spec);
  info->pod = std::move(pod);
  return info;
}

}  // namespace troupe::plugins
