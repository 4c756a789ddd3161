"""troupe scheduler end to end: capacity accounting.

- 50 nodes of three shapes and 500 pods of mixed cpu/memory requests (some
  BestEffort) all bind, and no node ends over its allocatable cpu, memory or
  pod count;
- pods of other schedulers (and pods without a schedulerName) are left alone,
  but pods bound by someone else count against their node;
- deleting a bound pod, or its finishing (phase Succeeded), frees its
  resources: a pending pod that did not fit then binds;
- a bound pod resized in place counts with the most of its spec and what the
  kubelet reports: shrinking frees room once the kubelet has applied it,
  growing takes room as soon as the spec asks.
"""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (Cluster, all_bound, capacity_violations, condition, describe_pending,  # noqa: E402
                               make_node, make_pod)

# (cpu, memory, max pods): small nodes run out of pod slots, big ones of nothing.
SHAPES = [("4", "8Gi", 12), ("8", "32Gi", 20), ("2", "4Gi", 6)]
CPU_CHOICES = ["50m", "100m", "250m", "500m", "750m"]
MEMORY_CHOICES = ["64Mi", "256Mi", "512Mi", "1Gi", "1536Mi"]


def mixed_pods(count, seed):
    rng = random.Random(seed)
    pods = []
    for i in range(count):
        if i % 10 == 9:  # BestEffort: takes only a pod slot
            pods.append(make_pod("p-%03d" % i))
        elif i % 10 == 8:  # cpu only
            pods.append(make_pod("p-%03d" % i, cpu=rng.choice(CPU_CHOICES)))
        else:
            pods.append(make_pod("p-%03d" % i, cpu=rng.choice(CPU_CHOICES), memory=rng.choice(MEMORY_CHOICES)))
    return pods


