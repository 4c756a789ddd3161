#include "plugins/node_numa_resource/qos.hpp"

#include <charconv>
#include <string>

#include "model/pod_requests.hpp"

namespace troupe::plugins::numa {

namespace {
std::string_view label(const Pod& pod, const char* key) {
  auto it = pod.meta.labels.find(key);
  return it == pod.meta.labels.end() ? std::string_view() : std::string_view(it->second);
}
}  // namespace

KoordQos parse_koord_qos(std::string_view text) {
  if (text == "LSE") return KoordQos::lse;
  if (text == "LSR") return KoordQos::lsr;
  if (text == "LS") return KoordQos::ls;
  if (text == "BE") return KoordQos::be;
  if (text == "SYSTEM") return KoordQos::system;
  return KoordQos::none;
}

std::string_view to_string(KoordQos qos) {
  switch (qos) {
    case KoordQos::lse: return "LSE";
    case KoordQos::lsr: return "LSR";
    case KoordQos::ls: return "LS";
    case KoordQos::be: return "BE";
    case KoordQos::system: return "SYSTEM";
    case KoordQos::none: break;
  }
  return "";
}

KoordQos pod_qos_raw(const Pod& pod) { return parse_koord_qos(label(pod, kLabelQosClass)); }

KoordQos pod_qos_with_default(const Pod& pod) {
  KoordQos raw = pod_qos_raw(pod);
  if (raw != KoordQos::none) return raw;
  switch (pod_qos(pod)) {
    case QosClass::guaranteed: return KoordQos::lsr;
    case QosClass::burstable: return KoordQos::ls;
    case QosClass::best_effort: return KoordQos::be;
  }
  return KoordQos::none;
}

KoordPriorityClass priority_class_of(int32_t priority) {
  if (priority >= 9000 && priority <= 9999) return KoordPriorityClass::prod;
  if (priority >= 7000 && priority <= 7999) return KoordPriorityClass::mid;
  if (priority >= 5000 && priority <= 5999) return KoordPriorityClass::batch;
  if (priority >= 3000 && priority <= 3999) return KoordPriorityClass::free;
  return KoordPriorityClass::none;
}

std::string_view to_string(KoordPriorityClass priority_class) {
  switch (priority_class) {
    case KoordPriorityClass::prod: return "koord-prod";
    case KoordPriorityClass::mid: return "koord-mid";
    case KoordPriorityClass::batch: return "koord-batch";
    case KoordPriorityClass::free: return "koord-free";
    case KoordPriorityClass::none: break;
  }
  return "";
}

KoordPriorityClass pod_priority_class_raw(const Pod& pod) {
  std::string_view text = label(pod, kLabelPriorityClass);
  for (KoordPriorityClass c : {KoordPriorityClass::prod, KoordPriorityClass::mid, KoordPriorityClass::batch,
                               KoordPriorityClass::free})
    if (text == to_string(c)) return c;
  if (!pod.spec.priority) return KoordPriorityClass::none;
  return priority_class_of(*pod.spec.priority);
}

KoordPriorityClass pod_priority_class_with_default(const Pod& pod) {
  KoordPriorityClass raw = pod_priority_class_raw(pod);
  if (raw != KoordPriorityClass::none) return raw;
  switch (pod_qos_with_default(pod)) {
    case KoordQos::system:
    case KoordQos::lse:
    case KoordQos::lsr:
    case KoordQos::ls: return KoordPriorityClass::prod;
    case KoordQos::be: return KoordPriorityClass::batch;
    case KoordQos::none: break;
  }
  return KoordPriorityClass::none;
}

int32_t default_priority_value(KoordPriorityClass priority_class) {
  switch (priority_class) {
    case KoordPriorityClass::prod: return 9500;
    case KoordPriorityClass::mid: return 7500;
    case KoordPriorityClass::batch: return 5500;
    case KoordPriorityClass::free: return 3500;
    case KoordPriorityClass::none: break;
  }
  return 0;
}

std::optional<int32_t> pod_sub_priority(const Pod& pod) {
  std::string_view text = label(pod, kLabelPriority);
  if (text.empty()) return std::nullopt;
  int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool allow_use_cpuset(const Pod& pod) {
  KoordQos qos = pod_qos_raw(pod);
  return (qos == KoordQos::lse || qos == KoordQos::lsr) &&
         pod_priority_class_with_default(pod) == KoordPriorityClass::prod;
}

}  // namespace troupe::plugins::numa
