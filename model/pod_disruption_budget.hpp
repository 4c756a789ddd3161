#pragma once
// policy/v1 PodDisruptionBudget: what evictions (the descheduler, preemption
// victims) must respect.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/condition.hpp"
#include "model/int_or_string.hpp"
#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/label_selector.hpp"
#include "model/object_meta.hpp"
#include "model/result.hpp"
#include "model/timestamp.hpp"

namespace troupe {

struct PodDisruptionBudgetSpec {
  std::optional<IntOrString> min_available;
  std::optional<IntOrString> max_unavailable;
  /// nullopt (nil) selects no pods; an empty selector selects every pod of
  /// the namespace (policy/v1 semantics).
  std::optional<LabelSelector> selector;
  std::string unhealthy_pod_eviction_policy;  // IfHealthyBudget (default), AlwaysAllow
};

struct PodDisruptionBudgetStatus {
  int64_t observed_generation = 0;
  /// Pods evicted but not yet gone, by name, with the eviction time.
  std::map<std::string, Timestamp> disrupted_pods;
  int32_t disruptions_allowed = 0;
  int32_t current_healthy = 0;
  int32_t desired_healthy = 0;
  int32_t expected_pods = 0;
  std::vector<Condition> conditions;
};

struct PodDisruptionBudget {
  ObjectMeta meta;
  PodDisruptionBudgetSpec spec;
  PodDisruptionBudgetStatus status;
  JsonPtr raw;

  /// Whether the budget covers a pod with these labels (same namespace assumed).
  bool selects(const Labels& pod_labels) const;
};

Result<PodDisruptionBudget> decode_pod_disruption_budget(JsonPtr doc);
Result<PodDisruptionBudget> decode_pod_disruption_budget_json(std::string_view text);
std::shared_ptr<JsonDocument> to_document(const PodDisruptionBudget& pdb);
std::string encode(const PodDisruptionBudget& pdb);

TROUPE_DECLARE_JSON_FIELDS(PodDisruptionBudgetSpec)
TROUPE_DECLARE_JSON_FIELDS(PodDisruptionBudgetStatus)
TROUPE_DECLARE_JSON_FIELDS(PodDisruptionBudget)

}  // namespace troupe
