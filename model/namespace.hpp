#pragma once
// Namespace: its labels feed pod-affinity namespaceSelectors and the
// descheduler's namespace filters; phase tells a terminating namespace.

#include <memory>
#include <string>
#include <string_view>

#include "model/json.hpp"
#include "model/json_fields.hpp"
#include "model/object_meta.hpp"
#include "model/result.hpp"

namespace troupe {

struct Namespace {
  ObjectMeta meta;
  std::string phase;  // Active, Terminating
  JsonPtr raw;
};

Result<Namespace> decode_namespace(JsonPtr doc);
Result<Namespace> decode_namespace_json(std::string_view text);
std::shared_ptr<JsonDocument> to_document(const Namespace& ns);
std::string encode(const Namespace& ns);

TROUPE_DECLARE_JSON_FIELDS(Namespace)

}  // namespace troupe
