"""troupe scheduler end to end with scheduler extenders (extenders[] of the
KubeSchedulerConfiguration) served by a small Python HTTP extender.

- filter: the extender turns down the nodes it is told to; the pod lands on
  the others, and a pod every node is turned down for gets the extender's
  reasons in its FitError message;
- prioritize: the extender's favourite node wins (its score × weight, scaled
  by MaxNodeScore / MaxExtenderPriority, outweighs the plugins');
- ignorable: a broken ignorable extender (500s, or nothing listening) does not
  block scheduling; a broken non-ignorable one does (SchedulerError);
- managedResources: pods without a managed resource never reach the extender;
  one marked ignoredByScheduler is not checked by NodeResourcesFit;
- bind: the binder extender receives ExtenderBindingArgs and performs the
  Binding itself;
- preempt: the preemption candidates reach the extender (whole victim pods,
  or only their UIDs when nodeCacheCapable), and the node it keeps is where
  the preemptor is nominated and its victims deleted, though the scheduler
  alone would have chosen another; an extender that keeps no node, or fails,
  stops the preemption (nothing is deleted) and says so in the pod's condition;
  a preemptor deleted while the extender answers gets nothing evicted for it;
- the extension point, plugin and actor metrics are exported while it runs.
"""
import json
import os
import sys
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (Client, Cluster, all_bound, condition, describe_pending, free_port,  # noqa: E402
                               make_node, make_pod, metric_sum, scheduler_config)


