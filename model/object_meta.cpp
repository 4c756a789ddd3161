#include "model/object_meta.hpp"

#include "model/json_reader.hpp"
#include "model/json_writer.hpp"

namespace troupe {

namespace {

template <class Io, class T>
void owner_reference_fields(Io& io, T& x) {
  io.required("apiVersion", x.api_version);
  io.required("kind", x.kind);
  io.required("name", x.name);
  io.required("uid", x.uid);
  io.field("controller", x.controller);
  io.field("blockOwnerDeletion", x.block_owner_deletion);
}

template <class Io, class T>
void object_reference_fields(Io& io, T& x) {
  io.field("kind", x.kind);
  io.field("namespace", x.namespace_name);
  io.field("name", x.name);
  io.field("uid", x.uid);
  io.field("apiVersion", x.api_version);
  io.field("resourceVersion", x.resource_version);
  io.field("fieldPath", x.field_path);
}

template <class Io, class T>
void object_meta_fields(Io& io, T& x) {
  io.field("name", x.name);
  io.field("generateName", x.generate_name);
  io.field("namespace", x.namespace_name);
  io.field("uid", x.uid);
  io.field("resourceVersion", x.resource_version);
  io.field("generation", x.generation);
  io.field("creationTimestamp", x.creation_timestamp);
  io.field("deletionTimestamp", x.deletion_timestamp);
  io.field("deletionGracePeriodSeconds", x.deletion_grace_period_seconds);
  io.field("labels", x.labels);
  io.field("annotations", x.annotations);
  io.array("ownerReferences", x.owner_references);
  io.field("finalizers", x.finalizers);
}

template <class Map>
const std::string* lookup(const Map& map, const std::string& key) {
  auto found = map.find(key);
  return found == map.end() ? nullptr : &found->second;
}

}  // namespace

TROUPE_JSON_FIELDS(OwnerReference, owner_reference_fields)
TROUPE_JSON_FIELDS(ObjectReference, object_reference_fields)
TROUPE_JSON_FIELDS(ObjectMeta, object_meta_fields)

const OwnerReference* ObjectMeta::controller_ref() const {
  for (const auto& owner : owner_references)
    if (owner.is_controller()) return &owner;
  return nullptr;
}

const std::string* ObjectMeta::annotation(const std::string& key) const { return lookup(annotations, key); }

const std::string* ObjectMeta::label(const std::string& key) const { return lookup(labels, key); }

}  // namespace troupe
