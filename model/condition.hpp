#pragma once
// A status condition. One struct covers the shapes the kinds use (PodCondition,
// NodeCondition, metav1.Condition, Reservation and PodMigrationJob
// conditions): fields a kind does not have simply stay empty and are never
// written.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/json_fields.hpp"
#include "model/timestamp.hpp"

namespace troupe {

struct Condition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  std::string reason;
  std::string message;
  std::optional<Timestamp> last_probe_time;
  std::optional<Timestamp> last_heartbeat_time;
  std::optional<Timestamp> last_transition_time;
  std::optional<int64_t> observed_generation;

  bool is_true() const { return status == "True"; }
};

/// The condition of that type, or nullptr.
const Condition* find_condition(const std::vector<Condition>& conditions, const std::string& type);

TROUPE_DECLARE_JSON_FIELDS(Condition)

}  // namespace troupe
