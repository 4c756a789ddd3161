"""troupe apiserver's fake koordlet end to end (issue 8): with
--node-metrics-interval the API server itself publishes a NodeMetric per node
from the pods bound to it (usage = requests x the pod annotation
sim.troupe.dev/usage-ratio, plus the node annotation sim.troupe.dev/base-usage),
and troupe scheduler's LowNodeLoad relieves the hot node it reports.

The test plays only the kubelet (bound pods become Running and Ready) and the
ReplicaSet controller (evicted replicas come back); no test code writes a
NodeMetric.
"""
import json
import os
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yaml

from scheduler_helpers import Cluster, make_node, make_pod, metric_sum, profile, scheduler_config  # noqa: E402
from test_descheduler import (NODEMETRICS, Actors, DeschedulerFixture, descheduler_config, jobs,  # noqa: E402
                              node_cpu_usage, phase)

RATIO = "sim.troupe.dev/usage-ratio"
BASE = "sim.troupe.dev/base-usage"


def replica(name, app, ratio, node=None):
    """A pod of ReplicaSet `app` requesting 2 cores that uses `ratio` of its requests."""
    pod = make_pod(name, cpu="2", memory="1Gi", node_name=node, labels={"app": app})
    pod["metadata"]["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": app,
                                           "uid": "uid-rs-" + app, "controller": True}]
    pod["metadata"]["annotations"] = {RATIO: str(ratio)}
    return pod


class KubeletAndReplicaSet(Actors):
    """Actors without the koordlet part: the API server publishes the metrics."""

    def koordlet(self, pods):
        pass

    def replicaset_controller(self, pods):
        for app, (count, ratio) in self.replicas.items():
            live = [p for p in pods if p["metadata"].get("labels", {}).get("app") == app]
            for _ in range(count - len(live)):
                self.created += 1
                self.client.ok("POST", "/api/v1/namespaces/default/pods",
                               replica("%s-r%d" % (app, self.created), app, ratio))


def cpu_usage(client, node):
    """nodeUsage cpu in cores, rounded to milli-cores."""
    return round(node_cpu_usage(client, node), 3)


def metric(client, node):
    code, body = client.request("GET", NODEMETRICS + "/" + node)
    return body if code == 200 else None


