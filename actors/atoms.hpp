#pragma once
// CAF atoms of troupe's actor protocol, in the forward-compatible type-ID
// block form (CAF 0.17.6 needs the text, at most 10 characters). Use them as
// troupe::atom::filter (the type) and troupe::atom::filter_v (the value);
// actors/actors.hpp lists which actor handles which.

#include <caf/all.hpp>

CAF_BEGIN_TYPE_ID_BLOCK(troupe_atoms, caf::first_custom_type_id)
  // Informer -> node partitions.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, upsert_node, "upsertnode")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, delete_node, "deletenode")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, pod_bound, "podbound")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, pod_gone, "podgone")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, upsert_device, "upsertdev")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, delete_device, "deletedev")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, upsert_gpu_health, "upsgpuhlth")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, delete_gpu_health, "delgpuhlth")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, upsert_topology, "upsertnrt")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, delete_topology, "deletenrt")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, upsert_reservation, "upsertresv")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, delete_reservation, "deleteresv")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, upsert_node_metric, "upsertnm")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, delete_node_metric, "deletenm")
  // Debug endpoints -> node partitions.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, device_summary, "devsummary")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, cpu_summary, "cpusummary")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, gpushare_inspect, "gpuinspect")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, learned_tasks, "learntasks")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, gang_summary, "gangsum")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, reservation_summary, "resvsummar")
  // Extender endpoint -> node partitions.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, evaluate, "evaluate")
  // Cycle -> node partitions.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, filter, "filter")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, score, "score")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, reserve, "reserve")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, unreserve, "unreserve")
  // Cycle -> node partitions: Node objects for extenders that want them.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, node_objects, "nodeobjs")
  // Informer / cycle / binder -> queue.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, enqueue, "enqueue")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, dequeue, "dequeue")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, pop, "pop")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, done, "done")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, failed, "failed")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, cluster_event, "clusterevt")
  // Cycle -> binder; I/O threads -> binder.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, bind, "bind")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, bind_result, "bindresult")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, claims_written, "claimswrit")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, regroup, "regroup")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, check_claims, "chkclaims")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, report, "report")
  // Watch threads -> informer.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, watch_event, "watchevt")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, synced, "synced")
  // Self-messages and control.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, tick, "tick")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, next, "next")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, start, "start")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, stats, "stats")
  // Informer -> cycle: a pod of a gang exists, a PodGroup changed; cycle -> itself: a gang pod
  // waited too long at Permit.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, gang_member, "gangmember")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, gang_timeout, "gangtimout")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, upsert_podgroup, "upsertpg")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, delete_podgroup, "deletepg")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, upsert_workload, "upsertwl")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, delete_workload, "deletewl")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, namespace_labels, "nslabels")
  // Informer -> cycle: how many nodes there are (for fit errors before any Filter round).
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, node_count, "nodecount")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, load_summary, "loadsummar")
  // Informer -> cycle: an ElasticQuota changed or went, a pod of ours waits (ElasticQuota's
  // request); debug endpoint -> cycle: the quotas' summaries.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, upsert_elastic_quota, "upserteq")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, delete_elastic_quota, "deleteeq")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, quota_pod, "quotapod")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, quota_summary, "quotasum")
  // Quota status actor -> cycle: every quota's figures, to write back.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, quota_figures, "quotafig")
  // Quota status actor -> cycle: the pods the overuse revoke evicts now; -> itself: time to ask.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, quota_revoke, "quotarevok")
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, revoke_round, "revokernd")
  // Informer -> cycle: a pending pod carries status.nominatedNodeName.
  CAF_ADD_ATOM(troupe_atoms, troupe::atom, nominated, "nominated")
CAF_END_TYPE_ID_BLOCK(troupe_atoms)
