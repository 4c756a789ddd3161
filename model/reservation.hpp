#pragma once
// Koordinator's Reservation CRD (scheduling.koordinator.sh/v1alpha1, cluster
// scoped): resources held on a node for future owner pods, scheduled like a
// pod from spec.template.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/condition.hpp"
#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/label_selector.hpp"
#include "model/object_meta.hpp"
#include "model/pod.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"
#include "model/scheduling_types.hpp"
#include "model/timestamp.hpp"

namespace troupe {

/// An owner pod's controller: an OwnerReference plus its namespace. Fields
/// left empty are not compared.
struct ReservationControllerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  std::optional<bool> controller;
  std::string namespace_name;
};

/// One owner selector: the set fields are ANDed; a reservation's owners are ORed.
struct ReservationOwner {
  std::optional<ObjectReference> object;
  std::optional<ReservationControllerReference> controller;
  std::optional<LabelSelector> label_selector;
};

struct ReservationPreAllocationPolicy {
  std::string mode;  // Default, Cluster
  bool enable_multiple = false;
};

struct ReservationSpec {
  std::optional<PodTemplate> pod_template;  // spec.template
  std::vector<ReservationOwner> owners;
  /// Absent: the CRD default of 24h; 0 disables expiry.
  std::optional<std::chrono::nanoseconds> ttl;
  std::optional<Timestamp> expires;
  bool pre_allocation = false;
  bool allocate_once = true;  // absent means true
  std::string allocate_policy;  // "", Aligned, Restricted
  bool unschedulable = false;
  std::vector<Taint> taints;
  std::optional<ReservationPreAllocationPolicy> pre_allocation_policy;
};

struct ReservationStatus {
  std::string phase;  // Pending (when empty), Waiting, Available, Succeeded, Failed
  std::vector<Condition> conditions;
  std::vector<ObjectReference> current_owners;
  std::string node_name;
  ResourceList allocatable;
  ResourceList allocated;
};

struct Reservation {
  ObjectMeta meta;
  ReservationSpec spec;
  ReservationStatus status;
  JsonPtr raw;

  /// When the reservation expires: spec.expires if set, else creation time +
  /// ttl (24h when absent); nullopt when ttl is 0 or the creation time is unknown.
  std::optional<Timestamp> expires_at() const;
};

/// The TTL Koordinator applies when spec.ttl is absent.
inline constexpr std::chrono::hours kDefaultReservationTtl{24};

Result<Reservation> decode_reservation(JsonPtr doc);
Result<Reservation> decode_reservation_json(std::string_view text);
std::shared_ptr<JsonDocument> to_document(const Reservation& reservation);
std::string encode(const Reservation& reservation);

TROUPE_DECLARE_JSON_FIELDS(ReservationControllerReference)
TROUPE_DECLARE_JSON_FIELDS(ReservationOwner)
TROUPE_DECLARE_JSON_FIELDS(ReservationPreAllocationPolicy)
TROUPE_DECLARE_JSON_FIELDS(ReservationSpec)
TROUPE_DECLARE_JSON_FIELDS(ReservationStatus)
TROUPE_DECLARE_JSON_FIELDS(Reservation)

}  // namespace troupe
