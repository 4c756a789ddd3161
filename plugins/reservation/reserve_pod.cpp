#include "plugins/reservation/reserve_pod.hpp"

#include <charconv>
#include <limits>

#include "model/pod_requests.hpp"
#include "plugins/reservation/reservation_names.hpp"
#include "plugins/reservation/reservation_status.hpp"

namespace troupe::plugins::reservation {

namespace {

const std::string* find(const std::map<std::string, std::string>& map, const char* key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

/// strconv.ParseInt(v, 10, 32) of the priority label; nullopt when it does not parse.
std::optional<int32_t> label_priority(const Labels& labels) {
  const std::string* value = find(labels, kLabelPodPriority);
  if (value == nullptr || value->empty()) return std::nullopt;
  std::string_view text = *value;
  if (text.front() == '+') text.remove_prefix(1);
  int32_t priority = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), priority);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return priority;
}

/// UpdateReservePodWithAllocatable: the template's requests overwritten by
/// the allocatable, carried by one fake container; all other requests cleared.
void carry_allocatable(PodSpec& spec, const ResourceList& allocatable) {
  ResourceList requests = pod_requests(spec);
  for (const auto& [name, quantity] : allocatable) requests[name] = quantity;
  spec.overhead.clear();
  spec.resources.reset();
  for (auto& c : spec.init_containers) c.resources = ResourceRequirements{};
  for (auto& c : spec.containers) c.resources = ResourceRequirements{};
  Container fake;
  fake.name = kFakeContainerName;
  fake.resources.requests = requests;
  fake.resources.limits = requests;
  spec.containers.push_back(std::move(fake));
}

}  // namespace

ResourceList reservation_requests(const Reservation& r) {
  if (is_available(r)) return r.status.allocatable;
  if (r.spec.pod_template) return pod_requests(r.spec.pod_template->spec);
  return {};
}

Pod make_reserve_pod(const Reservation& r) {
  Pod pod;
  if (r.spec.pod_template) {
    pod.meta = r.spec.pod_template->meta;
    pod.spec = r.spec.pod_template->spec;
  }
  pod.meta.name = r.meta.uid;
  pod.meta.uid = r.meta.uid;
  if (pod.meta.namespace_name.empty()) pod.meta.namespace_name = "default";
  for (const auto& [key, value] : r.meta.labels) pod.meta.labels[key] = value;
  for (const auto& [key, value] : r.meta.annotations) pod.meta.annotations[key] = value;
  pod.meta.annotations[kAnnotationReservePod] = "true";
  pod.meta.annotations[kAnnotationReservationName] = r.meta.name;
  pod.meta.annotations[kAnnotationReserveAllocatePolicy] = r.spec.allocate_policy;
  if (r.spec.pre_allocation) pod.meta.annotations[kAnnotationIsPreAllocation] = "true";
  if (!pod.spec.node_name.empty()) {
    // Other plugins must not read the requested node as a binding.
    pod.meta.annotations[kAnnotationReservationNode] = pod.spec.node_name;
    pod.spec.node_name.clear();
  }
  if (!r.status.node_name.empty()) pod.spec.node_name = r.status.node_name;
  if (!pod.spec.priority) pod.spec.priority = label_priority(r.meta.labels);
  // A reservation nobody gave a priority must never be preempted.
  if (!pod.spec.priority) pod.spec.priority = std::numeric_limits<int32_t>::max();
  if (pod.spec.scheduler_name.empty()) pod.spec.scheduler_name = kDefaultSchedulerName;
  if (is_succeeded(r))
    pod.status.phase = "Succeeded";
  else if (is_expired(r) || is_failed(r))
    pod.status.phase = "Failed";
  if (is_available(r) && !pod_requests(pod.spec).same_amounts(r.status.allocatable))
    carry_allocatable(pod.spec, r.status.allocatable);
  return pod;
}

std::shared_ptr<const PodInfo> make_reserve_pod_info(const Reservation& r) { return PodInfo::make(make_reserve_pod(r)); }

bool is_reserve_pod(const ObjectMeta& pod_meta) {
  const std::string* value = pod_meta.annotation(kAnnotationReservePod);
  return value != nullptr && *value == "true";
}

std::string reservation_name_of(const ObjectMeta& meta) {
  const std::string* value = meta.annotation(kAnnotationReservationName);
  return value ? *value : std::string();
}

std::string reserve_pod_node(const ObjectMeta& meta) {
  const std::string* value = meta.annotation(kAnnotationReservationNode);
  return value ? *value : std::string();
}

std::string reserve_pod_allocate_policy(const ObjectMeta& meta) {
  const std::string* value = meta.annotation(kAnnotationReserveAllocatePolicy);
  return value ? *value : std::string();
}

}  // namespace troupe::plugins::reservation
