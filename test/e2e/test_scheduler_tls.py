"""troupe scheduler end to end over HTTPS with a bearer token.

`troupe apiserver --tls --token T` writes a kubeconfig with its self-signed CA
and the token; the scheduler given that kubeconfig works exactly as over plain
HTTP: pods bound within capacity, an unplaceable pod reported (condition and
event) and bound once a node fits, a deleted pod's room reused. A kubeconfig
with the wrong token gets nowhere: never ready, nothing bound.
"""
import os
import sys
import time
import unittest

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (Cluster, Scheduler, all_bound, capacity_violations, condition,  # noqa: E402
                               describe_pending, make_node, make_pod, metric_sum)

TOKEN = "e2e-token-0123456789"


class TlsTokenTest(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self, tls=True, token=TOKEN)
        self.client = self.cluster.client
        self.assertTrue(self.cluster.server.url.startswith("https://"), self.cluster.server.url)

    def test_scheduling_over_tls_with_token(self):
        with open(self.cluster.server.kubeconfig) as f:
            kubeconfig = yaml.safe_load(f)
        self.assertEqual(kubeconfig["users"][0]["user"].get("token"), TOKEN)
        self.assertTrue(kubeconfig["clusters"][0]["cluster"].get("certificate-authority-data"))
        # Without the token the API server refuses (so the scheduler really authenticates).
        raw = self.cluster.server.connection()
        raw.request("GET", "/api/v1/pods")
        self.assertEqual(raw.getresponse().status, 401)
        raw.close()

        self.client.create_all([make_node("n%d" % i, cpu="2", memory="4Gi") for i in range(5)])
        scheduler = self.cluster.start_scheduler()
        scheduler.wait_ready()
        pods = [make_pod("p-%02d" % i, cpu="250m", memory="256Mi") for i in range(30)]
        self.client.create_all(pods, threads=3)
        names = [p["metadata"]["name"] for p in pods]
        self.cluster.wait(lambda: all_bound(self.client, names), 60,
                          lambda: "30 pods bound; " + describe_pending(self.client))
        self.assertEqual(capacity_violations(self.client.nodes(), self.client.pods()), [])

        # 30 x 250m = 7.5 of 10 cpu used: 2.5 left, at most 500m per node.
        self.client.create(make_pod("big", cpu="1500m"))
        c = self.cluster.wait(lambda: condition(self.client.pod("big") or {}), 30, "big gets a condition")
        self.assertEqual((c["status"], c["reason"]), ("False", "Unschedulable"))
        self.assertEqual(c["message"], "0/5 nodes are available: 5 Insufficient cpu."
                         " preemption: 0/5 nodes are available: 5 No preemption victims found for incoming pod..")
        events = self.cluster.wait(
            lambda: [e for e in self.client.events_about("big") if e["reason"] == "FailedScheduling"], 30,
            "FailedScheduling event about big")
        self.assertEqual(events[0]["message"], c["message"])

        # Deleting three pods of one node makes room there.
        node = self.client.placements("default")["p-00"]
        victims = [n for n, where in self.client.placements("default").items() if where == node and n != "big"]
        self.assertGreaterEqual(len(victims), 4)
        for name in victims[:4]:
            self.client.delete_pod(name)
        placed = self.cluster.wait(lambda: all_bound(self.client, ["big"]), 30,
                                   lambda: "big bound after deletions; " + describe_pending(self.client))
        self.assertEqual(placed["big"], node)
        self.assertEqual(capacity_violations(self.client.nodes(), self.client.pods()), [])
        self.assertEqual(metric_sum(scheduler.metrics(), "scheduler_schedule_attempts_total", result="scheduled"), 31)

    def test_wrong_token_gets_nowhere(self):
        self.client.create(make_node("n0"))
        self.client.create(make_pod("p0", cpu="100m"))
        with open(self.cluster.server.kubeconfig) as f:
            kubeconfig = yaml.safe_load(f)
        kubeconfig["users"][0]["user"]["token"] = "wrong"
        path = os.path.join(self.cluster.server.dir, "wrong-token.kubeconfig")
        with open(path, "w") as f:
            yaml.safe_dump(kubeconfig, f)
        scheduler = Scheduler(path)
        self.addCleanup(scheduler.stop)
        scheduler.start()
        deadline = time.time() + 3
        while time.time() < deadline:
            self.assertEqual(scheduler.get("/readyz")[0], 500)
            time.sleep(0.2)
        self.assertIsNone(self.client.pod("p0")["spec"].get("nodeName"))
        scheduler.wait_logged("401")


if __name__ == "__main__":
    unittest.main()
