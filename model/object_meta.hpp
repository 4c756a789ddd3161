#pragma once
// metav1.ObjectMeta and the reference types every kind shares
// (OwnerReference, ObjectReference), decoded as the scheduler needs them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/json_fields.hpp"
#include "model/label_selector.hpp"
#include "model/timestamp.hpp"

namespace troupe {

struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  std::optional<bool> controller;
  std::optional<bool> block_owner_deletion;

  bool is_controller() const { return controller.value_or(false); }
};

/// core/v1 ObjectReference (Event.involvedObject, Reservation owners, ...).
struct ObjectReference {
  std::string kind;
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string api_version;
  std::string resource_version;
  std::string field_path;
};

struct ObjectMeta {
  std::string name;
  std::string generate_name;
  std::string namespace_name;
  std::string uid;
  std::string resource_version;
  int64_t generation = 0;
  std::optional<Timestamp> creation_timestamp;
  std::optional<Timestamp> deletion_timestamp;
  std::optional<int64_t> deletion_grace_period_seconds;
  Labels labels;
  std::map<std::string, std::string> annotations;
  std::vector<OwnerReference> owner_references;
  std::vector<std::string> finalizers;

  /// "namespace/name", or "name" for cluster-scoped objects (informer keys).
  std::string key() const { return namespace_name.empty() ? name : namespace_name + "/" + name; }
  /// The owner reference with controller=true, if any.
  const OwnerReference* controller_ref() const;
  /// The annotation's value, or nullptr.
  const std::string* annotation(const std::string& key) const;
  /// The label's value, or nullptr.
  const std::string* label(const std::string& key) const;
  bool is_terminating() const { return deletion_timestamp.has_value(); }
};

TROUPE_DECLARE_JSON_FIELDS(OwnerReference)
TROUPE_DECLARE_JSON_FIELDS(ObjectReference)
TROUPE_DECLARE_JSON_FIELDS(ObjectMeta)

}  // namespace troupe
