#include "model/pod_disruption_budget.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kPdbKind{"policy/v1", "PodDisruptionBudget"};

template <class Io, class T>
void pdb_spec_fields(Io& io, T& x) {
  io.field("minAvailable", x.min_available);
  io.field("maxUnavailable", x.max_unavailable);
  io.field("selector", x.selector);
  io.field("unhealthyPodEvictionPolicy", x.unhealthy_pod_eviction_policy);
}

template <class Io, class T>
void pdb_status_fields(Io& io, T& x) {
  io.field("observedGeneration", x.observed_generation);
  io.field("disruptedPods", x.disrupted_pods);
  io.field("disruptionsAllowed", x.disruptions_allowed);
  io.field("currentHealthy", x.current_healthy);
  io.field("desiredHealthy", x.desired_healthy);
  io.field("expectedPods", x.expected_pods);
  io.array("conditions", x.conditions);
}

template <class Io, class T>
void pdb_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.object("spec", x.spec);
  io.check("spec", !(x.spec.min_available && x.spec.max_unavailable),
           "Invalid value: minAvailable and maxUnavailable cannot be both set");
  io.object("status", x.status);
}

}  // namespace

TROUPE_JSON_FIELDS(PodDisruptionBudgetSpec, pdb_spec_fields)
TROUPE_JSON_FIELDS(PodDisruptionBudgetStatus, pdb_status_fields)
TROUPE_JSON_FIELDS(PodDisruptionBudget, pdb_fields)

bool PodDisruptionBudget::selects(const Labels& pod_labels) const {
  return spec.selector.has_value() && spec.selector->matches(pod_labels);
}

Result<PodDisruptionBudget> decode_pod_disruption_budget(JsonPtr doc) {
  return decode_object<PodDisruptionBudget>(doc, kPdbKind);
}

Result<PodDisruptionBudget> decode_pod_disruption_budget_json(std::string_view text) {
  return decode_object_text<PodDisruptionBudget>(text, kPdbKind);
}

std::shared_ptr<JsonDocument> to_document(const PodDisruptionBudget& pdb) { return encode_document(pdb, kPdbKind); }

std::string encode(const PodDisruptionBudget& pdb) { return to_json(*to_document(pdb)); }

}  // namespace troupe