class FakeKoordletTest(DeschedulerFixture, unittest.TestCase):
    """DeschedulerFixture's teardown; its own API server, with the fake koordlet on."""

    def setUp(self):
        self.cluster = Cluster(self, "--node-metrics-interval", "300ms")
        self.client = self.cluster.client
        self.dir = tempfile.mkdtemp(prefix="troupe-fake-koordlet-")
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)
        self.actors = None

    def start(self, descheduler=None, replicas=None):
        self.actors = KubeletAndReplicaSet(self.cluster.server, replicas).start()
        path = os.path.join(self.dir, "descheduler.yaml")
        with open(path, "w") as f:
            yaml.safe_dump(descheduler, f)
        scheduler = self.cluster.start_scheduler(scheduler_config(profiles=[profile()]),
                                                 extra_args=["--descheduler-config", path])
        scheduler.wait_ready()
        return scheduler

    def hot_cluster(self):
        """n1: 5 replicas x 2 cores x 0.9 + 0.5 base = 9.5 of 10 cores (high threshold 70%)."""
        hot = make_node("n1", cpu="10", memory="40Gi")
        hot["metadata"]["annotations"] = {BASE: json.dumps({"cpu": "500m"})}
        self.client.create(hot)
        for name in ("n2", "n3"):
            self.client.create(make_node(name, cpu="10", memory="40Gi"))
        for i in range(5):
            self.client.create(replica("web-%d" % i, "web", 0.9, node="n1"))

    def test_metrics_follow_pods_and_annotations(self):
        self.hot_cluster()
        self.client.create(replica("idle", "other", 0, node="n2"))
        self.client.create(replica("pending", "other", 1))  # unbound: on no node's metric
        self.cluster.wait(lambda: (metric(self.client, "n2") or {}).get("status", {}).get("podsMetric"), 10,
                          "no NodeMetric for n2 with its pod")
        n1 = metric(self.client, "n1")["status"]
        self.assertEqual(n1["nodeMetric"]["nodeUsage"]["resources"]["cpu"], "9500m")
        self.assertEqual(n1["nodeMetric"]["systemUsage"]["resources"]["cpu"], "500m")
        self.assertEqual(sorted((p["name"], p["podUsage"]["resources"]["cpu"]) for p in n1["podsMetric"]),
                         [("web-%d" % i, "1800m") for i in range(5)])
        n2 = metric(self.client, "n2")["status"]
        self.assertEqual([(p["name"], p["podUsage"]["resources"]["cpu"]) for p in n2["podsMetric"]], [("idle", "0")])
        self.assertEqual(metric(self.client, "n3")["status"].get("podsMetric", []), [])
        # The metric is rewritten every interval: a changed ratio shows up, a finished pod goes.
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/idle",
                       {"metadata": {"annotations": {RATIO: "0.5"}}}, "application/merge-patch+json")
        self.cluster.wait(lambda: cpu_usage(self.client, "n2") == 1.0, 10, "n2's usage did not follow the ratio")
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/web-0/status",
                       {"status": {"phase": "Succeeded"}}, "application/merge-patch+json")
        self.cluster.wait(lambda: cpu_usage(self.client, "n1") == 7.7, 10, "a finished pod still counts on n1")
        # A node that goes loses its metric.
        self.client.ok("DELETE", "/api/v1/nodes/n3")
        self.cluster.wait(lambda: metric(self.client, "n3") is None, 10, "n3's NodeMetric was not removed")
        # A malformed ratio is reported on the API server's log and the pod counts at the default ratio.
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/idle",
                       {"metadata": {"annotations": {RATIO: "lots"}}}, "application/merge-patch+json")
        self.cluster.wait(lambda: cpu_usage(self.client, "n2") == 2.0, 10, "a malformed ratio was not ignored")
        self.cluster.wait(lambda: 'annotation sim.troupe.dev/usage-ratio: "lots" is not a number'
                          in self.cluster.server.stderr(), 10, "the malformed ratio was not logged")

    def test_low_node_load_relieves_the_node_the_koordlet_reports_hot(self):
        self.hot_cluster()
        self.cluster.wait(lambda: metric(self.client, "n1"), 10, "no NodeMetric for n1")
        scheduler = self.start(descheduler_config(total=5, per_node=3, maxMigratingPerNode=1,
                                                  objectLimiters={"workload": {"duration": "2s", "maxMigrating": 2}}),
                               replicas={"web": (5, 0.9)})
        # 9.5 cores -> at most 7: two replicas of 1.8 go (7.7 is still hot, 5.9 is not).
        self.cluster.wait(lambda: len([j for j in jobs(self.client) if phase(j) == "Succeeded"]) >= 2, 60,
                          lambda: "two jobs did not succeed: %s" % [(j["metadata"]["name"], j.get("status"))
                                                                    for j in jobs(self.client)])
        self.cluster.wait(lambda: len([p for p in self.client.pods() if p["spec"].get("nodeName")]) == 5, 30,
                          "the replacements were not scheduled")
        # The koordlet's next rounds report the relieved node; nothing else moves.
        self.cluster.wait(lambda: cpu_usage(self.client, "n1") <= 7.0, 10,
                          lambda: "n1 still reported hot: %s" % metric(self.client, "n1")["status"])
        time.sleep(3)
        all_jobs = jobs(self.client)
        self.assertEqual(len(all_jobs), 2, [(j["metadata"]["name"], phase(j)) for j in all_jobs])
        for job in all_jobs:
            self.assertEqual(job["metadata"]["annotations"]["descheduler.koordinator.sh/evict-trigger"], "LowNodeLoad")
        self.assertEqual(cpu_usage(self.client, "n1"), 5.9)
        for node in ("n2", "n3"):  # no target became hot
            self.assertLessEqual(cpu_usage(self.client, node), 7.0)
        moved = {p["metadata"]["name"]: p["spec"]["nodeName"] for p in self.client.pods()
                 if p["metadata"]["name"].startswith("web-r")}
        self.assertEqual(len(moved), 2, moved)
        self.assertNotIn("n1", moved.values())
        self.assertEqual(metric_sum(scheduler.metrics(), "troupe_descheduler_evictions_total", plugin="LowNodeLoad",
                                    result="success"), 2)


if __name__ == "__main__":
    unittest.main()
