#pragma once
// PodGroup (scheduling.sigs.k8s.io/v1alpha1): a gang for Coscheduling. Member
// pods carry the label pod-group.scheduling.sigs.k8s.io=<name>.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/object_meta.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"
#include "model/timestamp.hpp"

namespace troupe {

struct PodGroupSpec {
  int32_t min_member = 0;
  ResourceList min_resources;
  /// > 0 overrides the plugin's default gang timeout.
  std::optional<int32_t> schedule_timeout_seconds;
};

struct PodGroupStatus {
  std::string phase;  // Pending, PreScheduling, Scheduling, Scheduled, Running, Finished, Failed, Unknown
  std::string occupied_by;
  int32_t scheduled = 0;
  int32_t running = 0;
  int32_t succeeded = 0;
  int32_t failed = 0;
  std::optional<Timestamp> schedule_start_time;
};

struct PodGroup {
  ObjectMeta meta;
  PodGroupSpec spec;
  PodGroupStatus status;
  JsonPtr raw;
};

Result<PodGroup> decode_pod_group(JsonPtr doc);
Result<PodGroup> decode_pod_group_json(std::string_view text);
std::shared_ptr<JsonDocument> to_document(const PodGroup& group);
std::string encode(const PodGroup& group);

TROUPE_DECLARE_JSON_FIELDS(PodGroupSpec)
TROUPE_DECLARE_JSON_FIELDS(PodGroupStatus)
TROUPE_DECLARE_JSON_FIELDS(PodGroup)

}  // namespace troupe
