#pragma once
// NodeNUMAResource's debug views of one node's NodeCpus, as JSON (the
// scheduler serves them under /apis/v1/plugins/NodeNUMAResource/):
//
//  node_cpus_summary_json  (/nodes/<node>) everything the plugin knows:
//    {"cpuTopology":{"numCPUs","numCores","numNodes","numSockets",
//                    "cpuDetails":{"<cpu>":{"id","core","socket","node"}}},
//     "reservedCPUs":"0-1","availableCPUs":"2-15","numaTopologyPolicy":"",
//     "numaNodes":[{"node":0,"allocatable":{..},"allocated":{..},"available":{..}}],
//     "pods":{"<ns/name>":{"cpuset","exclusivePolicy","numaNodeResources":[..]}},
//     "malformedAnnotations":0,"topologyErrors":[..]}
//    A node without a NodeResourceTopology has "cpuTopology":null.
//  available_cpus_json  (/availableCPUs/<node>) Koordinator's
//    AvailableCPUsResponse: {"availableCPUs":"2-15","allocated":{"<cpu>":
//    {"id","core","socket","node","refCount","exclusivePolicy"}}}.
//
// Objects are keyed and ordered deterministically (CPU id, NUMA node id, pod
// key) so two summaries of the same state are byte-equal.

#include <string>

#include "plugins/node_numa_resource/node_cpus.hpp"

namespace troupe::plugins::numa {

std::string node_cpus_summary_json(const NodeCpus& cpus);
std::string available_cpus_json(const NodeCpus& cpus);

}  // namespace troupe::plugins::numa
