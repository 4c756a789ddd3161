#include "model/pod_group.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kPodGroupKind{"scheduling.sigs.k8s.io/v1alpha1", "PodGroup"};

template <class Io, class T>
void pod_group_spec_fields(Io& io, T& x) {
  io.field("minMember", x.min_member);
  io.check("minMember", x.min_member >= 0, "Invalid value: must be greater than or equal to 0");
  io.field("minResources", x.min_resources);
  io.field("scheduleTimeoutSeconds", x.schedule_timeout_seconds);
}

template <class Io, class T>
void pod_group_status_fields(Io& io, T& x) {
  io.field("phase", x.phase);
  io.field("occupiedBy", x.occupied_by);
  io.field("scheduled", x.scheduled);
  io.field("running", x.running);
  io.field("succeeded", x.succeeded);
  io.field("failed", x.failed);
  io.field("scheduleStartTime", x.schedule_start_time);
}

template <class Io, class T>
void pod_group_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.object("spec", x.spec);
  io.object("status", x.status);
}

}  // namespace

TROUPE_JSON_FIELDS(PodGroupSpec, pod_group_spec_fields)
TROUPE_JSON_FIELDS(PodGroupStatus, pod_group_status_fields)
TROUPE_JSON_FIELDS(PodGroup, pod_group_fields)

Result<PodGroup> decode_pod_group(JsonPtr doc) { return decode_object<PodGroup>(doc, kPodGroupKind); }

Result<PodGroup> decode_pod_group_json(std::string_view text) {
  return decode_object_text<PodGroup>(text, kPodGroupKind);
}

std::shared_ptr<JsonDocument> to_document(const PodGroup& group) { return encode_document(group, kPodGroupKind); }

std::string encode(const PodGroup& group) { return to_json(*to_document(group)); }

}  // namespace troupe
