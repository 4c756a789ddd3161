"""Pod scheduling readiness (spec.schedulingGates) end to end.

- The embedded API server does what kube-apiserver does with gates: a gated
  pod is created with PodScheduled=False (reason SchedulingGated), its Binding
  is refused (409), it cannot carry spec.nodeName, and an update may only
  remove gates.
- troupe's SchedulingGates plugin (PreEnqueue, in the default profile) keeps
  a gated pod out of the scheduling queue: it is never tried, gets no
  FailedScheduling event and shows as scheduler_pending_pods{queue="gated"};
  removing its last gate queues it, and it is bound.
"""
import os
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import Cluster, all_bound, condition, make_node, make_pod  # noqa: E402

PODS = "/api/v1/namespaces/default/pods"


def gated_pod(name, *gates, **kwargs):
    pod = make_pod(name, cpu="100m", memory="64Mi", **kwargs)
    pod["spec"]["schedulingGates"] = [{"name": g} for g in gates]
    return pod


def json_patch(*operations):
    return list(operations), "application/json-patch+json"


class ApiServerGates(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client
        self.client.create(make_node("n0"))

    def test_a_gated_pod_is_created_scheduling_gated(self):
        created = self.client.create(gated_pod("g", "example.com/quota"))
        self.assertEqual(condition(created), {"type": "PodScheduled", "status": "False", "reason": "SchedulingGated",
                                              "message": "Scheduling is blocked due to non-empty scheduling gates"})
        self.assertIsNone(condition(self.client.create(make_pod("free", cpu="100m"))))

    def test_binding_a_gated_pod_conflicts(self):
        self.client.create(gated_pod("g", "example.com/quota"))
        body = {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "g"},
                "target": {"apiVersion": "v1", "kind": "Node", "name": "n0"}}
        status, answer = self.client.request("POST", PODS + "/g/binding", body)
        self.assertEqual(status, 409, answer)
        self.assertEqual(answer["message"],
                         'Operation cannot be fulfilled on pods/binding "g": pod g has non-empty .spec.schedulingGates')
        self.assertIsNone(self.client.pod("g")["spec"].get("nodeName"))

    def test_gates_can_be_removed_but_not_added(self):
        self.client.create(gated_pod("g", "a.example.com/one", "b.example.com/two"))
        operations, content_type = json_patch({"op": "add", "path": "/spec/schedulingGates/-",
                                               "value": {"name": "c.example.com/three"}})
        status, answer = self.client.request("PATCH", PODS + "/g", operations, content_type)
        self.assertEqual(status, 422, answer)
        self.assertEqual(answer["message"],
                         'Pod "g" is invalid: spec.schedulingGates[2].name: Forbidden: only deletion is allowed, '
                         "but found new scheduling gate 'c.example.com/three'")
        operations, content_type = json_patch({"op": "remove", "path": "/spec/schedulingGates/0"})
        patched = self.client.ok("PATCH", PODS + "/g", operations, content_type)
        self.assertEqual(patched["spec"]["schedulingGates"], [{"name": "b.example.com/two"}])

    def test_malformed_gates_and_a_gated_node_name_are_invalid(self):
        cases = [
            (gated_pod("dup", "x", "x"), 'Pod "dup" is invalid: spec.schedulingGates[1]: Duplicate value: "x"'),
            (gated_pod("empty", ""), 'Pod "empty" is invalid: spec.schedulingGates[0]: Invalid value: "": '
                                     "name part must be non-empty"),
            (gated_pod("placed", "x", node_name="n0"), 'Pod "placed" is invalid: spec.nodeName: Forbidden: '
                                                       "cannot be set until all schedulingGates have been cleared"),
        ]
        for pod, message in cases:
            with self.subTest(pod["metadata"]["name"]):
                status, answer = self.client.request("POST", PODS, pod)
                self.assertEqual(status, 422, answer)
                self.assertEqual(answer["message"], message)


class SchedulerGates(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client
        self.client.create(make_node("n0", cpu="8", memory="16Gi"))
        self.scheduler = self.cluster.start_scheduler()
        self.scheduler.wait_ready()

    def pending(self, queue):
        return self.scheduler.metric("scheduler_pending_pods", queue=queue)

    def attempts(self, result):
        return self.scheduler.metric("scheduler_schedule_attempts_total", profile="troupe-scheduler", result=result)

    def test_a_gated_pod_waits_for_its_last_gate_then_is_bound(self):
        self.client.create(gated_pod("gated", "a.example.com/one", "b.example.com/two"))
        self.client.create(make_pod("after", cpu="100m", memory="64Mi"))
        # The informer hands pods to the queue in watch order: once the pod created after the gated one is
        # bound, the gated one has been seen, and it is parked rather than tried (no attempt, no event).
        self.cluster.wait(lambda: all_bound(self.client, ["after"]), 30, "the ungated pod bound")
        self.cluster.wait(lambda: self.pending("gated") == 1, 10, "scheduler_pending_pods{queue=gated} = 1")
        self.cluster.wait(lambda: self.attempts("scheduled") == 1, 10, "one attempt, the ungated pod's")
        self.assertEqual(self.attempts("unschedulable") + self.attempts("error"), 0)
        self.assertEqual(condition(self.client.pod("gated"))["reason"], "SchedulingGated")
        self.assertEqual([e for e in self.client.events_about("gated") if e["reason"] == "FailedScheduling"], [])

        operations, content_type = json_patch({"op": "remove", "path": "/spec/schedulingGates/0"})
        self.client.ok("PATCH", PODS + "/gated", operations, content_type)
        # One gate left: once a pod created after the update is bound, the update has been seen, and the
        # pod is still held back.
        self.client.create(make_pod("after-update", cpu="100m", memory="64Mi"))
        self.cluster.wait(lambda: all_bound(self.client, ["after-update"]), 30, "the second ungated pod bound")
        # Released, it would have been queued before that pod, and bound first.
        self.assertIsNone(self.client.pod("gated")["spec"].get("nodeName"))
        self.assertEqual(self.pending("gated"), 1)
        self.cluster.wait(lambda: self.attempts("scheduled") == 2, 10, "two attempts, the ungated pods'")
        self.assertEqual(self.attempts("unschedulable") + self.attempts("error"), 0)

        self.client.ok("PATCH", PODS + "/gated", {"spec": {"schedulingGates": None}}, "application/merge-patch+json")
        self.cluster.wait(lambda: all_bound(self.client, ["gated"]), 30, "the pod bound once its gates are gone")
        self.assertEqual(condition(self.client.pod("gated"))["status"], "True")
        self.cluster.wait(lambda: self.pending("gated") == 0, 10, "no gated pod left")

    def test_deleting_a_gated_pod_forgets_it(self):
        self.client.create(gated_pod("gated", "example.com/never"))
        self.cluster.wait(lambda: self.pending("gated") == 1, 10, "one gated pod")
        self.client.delete_pod("gated")
        self.cluster.wait(lambda: self.pending("gated") == 0, 10, "the deleted pod leaves the gated pods")


if __name__ == "__main__":
    unittest.main()