class Extender:
    """An HTTP extender speaking kube-scheduler's extender/v1 JSON. It rejects
    nodes named in `reject`, gives MaxExtenderPriority to `favourite`, answers
    500 to every call when `broken`, and binds through `binder` (a callable
    (namespace, name, uid, node) -> error text) when one is set."""

    def __init__(self, reject=(), favourite=None, broken=False, binder=None, preempt_keep=None, preempt_delay=0):
        self.reject = set(reject)
        self.favourite = favourite
        self.broken = broken
        self.binder = binder
        self.preempt_keep = preempt_keep  # the nodes a preempt call keeps (None: all it is given)
        self.preempt_delay = preempt_delay  # seconds a preempt call takes
        self.calls = []  # (verb, pod name, [node names])
        self.preempt_args = []  # the ExtenderPreemptionArgs received
        self.lock = threading.Lock()
        extender = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"null")
                verb = self.path.rsplit("/", 1)[-1]
                status, answer = extender.answer(verb, body)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return "http://127.0.0.1:%d/scheduler" % self.server.server_address[1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def calls_for(self, verb, pod=None):
        with self.lock:
            return [c for c in self.calls if c[0] == verb and (pod is None or c[1] == pod)]

    @staticmethod
    def node_names(args):
        if args.get("NodeNames") is not None:
            return list(args["NodeNames"])
        return [n["metadata"]["name"] for n in (args.get("Nodes") or {}).get("items", [])]

    def answer(self, verb, args):
        if verb == "bind":
            with self.lock:
                self.calls.append(("bind", args["PodName"], [args["Node"]]))
            error = self.binder(args["PodNamespace"], args["PodName"], args["PodUID"], args["Node"])
            return 200, {"Error": error}
        if verb == "preempt":
            return self.preempt(args)
        names = self.node_names(args)
        pod = args["Pod"]["metadata"]["name"]
        with self.lock:
            self.calls.append((verb, pod, names))
        if self.broken:
            return 500, {"Error": "broken on purpose"}
        if verb == "filter":
            passing = [n for n in names if n not in self.reject]
            failed = {n: "extender says no" for n in names if n in self.reject}
            if args.get("NodeNames") is not None:
                return 200, {"NodeNames": passing, "FailedNodes": failed, "Error": ""}
            items = [n for n in args["Nodes"]["items"] if n["metadata"]["name"] in passing]
            return 200, {"Nodes": {"metadata": {}, "items": items}, "FailedNodes": failed, "Error": ""}
        if verb == "prioritize":
            return 200, [{"Host": n, "Score": 10 if n == self.favourite else 0} for n in names]
        return 404, {"Error": "unknown verb " + verb}

    def preempt(self, args):
        """ExtenderPreemptionArgs -> ExtenderPreemptionResult: the victims it is
        given (by UID) on the nodes it keeps."""
        if args.get("NodeNameToMetaVictims") is not None:
            victims = {n: [p["UID"] for p in v["Pods"]] for n, v in args["NodeNameToMetaVictims"].items()}
        else:
            victims = {n: [p["metadata"]["uid"] for p in v["Pods"]] for n, v in args["NodeNameToVictims"].items()}
        with self.lock:
            self.calls.append(("preempt", args["Pod"]["metadata"]["name"], sorted(victims)))
            self.preempt_args.append(args)
        time.sleep(self.preempt_delay)
        if self.broken:
            return 500, {"Error": "broken on purpose"}
        kept = {n: {"Pods": [{"UID": uid} for uid in uids], "NumPDBViolations": 0}
                for n, uids in victims.items() if self.preempt_keep is None or n in self.preempt_keep}
        return 200, {"NodeNameToMetaVictims": kept}


def extender_config(extender, **fields):
    entry = {"urlPrefix": extender.url if isinstance(extender, Extender) else extender, "httpTimeout": "5s"}
    entry.update(fields)
    return entry


class ExtenderTest(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client
        self.client.create_all([make_node("n%d" % i, cpu="8", memory="16Gi") for i in range(4)])

    def start_extender(self, **kwargs):
        extender = Extender(**kwargs)
        self.addCleanup(extender.close)
        return extender

    def start(self, extenders):
        scheduler = self.cluster.start_scheduler(scheduler_config(extra={"extenders": extenders}))
        scheduler.wait_ready()
        return scheduler

    def wait_bound(self, names, timeout=60):
        return self.cluster.wait(lambda: all_bound(self.client, names), timeout,
                                 lambda: "pods bound: %s; %s" % (names, describe_pending(self.client)))

    def test_filter_and_prioritize_place_pods_where_the_extender_wants(self):
        extender = self.start_extender(reject={"n0", "n1"}, favourite="n3")
        # An ignorable extender that answers 500, and one nobody listens on: neither blocks.
        broken = self.start_extender(broken=True)
        scheduler = self.start([
            extender_config(broken, filterVerb="filter", prioritizeVerb="prioritize", weight=1, ignorable=True),
            extender_config("http://127.0.0.1:%d/none" % free_port(), filterVerb="filter", ignorable=True,
                            httpTimeout="1s"),
            extender_config(extender, filterVerb="filter", prioritizeVerb="prioritize", weight=5),
        ])
        names = ["p%d" % i for i in range(6)]
        self.client.create_all([make_pod(n, cpu="100m", memory="64Mi") for n in names])
        placed = self.wait_bound(names)
        # n0/n1 filtered out, n3 prioritised far above n2: every pod goes to n3.
        self.assertEqual({placed[n] for n in names}, {"n3"}, placed)
        # The extender saw whole Node objects (not nodeCacheCapable) and only what the plugins let through.
        filters = extender.calls_for("filter", "p0")
        self.assertTrue(filters, extender.calls)
        self.assertEqual(sorted(filters[0][2]), ["n0", "n1", "n2", "n3"])
        # Prioritize got only the nodes that passed the filter.
        self.assertEqual(sorted(extender.calls_for("prioritize", "p0")[0][2]), ["n2", "n3"])
        # The broken ignorable extender was asked (and its failure skipped).
        self.assertTrue(broken.calls_for("filter", "p0"))

        # Every node turned down: the extender's reason is counted in the FitError.
        extender.reject = {"n0", "n1", "n2", "n3"}
        self.client.create(make_pod("nowhere", cpu="100m"))
        c = self.cluster.wait(lambda: condition(self.client.pod("nowhere") or {}), 30, "nowhere gets a condition")
        self.assertEqual((c["status"], c["reason"]), ("False", "Unschedulable"), c)
        self.assertTrue(c["message"].startswith("0/4 nodes are available: 4 extender says no."), c["message"])

        metrics = scheduler.metrics()
        for point in ("PreFilter", "Filter", "Score", "Reserve", "Permit", "PreBind", "Bind", "PostBind"):
            self.assertGreater(metric_sum(metrics, "scheduler_framework_extension_point_duration_seconds_count",
                                          extension_point=point, profile="troupe-scheduler"), 0, point)
        for actor in ("queue", "cycle", "writer"):
            self.assertGreater(metric_sum(metrics, "troupe_actor_messages_total", actor=actor), 0, actor)
            self.assertGreater(metric_sum(metrics, "troupe_actor_message_duration_seconds_count", actor=actor), 0)

    def test_nodes_a_filter_extender_turns_down_are_never_chosen_even_when_they_score_best(self):
        # n0 is empty; n1..n3 are mostly taken, so every scorer prefers n0. The
        # extender turns n0 down and does not prioritize: pods must go elsewhere.
        self.client.create_all([make_pod("filler-%d" % i, cpu="6", memory="12Gi", node_name="n%d" % i)
                                for i in (1, 2, 3)])
        extender = self.start_extender(reject={"n0"})
        self.start([extender_config(extender, filterVerb="filter", nodeCacheCapable=True)])
        names = ["q%d" % i for i in range(6)]
        self.client.create_all([make_pod(n, cpu="100m", memory="64Mi") for n in names])
        placed = self.wait_bound(names)
        self.assertNotIn("n0", {placed[n] for n in names}, placed)

    def test_a_failing_extender_that_is_not_ignorable_fails_the_attempt(self):
        broken = self.start_extender(broken=True)
        self.start([extender_config(broken, filterVerb="filter")])
        self.client.create(make_pod("p", cpu="100m"))
        c = self.cluster.wait(lambda: condition(self.client.pod("p") or {}), 30, "p gets a condition")
        self.assertEqual((c["status"], c["reason"]), ("False", "SchedulerError"), c)
        self.assertIn("failed filter with extender at URL %s/filter, code 500" % broken.url, c["message"])

    def test_an_attempt_that_ends_in_an_error_clears_the_nomination(self):
        # As handleSchedulingFailure's clearNominatedNode: the pod's nominatedNodeName goes.
        broken = self.start_extender(broken=True)
        self.client.create(make_pod("p", cpu="100m"))
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/p/status", {"status": {"nominatedNodeName": "n1"}},
                       "application/merge-patch+json")
        self.start([extender_config(broken, filterVerb="filter")])
        c = self.cluster.wait(lambda: condition(self.client.pod("p") or {}), 30, "p gets a condition")
        self.assertEqual(c["reason"], "SchedulerError", c)
        self.cluster.wait(lambda: not self.client.pod("p")["status"].get("nominatedNodeName"), 10,
                          "p's nominatedNodeName cleared")

    def test_managed_resources_limit_which_pods_reach_the_extender(self):
        # The nodes have the widgets before the scheduler reads them: a pod tried while only some
        # updates had arrived would reach the extender with fewer nodes.
        for node in ("n0", "n1", "n2", "n3"):
            status, body = self.client.request(
                "PATCH", "/api/v1/nodes/%s/status" % node,
                {"status": {"capacity": {"example.com/widget": "4"}, "allocatable": {"example.com/widget": "4"}}},
                content_type="application/merge-patch+json")
            self.assertEqual(status, 200, body)
        extender = self.start_extender(reject={"n0", "n1", "n2"})
        self.start([extender_config(extender, filterVerb="filter", nodeCacheCapable=True,
                                    managedResources=[{"name": "example.com/widget"}])])
        self.client.create(make_pod("plain", cpu="100m"))
        self.client.create(make_pod("widget", cpu="100m", extra_requests={"example.com/widget": "1"}))
        placed = self.wait_bound(["plain", "widget"])
        self.assertEqual(placed["widget"], "n3")
        self.assertEqual(extender.calls_for("filter", "plain"), [])
        calls = extender.calls_for("filter", "widget")
        self.assertTrue(calls)
        self.assertEqual(sorted(calls[0][2]), ["n0", "n1", "n2", "n3"])  # NodeNames: nodeCacheCapable

    def test_resources_the_extender_manages_with_ignored_by_scheduler_are_left_to_it(self):
        # No node advertises example.com/vram: NodeResourcesFit leaves it to the extender, which picks n3.
        extender = self.start_extender(reject={"n0", "n1", "n2"})
        self.start([extender_config(extender, filterVerb="filter",
                                    managedResources=[{"name": "example.com/vram", "ignoredByScheduler": True}])])
        self.client.create(make_pod("vram", cpu="100m", extra_requests={"example.com/vram": "8"}))
        placed = self.wait_bound(["vram"])
        self.assertEqual(placed["vram"], "n3")
        self.assertTrue(extender.calls_for("filter", "vram"))

    def test_a_binder_extender_binds_the_pod(self):
        # The extender's own connection: it answers on its server threads while the test polls.
        binder_client = Client(self.cluster.server)
        self.addCleanup(binder_client.close)

        def bind(namespace, name, uid, node):
            status, body = binder_client.request(
                "POST", "/api/v1/namespaces/%s/pods/%s/binding" % (namespace, name),
                {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": name, "namespace": namespace,
                                                                     "uid": uid},
                 "target": {"apiVersion": "v1", "kind": "Node", "name": node}})
            return "" if status in (200, 201) else "binding failed: %s %s" % (status, body)

        extender = self.start_extender(favourite="n1", binder=bind)
        self.start([extender_config(extender, prioritizeVerb="prioritize", weight=10, bindVerb="bind")])
        names = ["b%d" % i for i in range(3)]
        self.client.create_all([make_pod(n, cpu="100m") for n in names])
        placed = self.wait_bound(names)
        self.assertEqual({placed[n] for n in names}, {"n1"}, placed)
        bound_by_extender = {c[1] for c in extender.calls_for("bind")}
        self.assertEqual(bound_by_extender, set(names))
        events = self.cluster.wait(lambda: [e for e in self.client.events_about("b0") if e["reason"] == "Scheduled"],
                                   30, "Scheduled event for b0")
        self.assertIn("to n1", events[0]["message"])


    def fill_nodes(self):
        """n0 runs a priority-1 pod, n1..n3 priority-5 pods, each taking the whole node:
        the scheduler alone would evict n0's pod (the lowest victim priority)."""
        self.client.create_all([make_pod("low-%d" % i, cpu="8", node_name="n%d" % i, priority=1 if i == 0 else 5)
                                for i in range(4)])

    def wait_condition(self, name):
        return self.cluster.wait(lambda: condition(self.client.pod(name) or {}), 30, name + " gets a condition")

    def test_a_preempting_extender_chooses_among_the_candidates(self):
        self.fill_nodes()
        extender = self.start_extender(preempt_keep={"n2"})
        self.start([extender_config(extender, preemptVerb="preempt")])
        self.client.create(make_pod("high", cpu="4", priority=10))
        self.assertEqual(self.wait_bound(["high"])["high"], "n2")
        remaining = sorted(p["metadata"]["name"] for p in self.client.pods())
        self.assertEqual(remaining, ["high", "low-0", "low-1", "low-3"])
        # Every candidate reached the extender with its victims as whole pods.
        args = extender.preempt_args[0]
        self.assertEqual(args["Pod"]["metadata"]["name"], "high")
        self.assertIsNone(args.get("NodeNameToMetaVictims"))
        victims = {n: [p["metadata"]["name"] for p in v["Pods"]] for n, v in args["NodeNameToVictims"].items()}
        self.assertEqual(victims, {"n%d" % i: ["low-%d" % i] for i in range(4)})
        preempted = [e for e in self.client.events_about("low-2") if e["reason"] == "Preempted"]
        self.assertTrue(preempted)

    def test_a_preempting_extender_that_keeps_nothing_or_fails_stops_the_preemption(self):
        self.fill_nodes()
        uids = {p["metadata"]["name"]: p["metadata"]["uid"] for p in self.client.pods()}
        # The nodes have the extenders' resources before the scheduler reads them.
        for node in ("n0", "n1", "n2", "n3"):
            self.client.ok("PATCH", "/api/v1/nodes/%s/status" % node,
                           {"status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110",
                                                       "example.com/a": "1", "example.com/b": "1"}}},
                           "application/merge-patch+json")
        keeps_nothing = self.start_extender(preempt_keep=set())
        broken = self.start_extender(broken=True)
        self.start([extender_config(keeps_nothing, preemptVerb="preempt", nodeCacheCapable=True,
                                    managedResources=[{"name": "example.com/a"}]),
                    extender_config(broken, preemptVerb="preempt", nodeCacheCapable=True,
                                    managedResources=[{"name": "example.com/b"}])])
        self.client.create(make_pod("kept-out", cpu="4", priority=10, extra_requests={"example.com/a": "1"}))
        c = self.wait_condition("kept-out")
        self.assertEqual((c["status"], c["reason"]), ("False", "Unschedulable"), c)
        self.assertIn("preemption: no candidate node for preemption", c["message"])
        # A nodeCacheCapable extender gets the victims' UIDs only.
        meta = keeps_nothing.preempt_args[0]["NodeNameToMetaVictims"]
        self.assertEqual({n: [p["UID"] for p in v["Pods"]] for n, v in meta.items()},
                         {"n%d" % i: [uids["low-%d" % i]] for i in range(4)})
        self.assertIsNone(keeps_nothing.preempt_args[0].get("NodeNameToVictims"))
        self.assertEqual(broken.calls_for("preempt"), [])  # not interested in kept-out

        self.client.create(make_pod("failed", cpu="4", priority=10, extra_requests={"example.com/b": "1"}))
        c = self.wait_condition("failed")
        self.assertEqual((c["status"], c["reason"]), ("False", "Unschedulable"), c)
        # An Error of DefaultPreemption's PostFilter, as upstream words it.
        self.assertIn('running PostFilter plugin "DefaultPreemption": preemption: failed preempt with extender at '
                      'URL %s/preempt, code 500' % broken.url, c["message"])
        for name in ("kept-out", "failed"):
            self.assertFalse((self.client.pod(name).get("status") or {}).get("nominatedNodeName"), name)
        self.assertEqual(sorted(p["metadata"]["name"] for p in self.client.pods()),
                         ["failed", "kept-out", "low-0", "low-1", "low-2", "low-3"])

    def test_a_preemptor_deleted_while_the_extender_answers_evicts_nothing(self):
        self.fill_nodes()
        extender = self.start_extender(preempt_delay=3)
        self.start([extender_config(extender, preemptVerb="preempt", httpTimeout="10s")])
        self.client.create(make_pod("high", cpu="4", priority=10))
        self.cluster.wait(lambda: extender.calls_for("preempt", "high"), 30, "the extender is asked for high")
        self.client.ok("DELETE", "/api/v1/namespaces/default/pods/high")
        time.sleep(5)  # the answer has come back (3 s) and been acted on
        self.assertEqual(sorted(p["metadata"]["name"] for p in self.client.pods()),
                         ["low-0", "low-1", "low-2", "low-3"])
        # Nothing holds room for the deleted pod: the next one preempts n0's pod and binds there.
        extender.preempt_delay = 0
        self.client.create(make_pod("next", cpu="8", priority=10))
        self.assertEqual(self.wait_bound(["next"])["next"], "n0")


if __name__ == "__main__":
    unittest.main()
