#pragma once
// The defaults of Koordinator's CRD schemas (their kubebuilder:default
// markers), which a real API server applies to every object it stores:
// a Reservation's spec.ttl "24h" and spec.allocateOnce true. Without them a
// Reservation created with neither ttl nor expires is invalid to the
// scheduler ("the reservation misses the expiration spec"), as it would be
// on a cluster whose CRD lacks the defaults. deploy/crds/ declares the same.

#include <rapidjson/document.h>

#include "sim/resource_registry.hpp"

namespace troupe::sim {

/// Fills in the absent defaulted fields of `doc`, an object of `r` (create and update).
void apply_crd_defaults(const ResourceInfo& r, rapidjson::Document& doc);

}  // namespace troupe::sim
