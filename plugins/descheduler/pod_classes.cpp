#include "plugins/descheduler/pod_classes.hpp"

#include <charconv>
#include <optional>
#include <string>

#include "model/pod_requests.hpp"

namespace troupe::plugins::descheduler {

namespace {

/// The keys as std::string once: ObjectMeta's lookups take a std::string,
/// and these keys are too long for the small-string buffer (a lookup with
/// the char* constant allocated every time; victims are ranked by four).
const std::string kQosLabelKey = kQosClassLabel;
const std::string kPriorityLabelKey = kPriorityClassLabel;
const std::string kEvictionCostKey = kEvictionCostAnnotation;
const std::string kDeletionCostKey = kDeletionCostAnnotation;

/// The qosClass label's class, nullopt when unlabelled.
std::optional<KoordQos> labelled_qos(const Pod& pod) {
  const std::string* label = pod.meta.label(kQosLabelKey);
  if (!label) return std::nullopt;
  if (*label == "LSE") return KoordQos::lse;
  if (*label == "LSR") return KoordQos::lsr;
  if (*label == "LS") return KoordQos::ls;
  if (*label == "BE") return KoordQos::be;
  if (*label == "SYSTEM") return KoordQos::system;
  return KoordQos::none;
}

KoordQos from_k8s_qos(QosClass qos) {
  switch (qos) {
    case QosClass::guaranteed: return KoordQos::lsr;
    case QosClass::burstable: return KoordQos::ls;
    case QosClass::best_effort: return KoordQos::be;
  }
  return KoordQos::none;
}

}  // namespace

KoordQos koord_qos(const Pod& pod, QosClass k8s_qos) {
  if (auto labelled = labelled_qos(pod)) return *labelled;
  return from_k8s_qos(k8s_qos);
}

KoordQos koord_qos(const Pod& pod) {
  if (auto labelled = labelled_qos(pod)) return *labelled;
  return from_k8s_qos(pod_qos(pod));
}

namespace {

KoordPriorityClass class_from_name(const std::string& name) {
  if (name == "koord-prod") return KoordPriorityClass::prod;
  if (name == "koord-mid") return KoordPriorityClass::mid;
  if (name == "koord-batch") return KoordPriorityClass::batch;
  if (name == "koord-free") return KoordPriorityClass::free;
  return KoordPriorityClass::none;
}

KoordPriorityClass class_from_priority(const PodSpec& spec) {
  if (!spec.priority) return KoordPriorityClass::none;
  const int32_t p = *spec.priority;
  if (p >= 9000 && p <= 9999) return KoordPriorityClass::prod;
  if (p >= 7000 && p <= 7999) return KoordPriorityClass::mid;
  if (p >= 5000 && p <= 5999) return KoordPriorityClass::batch;
  if (p >= 3000 && p <= 3999) return KoordPriorityClass::free;
  return KoordPriorityClass::none;
}

int32_t int32_annotation(const Pod& pod, const std::string& key) {
  const std::string* text = pod.meta.annotation(key);
  if (!text) return 0;
  int32_t value = 0;
  const char* end = text->data() + text->size();
  auto [ptr, ec] = std::from_chars(text->data(), end, value);
  return ec == std::errc() && ptr == end ? value : 0;
}

/// The label's or spec.priority's class; none when neither says.
KoordPriorityClass declared_class(const Pod& pod) {
  KoordPriorityClass cls = KoordPriorityClass::none;
  if (const std::string* label = pod.meta.label(kPriorityLabelKey)) cls = class_from_name(*label);
  if (cls == KoordPriorityClass::none) cls = class_from_priority(pod.spec);
  return cls;
}

KoordPriorityClass class_from_qos(KoordQos qos) {
  switch (qos) {
    case KoordQos::system:
    case KoordQos::lse:
    case KoordQos::lsr:
    case KoordQos::ls: return KoordPriorityClass::prod;
    case KoordQos::be: return KoordPriorityClass::batch;
    case KoordQos::none: return KoordPriorityClass::none;
  }
  return KoordPriorityClass::none;
}

}  // namespace

KoordPriorityClass koord_priority_class(const Pod& pod) {
  const KoordPriorityClass cls = declared_class(pod);
  return cls != KoordPriorityClass::none ? cls : class_from_qos(koord_qos(pod));
}

KoordPriorityClass koord_priority_class(const Pod& pod, KoordQos qos) {
  const KoordPriorityClass cls = declared_class(pod);
  return cls != KoordPriorityClass::none ? cls : class_from_qos(qos);
}

int qos_rank(KoordQos qos) {
  switch (qos) {
    case KoordQos::be: return 1;
    case KoordQos::ls: return 2;
    case KoordQos::lsr: return 3;
    case KoordQos::lse:
    case KoordQos::system: return 4;
    case KoordQos::none: return 5;
  }
  return 5;
}

int32_t eviction_cost(const Pod& pod) { return int32_annotation(pod, kEvictionCostKey); }
int32_t deletion_cost(const Pod& pod) { return int32_annotation(pod, kDeletionCostKey); }

const char* to_string(KoordPriorityClass priority_class) {
  switch (priority_class) {
    case KoordPriorityClass::free: return "koord-free";
    case KoordPriorityClass::batch: return "koord-batch";
    case KoordPriorityClass::mid: return "koord-mid";
    case KoordPriorityClass::prod: return "koord-prod";
    case KoordPriorityClass::none: return "none";
  }
  return "none";
}

}  // namespace troupe::plugins::descheduler
