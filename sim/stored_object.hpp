#pragma once
// One immutable version of one API object as the store keeps it: its JSON
// text (serialized once, shared by GET/LIST responses and watch events), its
// labels, and a small projection of the fields its kind can be selected by.

#include <cstdint>
#include <memory>
#include <string>

#include <rapidjson/document.h>

#include "model/label_selector.hpp"

namespace troupe::sim {

struct ResourceInfo;

struct StoredObject {
  std::string ns;   // empty for cluster-scoped objects
  std::string name;
  std::string uid;
  uint64_t resource_version = 0;
  std::string json; // the whole object, metadata.resourceVersion included
  Labels labels;
  // Each object owns a small pool: rapidjson's default 64 KiB chunk per
  // document would cost more than the object itself.
  rapidjson::MemoryPoolAllocator<> pool{512};
  rapidjson::Value fields{rapidjson::kObjectType}; // only the kind's selectable fields
  bool being_deleted = false; // metadata.deletionTimestamp is set

  /// "ns/name", or "/name" for cluster-scoped objects: the store's map key.
  std::string key() const { return ns + "/" + name; }
};

using ObjectPtr = std::shared_ptr<const StoredObject>;

enum class EventType { added, modified, deleted, bookmark, error };
const char* event_type_name(EventType type);

/// `{"type":"ADDED","object":<json>}` followed by a newline: one watch event on the wire.
std::string watch_event_line(EventType type, const std::string& object_json);

/// Builds the StoredObject for `doc` (an object of `resource`'s kind) except
/// for its resource version and JSON text, which the store fills in when it
/// commits (see ObjectStore), so that this part stays outside its lock.
std::shared_ptr<StoredObject> make_stored_object(const ResourceInfo& resource, const rapidjson::Value& doc);

/// The object's JSON as served through `resource`: the stored text, or for a
/// non-storage version of the same objects, the text with apiVersion
/// rewritten, or converted when that version has a schema of its own
/// (events.k8s.io/v1 Events, event_conversion.hpp).
std::string object_json_as(const ResourceInfo& resource, const StoredObject& object);
/// A stored object (parsed) as served through `resource`, in place.
void to_served_schema(const ResourceInfo& resource, rapidjson::Document& doc);
/// An object written through `resource` as the store keeps it, in place.
void to_stored_schema(const ResourceInfo& resource, rapidjson::Document& doc);

/// Serializes a JSON value compactly.
std::string to_json(const rapidjson::Value& value);

}  // namespace troupe::sim
