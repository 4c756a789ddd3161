#pragma once
// Where a pod event goes. kube-scheduler's informer splits pods the same way:
// assigned pods (any scheduler's) count against their node; unassigned pods of
// our profiles wait in the queue; everything else is ignored. Pods that have
// finished (Succeeded/Failed) free their node's resources.

#include <set>
#include <string>

#include "model/json.hpp"

namespace troupe::actors {

enum class PodRoute {
  queue,           // unassigned, ours, not being deleted: schedule it
  node,            // assigned to a node: account for it there
  forget,          // finished or being deleted while unassigned: drop from everywhere
  ignore,          // unassigned and addressed to another scheduler
};

/// The few fields routing needs, read straight from the raw object so that
/// even a pod whose spec fails to decode can be routed (and then reported).
struct PodIdentity {
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string resource_version;
  std::string scheduler_name;
  std::string node_name;
  std::string phase;
  bool terminating = false;

  std::string key() const { return namespace_name + "/" + name; }
};

PodIdentity read_pod_identity(const JsonValue& pod);

PodRoute route_pod(const PodIdentity& pod, const std::set<std::string>& our_scheduler_names);

}  // namespace troupe::actors
