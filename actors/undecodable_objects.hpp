#pragma once
// Reservations and PodMigrationJobs that do not decode: a malformed quantity,
// duration or selector that the CRD's schema let through. troupe cannot
// schedule or run them, so while they are still Pending their controller
// marks them Failed with reason Invalid and the decoding error, as it fails a
// Reservation that decodes but is invalid: the user reads why in the object's
// status, not in the scheduler's log. The edit is made on the stored JSON
// (update_status's read-modify-write), so nothing else in it is lost.
//
// One that has started (a Reservation Available, a job Running) keeps its
// last decoded version instead: a bad edit must not drop resources reserved
// for owners or stop an eviction half done. A finished Reservation that does
// not decode is still garbage collected, from what can be read of it (its
// phase and its conditions' times).

#include <initializer_list>
#include <optional>
#include <string>

#include <rapidjson/document.h>

#include "model/timestamp.hpp"

namespace troupe::actors {

/// The reason written on an object that does not decode.
inline constexpr const char* kReasonInvalid = "Invalid";

struct UndecodableObject {
  std::string name;
  std::string uid;
  std::string message;  // the decoding error
};

/// status.phase, or "" when absent or not a string.
std::string raw_phase(const rapidjson::Value& object);

/// Not started yet: no phase, or Pending.
bool raw_pending(const rapidjson::Value& object);

/// Finished: status.phase Succeeded or Failed.
bool raw_finished(const rapidjson::Value& object);

/// When it finished: the latest lastTransitionTime or lastProbeTime of the
/// `condition_types` in status.conditions that parses, else
/// metadata.creationTimestamp; nullopt when neither parses.
std::optional<Timestamp> raw_finished_at(const rapidjson::Value& object,
                                         std::initializer_list<const char*> condition_types);

/// The object as the watch delivered it: its name and uid, and `message`.
UndecodableObject undecodable_object(const rapidjson::Value& object, std::string message);

/// Sets status.phase Failed and records reason Invalid with `seen.message`
/// in place: in the condition `condition_type` (set False; others kept) when
/// given, else in status.reason and status.message. False, and `object` left
/// as it was, when it is not the object `seen` (another uid) or is no longer
/// Pending: nothing to write then.
bool mark_invalid(rapidjson::Document& object, const UndecodableObject& seen, const char* condition_type,
                  Timestamp now);

}  // namespace troupe::actors
