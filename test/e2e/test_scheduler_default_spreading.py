"""troupe scheduler end to end: PodTopologySpread's default constraints.

A pod without topologySpreadConstraints of its own is spread over its
siblings, the pods selected by the Services that select it and by its
controller (a ReplicaSet, StatefulSet or ReplicationController), as
kube-scheduler does:
- with `defaultingType: System` (the default) a ReplicaSet's pods, and a
  Service's pods, avoid the host that already runs many of them, although
  MostAllocated alone would stack them there; pods nobody selects stack;
- with `defaultingType: List` a DoNotSchedule default keeps a StatefulSet's
  pods within maxSkew per host and reports the hosts it rejects;
- Services and controllers created after the scheduler started count.
"""
import collections
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (SchedulingTest, fit_strategy, make_node, make_pod, profile,  # noqa: E402
                               scheduler_config)

NOT_MATCH = "node(s) didn't match pod topology spread constraints"


def replica_set(name, labels):
    return {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": name, "namespace": "default"},
            "spec": {"replicas": 0, "selector": {"matchLabels": labels},
                     "template": {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "x"}]}}}}


def stateful_set(name, labels):
    obj = replica_set(name, labels)
    obj["kind"] = "StatefulSet"
    obj["spec"]["serviceName"] = name
    return obj


def service(name, selector):
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name, "namespace": "default"},
            "spec": {"selector": selector, "ports": [{"port": 80}]}}


def owned_pod(name, labels, owner_kind, owner_name, node_name=None):
    pod = make_pod(name, cpu="100m", memory="64Mi", labels=labels, node_name=node_name,
                   scheduler=None if node_name else "troupe-scheduler")
    pod["metadata"]["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": owner_kind, "name": owner_name,
                                           "uid": "uid-" + owner_name, "controller": True}]
    return pod


def packing_profile(plugin_config=None):
    """MostAllocated stacks pods on the fullest node; PodTopologySpread (weight 2) is the only other scorer."""
    scorers = {"disabled": [{"name": "*"}],
               "enabled": [{"name": "NodeResourcesFit", "weight": 1}, {"name": "PodTopologySpread", "weight": 2}]}
    return scheduler_config(profiles=[profile(plugins={"score": scorers},
                                              plugin_config=[fit_strategy("MostAllocated")] + (plugin_config or []))],
                            extra={"clientConnection": {"qps": 2000, "burst": 2000}})


class DefaultSpreadingTest(SchedulingTest):
    def hosts_of(self, names):
        return collections.Counter(self.client.pod(n)["spec"]["nodeName"] for n in names)

    def test_system_defaults_spread_a_replica_sets_pods_and_a_services_pods(self):
        web = {"app": "web"}
        api = {"app": "api"}
        # n-0 already runs 4 pods of each group (bound by someone else): MostAllocated prefers it.
        placed = [owned_pod("web-old-%d" % i, web, "ReplicaSet", "web", node_name="n-0") for i in range(4)]
        placed += [make_pod("api-old-%d" % i, cpu="100m", memory="64Mi", labels=api, node_name="n-0", scheduler=None)
                   for i in range(4)]
        self.start([make_node("n-%d" % i) for i in range(3)] + placed, packing_profile())
        self.client.create_all([replica_set("web", web), service("api", api)], threads=1)
        self.cluster.wait(lambda: self.scheduler_saw("replicasets") and self.scheduler_saw("services"), 30,
                          "the scheduler saw the ReplicaSet and the Service")
        web_pods = ["web-%d" % i for i in range(6)]
        self.place([owned_pod(n, web, "ReplicaSet", "web") for n in web_pods])
        self.assertEqual(self.hosts_of(web_pods), {"n-1": 3, "n-2": 3})
        api_pods = ["api-%d" % i for i in range(6)]
        self.place([make_pod(n, cpu="100m", memory="64Mi", labels=api) for n in api_pods])
        self.assertEqual(self.hosts_of(api_pods), {"n-1": 3, "n-2": 3})
        # Pods that no Service or controller selects are not spread: MostAllocated stacks them.
        lone = ["lone-%d" % i for i in range(3)]
        self.place([make_pod(n, cpu="100m", memory="64Mi", labels={"app": "lone"}) for n in lone])
        self.assertEqual(len(self.hosts_of(lone)), 1)

    def test_list_defaults_with_do_not_schedule_filter_hosts(self):
        db = {"app": "db"}
        spread = {"name": "PodTopologySpread", "args": {"defaultingType": "List", "defaultConstraints": [
            {"maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule",
             # Every host counts, also those a pod's nodeSelector rules out (Honor would count only n-0 below).
             "nodeAffinityPolicy": "Ignore"}]}}
        objects = [make_node("n-%d" % i) for i in range(3)] + [stateful_set("db", db)]
        objects += [owned_pod("db-old-%d" % i, db, "StatefulSet", "db", node_name="n-0") for i in range(2)]
        self.start(objects, packing_profile([spread]))
        self.cluster.wait(lambda: self.scheduler_saw("statefulsets"), 30, "the scheduler saw the StatefulSet")
        # n-0 has 2 of the StatefulSet's pods: the next two go to n-1 and n-2, one each.
        names = ["db-%d" % i for i in range(2)]
        self.place([owned_pod(n, db, "StatefulSet", "db") for n in names])
        self.assertEqual(self.hosts_of(names), {"n-1": 1, "n-2": 1})
        # One more pinned to n-0 would make its skew 2: refused there, with the reason.
        pinned = owned_pod("db-pinned", db, "StatefulSet", "db")
        pinned["spec"]["nodeSelector"] = {"kubernetes.io/hostname": "n-0"}
        message = self.create_unschedulable(pinned)
        self.assertIn("1 " + NOT_MATCH, message)
        # A pod of no StatefulSet goes to n-0 freely.
        free = make_pod("free", cpu="100m", memory="64Mi", labels=db, node_selector={"kubernetes.io/hostname": "n-0"})
        self.assertEqual(self.place_one(free)["spec"]["nodeName"], "n-0")

    def scheduler_saw(self, resource):
        return self.scheduler.metric("troupe_watch_events_total", resource=resource, type="ADDED") >= 1


if __name__ == "__main__":
    unittest.main()
