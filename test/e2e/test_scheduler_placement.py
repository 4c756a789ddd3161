"""troupe scheduler end to end: where pods go.

nodeSelector; required node affinity (In, NotIn, Exists, DoesNotExist, Gt, Lt,
ORed terms); preferred node affinity with weights; NoSchedule, NoExecute and
PreferNoSchedule taints with and without tolerations; unschedulable nodes;
hostPorts (two pods with the same hostPort never share a node); ImageLocality
(a node that already holds a pod's large image wins); and profile score settings: NodeResourcesFit MostAllocated packs while LeastAllocated
spreads, and a score weight changes which plugin wins.
"""
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (Cluster, all_bound, capacity_violations, condition, describe_pending,  # noqa: E402
                               fit_strategy, make_node, make_pod, preferred_node_affinity, profile,
                               required_node_affinity, scheduler_config, taint, toleration)


def pods_per_node(placed, prefix):
    """Sorted pod counts of the nodes used by the pods whose names start with prefix."""
    counts = {}
    for name, node in placed.items():
        if name.startswith(prefix):
            counts[node] = counts.get(node, 0) + 1
    return sorted(counts.values())


class PlacementTest(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client

    def start(self, nodes, config=None):
        self.client.create_all(nodes)
        self.scheduler = self.cluster.start_scheduler(config)
        self.scheduler.wait_ready()

    def place(self, pods, timeout=60):
        """Creates the pods and waits until all are bound; returns name -> node."""
        self.client.create_all(pods, threads=2)
        names = [p["metadata"]["name"] for p in pods]
        placed = self.cluster.wait(lambda: all_bound(self.client, names), timeout,
                                   lambda: "%d pods bound; %s" % (len(names), describe_pending(self.client)))
        return {n: placed[n] for n in names}

    def unschedulable_message(self, name, timeout=30):
        c = self.cluster.wait(lambda: (condition(self.client.pod(name) or {}) or {}).get("status") == "False"
                              and condition(self.client.pod(name)), timeout, name + " marked unschedulable")
        self.assertEqual(c["reason"], "Unschedulable")
        self.assertIsNone(self.client.pod(name)["spec"].get("nodeName"))
        return c["message"]

    def test_node_selector(self):
        zones = ["a", "b", "c"]
        self.start([make_node("n-%s-%d" % (z, i), labels={"zone": z}) for z in zones for i in range(2)])
        placed = self.place([make_pod("p-%s-%d" % (z, i), cpu="100m", node_selector={"zone": z})
                             for z in zones for i in range(4)])
        for name, node in placed.items():
            zone = name.split("-")[1]
            self.assertTrue(node.startswith("n-%s-" % zone), "%s -> %s" % (name, node))
        self.client.create(make_pod("nowhere", cpu="100m", node_selector={"zone": "d"}))
        self.assertEqual(self.unschedulable_message("nowhere"),
                         "0/6 nodes are available: 6 node(s) didn't match Pod's node affinity/selector."
                         " preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling..")

    def test_required_node_affinity(self):
        nodes = [
            make_node("n0", labels={"zone": "a", "disk": "ssd", "cores": "8"}),
            make_node("n1", labels={"zone": "a", "cores": "32"}),
            make_node("n2", labels={"zone": "b", "disk": "hdd", "cores": "16"}),
            make_node("n3", labels={"zone": "c", "cores": "64", "gpu": "t4"}),
            make_node("n4", labels={"zone": "c", "disk": "ssd", "cores": "4", "gpu": "v100"}),
            make_node("n5", labels={"zone": "d", "cores": "2"}),
        ]
        self.start(nodes)
        cases = {  # name: (affinity, the nodes that satisfy it)
            "in": (required_node_affinity([("zone", "In", ["b", "d"])]), {"n2", "n5"}),
            "notin": (required_node_affinity([("zone", "NotIn", ["a", "c", "d"])]), {"n2"}),
            "exists": (required_node_affinity([("gpu", "Exists", None)]), {"n3", "n4"}),
            "notexists": (required_node_affinity([("disk", "DoesNotExist", None), ("zone", "In", ["a", "c"])]),
                          {"n1", "n3"}),
            "gt": (required_node_affinity([("cores", "Gt", ["16"])]), {"n1", "n3"}),
            "lt": (required_node_affinity([("cores", "Lt", ["5"])]), {"n4", "n5"}),
            "or": (required_node_affinity([("gpu", "In", ["v100"])], [("disk", "In", ["hdd"])]), {"n4", "n2"}),
            "and": (required_node_affinity([("disk", "In", ["ssd"]), ("zone", "In", ["a"])]), {"n0"}),
        }
        pods = [make_pod("%s-%d" % (case, i), cpu="50m", affinity=affinity)
                for case, (affinity, _) in cases.items() for i in range(4)]
        placed = self.place(pods)
        for name, node in placed.items():
            allowed = cases[name.rsplit("-", 1)[0]][1]
            self.assertIn(node, allowed, name)
        self.client.create(make_pod("none", affinity=required_node_affinity([("gpu", "In", ["a100"])])))
        self.assertEqual(self.unschedulable_message("none"),
                         "0/6 nodes are available: 6 node(s) didn't match Pod's node affinity/selector."
                         " preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling..")

    def test_preferred_node_affinity(self):
        self.start([
            make_node("a-hdd", cpu="8", memory="16Gi", labels={"zone": "a", "disk": "hdd"}),
            make_node("b-ssd", cpu="8", memory="16Gi", labels={"zone": "b", "disk": "ssd"}),
            make_node("a-ssd", cpu="8", memory="16Gi", labels={"zone": "a", "disk": "ssd"}),
            make_node("c-none", cpu="8", memory="16Gi", labels={"zone": "c"}),
        ])
        # Best: both preferences (100); then ssd only (80); then zone a only (20).
        affinity = preferred_node_affinity((80, [("disk", "In", ["ssd"])]), (20, [("zone", "In", ["a"])]))
        placed = self.place([make_pod("both-%d" % i, cpu="100m", memory="200Mi", affinity=affinity)
                             for i in range(5)])
        self.assertEqual(set(placed.values()), {"a-ssd"}, placed)
        # A preference nothing satisfies still lets the pod run.
        placed = self.place([make_pod("unmet", cpu="100m", affinity=preferred_node_affinity(
            (50, [("zone", "In", ["z"])])))])
        self.assertIn(placed["unmet"], {"a-hdd", "b-ssd", "a-ssd", "c-none"})

    def test_taints_and_tolerations(self):
        self.start([
            make_node("clean", cpu="8", memory="16Gi"),
            make_node("dedicated", cpu="8", memory="16Gi", labels={"pool": "gpu"},
                      taints=[taint("dedicated", "gpu", "NoSchedule")]),
            make_node("draining", cpu="8", memory="16Gi", labels={"pool": "gpu"},
                      taints=[taint("maintenance", "", "NoExecute")]),
            make_node("cordoned", cpu="8", memory="16Gi", labels={"pool": "gpu"}, unschedulable=True),
        ])
        placed = self.place([make_pod("plain-%d" % i, cpu="100m", memory="100Mi") for i in range(6)])
        self.assertEqual(set(placed.values()), {"clean"}, placed)

        # The gpu pool only: without tolerations nothing fits, and the message says why.
        self.client.create(make_pod("gpu-intolerant", cpu="100m", node_selector={"pool": "gpu"}))
        self.assertEqual(self.unschedulable_message("gpu-intolerant"),
                         "0/4 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, "
                         "1 node(s) had untolerated taint {dedicated: gpu}, "
                         "1 node(s) had untolerated taint {maintenance: }, "
                         "1 node(s) were unschedulable."
                         " preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling..")
        # Each toleration opens exactly its node.
        placed = self.place([
            make_pod("tol-dedicated", cpu="100m", node_selector={"pool": "gpu"},
                     tolerations=[toleration("dedicated", "gpu", "NoSchedule")]),
            make_pod("tol-maintenance", cpu="100m", node_selector={"pool": "gpu"},
                     tolerations=[toleration("maintenance", effect="NoExecute")]),
            make_pod("tol-cordon", cpu="100m", node_selector={"pool": "gpu"},
                     tolerations=[toleration("node.kubernetes.io/unschedulable", effect="NoSchedule")]),
        ])
        self.assertEqual(placed, {"tol-dedicated": "dedicated", "tol-maintenance": "draining",
                                  "tol-cordon": "cordoned"})

    def test_prefer_no_schedule(self):
        self.start([
            make_node("clean", cpu="8", memory="16Gi"),
            make_node("soft", cpu="8", memory="16Gi", taints=[taint("spot", "true", "PreferNoSchedule")]),
        ])
        # Avoided while the clean node has room ...
        placed = self.place([make_pod("avoid-%d" % i, cpu="500m", memory="1Gi") for i in range(6)])
        self.assertEqual(set(placed.values()), {"clean"}, placed)
        # ... used when it must be: the clean node has 5 cpu left, these need 6.
        placed = self.place([make_pod("big-%d" % i, cpu="3", memory="1Gi") for i in range(2)])
        self.assertEqual(sorted(placed.values()), ["clean", "soft"], placed)
        # Tolerating pods see no difference: LeastAllocated sends them to the emptier node.
        placed = self.place([make_pod("tolerant-%d" % i, cpu="500m", memory="1Gi",
                                      tolerations=[toleration("spot", "true", "PreferNoSchedule")])
                             for i in range(3)])
        self.assertEqual(set(placed.values()), {"soft"}, placed)

    def test_host_ports_never_share_a_node(self):
        self.start([make_node("n%d" % i) for i in range(3)])
        web = self.place([make_pod("web-%d" % i, cpu="100m", host_ports=[8080]) for i in range(3)])
        self.assertEqual(sorted(web.values()), ["n0", "n1", "n2"], web)
        self.client.create(make_pod("web-3", cpu="100m", host_ports=[8080]))
        self.assertEqual(self.unschedulable_message("web-3"),
                         "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports."
                         " preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..")
        # Other ports are free everywhere.
        placed = self.place([make_pod("other-port-%d" % i, cpu="100m", host_ports=[9090, 9091]) for i in range(3)])
        self.assertEqual(sorted(placed.values()), ["n0", "n1", "n2"], placed)
        # Freeing the port on one node lets web-3 in, there.
        self.client.delete_pod("web-1")
        placed = self.cluster.wait(lambda: all_bound(self.client, ["web-3"]), 30,
                                   lambda: "web-3 bound once web-1 is gone; " + describe_pending(self.client))
        self.assertEqual(placed["web-3"], web["web-1"])

    def test_pods_go_where_their_image_already_is(self):
        # 900 MB images, each on one node of four: ImageLocality gives that
        # node 100 * (900 MB / 4 - 23 MB) / 977 MB = 20 points, more than
        # LeastAllocated takes back for a few 100m pods. An image named
        # without a tag is the node's ":latest".
        nodes = [make_node("n-%d" % i, cpu="8", memory="16Gi") for i in range(4)]
        size = 900 * 1024 * 1024
        nodes[0]["status"]["images"] = [{"names": ["registry.example/ml/trainer:v3"], "sizeBytes": size},
                                        {"names": ["registry.k8s.io/pause:3.9"], "sizeBytes": 321520}]
        nodes[1]["status"]["images"] = [{"names": ["registry.example/ml/base:latest",
                                                   "registry.example/ml/base@sha256:9f3c"], "sizeBytes": size}]
        self.start(nodes)

        def with_image(name, image):
            pod = make_pod(name, cpu="100m")
            pod["spec"]["containers"][0]["image"] = image
            return pod
        pods = [with_image("trainer-%d" % i, "registry.example/ml/trainer:v3") for i in range(4)]
        pods += [with_image("base-%d" % i, "registry.example/ml/base") for i in range(4)]
        placed = self.place(pods)
        for name, node in placed.items():
            self.assertEqual(node, "n-0" if name.startswith("trainer-") else "n-1", placed)
        # The kubelet on n-3 pulls another image: the next pods that use it follow.
        self.client.ok("PATCH", "/api/v1/nodes/n-3/status", {"status": {"images": [
            {"names": ["registry.example/ml/eval:v1"], "sizeBytes": size}]}}, "application/merge-patch+json")
        # The node and pod watches are separate streams: give the node's update
        # time to reach the scheduler before the pods do (it takes milliseconds).
        time.sleep(2)
        placed = self.place([with_image("eval-%d" % i, "registry.example/ml/eval:v1") for i in range(3)])
        self.assertEqual(set(placed.values()), {"n-3"}, placed)

    def test_most_allocated_packs_least_allocated_spreads(self):
        # NodeNUMAResource scores every pod node-level too (LeastAllocated by
        # default, as Koordinator's): a packing profile sets both.
        numa_most = {"name": "NodeNUMAResource", "args": {"scoringStrategy": {
            "type": "MostAllocated", "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]}}}
        config = scheduler_config(profiles=[
            profile("packer", plugin_config=[fit_strategy("MostAllocated"), numa_most]),
            profile("spreader", plugin_config=[fit_strategy("LeastAllocated")]),
        ])
        nodes = [make_node("pack-%d" % i, cpu="4", memory="8Gi", labels={"pool": "pack"}) for i in range(4)]
        nodes += [make_node("spread-%d" % i, cpu="4", memory="8Gi", labels={"pool": "spread"}) for i in range(4)]
        self.start(nodes, config)
        # cpu and memory in the nodes' proportion keep BalancedAllocation neutral.
        pods = [make_pod("pack-%d" % i, cpu="1", memory="2Gi", scheduler="packer", node_selector={"pool": "pack"})
                for i in range(8)]
        pods += [make_pod("spread-%d" % i, cpu="1", memory="2Gi", scheduler="spreader",
                          node_selector={"pool": "spread"}) for i in range(8)]
        placed = self.place(pods)
        self.assertEqual(pods_per_node(placed, "pack-"), [4, 4], placed)
        self.assertEqual(pods_per_node(placed, "spread-"), [2, 2, 2, 2], placed)
        self.assertEqual(capacity_violations(self.client.nodes(), self.client.pods()), [])

    def test_score_weight_decides_between_plugins(self):
        # n-pref matches the pod's preferred affinity but is mostly full; n-free
        # is empty. With default weights NodeAffinity (2 x 100) beats
        # LeastAllocated (1 x ~75); with NodeResourcesFit weighted 20 it loses.
        config = scheduler_config(profiles=[
            profile("default-weights"),
            profile("fit-heavy", plugins={"score": {"enabled": [{"name": "NodeResourcesFit", "weight": 20}]}}),
        ])
        self.start([make_node("n-pref", cpu="8", memory="16Gi", labels={"zone": "pref"}),
                    make_node("n-free", cpu="8", memory="16Gi", labels={"zone": "other"})], config)
        self.client.create(make_pod("filler", cpu="6", memory="12Gi", scheduler="someone-else", node_name="n-pref"))
        affinity = preferred_node_affinity((100, [("zone", "In", ["pref"])]))
        placed = self.place([make_pod("by-affinity", cpu="500m", memory="1Gi", scheduler="default-weights",
                                      affinity=affinity)])
        self.assertEqual(placed["by-affinity"], "n-pref")
        placed = self.place([make_pod("by-fit", cpu="500m", memory="1Gi", scheduler="fit-heavy",
                                      affinity=affinity)])
        self.assertEqual(placed["by-fit"], "n-free")


if __name__ == "__main__":
    unittest.main()