class CapacityTest(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client

    def test_500_mixed_pods_on_50_nodes_all_bound_within_capacity(self):
        nodes = [make_node("node-%02d" % i, *SHAPES[i % 3][:2], pods=SHAPES[i % 3][2],
                           labels={"shape": str(i % 3)}) for i in range(50)]
        self.client.create_all(nodes)
        scheduler = self.cluster.start_scheduler()
        pods = mixed_pods(500, seed=7)
        self.client.create_all(pods)
        names = [p["metadata"]["name"] for p in pods]
        placed = self.cluster.wait(lambda: all_bound(self.client, names), 120,
                                   lambda: "500 pods bound; " + describe_pending(self.client))

        bound_pods = self.client.pods("default")
        self.assertEqual(len(bound_pods), 500)
        self.assertEqual(capacity_violations(self.client.nodes(), bound_pods), [])
        # Every node got pods, the small ones included (their pod-count limit was in play).
        per_node = {}
        for node in placed.values():
            per_node[node] = per_node.get(node, 0) + 1
        self.assertEqual(len(per_node), 50, "every node received pods: %s" % per_node)
        for pod in bound_pods:
            c = condition(pod)
            self.assertIsNotNone(c, pod["metadata"]["name"])
            self.assertEqual(c["status"], "True", pod["metadata"]["name"])
        self.assertTrue(scheduler.alive())

    def test_other_schedulers_pods_are_left_alone_but_bound_ones_count(self):
        self.client.create_all([make_node("n1", cpu="4", memory="8Gi"), make_node("n2", cpu="4", memory="8Gi")])
        self.cluster.start_scheduler().wait_ready()
        # Someone else's pods: one created already assigned (like a DaemonSet
        # pod), one bound afterwards through the binding subresource.
        self.client.create(make_pod("foreign-direct", cpu="3", memory="1Gi", scheduler="other-scheduler",
                                    node_name="n1"))
        self.client.create(make_pod("foreign-bound", cpu="3", memory="1Gi", scheduler="other-scheduler"))
        self.client.bind("foreign-bound", "n2")
        # Pending pods of other schedulers, big enough to block everything if counted.
        self.client.create(make_pod("other-pending", cpu="1", scheduler="other-scheduler"))
        self.client.create(make_pod("default-pending", cpu="1", scheduler=None))
        # Ours: a 2-cpu pod cannot fit anywhere (1 cpu left on each node); two 1-cpu pods can.
        self.client.create(make_pod("ours-big", cpu="2", memory="1Gi"))
        self.client.create(make_pod("ours-a", cpu="1", memory="1Gi"))
        self.client.create(make_pod("ours-b", cpu="1", memory="1Gi"))

        placed = self.cluster.wait(lambda: all_bound(self.client, ["ours-a", "ours-b"]), 60,
                                   lambda: "ours-a and ours-b bound; " + describe_pending(self.client))
        self.assertEqual(sorted([placed["ours-a"], placed["ours-b"]]), ["n1", "n2"])
        big = self.cluster.wait(lambda: condition(self.client.pod("ours-big") or {}), 30,
                                "ours-big gets a PodScheduled condition")
        self.assertEqual(big["status"], "False")
        self.assertEqual(big["message"], "0/2 nodes are available: 2 Insufficient cpu."
                         " preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..")
        self.assertIsNone(self.client.pod("ours-big")["spec"].get("nodeName"))

        # The pods of other schedulers: untouched (no binding, no condition, no events).
        for name in ("other-pending", "default-pending"):
            pod = self.client.pod(name)
            self.assertIsNone(pod["spec"].get("nodeName"), name)
            self.assertIsNone(condition(pod), name)
            self.assertEqual(self.client.events_about(name), [], name)
        self.assertEqual(self.client.pod("default-pending")["spec"]["schedulerName"], "default-scheduler")
        self.assertEqual(capacity_violations(self.client.nodes(), self.client.pods()), [])

    def test_deleting_or_finishing_a_bound_pod_frees_its_resources(self):
        self.client.create(make_node("n1", cpu="4", memory="8Gi"))
        self.cluster.start_scheduler().wait_ready()
        self.client.create(make_pod("first", cpu="3", memory="1Gi"))
        self.cluster.wait(lambda: all_bound(self.client, ["first"]), 30, "first bound")
        self.client.create(make_pod("second", cpu="3", memory="1Gi"))
        c = self.cluster.wait(lambda: condition(self.client.pod("second") or {}), 30, "second marked unschedulable")
        self.assertEqual((c["status"], c["reason"]), ("False", "Unschedulable"))

        self.client.delete_pod("first")
        placed = self.cluster.wait(lambda: all_bound(self.client, ["second"]), 30,
                                   lambda: "second bound after first was deleted; " + describe_pending(self.client))
        self.assertEqual(placed["second"], "n1")

        # A pod that finished (phase Succeeded) holds nothing either.
        self.client.create(make_pod("third", cpu="3", memory="1Gi"))
        self.cluster.wait(lambda: (condition(self.client.pod("third") or {}) or {}).get("status") == "False", 30,
                          "third marked unschedulable")
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/second/status", {"status": {"phase": "Succeeded"}},
                       "application/merge-patch+json")
        placed = self.cluster.wait(lambda: all_bound(self.client, ["third"]), 30,
                                   lambda: "third bound after second succeeded; " + describe_pending(self.client))
        self.assertEqual(placed["third"], "n1")
        self.assertEqual(capacity_violations(self.client.nodes(), self.client.pods()), [])

    def resize(self, name, spec_cpu=None, status_cpu=None):
        """An in-place resize: through the pods/resize subresource (spec), and the kubelet's report (status)."""
        path = "/api/v1/namespaces/default/pods/" + name
        if spec_cpu is not None:
            container = {"name": "c", "resources": {"requests": {"cpu": spec_cpu}}}
            self.client.ok("PATCH", path + "/resize", {"spec": {"containers": [container]}},
                           "application/strategic-merge-patch+json")
        if status_cpu is not None:
            requests = {"cpu": status_cpu, "memory": "1Gi"}
            status = {"phase": "Running", "containerStatuses": [
                {"name": "c", "allocatedResources": requests, "resources": {"requests": requests}}]}
            self.client.ok("PATCH", path + "/status", {"status": status}, "application/merge-patch+json")

    def test_a_pod_resized_in_place_counts_with_its_new_requests(self):
        self.client.create(make_node("n1", cpu="4", memory="8Gi"))
        self.cluster.start_scheduler().wait_ready()
        self.client.create(make_pod("first", cpu="3", memory="1Gi"))
        self.cluster.wait(lambda: all_bound(self.client, ["first"]), 30, "first bound")
        self.resize("first", status_cpu="3")  # the kubelet runs it as admitted
        self.client.create(make_pod("second", cpu="2", memory="1Gi"))
        self.cluster.wait(lambda: (condition(self.client.pod("second") or {}) or {}).get("status") == "False", 30,
                          "second marked unschedulable")

        # Shrinking: the spec asks for 1 cpu, but the kubelet still runs it with 3.
        self.resize("first", spec_cpu="1")
        unschedulable_at = condition(self.client.pod("second"))["lastTransitionTime"]
        self.client.create(make_pod("probe", cpu="2", memory="1Gi"))
        self.cluster.wait(lambda: (condition(self.client.pod("probe") or {}) or {}).get("status") == "False", 30,
                          "probe marked unschedulable while the kubelet has not applied the resize")
        self.assertIsNone(self.client.pod("second")["spec"].get("nodeName"))
        self.assertEqual(condition(self.client.pod("second"))["lastTransitionTime"], unschedulable_at)
        self.client.delete_pod("probe")
        # The kubelet applied it: 3 cpu free, second fits.
        self.resize("first", status_cpu="1")
        placed = self.cluster.wait(lambda: all_bound(self.client, ["second"]), 30,
                                   lambda: "second bound after first shrank; " + describe_pending(self.client))
        self.assertEqual(placed["second"], "n1")

        # Growing: the spec asks for 2 cpu; it counts at once (no cpu left, not 1).
        self.resize("first", spec_cpu="2")
        self.client.create(make_pod("third", cpu="1", memory="1Gi"))
        c = self.cluster.wait(lambda: condition(self.client.pod("third") or {}), 30, "third gets a condition")
        self.assertEqual((c["status"], c["reason"]), ("False", "Unschedulable"))
        self.assertIn("Insufficient cpu", c["message"])

if __name__ == "__main__":
    unittest.main()
