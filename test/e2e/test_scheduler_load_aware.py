"""troupe scheduler end to end: LoadAwareScheduling against koordlet's NodeMetrics.

Three empty nodes that differ only in the load their NodeMetrics report. A
profile that enables LoadAwareScheduling places a pod on the least loaded
node, keeps pods off a node whose cpu usage is over the threshold (the pod's
condition says so, in Koordinator's words), lets the pod in once the node's
NodeMetric reports less load, and refuses a node whose NodeMetric is stale.
The default profile, which does not run the plugin, ignores the load.
The plugin's debug service shows what it holds of a node.
"""
import datetime
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (SCHEDULER_NAME, SchedulingTest, make_node, make_pod, profile,  # noqa: E402
                               scheduler_config)

NODEMETRICS = "/apis/slo.koordinator.sh/v1alpha1/nodemetrics"
MERGE = "application/merge-patch+json"
LOAD_AWARE = "load-aware"


def rfc3339(seconds_ago=0):
    t = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=seconds_ago)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def config():
    enabled = {"multiPoint": {"enabled": [{"name": "LoadAwareScheduling"}]}}
    return scheduler_config(profiles=[
        profile(),
        profile(LOAD_AWARE, plugins=enabled,
                plugin_config=[{"name": "LoadAwareScheduling",
                                "args": {"usageThresholds": {"cpu": 65, "memory": 95},
                                         "resourceWeights": {"cpu": 1, "memory": 1}}}]),
    ])


class LoadAwareTest(SchedulingTest):
    def report(self, node, cpu, seconds_ago=0):
        """What koordlet would write: the node's measured usage, now or `seconds_ago`."""
        status = {"updateTime": rfc3339(seconds_ago),
                  "nodeMetric": {"nodeUsage": {"resources": {"cpu": cpu, "memory": "1Gi"}}}}
        code, _ = self.client.request("GET", NODEMETRICS + "/" + node)
        if code == 404:
            self.client.ok("POST", NODEMETRICS, {"apiVersion": "slo.koordinator.sh/v1alpha1", "kind": "NodeMetric",
                                                 "metadata": {"name": node}})
        self.client.ok("PATCH", NODEMETRICS + "/" + node + "/status", {"status": status}, MERGE)

    def pinned(self, name, node, scheduler=LOAD_AWARE, cpu="500m"):
        pod = make_pod(name, cpu=cpu, memory="256Mi", scheduler=scheduler)
        pod["spec"]["nodeSelector"] = {"kubernetes.io/hostname": node}
        return pod

    def setUp(self):
        super().setUp()
        nodes = [make_node(n, cpu="8", memory="16Gi", labels={"kubernetes.io/hostname": n})
                 for n in ("hot", "warm", "cool")]
        self.client.create_all(nodes)
        self.report("hot", "6")    # 75 %: over the 65 % threshold
        self.report("warm", "3")
        self.report("cool", "500m")
        self.start([], config())

    def test_prefers_the_least_loaded_node(self):
        placed = self.place([make_pod("p%d" % i, cpu="100m", memory="64Mi", scheduler=LOAD_AWARE)
                             for i in range(3)])
        self.assertEqual({p["spec"]["nodeName"] for p in placed.values()}, {"cool"})

    def test_keeps_pods_off_an_overloaded_node_until_it_cools_down(self):
        message = self.create_unschedulable(self.pinned("on-hot", "hot"))
        self.assertIn("node(s) cpu usage exceed threshold", message)
        # The default profile does not look at the load.
        self.assertEqual(self.place_one(self.pinned("default-on-hot", "hot", SCHEDULER_NAME))["spec"]["nodeName"], "hot")
        # koordlet reports less load: the NodeMetric's change lets the pod in.
        self.report("hot", "2")
        self.cluster.wait(lambda: (self.client.pod("on-hot") or {}).get("spec", {}).get("nodeName") == "hot", 30,
                          "on-hot bound once the node cooled down")

    def test_pods_placed_since_the_last_report_count_by_their_estimate(self):
        # "cool" reports 0.5 of 8 cores; each pod asks 2 cores, estimated at 85 %: 1.7.
        # Two fit (0.5 + 3.4 + 1.7 = 70 % for a third), although requests would allow four.
        placed = self.place([self.pinned("c%d" % i, "cool", cpu="2") for i in range(2)], timeout=30)
        self.assertEqual({p["spec"]["nodeName"] for p in placed.values()}, {"cool"})
        message = self.create_unschedulable(self.pinned("c2", "cool", cpu="2"))
        self.assertIn("node(s) cpu usage exceed threshold", message)
        # The debug service shows the two estimates the node carries (Koordinator's NodeAssignInfoData).
        status, body = self.scheduler.get("/apis/v1/plugins/LoadAwareScheduling/node/cool")
        self.assertEqual(status, 200, body)
        info = json.loads(body)
        self.assertEqual(info["nodeDeltaPods"], ["default/c0", "default/c1"])
        self.assertEqual(info["nodeDelta"]["cpu"], "3400m")
        self.assertEqual(sorted(p["pod"]["metadata"]["name"] for p in info["pods"]), ["c0", "c1"])
        self.assertEqual(self.scheduler.get("/apis/v1/plugins/LoadAwareScheduling/node/nope")[0], 404)

    def test_a_stale_node_metric_keeps_pods_off(self):
        seen = self.scheduler.metric("troupe_watch_events_total", resource="nodemetrics", type="MODIFIED")
        self.report("warm", "1", seconds_ago=600)
        # The pod must not reach the scheduler before the stale report does (it would bind on the fresh one).
        self.cluster.wait(lambda: self.scheduler.metric("troupe_watch_events_total", resource="nodemetrics",
                                                        type="MODIFIED") > seen, 30, "the stale report seen")
        message = self.create_unschedulable(self.pinned("on-warm", "warm"))
        self.assertIn("node(s) nodeMetric expired", message)
        # A node without a NodeMetric is not held back.
        self.client.ok("DELETE", NODEMETRICS + "/warm")
        self.cluster.wait(lambda: (self.client.pod("on-warm") or {}).get("spec", {}).get("nodeName") == "warm", 30,
                          "on-warm bound once its NodeMetric is gone")


if __name__ == "__main__":
    unittest.main()
