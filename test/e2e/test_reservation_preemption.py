"""troupe scheduler end to end: a Reservation preempting (ReservationArgs.enablePreemption, issue 6).

With `enablePreemption: true` in the profile's Reservation args, a Pending
Reservation whose reserve pod fits nowhere preempts like a pod: its priority is
the template's, else the Reservation's `koordinator.sh/priority` label; pods of
lower priority are marked DisruptionTarget and deleted (never those labelled
`scheduling.koordinator.sh/disable-preemptible: "true"`), the freed room is held
for the reservation (in the scheduler's memory: there is no pod to patch
nominatedNodeName on), and once the victims are gone the Reservation becomes
Available on that node. Without the flag a reservation does not preempt.

The flag makes the Reservation plugin a preempting PostFilter of its own
(Koordinator's PreemptionMgr): a profile without DefaultPreemption still
preempts, for pods and reservations alike. Whatever preemption finds, a pod
that fits nowhere is told why the reservations it owns did not help
("N Reservation(s) ...").

As in test_preemption.py, the test plays the kubelet: running pods are created
with spec.nodeName, and a victim that should stay terminating carries a
finalizer the test removes.
"""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scheduler_helpers import (SCHEDULER_NAME, SchedulingTest, make_node, make_pod, profile,  # noqa: E402
                               scheduler_config)
from test_reservation_lifecycle import RESERVATIONS, ReservationReads, conditions, reservation  # noqa: E402

MERGE = "application/merge-patch+json"
HOLD = "test.troupe.dev/hold"
PRIORITY_LABEL = "koordinator.sh/priority"
KEEP = {"scheduling.koordinator.sh/disable-preemptible": "true"}


def config(enable_preemption, default_preemption=True):
    plugin_config = [{"name": "Reservation", "args": {"enablePreemption": enable_preemption}}]
    plugins = None if default_preemption else {"multiPoint": {"disabled": [{"name": "DefaultPreemption"}]}}
    return scheduler_config(profiles=[profile(plugins=plugins, plugin_config=plugin_config)])


def running(name, node, priority, cpu, labels=None, hold=False):
    """A pod already bound to `node` (the kubelet runs it)."""
    pod = make_pod(name, cpu=cpu, node_name=node, priority=priority, labels=labels)
    if hold:
        pod["metadata"]["finalizers"] = [HOLD]
    return pod


def prioritized_reservation(name, cpu, priority):
    r = reservation(name, {"cpu": cpu, "memory": "1Gi"})
    r["metadata"]["labels"] = {PRIORITY_LABEL: str(priority)}
    return r


