"""troupe scheduler end to end: inter-pod affinity and topology spread
(kube-scheduler's InterPodAffinity and PodTopologySpread, in the default profile).

Both count pods per topology domain (a zone, a host) over the whole cluster,
so these tests check what one node partition alone could not decide:
- required anti-affinity keeps replicas on separate hosts, both ways (a new
  pod avoids matching pods, and a placed pod's anti-affinity keeps matching
  newcomers away, even one placed by another scheduler); the one that fits
  nowhere is reported and placed once a replica is deleted;
- required affinity puts a pod in the zone of the pods it names, and a pod
  waiting for its affinity is tried again as soon as a matching pod is placed;
- a bound pod whose labels change is counted by its new labels;
- a DoNotSchedule spread constraint keeps zones within maxSkew, counting
  pods the scheduler has only reserved, and reports the nodes it rejects;
- preferred affinity and ScheduleAnyway spread outweigh the resource scores;
- a namespaceSelector selects namespaces by their labels, on the pod being
  scheduled and on placed pods, and follows a namespace's new labels.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import SchedulingTest, all_bound, describe_pending, make_node, make_pod  # noqa: E402

HOST = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"


def term(labels, key, **extra):
    return dict({"labelSelector": {"matchLabels": labels}, "topologyKey": key}, **extra)


def anti_affinity_pod(name, app, cpu="100m"):
    return make_pod(name, cpu=cpu, memory="64Mi", labels={"app": app},
                    affinity={"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                        term({"app": app}, HOST)]}})


def spread_pod(name, app, key=ZONE, max_skew=1, when="DoNotSchedule", cpu="1"):
    pod = make_pod(name, cpu=cpu, memory="64Mi", labels={"app": app})
    pod["spec"]["topologySpreadConstraints"] = [{"maxSkew": max_skew, "topologyKey": key,
                                                 "whenUnsatisfiable": when,
                                                 "labelSelector": {"matchLabels": {"app": app}}}]
    return pod


def zone_node(name, zone, cpu="4"):
    return make_node(name, cpu=cpu, memory="8Gi", labels={ZONE: zone})


class PodAffinityTest(SchedulingTest):
    def node_of(self, name):
        return (self.client.pod(name) or {}).get("spec", {}).get("nodeName")

    def test_required_anti_affinity_spreads_replicas_and_waits_for_room(self):
        self.start([make_node("n-%d" % i) for i in range(3)])
        names = ["web-%d" % i for i in range(3)]
        placed = self.place([anti_affinity_pod(n, "web") for n in names])
        self.assertEqual(len({placed[n]["spec"]["nodeName"] for n in names}), 3)
        # A fourth replica: every host has a web pod its anti-affinity rejects.
        message = self.create_unschedulable(anti_affinity_pod("web-3", "web"))
        self.assertTrue(message.startswith("0/3 nodes are available: 3 node(s) didn't match pod anti-affinity "
                                           "rules."), message)
        # A replica goes: the pending one is tried again and takes its host.
        freed = placed["web-1"]["spec"]["nodeName"]
        self.client.delete_pod("web-1")
        self.cluster.wait(lambda: self.node_of("web-3") == freed, 30,
                          "web-3 placed on the freed host; " + describe_pending(self.client))

    def test_anti_affinity_of_a_pod_bound_by_another_scheduler_keeps_newcomers_away(self):
        guard = anti_affinity_pod("guard", "web")
        guard["spec"]["nodeName"] = "n-0"
        del guard["spec"]["schedulerName"]
        self.start([make_node("n-0"), make_node("n-1"), guard])
        # A plain pod labelled app=web, without terms of its own.
        names = ["plain-%d" % i for i in range(4)]
        placed = self.place([make_pod(n, cpu="100m", memory="64Mi", labels={"app": "web"}) for n in names])
        self.assertEqual({placed[n]["spec"]["nodeName"] for n in names}, {"n-1"})
        # One that may only go to the guard's host is reported with the guard's rule.
        message = self.create_unschedulable(make_pod("pinned", cpu="100m", memory="64Mi", labels={"app": "web"},
                                                     node_selector={HOST: "n-0"}))
        self.assertIn("1 node(s) didn't satisfy existing pods anti-affinity rules", message)

    def test_required_affinity_follows_the_zone_of_the_pods_it_names(self):
        nodes = [zone_node("a-0", "a"), zone_node("a-1", "a"), zone_node("b-0", "b"), zone_node("b-1", "b")]
        self.start(nodes)
        db = make_pod("db", cpu="100m", memory="64Mi", labels={"app": "db"}, node_selector={HOST: "b-1"})
        self.place([db])
        wants_db = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term({"app": "db"}, ZONE)]}}
        names = ["api-%d" % i for i in range(6)]
        placed = self.place([make_pod(n, cpu="100m", memory="64Mi", affinity=wants_db) for n in names])
        self.assertEqual({placed[n]["spec"]["nodeName"] for n in names} - {"b-0", "b-1"}, set())
        # Nothing to follow in another namespace: no node qualifies.
        other = make_pod("api-x", cpu="100m", memory="64Mi", namespace="default",
                         affinity={"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                             term({"app": "db"}, ZONE, namespaces=["elsewhere"])]}})
        message = self.create_unschedulable(other)
        self.assertTrue(message.startswith("0/4 nodes are available: 4 node(s) didn't match pod affinity rules."),
                        message)

    def test_a_pod_waiting_for_its_affinity_is_placed_once_a_matching_pod_is(self):
        self.start([zone_node("a-0", "a"), zone_node("b-0", "b")])
        wants_db = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term({"app": "db"}, ZONE)]}}
        # api does not match its own term, so it is not the first of a group: it waits for a db pod.
        message = self.create_unschedulable(make_pod("api", cpu="100m", memory="64Mi", affinity=wants_db))
        self.assertTrue(message.startswith("0/2 nodes are available: 2 node(s) didn't match pod affinity rules."),
                        message)
        # A db pod is placed in zone b: that placement is the event that gives api another try (no resync wait).
        self.place([make_pod("db-1", cpu="100m", memory="64Mi", labels={"app": "db"}, node_selector={HOST: "b-0"})])
        self.cluster.wait(lambda: self.node_of("api") == "b-0", 10, "api follows db-1 to zone b")

    def test_a_bound_pod_relabelled_stops_repelling(self):
        self.start([make_node("n-0")])
        self.place([make_pod("db", cpu="100m", memory="64Mi", labels={"app": "db"})])
        avoids_db = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term({"app": "db"}, HOST)]}}
        message = self.create_unschedulable(make_pod("api", cpu="100m", memory="64Mi", affinity=avoids_db))
        self.assertIn("1 node(s) didn't match pod anti-affinity rules", message)
        # The bound pod's label changes: the scheduler counts its new labels and tries api again.
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/db", {"metadata": {"labels": {"app": "cache"}}},
                       content_type="application/merge-patch+json")
        self.cluster.wait(lambda: self.node_of("api") == "n-0", 10, "api placed beside the relabelled pod")

    def test_do_not_schedule_spread_keeps_zones_within_max_skew(self):
        # Zone b has room for one pod only.
        nodes = [zone_node("a-0", "a"), zone_node("a-1", "a"), zone_node("b-0", "b", cpu="1")]
        self.start(nodes)
        names = ["s-%d" % i for i in range(3)]
        placed = self.place([spread_pod(n, "spread") for n in names])
        zones = sorted(placed[n]["spec"]["nodeName"][0] for n in names)
        self.assertEqual(zones, ["a", "a", "b"])
        # A fourth would make zone a 3 against zone b's 1.
        message = self.create_unschedulable(spread_pod("s-3", "spread"))
        self.assertTrue(message.startswith("0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match "
                                           "pod topology spread constraints."), message)

    def test_spread_constraint_on_a_missing_label_is_reported(self):
        self.start([make_node("n-0"), make_node("n-1")])
        message = self.create_unschedulable(spread_pod("s-0", "spread", key="rack"))
        self.assertTrue(message.startswith("0/2 nodes are available: 2 node(s) didn't match pod topology spread "
                                           "constraints (missing required label)."), message)

    def test_preferred_affinity_outweighs_the_emptier_nodes(self):
        self.start([make_node("n-%d" % i) for i in range(3)])
        self.place([make_pod("cache", cpu="2", memory="1Gi", labels={"app": "cache"},
                             node_selector={HOST: "n-2"})])
        near_cache = {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 100, "podAffinityTerm": term({"app": "cache"}, HOST)}]}}
        placed = self.place([make_pod("client", cpu="100m", memory="64Mi", affinity=near_cache)])
        self.assertEqual(placed["client"]["spec"]["nodeName"], "n-2")

    def test_schedule_anyway_spread_prefers_the_emptier_zone(self):
        # Zone b's node is half used by a pod the spread does not count, so the
        # resource scores alone would put both pods in zone a.
        busy = make_pod("busy", cpu="2", memory="64Mi", node_selector={HOST: "b-0"})
        nodes = [zone_node("a-0", "a", cpu="64"), zone_node("b-0", "b", cpu="4")]
        self.start(nodes)
        self.place([busy])
        first = self.place([spread_pod("soft-0", "soft", when="ScheduleAnyway")])
        self.assertEqual(first["soft-0"]["spec"]["nodeName"], "a-0")
        second = self.place([spread_pod("soft-1", "soft", when="ScheduleAnyway")])
        self.assertEqual(second["soft-1"]["spec"]["nodeName"], "b-0")

    def test_namespace_selectors_read_the_namespaces_labels(self):
        for name, team in (("team-a", "a"), ("team-b", "b")):
            self.client.ok("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace",
                                                          "metadata": {"name": name, "labels": {"team": team}}})
        self.label_namespace("default", "c")
        # An app=x pod in team-a on n-0 and one in team-b on n-1; on n-2 a guard of team-b
        # that keeps app=y pods of namespaces labelled team=c off its host.
        x_a = make_pod("x", namespace="team-a", labels={"app": "x"}, node_name="n-0", scheduler=None)
        x_b = make_pod("x", namespace="team-b", labels={"app": "x"}, node_name="n-1", scheduler=None)
        guard = make_pod("guard", namespace="team-b", node_name="n-2", scheduler=None, affinity={"podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [
                term({"app": "y"}, HOST, namespaceSelector={"matchLabels": {"team": "c"}})]}})
        self.start([make_node("n-%d" % i) for i in range(3)] + [x_a, x_b, guard])

        def with_terms(name, kind, team, **extra):
            return make_pod(name, cpu="100m", memory="64Mi", affinity={kind: {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    term({"app": "x"}, HOST, namespaceSelector={"matchLabels": {"team": team}})]}}, **extra)
        # Anti-affinity to team-a's app=x pod only: anywhere but n-0.
        avoiders = self.place([with_terms("avoid-%d" % i, "podAntiAffinity", "a") for i in range(4)])
        self.assertNotIn("n-0", {p["spec"]["nodeName"] for p in avoiders.values()})
        # Affinity to it: n-0 only.
        self.assertEqual(self.place_one(with_terms("join", "podAffinity", "a"))["spec"]["nodeName"], "n-0")
        # The guard's selector matches this pod by the labels of its namespace (default, team=c).
        pinned = {"kubernetes.io/hostname": "n-2"}
        message = self.create_unschedulable(make_pod("y-0", cpu="100m", memory="64Mi", labels={"app": "y"},
                                                     node_selector=pinned))
        self.assertIn("1 node(s) didn't satisfy existing pods anti-affinity rules", message)
        # Relabelled, the namespace no longer matches: the next such pod may go there.
        self.label_namespace("default", "d")
        self.cluster.wait(lambda: self.scheduler.metric("troupe_watch_events_total", resource="namespaces",
                                                        type="MODIFIED") >= 1, 30, "the scheduler saw the new labels")
        y_1 = make_pod("y-1", cpu="100m", memory="64Mi", labels={"app": "y"}, node_selector=pinned)
        self.assertEqual(self.place_one(y_1)["spec"]["nodeName"], "n-2")

    def label_namespace(self, name, team):
        self.client.ok("PATCH", "/api/v1/namespaces/" + name, {"metadata": {"labels": {"team": team}}},
                       content_type="application/merge-patch+json")


if __name__ == "__main__":
    unittest.main()
