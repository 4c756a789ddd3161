#pragma once
// The Reservation plugin's debug view of one node
// (/apis/v1/plugins/Reservation/nodes/<node>): the reservations it holds,
// what each holds and what its owners allocated of it, and the node's
// requested sum (reserve pods included), so tests and operators can wait for
// and compare the accounting.
//
//   {"node":"n1","requested":{"cpu":8000,...},"podCount":3,
//    "reservations":[{"name":"r","uid":"u","allocatePolicy":"Aligned","allocateOnce":true,
//                     "allocatable":{"cpu":"8"},"allocated":{"cpu":"2"},"owners":["default/p"]}]}

#include <string>

#include "plugins/framework/node_info.hpp"

namespace troupe::plugins::reservation {

std::string node_reservations_json(const std::string& node_name, const NodeInfo& node);

/// Koordinator's own debug answer for the node
/// (/apis/v1/plugins/Reservation/nodeReservations/<node>, its NodeReservations):
///
///   {"items":[{"name":"r","uid":"u","kind":"Reservation","available":true,"allocateOnce":true,
///              "allocatable":{"cpu":"8"},"allocated":{"cpu":"2"},"owners":[{"object":{...}}],
///              "allocatePolicy":"Aligned",
///              "assignedPods":[{"Namespace":"default","Name":"p","UID":"...","Requests":{"cpu":"2"},
///                               "Ports":null}]}]}
///
/// Go's omitempty drops the items' empty fields, and `items` itself when the
/// node holds none (`{}`); PodRequirement has no JSON tags, hence its
/// capitalised keys, all always written. troupe reserves no host ports, so
/// `allocatablePorts` and `allocatedPorts` never appear and `Ports` is null.
std::string koordinator_node_reservations_json(const NodeInfo& node);

}  // namespace troupe::plugins::reservation
