"""troupe scheduler end to end: the event lane (Scheduled events behind the bindings).

- A burst of 400 pods on 20 nodes: every pod is bound and then gets exactly
  one Scheduled event (events.k8s.io/v1, reason Scheduled, action Binding,
  "Successfully assigned default/<pod> to <its node>"), none is dropped
  (troupe_events_dropped_total 0) and the lane empties
  (troupe_event_queue_length 0).
- With troupe.eventQueueSize 0 the lane takes nothing: every pod still binds,
  no Scheduled event is written, and each one is counted as dropped
  (troupe_events_dropped_total{reason="queue_full"} = pods) and logged.
- With a lane of 2 under a burst, what is written and what is counted as
  dropped add up to the pods bound: no event is lost silently.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (Cluster, all_bound, describe_pending, fast_config, make_node, make_pod,  # noqa: E402
                               metric_sum, scheduler_config, profile)

NS = "default"


def scheduled_events(client):
    """pod name -> its Scheduled events (events.k8s.io/v1) as dicts."""
    status, body = client.request("GET", "/apis/events.k8s.io/v1/namespaces/%s/events" % NS)
    assert status == 200, body
    out = {}
    for e in body.get("items", []):
        if e.get("reason") != "Scheduled":
            continue
        out.setdefault((e.get("regarding") or {}).get("name"), []).append(e)
    return out


class EventLaneTest(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client

    def burst(self, config, count, nodes=20):
        self.client.create_all([make_node("node-%02d" % i, cpu="64", memory="256Gi", pods=110) for i in range(nodes)])
        scheduler = self.cluster.start_scheduler(config)
        scheduler.wait_ready()
        pods = [make_pod("p-%03d" % i, cpu="100m", memory="64Mi") for i in range(count)]
        self.client.create_all(pods)
        names = [p["metadata"]["name"] for p in pods]
        placed = self.cluster.wait(lambda: all_bound(self.client, names), 120,
                                   lambda: "%d pods bound; %s" % (count, describe_pending(self.client)))
        return scheduler, placed

    def test_every_pod_of_a_burst_gets_one_scheduled_event(self):
        scheduler, placed = self.burst(fast_config(), 400)
        events = self.cluster.wait(lambda: (lambda e: e if len(e) == len(placed) else None)(scheduled_events(self.client)),
                                   30, lambda: "a Scheduled event for each of %d pods (have %d)" % (
                                       len(placed), len(scheduled_events(self.client))))
        for name, node in placed.items():
            self.assertEqual(len(events[name]), 1, events[name])
            e = events[name][0]
            self.assertEqual((e["type"], e["action"], e["reportingController"]), ("Normal", "Binding", "troupe-scheduler"))
            self.assertEqual(e["note"], "Successfully assigned %s/%s to %s" % (NS, name, node))
            self.assertEqual(e["regarding"]["kind"], "Pod")
        m = self.cluster.wait(lambda: (lambda m: m if metric_sum(m, "troupe_event_queue_length") == 0 else None)(
            scheduler.metrics()), 10, "the event lane empties")
        self.assertEqual(metric_sum(m, "troupe_events_dropped_total"), 0)
        self.assertEqual(metric_sum(m, "troupe_bindings_total", result="ok"), 400)

    def test_a_lane_of_size_zero_drops_every_event_and_counts_it(self):
        config = scheduler_config(profiles=[profile()], troupe={"eventQueueSize": 0},
                                  extra={"clientConnection": {"qps": 2000, "burst": 2000}})
        scheduler, placed = self.burst(config, 30, nodes=3)
        m = self.cluster.wait(lambda: (lambda m: m if metric_sum(m, "troupe_events_dropped_total") >= 30 else None)(
            scheduler.metrics()), 10, lambda: "30 dropped events counted: %s" % metric_sum(
                scheduler.metrics(), "troupe_events_dropped_total"))
        self.assertEqual(metric_sum(m, "troupe_events_dropped_total", reason="queue_full"), 30)
        self.assertEqual(scheduled_events(self.client), {})
        scheduler.wait_logged("dropped the Scheduled event")

    def test_written_and_dropped_events_add_up_to_the_pods_bound(self):
        config = scheduler_config(profiles=[profile()], troupe={"eventQueueSize": 2},
                                  extra={"clientConnection": {"qps": 2000, "burst": 2000}})
        scheduler, placed = self.burst(config, 300)

        def accounted():
            m = scheduler.metrics()
            if metric_sum(m, "troupe_event_queue_length") != 0:
                return None
            written = sum(len(v) for v in scheduled_events(self.client).values())
            dropped = metric_sum(m, "troupe_events_dropped_total")
            return (written, dropped) if written + dropped == len(placed) else None
        written, dropped = self.cluster.wait(accounted, 30, lambda: "written %d + dropped %s = 300" % (
            sum(len(v) for v in scheduled_events(self.client).values()),
            metric_sum(scheduler.metrics(), "troupe_events_dropped_total")))
        self.assertGreater(written, 0)


if __name__ == "__main__":
    unittest.main()
