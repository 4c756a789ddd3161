#pragma once
// The three PATCH algorithms of the Kubernetes API, applied in place to a
// RapidJSON object:
//   application/merge-patch+json           RFC 7386 (objects merge, null deletes, arrays replaced)
//   application/json-patch+json            RFC 6902 (add/remove/replace/move/copy/test)
//   application/strategic-merge-patch+json core kinds only: lists with a patch
//                                          merge key merge by that key; $patch,
//                                          $setElementOrder, $retainKeys,
//                                          $deleteFromPrimitiveList directives
// Errors are for the client (they become 422 / 400 Status responses).

#include <string_view>

#include <rapidjson/document.h>

#include "model/result.hpp"

namespace troupe {

using JsonAllocator = rapidjson::Document::AllocatorType;

/// RFC 7386. `target` is modified in place. The patch must be an object (a
/// Kubernetes object cannot be replaced by an array or a scalar); below the top
/// level, non-object values replace as the RFC says.
Status apply_merge_patch(rapidjson::Value& target, const rapidjson::Value& patch, JsonAllocator& allocator);

/// RFC 6902. On error `target` may be partly modified: callers patch a copy.
/// At most 10000 operations; copies are bounded so no patch can blow up memory.
Status apply_json_patch(rapidjson::Value& target, const rapidjson::Value& patch, JsonAllocator& allocator);

/// True for the built-in kinds apply_strategic_merge_patch knows (Pod, Node,
/// Namespace, Event, ConfigMap, Secret, Service, Lease, Binding,
/// PodDisruptionBudget, PriorityClass, the workload kinds, ...). For other kinds
/// (custom resources) the API server answers 415 UnsupportedMediaType.
bool supports_strategic_merge_patch(std::string_view kind);

/// Strategic merge patch for the built-in kind `kind` ("Pod", "Node", ...):
/// knows the patch merge keys of the lists the scheduler and kubectl touch
/// (containers/initContainers/ephemeralContainers by name, env by name, ports
/// by containerPort, volumes/volumeMounts, conditions/addresses by type,
/// ownerReferences by uid, finalizers as a primitive set, tolerations replaced).
/// Errors for kinds without a schema (see supports_strategic_merge_patch).
Status apply_strategic_merge_patch(rapidjson::Value& target, const rapidjson::Value& patch,
                                   std::string_view kind, JsonAllocator& allocator);

}  // namespace troupe
