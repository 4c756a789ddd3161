#include "model/condition.hpp"

#include "model/json_reader.hpp"
#include "model/json_writer.hpp"

namespace troupe {

namespace {

template <class Io, class T>
void condition_fields(Io& io, T& x) {
  io.required("type", x.type);
  io.required("status", x.status);
  io.field("reason", x.reason);
  io.field("message", x.message);
  io.field("lastProbeTime", x.last_probe_time);
  io.field("lastHeartbeatTime", x.last_heartbeat_time);
  io.field("lastTransitionTime", x.last_transition_time);
  io.field("observedGeneration", x.observed_generation);
}

}  // namespace

TROUPE_JSON_FIELDS(Condition, condition_fields)

const Condition* find_condition(const std::vector<Condition>& conditions, const std::string& type) {
  for (const auto& condition : conditions)
    if (condition.type == type) return &condition;
  return nullptr;
}

}  // namespace troupe
