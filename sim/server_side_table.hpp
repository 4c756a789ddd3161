#pragma once
// Server-side printing: a meta.k8s.io Table in place of the objects when the
// Accept header asks for one, as `kubectl get` does
// (`application/json;as=Table;v=v1;g=meta.k8s.io,...,application/json`).
// Lists, single objects and watch events can all be Tables; the columns and
// cells come from table_printers.hpp. `?includeObject=` puts nothing, the
// metadata (PartialObjectMetadata, the default) or the whole object in each row.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/timestamp.hpp"
#include "sim/resource_registry.hpp"
#include "sim/status_errors.hpp"
#include "sim/stored_object.hpp"

namespace troupe::sim {

enum class IncludeObject { none, metadata, object };

struct TableRequest {
  std::string api_version = "meta.k8s.io/v1";  // or meta.k8s.io/v1beta1, as asked
  IncludeObject include = IncludeObject::metadata;
};

/// What a request for objects asks to get back: a Table, or the objects as
/// JSON (nullopt). The Accept header's media ranges are taken in order; the
/// first one served wins; JSON when none is (protobuf, PartialObjectMetadata,
/// YAML). 400 for an unknown includeObject with a Table.
ApiResult<std::optional<TableRequest>> table_request(const std::string& accept,
                                                     const std::map<std::string, std::string>& query);

/// The list's metadata a Table carries.
struct TableListMeta {
  uint64_t resource_version = 0;
  std::string continue_token;
};

/// The Table of `objects` (served through `resource`). Watch events carry
/// the column definitions too (kube-apiserver may leave them out after the
/// first; kubectl prints a header only when they change).
std::string table_json(const ResourceInfo& resource, const TableRequest& request, const std::vector<ObjectPtr>& objects,
                       const TableListMeta& meta, Timestamp now);

}  // namespace troupe::sim
