"""troupe scheduler end to end: leader election between two processes.

Both run with leaderElect: true and short timings (lease 2 s, renew deadline
1.5 s, retry 0.5 s). Only the leader binds (the other's attempt counter stays
at zero while both run); when the leader is killed with SIGKILL (no chance to
release the lease) the other acquires the lease once it expires and binds the
pods created afterwards. A leader stopped with SIGTERM releases the lease (as
kube-scheduler's ReleaseOnCancel), so the other takes over at its next retry.
"""
import os
import re
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_builders import make_device, make_gpu_node  # noqa: E402
from scheduler_helpers import (DEVICES_PATH, Cluster, all_bound, capacity_violations, describe_pending, make_node,  # noqa: E402
                               make_pod, metric_sum, scheduler_config)

LEASE_PATH = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/troupe-scheduler"
LEADER_LINE = re.compile(r"leader election: (\S+) became leader")


def leader_identity(scheduler):
    match = LEADER_LINE.search(scheduler.stderr())
    return match.group(1) if match else None


def scheduled(scheduler):
    return metric_sum(scheduler.metrics(), "scheduler_schedule_attempts_total", result="scheduled")


class LeaderElectionTest(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client

    def lease_holder(self):
        status, lease = self.client.request("GET", LEASE_PATH)
        return lease["spec"].get("holderIdentity") if status == 200 else None

    def test_only_the_leader_binds_and_the_other_takes_over(self):
        config = scheduler_config(leader_elect=True, lease=("2s", "1500ms", "500ms"))
        self.client.create_all([make_node("n%d" % i, cpu="4", memory="8Gi") for i in range(3)])
        first = self.cluster.start_scheduler(config)
        leader_id = self.cluster.wait(lambda: leader_identity(first), 30, "the first scheduler leads")
        second = self.cluster.start_scheduler(config)
        second.wait_ready()  # followers sync too, so they can take over at once
        self.assertEqual(self.lease_holder(), leader_id)

        batch1 = [make_pod("a-%02d" % i, cpu="100m", memory="64Mi") for i in range(20)]
        self.client.create_all(batch1, threads=2)
        self.cluster.wait(lambda: all_bound(self.client, [p["metadata"]["name"] for p in batch1]), 60,
                          lambda: "batch 1 bound; " + describe_pending(self.client))
        time.sleep(1)  # let a wrongly active follower show itself
        self.assertEqual(scheduled(first), 20)
        self.assertEqual(scheduled(second), 0)
        self.assertIsNone(leader_identity(second))
        self.assertEqual(self.lease_holder(), leader_id)
        for s in (first, second):
            self.assertEqual(s.get("/healthz")[0], 200)

        killed_at = time.time()
        first.kill()
        second_id = self.cluster.wait(lambda: leader_identity(second), 30, "the second scheduler takes over")
        takeover = time.time() - killed_at
        self.assertNotEqual(second_id, leader_id)
        self.assertEqual(self.lease_holder(), second_id)
        status, lease = self.client.request("GET", LEASE_PATH)
        self.assertGreaterEqual(lease["spec"].get("leaseTransitions", 0), 1, lease)

        batch2 = [make_pod("b-%02d" % i, cpu="100m", memory="64Mi") for i in range(20)]
        self.client.create_all(batch2, threads=2)
        self.cluster.wait(lambda: all_bound(self.client, [p["metadata"]["name"] for p in batch2]), 60,
                          lambda: "batch 2 bound by the new leader; " + describe_pending(self.client))
        # The attempt is counted when the Binding's answer comes back, which may be a moment after the
        # API server shows the pod bound.
        self.cluster.wait(lambda: scheduled(second) == 20, 10, lambda: "20 attempts counted: %s" % scheduled(second))
        self.assertEqual(capacity_violations(self.client.nodes(), self.client.pods()), [])
        # Takeover needs the lease to expire (2 s after it was last seen renewed) plus a retry period.
        self.assertLess(takeover, 15, "takeover took %.1f s" % takeover)
        self.assertTrue(second.alive())

    def test_a_standby_holds_back_its_warning_events_until_it_leads(self):
        # Another holder's lease, renewed just now: troupe waits 4 s as a standby.
        now = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())
        self.client.ok("POST", LEASE_PATH.rsplit("/", 1)[0], {
            "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": "troupe-scheduler", "namespace": "kube-system"},
            "spec": {"holderIdentity": "someone-else", "leaseDurationSeconds": 4, "acquireTime": now,
                     "renewTime": now}})
        bad = make_device("g-0")
        bad["spec"]["devices"][0]["minor"] = "zero"
        self.client.create_all([make_gpu_node("g-0"), bad])
        scheduler = self.cluster.start_scheduler(scheduler_config(leader_elect=True, lease=("2s", "1500ms", "500ms")))
        scheduler.wait_ready()

        def invalid_events():
            return [e for e in self.client.events_about("g-0") if e["reason"] == "Invalid"]
        self.assertIn("informer ignores this version of Device g-0", scheduler.stderr())
        self.assertIsNone(leader_identity(scheduler))
        self.assertEqual(invalid_events(), [])
        self.cluster.wait(lambda: leader_identity(scheduler), 30, "troupe leads once the other lease expires")
        events = self.cluster.wait(invalid_events, 10, "the held-back Warning event recorded by the new leader")
        self.assertEqual(len(events), 1)
        self.assertIn("spec.devices[0].minor", events[0]["message"])
        self.assertEqual(self.client.ok("GET", DEVICES_PATH + "/g-0")["metadata"]["uid"], events[0]["uid"])

    def test_a_leader_that_stops_releases_the_lease(self):
        # A long lease: the standby takes over within a few retries only because the leader frees it.
        config = scheduler_config(leader_elect=True, lease=("30s", "20s", "500ms"))
        self.client.create_all([make_node("n%d" % i, cpu="4", memory="8Gi") for i in range(2)])
        first = self.cluster.start_scheduler(config)
        leader_id = self.cluster.wait(lambda: leader_identity(first), 30, "the first scheduler leads")
        second = self.cluster.start_scheduler(config)
        second.wait_ready()
        stopped_at = time.time()
        self.assertEqual(first.stop(cleanup=False), 0)
        self.assertIn("leader election: %s released kube-system/troupe-scheduler" % leader_id, first.stderr())
        second_id = self.cluster.wait(lambda: leader_identity(second), 15, "the second scheduler takes over")
        self.assertLess(time.time() - stopped_at, 10)
        self.assertEqual(self.lease_holder(), second_id)
        names = ["c-%d" % i for i in range(3)]
        self.client.create_all([make_pod(n, cpu="100m", memory="64Mi") for n in names])
        self.cluster.wait(lambda: all_bound(self.client, names), 30,
                          lambda: "bound by the new leader; " + describe_pending(self.client))

    def test_renewals_keep_what_others_put_on_the_lease(self):
        config = scheduler_config(leader_elect=True, lease=("2s", "1500ms", "500ms"))
        scheduler = self.cluster.start_scheduler(config)
        self.cluster.wait(lambda: leader_identity(scheduler), 30, "the scheduler leads")
        self.client.ok("PATCH", LEASE_PATH, {"metadata": {"labels": {"team": "infra"},
                                                          "annotations": {"note": "kept"}}},
                       "application/merge-patch+json")
        renewed = self.client.ok("GET", LEASE_PATH)["spec"]["renewTime"]
        # A renewal is a PUT of the whole lease: it must carry them back.
        self.cluster.wait(lambda: self.client.ok("GET", LEASE_PATH)["spec"]["renewTime"] != renewed, 10,
                          "the lease renewed")
        lease = self.client.ok("GET", LEASE_PATH)
        self.assertEqual(lease["metadata"].get("labels"), {"team": "infra"})
        self.assertEqual(lease["metadata"].get("annotations"), {"note": "kept"})


if __name__ == "__main__":
    unittest.main()
