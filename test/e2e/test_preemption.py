"""troupe scheduler end to end: priority preemption (DefaultPreemption, issue 6).

`troupe apiserver` has no kubelet or disruption controller, so the tests play
those parts: pods that already run are created with spec.nodeName; a victim
that should stay "terminating" for a while carries a finalizer the test
removes (as a kubelet would finish the pod); a PDB's status is written by the
test. Everything else — the candidate search on the node partitions, victim
choice, PDBs, nominatedNodeName, the DisruptionTarget condition, deletion,
Preempted events, holding the room while victims terminate, binding once they
are gone, metrics — is troupe scheduler's own work.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from device_builders import allocation, gpu_pod, make_device, make_gpu_node  # noqa: E402
from numa_builders import RESOURCE_STATUS, cpu_details, make_cpu_node, make_topology, numa_pod  # noqa: E402
from scheduler_helpers import (SCHEDULER_NAME, SchedulingTest, all_bound, make_node,  # noqa: E402
                               make_pod, taint)

PDBS = "/apis/policy/v1/namespaces/default/poddisruptionbudgets"
MERGE = "application/merge-patch+json"
HOLD = "test.troupe.dev/hold"


def running(name, node, priority, cpu, labels=None, hold=False):
    """A pod already bound to `node` (the kubelet runs it)."""
    pod = make_pod(name, cpu=cpu, node_name=node, priority=priority, labels=labels)
    if hold:
        pod["metadata"]["finalizers"] = [HOLD]
    return pod


def anti_affinity(match_labels, key="kubernetes.io/hostname"):
    return {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": match_labels}, "topologyKey": key}]}}


def preemptor(name, priority, cpu, policy=None):
    pod = make_pod(name, cpu=cpu, priority=priority)
    if policy:
        pod["spec"]["preemptionPolicy"] = policy
    return pod


def with_claim(pod, claim_name):
    pod["spec"]["volumes"] = [{"name": "data", "persistentVolumeClaim": {"claimName": claim_name}}]
    return pod


def bound_volume(name):
    return {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": name},
            "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "storageClassName": "",
                     "csi": {"driver": "csi.example.com", "volumeHandle": name}}}


def bound_claim(name, volume_name):
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": name, "namespace": "default",
                         "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                     "volumeName": volume_name}}


class PreemptionTest(SchedulingTest):
    def names(self):
        return sorted(p["metadata"]["name"] for p in self.client.pods())

    def node_of(self, name):
        pod = self.client.pod(name)
        return pod and pod["spec"].get("nodeName")

    def wait_bound(self, name, timeout=60):
        self.cluster.wait(lambda: all_bound(self.client, [name]), timeout, name + " bound; pods: %s" % self.names())
        return self.node_of(name)

    def wait_gone(self, name, timeout=30):
        self.cluster.wait(lambda: self.client.pod(name) is None, timeout, name + " deleted")

    def release(self, name):
        """The kubelet is done with the pod: drop the finalizer, the API server removes it."""
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/" + name, {"metadata": {"finalizers": None}}, MERGE)

    def test_cpu_preemption_evicts_the_lowest_priority_minimal_set(self):
        # n1: evicting low-a alone (priority 1) makes room; n2's cheapest set
        # would take a priority-5 pod. low-b and mid are reprieved on n1.
        self.start([make_node("n1", cpu="4"), make_node("n2", cpu="4"),
                    running("low-a", "n1", 1, "2", hold=True), running("low-b", "n1", 1, "1"),
                    running("mid", "n1", 5, "1"), running("mid2", "n2", 5, "2"), running("mid3", "n2", 5, "2")])
        self.client.create(preemptor("high", 10, "2"))
        # The victim is marked and deleted; it terminates until its finalizer goes.
        victim = self.cluster.wait(lambda: (self.client.pod("low-a") or {}).get("metadata", {}).get(
            "deletionTimestamp") and self.client.pod("low-a"), 30, "low-a being deleted")
        conditions = {c["type"]: c for c in victim["status"].get("conditions", [])}
        self.assertEqual(conditions["DisruptionTarget"]["status"], "True")
        self.assertEqual(conditions["DisruptionTarget"]["reason"], "PreemptionByScheduler")
        self.assertEqual(conditions["DisruptionTarget"]["message"],
                         SCHEDULER_NAME + ": preempting to accommodate a higher priority pod")
        high = self.cluster.wait(lambda: (self.client.pod("high") or {}).get("status", {}).get(
            "nominatedNodeName") and self.client.pod("high"), 30, "high nominated")
        self.assertEqual(high["status"]["nominatedNodeName"], "n1")
        self.assertIsNone(high["spec"].get("nodeName"))
        # While low-a terminates, the room stays taken: high waits, nothing else is evicted.
        self.assertEqual(self.names(), ["high", "low-a", "low-b", "mid", "mid2", "mid3"])
        preempted = [e for e in self.client.events_about("low-a") if e["reason"] == "Preempted"]
        self.assertTrue(preempted)
        self.assertEqual(preempted[0]["message"], "Preempted by pod %s on node n1" % high["metadata"]["uid"])
        self.release("low-a")
        self.assertEqual(self.wait_bound("high"), "n1")
        self.assertEqual(self.names(), ["high", "low-b", "mid", "mid2", "mid3"])
        self.assertGreaterEqual(self.scheduler.metric("scheduler_preemption_attempts_total"), 1)
        self.assertEqual(self.scheduler.metric("scheduler_preemption_victims_count"), 1)
        self.assertEqual(self.scheduler.metric("scheduler_preemption_victims_sum"), 1)

    def test_a_nominated_pod_keeps_its_room_from_lower_priority_pods(self):
        self.start([make_node("n1", cpu="4"), running("low", "n1", 1, "4", hold=True)])
        self.client.create(preemptor("high", 10, "4"))
        self.cluster.wait(lambda: (self.client.pod("high") or {}).get("status", {}).get("nominatedNodeName"),
                          30, "high nominated")
        self.release("low")
        self.wait_gone("low")
        # A lower-priority pod arriving now must not take the freed room.
        self.client.create(preemptor("late", 5, "1"))
        self.assertEqual(self.wait_bound("high"), "n1")
        self.assertIsNone(self.node_of("late"))

    def test_a_deleted_nominated_pod_gives_its_room_back(self):
        self.start([make_node("n1", cpu="4"), running("low", "n1", 1, "4", hold=True)])
        self.client.create(preemptor("high", 10, "4"))
        self.cluster.wait(lambda: (self.client.pod("high") or {}).get("status", {}).get("nominatedNodeName"),
                          30, "high nominated")
        self.client.delete_pod("high")
        self.wait_gone("high")
        self.release("low")
        self.wait_gone("low")
        self.assertEqual(self.wait_bound_after_create(preemptor("next", 5, "4")), "n1")

    def test_a_nomination_read_from_the_pod_holds_its_room(self):
        # As after a restart or a change of leader: the pending pod names its
        # nominated node in its status only. n1 has 4 CPUs, 2 taken; held
        # (priority 10, 3 CPUs) does not fit yet and, with preemptionPolicy
        # Never, keeps its nomination.
        self.client.create_all([make_node("n1", cpu="4"), running("busy", "n1", 20, "2")])
        self.client.create(preemptor("held", 10, "3", policy="Never"))
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/held/status", {"status": {"nominatedNodeName": "n1"}},
                       MERGE)
        self.start([])
        # A lower-priority pod that fits the free 2 CPUs sees held's 3 there.
        message = self.create_unschedulable(preemptor("late", 5, "2"))
        self.assertTrue(message.startswith("0/1 nodes are available: 1 Insufficient cpu."), message)
        self.assertIsNone(self.node_of("late"))
        # held gone, the room is free again.
        self.client.delete_pod("held")
        self.wait_gone("held")
        self.assertEqual(self.wait_bound_after_create(preemptor("next", 5, "2")), "n1")

    def wait_bound_after_create(self, pod):
        self.client.create(pod)
        return self.wait_bound(pod["metadata"]["name"])

    def nominated_to(self, name, node):
        pod = self.cluster.wait(lambda: (self.client.pod(name) or {}).get("status", {}).get("nominatedNodeName")
                                and self.client.pod(name), 30, name + " nominated")
        self.assertEqual(pod["status"]["nominatedNodeName"], node)

    def test_a_lower_priority_nomination_does_not_keep_a_higher_priority_pod_out(self):
        # mid (4 CPUs) evicts low and is nominated to n1 while low terminates.
        # top (2 CPUs, priority 10) fits beside the terminating low: as
        # upstream, it does not see nominations of lower priority than its own.
        self.start([make_node("n1", cpu="6"), running("low", "n1", 1, "4", hold=True)])
        self.client.create(preemptor("mid", 5, "4"))
        self.nominated_to("mid", "n1")
        self.client.create(preemptor("top", 10, "2"))
        self.assertEqual(self.wait_bound("top"), "n1")
        self.assertIsNotNone(self.client.pod("low"))  # still terminating: top evicted nothing
        self.assertEqual(self.client.pod("mid")["status"].get("nominatedNodeName"), "n1")
        # Once low is gone, mid still fits beside top and takes its room.
        self.release("low")
        self.assertEqual(self.wait_bound("mid"), "n1")
        self.assertEqual(self.names(), ["mid", "top"])

    def test_a_nominated_pod_counts_in_pod_anti_affinity(self):
        # mid evicts low, whose label its anti-affinity refuses, and is
        # nominated to n1. peer (same priority, only n1, anti-affinity to mid's
        # label) must see mid there, as upstream's filters add nominated pods:
        # binding peer now would keep mid out once low is gone.
        only_n1 = {"kubernetes.io/hostname": "n1"}
        self.start([make_node("n1", cpu="8"), make_node("n2", cpu="8"),
                    running("low", "n1", 1, "1", labels={"role": "old"}, hold=True)])
        mid = make_pod("mid", cpu="1", priority=5, labels={"app": "x"}, node_selector=only_n1,
                       affinity=anti_affinity({"role": "old"}))
        self.client.create(mid)
        self.nominated_to("mid", "n1")
        peer = make_pod("peer", cpu="1", priority=5, node_selector=only_n1, affinity=anti_affinity({"app": "x"}))
        message = self.create_unschedulable(peer)
        self.assertIn("didn't match pod anti-affinity rules", message)
        self.release("low")
        self.assertEqual(self.wait_bound("mid"), "n1")
        self.assertIsNone(self.node_of("peer"))

    def test_a_pdb_moves_preemption_to_another_node(self):
        # Without the budget n1 (victim priority 1) would be chosen over n2 (priority 2).
        self.client.ok("POST", PDBS, {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                                      "metadata": {"name": "web"},
                                      "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}}})
        self.start([make_node("n1", cpu="4"), make_node("n2", cpu="4"),
                    running("web-1", "n1", 1, "4", labels={"app": "web"}), running("batch-1", "n2", 2, "4")])
        self.cluster.wait(lambda: self.scheduler.metric("troupe_preemption_pdbs") == 1, 30, "scheduler sees the PDB")
        self.client.create(preemptor("high", 10, "2"))
        self.assertEqual(self.wait_bound("high"), "n2")
        self.assertIsNone(self.client.pod("batch-1"))
        self.assertEqual(self.node_of("web-1"), "n1")

    def test_preemption_policy_never_does_not_preempt(self):
        self.start([make_node("n1", cpu="4"), running("low", "n1", 1, "4")])
        message = self.create_unschedulable(preemptor("polite", 10, "2", policy="Never"))
        self.assertIn("preemption: not eligible due to preemptionPolicy=Never.", message)
        self.assertEqual(self.node_of("low"), "n1")
        self.assertFalse((self.client.pod("polite").get("status") or {}).get("nominatedNodeName"))

    def test_a_pod_rejected_at_pre_filter_preempts_nothing(self):
        self.start([make_node("n1", cpu="4"), running("low", "n1", 1, "4")])
        # PostFilter runs after a PreFilter rejection too, as upstream: every node is
        # UnschedulableAndUnresolvable, so no node is worth preempting on.
        message = self.create_unschedulable(with_claim(preemptor("high", 10, "4"), "missing"))
        self.assertEqual(message, '0/1 nodes are available: persistentvolumeclaim "missing" not found. preemption: '
                                  '0/1 nodes are available: 1 Preemption is not helpful for scheduling..')
        self.assertFalse(self.client.pod("high")["status"].get("nominatedNodeName"))
        message = self.create_unschedulable(with_claim(preemptor("polite", 10, "4", policy="Never"), "missing"))
        self.assertEqual(message, '0/1 nodes are available: persistentvolumeclaim "missing" not found. preemption: '
                                  'not eligible due to preemptionPolicy=Never..')
        self.assertEqual(self.node_of("low"), "n1")

    def test_a_nominated_pod_rejected_at_pre_filter_loses_its_nomination(self):
        self.start([make_node("n1", cpu="4"), running("low", "n1", 1, "4", hold=True), bound_volume("pv-data"),
                    bound_claim("data", "pv-data")])
        self.client.create(with_claim(preemptor("high", 10, "4"), "data"))
        self.nominated_to("high", "n1")
        # Its claim goes; a node joins, which gives the pod another try: PreFilter rejects it
        # now, and the nomination is cleared (upstream's findCandidates with no potential node).
        self.client.ok("DELETE", "/api/v1/namespaces/default/persistentvolumeclaims/data")
        self.client.create(make_node("n2", cpu="1"))
        self.cluster.wait(lambda: not self.client.pod("high")["status"].get("nominatedNodeName"), 30,
                          "high's nomination cleared")
        self.assertIn("Preemption is not helpful for scheduling", self.unschedulable_message("high"))

    def test_disable_preemptible_pods_are_never_victims(self):
        keep = {"scheduling.koordinator.sh/disable-preemptible": "true"}
        self.start([make_node("n1", cpu="4"), make_node("n2", cpu="4"),
                    running("pinned", "n1", 1, "4", labels=keep), running("batch", "n2", 2, "4")])
        self.client.create(preemptor("high", 10, "2"))
        self.assertEqual(self.wait_bound("high"), "n2")
        self.assertEqual(self.node_of("pinned"), "n1")
        self.assertIsNone(self.client.pod("batch"))

    def test_no_lower_priority_pods_means_no_preemption(self):
        self.start([make_node("n1", cpu="4"), running("peer", "n1", 10, "4")])
        message = self.create_unschedulable(preemptor("high", 10, "2"))
        self.assertIn("preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
                      message)
        self.assertEqual(self.node_of("peer"), "n1")

    def test_a_gpu_pod_preempts_gpu_holders_and_gets_their_cards(self):
        self.start([make_gpu_node("g-0", gpus=2, nics=1),
                    make_device("g-0", numa_nodes=1, switches_per_numa=1, gpus_per_switch=2)])
        # Placed by the scheduler, so they hold cards (device-allocated) the scheduler accounts.
        placed = self.place([gpu_pod("gpu-low-%d" % i, whole=1, priority=1) for i in range(2)])
        held = sorted(allocation(p)["gpu"][0]["minor"] for p in placed.values())
        self.assertEqual(held, [0, 1])
        self.client.create(gpu_pod("gpu-high", whole=2, priority=10))
        self.assertEqual(self.wait_bound("gpu-high"), "g-0")
        self.assertEqual(sorted(e["minor"] for e in allocation(self.client.pod("gpu-high"))["gpu"]), [0, 1])
        self.assertIsNone(self.client.pod("gpu-low-0"))
        self.assertIsNone(self.client.pod("gpu-low-1"))

    def test_a_cpuset_pod_preempts_cpuset_holders(self):
        details = cpu_details(sockets=1, cores_per_socket=2, threads=2)  # 4 CPUs: cores 0 and 1, siblings 2, 3
        self.start([make_cpu_node("c-0", details=details), make_topology("c-0", details=details)])
        low = self.place_one(numa_pod("lsr-low", cpu="4", priority=1,
                                      resource_spec={"requiredCPUBindPolicy": "FullPCPUs"}))
        self.assertEqual(low["metadata"]["annotations"][RESOURCE_STATUS], '{"cpuset":"0-3"}')
        self.client.create(numa_pod("lsr-high", cpu="2", priority=10,
                                    resource_spec={"requiredCPUBindPolicy": "FullPCPUs"}))
        self.assertEqual(self.wait_bound("lsr-high"), "c-0")
        self.assertIsNone(self.client.pod("lsr-low"))
        # The freed cores go to the preemptor: core 0 with its sibling.
        self.assertEqual(self.client.pod("lsr-high")["metadata"]["annotations"][RESOURCE_STATUS],
                         '{"cpuset":"0,2"}')

    # Preemption for a pod that only pod (anti-)affinity or topology spreading
    # keeps out: the dry run takes victims out of the plugins' topology counts
    # (PreFilterExtensions' RemovePod/AddPod), as kube-scheduler does.

    def test_a_pod_whose_anti_affinity_a_lower_pod_violates_evicts_that_pod_only(self):
        self.start([make_node("n1", cpu="4"), running("web-low", "n1", 1, "1", labels={"app": "web"}),
                    running("other-low", "n1", 1, "1", labels={"app": "batch"})])
        high = make_pod("high", cpu="1", priority=10, affinity=anti_affinity({"app": "web"}))
        self.client.create(high)
        self.assertEqual(self.wait_bound("high"), "n1")
        self.assertEqual(self.names(), ["high", "other-low"])

    def test_a_lower_pod_whose_anti_affinity_keeps_the_pod_out_is_evicted(self):
        low = make_pod("shy-low", cpu="1", node_name="n1", priority=1, affinity=anti_affinity({"app": "db"}))
        self.start([make_node("n1", cpu="4"), low, running("other-low", "n1", 1, "1")])
        self.client.create(make_pod("db-high", cpu="1", priority=10, labels={"app": "db"}))
        self.assertEqual(self.wait_bound("db-high"), "n1")
        self.assertEqual(self.names(), ["db-high", "other-low"])

    def test_anti_affinity_against_a_higher_priority_pod_is_no_reason_to_preempt(self):
        self.start([make_node("n1", cpu="4"), running("web-high", "n1", 50, "1", labels={"app": "web"}),
                    running("other-low", "n1", 1, "1")])
        message = self.create_unschedulable(make_pod("high", cpu="1", priority=10,
                                                     affinity=anti_affinity({"app": "web"})))
        self.assertIn("preemption: 0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules.",
                      message)
        self.assertEqual(self.names(), ["high", "other-low", "web-high"])

    def test_a_spread_constraint_evicts_as_many_lower_pods_as_the_skew_needs(self):
        # Zone b's only node is tainted: it counts as a domain (nodeTaintsPolicy
        # Ignore) with no pods, so zone a may hold one matching pod more, at most.
        self.start([make_node("a1", cpu="8", labels={"zone": "a"}),
                    make_node("b1", cpu="8", labels={"zone": "b"}, taints=[taint("maintenance")]),
                    running("s-1", "a1", 1, "1", labels={"app": "s"}),
                    running("s-2", "a1", 2, "1", labels={"app": "s"}),
                    running("s-3", "a1", 3, "1", labels={"app": "s"}),
                    running("unrelated", "a1", 1, "1", labels={"app": "t"})])
        pod = make_pod("spread-high", cpu="1", priority=10, labels={"app": "s"})
        pod["spec"]["topologySpreadConstraints"] = [{
            "maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchLabels": {"app": "s"}}}]
        self.client.create(pod)
        self.assertEqual(self.wait_bound("spread-high"), "a1")
        # 3 matching pods + the preemptor − 0 in zone b may be 1 at most: all three go, the unrelated pod stays.
        self.assertEqual(self.names(), ["spread-high", "unrelated"])


if __name__ == "__main__":
    unittest.main()
