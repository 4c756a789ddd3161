"""troupe scheduler end to end: /healthz, /readyz and /metrics.

- Started before its API server exists, the scheduler is live (/healthz 200)
  but not ready (/readyz 500); it turns ready once the API server comes up on
  its address and the informers have synced.
- scheduler_schedule_attempts_total{profile,result="scheduled"} equals the
  number of pods bound, the unschedulable attempts are counted, the attempt
  duration histogram counts every attempt, and scheduler_pending_pods shows the
  unschedulable pod in its queue until it is deleted.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import ApiServer  # noqa: E402
from scheduler_helpers import (Client, Scheduler, all_bound, describe_pending, free_port, make_node,  # noqa: E402
                               make_pod, metric_sum, wait_for)

KUBECONFIG = """apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "http://127.0.0.1:%d"}
users:
- name: u
  user: {}
contexts:
- name: ctx
  context: {cluster: c, user: u}
current-context: ctx
"""


class MetricsTest(unittest.TestCase):
    def setUp(self):
        self.port = free_port()
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "troupe-metrics-test-%d.kubeconfig" % os.getpid())
        with open(path, "w") as f:
            f.write(KUBECONFIG % self.port)
        self.addCleanup(os.remove, path)
        self.scheduler = Scheduler(path)
        self.addCleanup(self.scheduler.stop)
        self.scheduler.start()

    def logs(self):
        return "\n--- scheduler log ---\n" + self.scheduler.stderr()[-3000:]

    def test_health_readiness_and_attempt_metrics(self):
        scheduler = self.scheduler
        self.assertEqual(scheduler.get("/healthz"), (200, "ok"))
        status, body = scheduler.get("/readyz")
        self.assertEqual(status, 500, body)
        self.assertEqual(scheduler.get("/nonexistent")[0], 404)

        server = ApiServer("--listen", "127.0.0.1:%d" % self.port)
        self.addCleanup(server.stop)
        server.start()
        client = Client(server)
        self.addCleanup(client.close)
        # The reflectors back off up to 30 s (jittered) between failed lists.
        wait_for(lambda: scheduler.get("/readyz")[0] == 200, 90, lambda: "/readyz 200" + self.logs())
        self.assertEqual(scheduler.get("/healthz"), (200, "ok"))

        client.create_all([make_node("n%d" % i, cpu="2", memory="4Gi") for i in range(4)])
        pods = [make_pod("p-%02d" % i, cpu="100m", memory="64Mi") for i in range(30)]
        client.create_all(pods, threads=2)
        names = [p["metadata"]["name"] for p in pods]
        wait_for(lambda: all_bound(client, names), 60, lambda: describe_pending(client) + self.logs())
        client.create(make_pod("too-big", cpu="64"))

        def settled():
            m = scheduler.metrics()
            pending = metric_sum(m, "scheduler_pending_pods", queue="unschedulable")
            return m if pending == 1 else None
        m = wait_for(settled, 30, lambda: "too-big waits in the unschedulable queue: %s" % [
            (k, v) for k, v in scheduler.metrics().items() if k[0] == "scheduler_pending_pods"])
        scheduled = metric_sum(m, "scheduler_schedule_attempts_total", profile="troupe-scheduler", result="scheduled")
        unschedulable = metric_sum(m, "scheduler_schedule_attempts_total", profile="troupe-scheduler",
                                   result="unschedulable")
        bound = sum(1 for node in client.placements("default").values() if node)
        self.assertEqual(bound, 30)
        self.assertEqual(scheduled, bound)
        self.assertGreaterEqual(unschedulable, 1)
        self.assertEqual(metric_sum(m, "scheduler_schedule_attempts_total", result="error"), 0)
        self.assertEqual(metric_sum(m, "scheduler_pending_pods", queue="active"), 0)
        self.assertEqual(metric_sum(m, "scheduler_pending_pods", queue="backoff"), 0)
        self.assertEqual(metric_sum(m, "scheduler_scheduling_attempt_duration_seconds_count"),
                         scheduled + unschedulable)
        # Koordinator's: one observation per chosen node, of the 4 nodes all evaluated (under 100 nodes every
        # node is checked) and some feasible; the pod that fits nowhere is not observed.
        self.assertEqual(metric_sum(m, "scheduler_pod_scheduling_evaluated_nodes_count"), scheduled)
        self.assertEqual(metric_sum(m, "scheduler_pod_scheduling_evaluated_nodes_sum"), 4 * scheduled)
        self.assertEqual(metric_sum(m, "scheduler_pod_scheduling_feasible_nodes_count"), scheduled)
        self.assertGreaterEqual(metric_sum(m, "scheduler_pod_scheduling_feasible_nodes_sum"), scheduled)
        self.assertLessEqual(metric_sum(m, "scheduler_pod_scheduling_feasible_nodes_sum"), 4 * scheduled)
        _, text = scheduler.get("/metrics")
        self.assertIn("# TYPE scheduler_schedule_attempts_total counter", text)
        self.assertIn("# TYPE scheduler_pending_pods gauge", text)
        # Each unschedulable pod counts once for each plugin that rejected it, by its profile.
        self.assertEqual(metric_sum(m, "scheduler_unschedulable_pods", plugin="NodeResourcesFit",
                                    profile="troupe-scheduler"), 1)
        self.assertEqual(metric_sum(m, "scheduler_unschedulable_pods"), 1)

        client.delete_pod("too-big")
        wait_for(lambda: metric_sum(scheduler.metrics(), "scheduler_pending_pods", queue="unschedulable") == 0, 30,
                 "the deleted pod leaves the unschedulable queue")
        self.assertEqual(metric_sum(scheduler.metrics(), "scheduler_unschedulable_pods", plugin="NodeResourcesFit",
                                    profile="troupe-scheduler"), 0)


if __name__ == "__main__":
    unittest.main()