class ReservationPreemptionTest(ReservationReads, SchedulingTest):
    def wait_scheduled_false(self, name):
        def unschedulable():
            c = conditions(self.get_reservation(name) or {}).get("Scheduled")
            return c if c and c["status"] == "False" else None
        return self.cluster.wait(unschedulable, 30, lambda: "Scheduled=False on %s: %s" % (
            name, self.get_reservation(name)))

    def being_deleted(self, name):
        return self.cluster.wait(lambda: (self.client.pod(name) or {}).get("metadata", {}).get(
            "deletionTimestamp") and self.client.pod(name), 30, name + " being deleted")

    def release(self, name):
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/" + name, {"metadata": {"finalizers": None}}, MERGE)

    def test_a_reservation_preempts_a_low_priority_pod_and_becomes_available_there(self):
        # n1's low pod (priority 1) is the only victim that helps; n2's pod is non-preemptible.
        self.start([make_node("n1", cpu="4"), make_node("n2", cpu="4"),
                    running("low", "n1", 1, "4", hold=True), running("pinned", "n2", 1, "4", labels=KEEP)],
                   config(True))
        created = self.client.ok("POST", RESERVATIONS, prioritized_reservation("train", "2", 100))
        victim = self.being_deleted("low")
        marks = {c["type"]: c for c in victim["status"].get("conditions", [])}
        self.assertEqual((marks["DisruptionTarget"]["status"], marks["DisruptionTarget"]["reason"]),
                         ("True", "PreemptionByScheduler"))
        preempted = [e["message"] for e in self.client.events_about("low") if e["reason"] == "Preempted"]
        self.assertIn("Preempted by pod %s on node n1" % created["metadata"]["uid"], preempted)
        # While low terminates the reservation waits, Pending, and nothing else is evicted.
        self.wait_scheduled_false("train")
        r = self.get_reservation("train")
        self.assertIn((r.get("status") or {}).get("phase"), (None, "", "Pending"))
        self.assertEqual(self.client.pod("pinned")["spec"]["nodeName"], "n2")
        # The room is held: a lower-priority pod of 3 CPUs arriving now never gets n1
        # (4 CPUs, 2 of them held for the reservation), before or after low goes.
        self.client.create(make_pod("late", cpu="3", priority=5))
        self.release("low")
        placed = self.wait_phase("train", "Available")
        self.assertEqual(placed["status"]["nodeName"], "n1")
        self.assertEqual(placed["status"]["allocatable"]["cpu"], "2")
        self.assertIsNone(self.client.pod("low"))
        self.assertEqual(self.client.pod("pinned")["spec"]["nodeName"], "n2")
        self.assertIsNone(self.client.pod("late")["spec"].get("nodeName"))
        self.assertGreaterEqual(self.scheduler.metric("scheduler_preemption_victims_count"), 1)

    def test_only_non_preemptible_pods_in_the_way_means_no_preemption(self):
        self.start([make_node("n1", cpu="4"), running("pinned", "n1", 1, "4", labels=KEEP)], config(True))
        self.client.ok("POST", RESERVATIONS, prioritized_reservation("blocked", "2", 100))
        c = self.wait_scheduled_false("blocked")
        self.assertIn("preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
                      c["message"])
        self.assertEqual(self.client.pod("pinned")["spec"]["nodeName"], "n1")

    def test_without_enable_preemption_a_reservation_does_not_preempt(self):
        self.start([make_node("n1", cpu="4"), running("low", "n1", 1, "4")], config(False))
        self.client.ok("POST", RESERVATIONS, prioritized_reservation("polite", "2", 100))
        c = self.wait_scheduled_false("polite")
        self.assertIn("preemption: not eligible: a Reservation does not preempt.", c["message"])
        self.assertEqual(self.client.pod("low")["spec"]["nodeName"], "n1")
        self.assertIsNone(self.client.pod("low").get("metadata", {}).get("deletionTimestamp"))

    def test_without_default_preemption_the_reservation_plugin_preempts_for_pods(self):
        self.start([make_node("n1", cpu="4"), running("low", "n1", 1, "4", hold=True)],
                   config(True, default_preemption=False))
        self.client.create(make_pod("urgent", cpu="2", priority=100))
        victim = self.being_deleted("low")
        self.assertIn("DisruptionTarget", [c["type"] for c in victim["status"].get("conditions", [])])
        nominated = self.cluster.wait(lambda: (self.client.pod("urgent")["status"].get("nominatedNodeName")), 30,
                                      "urgent nominated")
        self.assertEqual(nominated, "n1")
        self.release("low")
        bound = self.cluster.wait(lambda: self.client.pod("urgent")["spec"].get("nodeName"), 30, "urgent bound")
        self.assertEqual(bound, "n1")

    def test_without_any_preempting_plugin_nothing_is_evicted(self):
        self.start([make_node("n1", cpu="4"), running("low", "n1", 1, "4")], config(False, default_preemption=False))
        message = self.create_unschedulable(make_pod("urgent", cpu="2", priority=100))
        self.assertIn("0/1 nodes are available: 1 Insufficient cpu.", message)
        self.assertNotIn("preemption", message)
        self.assertIsNone(self.client.pod("low").get("metadata", {}).get("deletionTimestamp"))

    def test_a_pod_that_fits_nowhere_is_told_about_the_reservations_it_owns(self):
        self.start([make_node("n1", cpu="4"), make_node("n2", cpu="4")], config(False))
        closed = reservation("closed", {"cpu": "1", "memory": "1Gi"}, owner_labels={"app": "web"})
        closed["spec"]["unschedulable"] = True  # no new owner may use it
        for r in (reservation("open", {"cpu": "1", "memory": "1Gi"}, owner_labels={"app": "web"}), closed,
                  reservation("theirs", {"cpu": "1", "memory": "1Gi"}, owner_labels={"app": "db"})):
            self.client.ok("POST", RESERVATIONS, r)
        for name in ("open", "closed", "theirs"):
            self.wait_phase(name, "Available")
        # The scheduler holds all three before the pods come (a pod that NodeResourcesFit
        # rejects is not tried again when a reservation changes).
        self.cluster.wait(lambda: self.held_reservations() == 3, 30, "the scheduler holds the three reservations")
        message = self.create_unschedulable(make_pod("big", cpu="6", labels={"app": "web"}))
        self.assertTrue(message.startswith("0/2 nodes are available: 2 Insufficient cpu. preemption: "), message)
        self.assertTrue(message.endswith(
            ", 1 Reservation(s) is unschedulable, 1 Reservation(s) for node reason that Insufficient cpu,"
            " 2 Reservation(s) matched owner total."), message)
        # A pod that may only go to the other node (NodeAffinity's PreFilter keeps it off the one holding
        # "open"): its reservation sits on a node the PreFilter excluded.
        other = "n2" if self.get_reservation("open")["status"]["nodeName"] == "n1" else "n1"
        pinned = make_pod("pinned", cpu="6", labels={"app": "web"})
        pinned["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [other]}]}]}}}
        self.assertIn("1 Reservation(s) for node reason that node(s) didn't satisfy plugin(s) [NodeAffinity]",
                      self.create_unschedulable(pinned))
        # A pod that owns none hears nothing about them.
        stranger = self.create_unschedulable(make_pod("stranger", cpu="6", labels={"app": "cache"}))
        self.assertNotIn("Reservation(s)", stranger)

    def held_reservations(self):
        held = 0
        for node in ("n1", "n2"):
            status, body = self.scheduler.get("/apis/v1/plugins/Reservation/nodes/" + node)
            held += len(json.loads(body)["reservations"]) if status == 200 else 0
        return held


if __name__ == "__main__":
    unittest.main()
