#pragma once
// Part of kube-apiserver's ValidatePod that the scheduler's inputs depend on:
// container names unique across containers and init containers, ports in
// range, resource quantities not negative, and extended resources
// (vendor.com/thing) in whole units. A quantity that does not parse is let
// through for the scheduler to report (kube-apiserver refuses it while
// decoding); what else it does not check is listed in sim/README.md.

#include <vector>

#include <rapidjson/document.h>

#include "sim/status_errors.hpp"

namespace troupe::sim {

/// One cause per offending field, kube-apiserver's field paths and messages.
std::vector<StatusCause> check_pod_containers(const rapidjson::Value& pod);

}  // namespace troupe::sim
