"""troupe scheduler end to end: several profiles in one process.

Two profiles with different schedulerNames and different plugin sets share
the nodes: each places its own pods with its own plugins (a pod of the profile
that disabled NodeAffinity ignores its nodeSelector; the same pod addressed
to the other profile cannot be placed), events name the profile as the
reporting controller, the attempts metric counts per profile, and a pod
addressed to a scheduler name no profile has is left alone.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scheduler_helpers import (Cluster, all_bound, capacity_violations, condition, describe_pending,  # noqa: E402
                               make_node, make_pod, profile, scheduler_config)


class ProfilesTest(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client

    def test_two_profiles_each_place_their_own_pods(self):
        config = scheduler_config(profiles=[
            profile("alpha"),
            profile("beta", plugins={"filter": {"disabled": [{"name": "NodeAffinity"}]},
                                     "score": {"disabled": [{"name": "NodeAffinity"}]}}),
        ])
        self.client.create_all([make_node("n%d" % i, cpu="4", memory="8Gi", labels={"zone": "a"})
                                for i in range(4)])
        scheduler = self.cluster.start_scheduler(config)
        scheduler.wait_ready()
        pods = [make_pod("alpha-%d" % i, cpu="200m", memory="128Mi", scheduler="alpha") for i in range(10)]
        pods += [make_pod("beta-%d" % i, cpu="200m", memory="128Mi", scheduler="beta") for i in range(10)]
        # The same selector that matches nothing, under both profiles.
        pods.append(make_pod("alpha-selective", cpu="100m", scheduler="alpha", node_selector={"zone": "z"}))
        pods.append(make_pod("beta-selective", cpu="100m", scheduler="beta", node_selector={"zone": "z"}))
        pods.append(make_pod("gamma-0", cpu="100m", scheduler="gamma"))
        self.client.create_all(pods, threads=3)

        names = ["alpha-%d" % i for i in range(10)] + ["beta-%d" % i for i in range(10)] + ["beta-selective"]
        self.cluster.wait(lambda: all_bound(self.client, names), 60,
                          lambda: "both profiles' pods bound; " + describe_pending(self.client))
        c = self.cluster.wait(lambda: condition(self.client.pod("alpha-selective") or {}), 30,
                              "alpha-selective gets a condition")
        self.assertEqual((c["status"], c["reason"]), ("False", "Unschedulable"))
        self.assertEqual(c["message"], "0/4 nodes are available: 4 node(s) didn't match Pod's node affinity/selector."
                         " preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling..")

        # The pod for an unknown scheduler name: untouched.
        gamma = self.client.pod("gamma-0")
        self.assertIsNone(gamma["spec"].get("nodeName"))
        self.assertIsNone(condition(gamma))
        self.assertEqual(self.client.events_about("gamma-0"), [])

        # Events and metrics are per profile.
        for name, controller in (("alpha-0", "alpha"), ("beta-0", "beta"), ("alpha-selective", "alpha")):
            events = self.cluster.wait(lambda: self.client.events_about(name), 30, "events about " + name)
            self.assertEqual({e["controller"] for e in events}, {controller}, events)
        self.cluster.wait(
            lambda: (scheduler.metric("scheduler_schedule_attempts_total", profile="alpha", result="scheduled"),
                     scheduler.metric("scheduler_schedule_attempts_total", profile="beta", result="scheduled"))
            == (10.0, 11.0), 10,
            lambda: "attempt counts alpha 10, beta 11: %s" % [
                (k, v) for k, v in scheduler.metrics().items() if k[0] == "scheduler_schedule_attempts_total"])
        self.assertGreaterEqual(
            scheduler.metric("scheduler_schedule_attempts_total", profile="alpha", result="unschedulable"), 1)
        self.assertEqual(
            scheduler.metric("scheduler_schedule_attempts_total", profile="beta", result="unschedulable"), 0)
        self.assertEqual(capacity_violations(self.client.nodes(), self.client.pods()), [])

    def test_koordinators_example_profile_places_pods_and_gangs(self):
        """config/examples/koordinator.yaml as written: a plain pod and a gang of
        two under koord-scheduler, with Koordinator's plugins at their points."""
        with open(os.path.join(SOURCE_DIR, "config", "examples", "koordinator.yaml")) as f:
            config = f.read()
        self.client.create_all([make_node("n%d" % i, cpu="4", memory="8Gi") for i in range(2)])
        scheduler = self.cluster.start_scheduler(config)
        # Its lease lives in koordinator-system: until a Koordinator install has
        # made that namespace, the scheduler does not lead, and says why.
        scheduler.wait_logged('leader election: koordinator-system/koord-scheduler: error initially creating '
                              'leader election record: namespaces "koordinator-system" not found')
        self.client.ok("POST", "/api/v1/namespaces",
                       {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "koordinator-system"}})
        scheduler.wait_logged("became leader of koordinator-system/koord-scheduler")
        gang = {"gang.scheduling.koordinator.sh/name": "pair", "gang.scheduling.koordinator.sh/min-available": "2"}
        pods = [make_pod("plain", cpu="1", memory="1Gi", scheduler="koord-scheduler")]
        for i in range(2):
            member = make_pod("member-%d" % i, cpu="1", memory="1Gi", scheduler="koord-scheduler")
            member["metadata"]["annotations"] = dict(gang)
            pods.append(member)
        self.client.create_all(pods)
        names = [p["metadata"]["name"] for p in pods]
        self.cluster.wait(lambda: all_bound(self.client, names), 60, lambda: describe_pending(self.client))
        events = self.client.events_about("plain")
        self.assertEqual({e["controller"] for e in events}, {"koord-scheduler"}, events)


if __name__ == "__main__":
    unittest.main()
