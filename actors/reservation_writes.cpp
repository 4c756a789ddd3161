#include "actors/reservation_writes.hpp"

#include "model/json.hpp"
#include "plugins/reservation/reservation_lifecycle.hpp"
#include "plugins/reservation/reservation_names.hpp"
#include "watch/object_writes.hpp"

namespace troupe::actors {

namespace rsv = plugins::reservation;

namespace {

constexpr const char* kKoordRoot = "/apis/scheduling.koordinator.sh/v1alpha1";

/// Replaces the object's status by `status` (encoded as the model encodes it).
void put_status(rapidjson::Document& object, const Reservation& with_status) {
  auto encoded = to_document(with_status);
  auto& alloc = object.GetAllocator();
  object.RemoveMember("status");
  if (auto it = encoded->FindMember("status"); it != encoded->MemberEnd())
    object.AddMember("status", rapidjson::Value(it->value, alloc), alloc);
}

Result<Reservation> decode_fresh(const rapidjson::Document& object) { return decode_reservation_json(to_json(object)); }

watch::ApiResult refused(std::string message) {
  watch::ApiResult r;
  r.ok = false;
  r.code = 409;
  r.reason = "Conflict";
  r.message = std::move(message);
  return r;
}

/// read-modify-write of the status; `change` returns the new status or
/// nullopt to write nothing, and may set `refusal` to fail the write.
watch::ApiResult update_reservation_status(
    watch::ApiClient& api, const std::string& name,
    const std::function<std::optional<ReservationStatus>(const Reservation&, std::string& refusal)>& change) {
  std::string refusal;
  auto result = watch::update_status(api, reservation_path(name), [&](rapidjson::Document& object) {
    refusal.clear();
    auto fresh = decode_fresh(object);
    if (!fresh) {
      refusal = "reservation " + name + " does not decode: " + fresh.message();
      return false;
    }
    auto status = change(*fresh, refusal);
    if (!status) return false;
    fresh->status = std::move(*status);
    put_status(object, *fresh);
    return true;
  });
  if (result.ok && !refusal.empty()) return refused(refusal);
  return result;
}

}  // namespace

std::string reservation_path(const std::string& name) {
  return watch::object_path(kKoordRoot, "reservations", "", name);
}

watch::ObjectReference reservation_reference(const std::string& name, const std::string& uid) {
  watch::ObjectReference ref;
  ref.kind = "Reservation";
  ref.api_version = "scheduling.koordinator.sh/v1alpha1";
  ref.name = name;
  ref.uid = uid;
  return ref;
}

watch::ApiResult bind_reservation(watch::ApiClient& api, const BindJob& job) {
  if (!job.annotations.empty()) {
    watch::StringUpdates annotations(job.annotations.begin(), job.annotations.end());
    auto annotated = watch::merge_patch_metadata(api, reservation_path(job.reservation), annotations);
    if (!annotated.ok) return annotated;
  }
  const Timestamp now = timestamp_now();
  return update_reservation_status(
      api, job.reservation, [&](const Reservation& r, std::string& refusal) -> std::optional<ReservationStatus> {
        rsv::StatusUpdate update = rsv::bind_update(r, job.uid, job.node, now);
        refusal = std::move(update.refusal);
        return std::move(update.status);
      });
}

watch::ApiResult report_reservation_unschedulable(watch::ApiClient& api, const FailureReport& report) {
  const Timestamp now = timestamp_now();
  return update_reservation_status(
      api, report.reservation, [&](const Reservation& r, std::string&) {
        return rsv::unschedulable_update(r, report.uid, report.message, now);
      });
}

watch::ApiResult write_reservation_status(watch::ApiClient& api, const Reservation& decided_from,
                                          const ReservationStatus& status) {
  return update_reservation_status(
      api, decided_from.meta.name,
      [&](const Reservation& r, std::string&) { return rsv::decided_update(r, decided_from, status); });
}

watch::ApiResult fail_undecodable_reservation(watch::ApiClient& api, const UndecodableObject& bad) {
  return watch::update_status(api, reservation_path(bad.name), [&](rapidjson::Document& object) {
    if (decode_fresh(object)) return false;
    return mark_invalid(object, bad, rsv::kConditionScheduled, timestamp_now());
  });
}

watch::ApiResult delete_reservation(watch::ApiClient& api, const std::string& name, const std::string& uid) {
  watch::DeletePreconditions preconditions;
  preconditions.uid = uid;
  return watch::delete_object(api, reservation_path(name), preconditions);
}

}  // namespace troupe::actors
