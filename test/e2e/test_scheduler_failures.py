"""troupe scheduler end to end: pods that cannot be placed.

- An unplaceable pod gets PodScheduled=False, reason Unschedulable, with
  kube-scheduler's message ("0/N nodes are available: <sorted reasons>.", or
  "no nodes available to schedule pods" in a cluster without nodes) and
  a Warning FailedScheduling event; it is bound soon after a node that fits is
  added, or an existing node changes so that it fits (allocatable, labels,
  taints).
- A malformed pod (a quantity that is not one, a node-affinity operator or
  value that makes no sense) is reported on that pod alone (condition +
  event), once, and the scheduler keeps placing the others.
"""
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (Cluster, all_bound, condition, describe_pending, make_node, make_pod,  # noqa: E402
                               required_node_affinity, taint)


class FailureTest(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client

    def wait_unschedulable(self, name, timeout=30):
        def check():
            pod = self.client.pod(name) or {}
            c = condition(pod)
            return c if c and c.get("status") == "False" else None
        c = self.cluster.wait(check, timeout, name + " gets PodScheduled=False")
        self.assertIsNone(self.client.pod(name)["spec"].get("nodeName"), name)
        return c

    def wait_event(self, name, reason, timeout=30):
        events = self.cluster.wait(lambda: [e for e in self.client.events_about(name) if e["reason"] == reason],
                                   timeout, lambda: "a %s event about %s; events: %s" % (
                                       reason, name, self.client.events_about(name)))
        return events[0]

    def test_unschedulable_pod_reported_then_bound_when_a_node_fits(self):
        self.client.create_all([
            make_node("n-small", cpu="1", memory="4Gi", labels={"zone": "a"}),
            make_node("n-other", cpu="8", memory="16Gi", labels={"zone": "b"}),
            make_node("n-tainted", cpu="8", memory="16Gi", labels={"zone": "a"},
                      taints=[taint("dedicated", "gpu", "NoSchedule")]),
        ])
        self.cluster.start_scheduler().wait_ready()
        self.client.create(make_pod("stuck", cpu="2", memory="1Gi", node_selector={"zone": "a"}))
        expected = ("0/3 nodes are available: 1 Insufficient cpu, "
                    "1 node(s) didn't match Pod's node affinity/selector, "
                    "1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/3 nodes are available: "
                    "1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling..")
        c = self.wait_unschedulable("stuck")
        self.assertEqual(c["reason"], "Unschedulable")
        self.assertEqual(c["message"], expected)

        uid = self.client.pod("stuck")["metadata"]["uid"]
        event = self.wait_event("stuck", "FailedScheduling")
        self.assertEqual(event["type"], "Warning")
        self.assertEqual(event["message"], expected)
        self.assertEqual(event["controller"], "troupe-scheduler")
        self.assertEqual(event["uid"], uid)

        # A node that fits arrives: bound there, with a Scheduled event.
        self.client.create(make_node("n-big", cpu="4", memory="8Gi", labels={"zone": "a"}))
        placed = self.cluster.wait(lambda: all_bound(self.client, ["stuck"]), 20,
                                   lambda: "stuck bound after n-big was added; " + describe_pending(self.client))
        self.assertEqual(placed["stuck"], "n-big")
        self.assertEqual(condition(self.client.pod("stuck"))["status"], "True")
        scheduled = self.wait_event("stuck", "Scheduled")
        self.assertEqual(scheduled["type"], "Normal")
        self.assertEqual(scheduled["message"], "Successfully assigned default/stuck to n-big")

    def test_a_cluster_without_nodes_says_so_then_places_on_the_first_node(self):
        self.cluster.start_scheduler().wait_ready()
        self.client.create(make_pod("early", cpu="1", memory="1Gi"))
        # kube-scheduler's ErrNoNodesAvailable: no FitError, no PostFilter.
        self.assertEqual(self.wait_unschedulable("early")["message"], "no nodes available to schedule pods")
        self.client.create(make_node("n-first", cpu="4", memory="8Gi"))
        placed = self.cluster.wait(lambda: all_bound(self.client, ["early"]), 20,
                                   lambda: "early bound once a node exists; " + describe_pending(self.client))
        self.assertEqual(placed["early"], "n-first")

    def test_unschedulable_pods_retry_when_existing_nodes_change(self):
        self.client.create_all([
            make_node("n-small", cpu="1", memory="4Gi", labels={"zone": "a"}),
            make_node("n-tainted", cpu="8", memory="16Gi", labels={"zone": "b"},
                      taints=[taint("dedicated", "gpu", "NoSchedule")]),
        ])
        self.cluster.start_scheduler().wait_ready()
        self.client.create(make_pod("needs-cpu", cpu="2", node_selector={"zone": "a"}))
        self.client.create(make_pod("needs-label", cpu="100m", node_selector={"zone": "c"}))
        self.client.create(make_pod("needs-untaint", cpu="100m", node_selector={"zone": "b"}))
        # TaintToleration filters before NodeAffinity: n-tainted fails on its taint.
        self.assertEqual(self.wait_unschedulable("needs-cpu")["message"],
                         "0/2 nodes are available: 1 Insufficient cpu, "
                         "1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/2 nodes are available: "
                         "1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling..")
        self.wait_unschedulable("needs-label")
        self.assertEqual(self.wait_unschedulable("needs-untaint")["message"],
                         "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, "
                         "1 node(s) had untolerated taint {dedicated: gpu}."
                         " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..")

        # Allocatable grows (a status update), a label appears, a taint goes.
        self.client.ok("PATCH", "/api/v1/nodes/n-small/status",
                       {"status": {"allocatable": {"cpu": "4"}, "capacity": {"cpu": "4"}}},
                       "application/merge-patch+json")
        placed = self.cluster.wait(lambda: all_bound(self.client, ["needs-cpu"]), 20,
                                   lambda: "needs-cpu bound once n-small grew; " + describe_pending(self.client))
        self.assertEqual(placed["needs-cpu"], "n-small")
        self.client.ok("PATCH", "/api/v1/nodes/n-small", {"metadata": {"labels": {"zone": "c"}}},
                       "application/merge-patch+json")
        placed = self.cluster.wait(lambda: all_bound(self.client, ["needs-label"]), 20,
                                   lambda: "needs-label bound once n-small is in zone c; " +
                                   describe_pending(self.client))
        self.assertEqual(placed["needs-label"], "n-small")
        self.client.ok("PATCH", "/api/v1/nodes/n-tainted", {"spec": {"taints": None}},
                       "application/merge-patch+json")
        placed = self.cluster.wait(lambda: all_bound(self.client, ["needs-untaint"]), 20,
                                   lambda: "needs-untaint bound once the taint is gone; " +
                                   describe_pending(self.client))
        self.assertEqual(placed["needs-untaint"], "n-tainted")

    def test_unschedulable_pod_waits_for_a_cluster_change(self):
        # kube-scheduler parks such a pod in unschedulablePods until an event
        # that may help it (or the 5-minute flush); its own status patch is
        # not such an event (PriorityQueue.Update ignores status-only changes).
        self.client.create(make_node("n0", cpu="2", memory="4Gi"))
        scheduler = self.cluster.start_scheduler()
        scheduler.wait_ready()
        self.client.create(make_pod("too-big", cpu="64"))
        self.wait_unschedulable("too-big")
        time.sleep(8)  # backoff 1 s, 2 s, 4 s: three retries if it were retried
        attempts = scheduler.metric("scheduler_schedule_attempts_total", profile="troupe-scheduler",
                                    result="unschedulable")
        failed = [e for e in self.client.events_about("too-big") if e["reason"] == "FailedScheduling"]
        self.assertLessEqual(attempts, 2, "retried without any cluster change")
        self.assertLessEqual(len(failed), 2, failed)
        pending = {k[1]: v for k, v in scheduler.metrics().items() if k[0] == "scheduler_pending_pods"}
        self.assertEqual(pending.get((("queue", "unschedulable"),)), 1.0, pending)
        # The node growing is such an event.
        self.client.ok("PATCH", "/api/v1/nodes/n0/status",
                       {"status": {"allocatable": {"cpu": "64"}, "capacity": {"cpu": "64"}}},
                       "application/merge-patch+json")
        self.cluster.wait(lambda: all_bound(self.client, ["too-big"]), 20, "too-big bound once n0 grew")

    def test_malformed_pods_are_reported_alone_and_others_still_placed(self):
        self.client.create_all([make_node("n%d" % i, cpu="4", memory="8Gi", labels={"zone": "a", "cores": "8"})
                                for i in range(3)])
        self.cluster.start_scheduler().wait_ready()
        good_before = [make_pod("good-a-%d" % i, cpu="100m", memory="64Mi") for i in range(5)]
        self.client.create_all(good_before, threads=2)

        bad_cpu = make_pod("bad-cpu")
        bad_cpu["spec"]["containers"][0]["resources"] = {"requests": {"cpu": "lots", "memory": "64Mi"}}
        bad_memory = make_pod("bad-memory")
        bad_memory["spec"]["containers"][0]["resources"] = {"requests": {"memory": "12XB"}}
        malformed = {
            "bad-cpu": bad_cpu,
            "bad-memory": bad_memory,
            "bad-operator": make_pod("bad-operator", affinity=required_node_affinity([("zone", "Sometimes", ["a"])])),
            "bad-gt": make_pod("bad-gt", affinity=required_node_affinity([("cores", "Gt", ["many"])])),
            "bad-exists": make_pod("bad-exists", affinity=required_node_affinity([("zone", "Exists", ["a"])])),
        }
        for name, pod in malformed.items():
            # Raw JSON over HTTP: the API server stores what it is given.
            status, body = self.client.request("POST", "/api/v1/namespaces/default/pods", pod)
            self.assertEqual(status, 201, "%s: %s" % (name, body))
        good_after = [make_pod("good-b-%d" % i, cpu="100m", memory="64Mi") for i in range(5)]
        self.client.create_all(good_after, threads=2)

        names = [p["metadata"]["name"] for p in good_before + good_after]
        self.cluster.wait(lambda: all_bound(self.client, names), 60,
                          lambda: "the well-formed pods bound; " + describe_pending(self.client))
        for name in malformed:
            c = self.wait_unschedulable(name)
            self.assertEqual(c["reason"], "Unschedulable", name)
            self.assertTrue(c["message"], name)
            event = self.wait_event(name, "FailedScheduling")
            self.assertEqual(event["type"], "Warning", name)
            self.assertEqual(event["message"], c["message"], name)
        # Each problem names what is wrong.
        messages = {n: condition(self.client.pod(n))["message"] for n in malformed}
        self.assertIn("lots", messages["bad-cpu"])
        self.assertIn("12XB", messages["bad-memory"])
        self.assertIn("Sometimes", messages["bad-operator"])
        self.assertIn("many", messages["bad-gt"])
        self.assertIn("must be empty", messages["bad-exists"])
        # Reported once, not once per resourceVersion (the status patch is an update too).
        time.sleep(2)
        for name in malformed:
            failed = [e for e in self.client.events_about(name) if e["reason"] == "FailedScheduling"]
            self.assertLessEqual(len(failed), 2, "%s: %s" % (name, failed))

        # Still placing after all that.
        self.client.create(make_pod("good-c", cpu="100m"))
        self.cluster.wait(lambda: all_bound(self.client, ["good-c"]), 30, "good-c bound")
        self.assertTrue(self.cluster.schedulers[0].alive())


if __name__ == "__main__":
    unittest.main()
