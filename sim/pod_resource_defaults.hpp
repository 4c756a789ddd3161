#pragma once
// kube-apiserver's defaulting of a Pod's container resources (core/v1
// SetDefaults_Pod): a container, init container included, that sets a limit
// and no request for a resource gets that limit as its request. The
// scheduler reads requests only, so a limits-only pod must not look empty.

#include <rapidjson/document.h>

namespace troupe::sim {

/// Applies the defaulting to `pod` in place (on create).
void default_requests_from_limits(rapidjson::Document& pod);

}  // namespace troupe::sim
