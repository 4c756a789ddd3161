#include "plugins/priority_sort/priority_sort.hpp"

namespace troupe::plugins {

bool PrioritySort::less(const QueuedPodInfo& a, const QueuedPodInfo& b) const {
  const int32_t pa = a.pod_info->priority;
  const int32_t pb = b.pod_info->priority;
  return pa > pb || (pa == pb && a.timestamp < b.timestamp);
}

}  // namespace troupe::plugins
