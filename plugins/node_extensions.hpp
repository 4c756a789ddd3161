#pragma once
// The per-node plugin state every NodeInfo carries (NodeExtension slots),
// whatever the profiles enable: a pod bound by another profile or scheduler
// still holds its devices and CPUs, so the state must exist on every node.

#include "plugins/framework/node_info.hpp"

namespace troupe::plugins {

/// Installs a fresh extension in every slot troupe implements, except
/// LoadAwareScheduling's, which a node's NodeMetric brings.
void attach_node_extensions(NodeInfo& node);

}  // namespace troupe::plugins
