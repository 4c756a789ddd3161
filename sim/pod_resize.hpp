#pragma once
// The pods/{name}/resize subresource (in-place pod resize, KEP 1287; beta
// from Kubernetes 1.33): a write through it changes the containers' cpu and
// memory resources (and their resizePolicy) and nothing else, as
// kube-apiserver's podResizeStrategy (dropNonResizeUpdates) and
// ValidatePodResize. There is no kubelet here: the status stays as it was,
// whoever plays the kubelet reports the resize in containerStatuses.

#include <optional>

#include <rapidjson/document.h>

#include "sim/resource_registry.hpp"
#include "sim/status_errors.hpp"

namespace troupe::sim {

/// `doc`, the pod as written through /resize, becomes `old` with each
/// container's (and init container's) resources and resizePolicy taken from
/// `doc` by container name; every other change is dropped. An error (422)
/// when the write changes a resource other than cpu or memory, removes a cpu
/// or memory request or limit, or changes the pod's QoS class.
std::optional<ApiError> prepare_for_resize(const ResourceInfo& pods, const rapidjson::Value& old,
                                           rapidjson::Document& doc);

}  // namespace troupe::sim
