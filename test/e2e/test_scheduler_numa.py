"""troupe scheduler end to end: CPU orchestration and NUMA alignment (NodeNUMAResource).

NodeResourceTopology objects, Devices and pods are created through `troupe
apiserver`; the scheduler runs as its own process with the default profile
(NodeNUMAResource's defaults: FullPCPUs, LeastAllocated). Expected cpusets are
worked out by hand from Koordinator's takeCPUs (../shared/reference/
koordinator-api.md §4.7) on the default test node of numa_builders.py: 2
sockets = 2 NUMA nodes of 8 cores, hyper-threaded; NUMA node 0 = CPUs 0-7 and
their siblings 16-23, NUMA node 1 = 8-15 and 24-31.

  FullPCPUs, n <= CPUs per NUMA node: the NUMA nodes' fully free cores, the
  node with the most of them first (LeastAllocated; MostAllocated: fewest),
  ties by socket then id; cores by id; the first n CPUs (both threads of a
  core together).
  SpreadByPCPUs: the NUMA node with the most free CPUs, one CPU per core
  (the lowest), first n.
"""
import json
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_builders import allocation, make_device, make_gpu_node  # noqa: E402
from numa_builders import (CPU_BIND_POLICY, KUBELET_CPU_POLICY, NUMA_POLICY, NUMA_STRATEGY,  # noqa: E402
                           POD_CPU_ALLOCS, RESOURCE_SPEC, RESOURCE_STATUS, cpu_details, make_cpu_node,
                           make_gpu_numa_node, make_topology, numa_pod, parse_cpuset, resource_status)
from scheduler_helpers import SchedulingTest, condition, fast_config  # noqa: E402

DEBUG = "/apis/v1/plugins/NodeNUMAResource"
HINT = "internal.scheduling.koordinator.sh/scheduling-hint"


def cpuset_of(pod):
    status = resource_status(pod)
    return (status or {}).get("cpuset")


def shared_cpus(pods, reserved=None):
    """Every CPU of a node held by two pods (or by a pod and the node's
    reserved set), as strings."""
    holders, problems = {}, []
    for pod in pods:
        node = pod["spec"].get("nodeName")
        if not node:
            continue
        for cpu in parse_cpuset(cpuset_of(pod)):
            key = (node, cpu)
            if key in holders:
                problems.append("CPU %d of %s given to %s and %s" % (cpu, node, holders[key], pod["metadata"]["name"]))
            holders[key] = pod["metadata"]["name"]
            if cpu in (reserved or {}).get(node, set()):
                problems.append("reserved CPU %d of %s given to %s" % (cpu, node, pod["metadata"]["name"]))
    return problems


def random_pod(rng, name):
    qos = rng.choice(["LSR", "LSR", "LSE", "LS"])
    cpu = rng.choice([1, 2, 2, 4, 4, 6, 8])
    spec = rng.choice([None, None, {"preferredCPUBindPolicy": "SpreadByPCPUs"},
                       {"requiredCPUBindPolicy": "FullPCPUs"}, {"preferredCPUExclusivePolicy": "PCPULevel"}])
    return numa_pod(name, cpu=str(cpu), memory="%dGi" % rng.choice([1, 2, 4]), qos=qos, resource_spec=spec)


class NumaTest(SchedulingTest):
    def debug(self, path):
        status, body = self.scheduler.get(DEBUG + path)
        self.assertEqual(status, 200, body)
        return json.loads(body)

    # ---- cpusets ----

    def test_lsr_and_lse_pods_get_koordinators_cpusets_ls_pods_none(self):
        self.start([make_cpu_node("n-0"), make_topology("n-0")])
        first = self.place_one(numa_pod("lsr-1", cpu="4"))
        annotations = first["metadata"]["annotations"]
        # Both NUMA nodes are empty: NUMA node 0 by id, its cores 0 and 1 with their siblings.
        self.assertEqual(annotations[RESOURCE_STATUS], '{"cpuset":"0-1,16-17"}')
        # The policy came from the plugin's default: written back for the node agent.
        self.assertEqual(json.loads(annotations[RESOURCE_SPEC]), {"preferredCPUBindPolicy": "FullPCPUs"})
        # LeastAllocated: NUMA node 1 has 8 free cores against 6.
        self.assertEqual(cpuset_of(self.place_one(numa_pod("lsr-2", cpu="4"))), "8-9,24-25")
        # 6 free cores each: NUMA node 0 by id, core 2.
        self.assertEqual(cpuset_of(self.place_one(numa_pod("lse-1", cpu="2", qos="LSE"))), "2,18")
        # SpreadByPCPUs: NUMA node 1 (12 free CPUs against 10), one CPU per core.
        spread = numa_pod("spread", cpu="4", resource_spec={"preferredCPUBindPolicy": "SpreadByPCPUs"})
        self.assertEqual(cpuset_of(self.place_one(spread)), "10-13")
        # An LS pod (and a pod without a QoS label that is not Guaranteed) shares the pool.
        ls = self.place_one(numa_pod("ls", cpu="2", qos="LS"))
        self.assertIsNone(resource_status(ls))
        self.assertNotIn(RESOURCE_SPEC, ls["metadata"].get("annotations") or {})
        burstable = self.place_one(numa_pod("burstable", cpu="2", qos=None, limits=False))
        self.assertIsNone(resource_status(burstable))
        # Koordinator's debug view agrees with the annotations.
        summary = self.debug("/nodes/n-0")
        self.assertEqual(summary["availableCPUs"], "3-7,14-15,19-23,26-31")
        self.assertEqual({k: v["cpuset"] for k, v in summary["pods"].items()},
                         {"default/lsr-1": "0-1,16-17", "default/lsr-2": "8-9,24-25", "default/lse-1": "2,18",
                          "default/spread": "10-13"})
        self.assertEqual(summary["cpuTopology"]["numCPUs"], 32)
        self.assertEqual(summary["cpuTopology"]["numCores"], 16)
        available = self.debug("/availableCPUs/n-0")
        self.assertEqual(available["availableCPUs"], summary["availableCPUs"])
        self.assertEqual(sorted(int(c) for c in available["allocated"]),
                         [0, 1, 2, 8, 9, 10, 11, 12, 13, 16, 17, 18, 24, 25])
        self.assertEqual(self.scheduler.get(DEBUG + "/nodes/nowhere")[0], 404)
        # No NUMA node or socket has 6 free cores left: FullPCPUs is only preferred,
        # so the accumulator takes whole sockets' cores, then single cores.
        self.assertEqual(len(parse_cpuset(cpuset_of(self.place_one(numa_pod("big", cpu="12"))))), 12)

    def test_a_hint_extension_designates_the_pods_cpuset(self):
        # A SchedulingHint naming NodeNUMAResource in `extensions` makes the pod's own
        # resource-status cpuset what it may take.
        self.start([make_cpu_node("n-0"), make_topology("n-0")])
        hint = json.dumps({"nodeNames": ["n-0"], "extensions": {"NodeNUMAResource": {}}})

        def designated(name, cpus, cpu="2", extension=True):
            pod = numa_pod(name, cpu=cpu)
            annotations = pod["metadata"].setdefault("annotations", {})
            annotations[RESOURCE_STATUS] = json.dumps({"cpuset": cpus})
            if extension:
                annotations[HINT] = hint
            return pod
        # Exactly the named core on NUMA node 1 (the allocator alone would take core 0).
        self.assertEqual(cpuset_of(self.place_one(designated("on-12", "12,28"))), "12,28")
        # Taken now: a second pod naming it waits, saying why.
        self.assertIn("not enough cpus available", self.create_unschedulable(designated("also-12", "12,28")))
        # Fewer CPUs named than requested: no room either.
        self.assertIn("not enough cpus available", self.create_unschedulable(designated("short", "13", cpu="2")))
        # Without the extension the annotation is ignored: placed where the allocator chooses.
        self.assertEqual(cpuset_of(self.place_one(designated("chosen", "12,28", extension=False))), "0,16")

    def test_most_allocated_strategy_label_packs_one_numa_node(self):
        self.start([make_cpu_node("n-0", labels={NUMA_STRATEGY: "MostAllocated"}), make_topology("n-0")])
        self.assertEqual(cpuset_of(self.place_one(numa_pod("a", cpu="4"))), "0-1,16-17")
        # NUMA node 0 has fewer free cores now: it is filled first.
        self.assertEqual(cpuset_of(self.place_one(numa_pod("b", cpu="4"))), "2-3,18-19")
        self.assertEqual(cpuset_of(self.place_one(numa_pod("c", cpu="8"))), "4-7,20-23")
        self.assertEqual(cpuset_of(self.place_one(numa_pod("d", cpu="2"))), "8,24")

    def test_kubelet_reserved_cpus_and_full_pcpus_only_node(self):
        kubelet = {"policy": "static", "options": {"full-pcpus-only": "true"}, "reservedCPUs": "0-1"}
        allocs = [{"namespace": "kube-system", "name": "static", "uid": "u-static", "cpuset": "2-3",
                   "managedByKubelet": True}]
        topology = make_topology("n-0", annotations={KUBELET_CPU_POLICY: kubelet, POD_CPU_ALLOCS: allocs})
        self.start([make_cpu_node("n-0", labels={NUMA_STRATEGY: "MostAllocated"}), topology])
        # CPUs 0-3 are kubelet's: NUMA node 0 keeps 4 fully free cores (4-7), fewer than
        # NUMA node 1, so MostAllocated takes cores 4 and 5.
        first = self.place_one(numa_pod("lsr", cpu="4"))
        self.assertEqual(cpuset_of(first), "4-5,20-21")
        # kubelet's full-pcpus-only makes every pod with CPU bind whole cores, LS too;
        # the node forced the policy, so resource-spec says it is required (and only that,
        # as Koordinator's appendResourceSpecIfMissed).
        ls = self.place_one(numa_pod("ls", cpu="2", qos="LS"))
        self.assertEqual(cpuset_of(ls), "6,22")
        self.assertEqual(json.loads(ls["metadata"]["annotations"][RESOURCE_SPEC]), {"requiredCPUBindPolicy": "FullPCPUs"})
        self.assertIn("node(s) requested cpus not multiple cpus per core",
                      self.create_unschedulable(numa_pod("odd", cpu="3", qos="LS")))
        self.assertIn("the requested CPUs must be integer",
                      self.create_unschedulable(numa_pod("fraction", cpu="1500m", qos="LS")))
        summary = self.debug("/nodes/n-0")
        self.assertEqual(summary["reservedCPUs"], "0-3")
        self.assertTrue(parse_cpuset(summary["availableCPUs"]).isdisjoint({0, 1, 2, 3}))

    def test_a_pod_its_cpuset_cannot_be_taken_for_at_reserve_is_unschedulable_not_an_error(self):
        # kubelet keeps CPUs 0 and 16 but they still count in allocatable: after 15 pods of 2 CPUs the node
        # has 2 CPUs of requests left and no free core. A preferred FullPCPUs pod passes Filter (which tries
        # only a required policy, as Koordinator's) and is turned down at Reserve.
        kubelet = {"policy": "static", "reservedCPUs": "0,16"}
        self.start([make_cpu_node("c-0"), make_topology("c-0", annotations={KUBELET_CPU_POLICY: kubelet})])
        self.place([numa_pod("fill-%02d" % i, cpu="2", memory="1Gi") for i in range(15)])
        message = self.create_unschedulable(numa_pod("late", cpu="2", memory="1Gi"))
        self.assertEqual(message, "0/1 nodes are available: 1 not enough cpus available to satisfy request.")
        c = condition(self.client.pod("late"))
        self.assertEqual(c["reason"], "Unschedulable", c)
        self.assertEqual(self.scheduler.metric("scheduler_schedule_attempts_total", result="error"), 0)

    def test_node_cpu_bind_policy_label_change_reaches_the_plugin(self):
        self.start([make_cpu_node("n-0"), make_topology("n-0")])
        self.assertIsNone(resource_status(self.place_one(numa_pod("ls-before", cpu="2", qos="LS"))))
        self.client.ok("PATCH", "/api/v1/nodes/n-0", {"metadata": {"labels": {CPU_BIND_POLICY: "FullPCPUsOnly"}}},
                       "application/merge-patch+json")
        # The label reaches the node actors through the node informer: probe until a pod sees it.
        probes = iter(range(1000))
        self.cluster.wait(lambda: cpuset_of(self.place_one(numa_pod("ls-probe-%d" % next(probes), cpu="2",
                                                                     qos="LS"))), 30, "the label is seen")

    # ---- NUMA alignment ----

    def test_single_numa_node_places_eight_gpus_with_their_cpus_and_memory(self):
        split = make_gpu_node("g-split", cpu="32", memory="128Gi")
        one, one_device = make_gpu_numa_node("g-one", gpu_numa=1)
        self.start([split, make_device("g-split"), make_topology("g-split"),
                    one, one_device, make_topology("g-one")])
        numa_spec = {"numaTopologyPolicy": "SingleNUMANode"}
        pod = self.place_one(numa_pod("train", cpu="16", memory="32Gi", numa_spec=numa_spec,
                                      extra_requests={"nvidia.com/gpu": "8"}))
        # g-split has 4 GPUs per NUMA node: 8 cannot sit on one. On g-one they all
        # are on NUMA node 1, and so must the CPUs (all 8 of its cores) and memory be.
        self.assertEqual(pod["spec"]["nodeName"], "g-one")
        self.assertEqual(resource_status(pod), {
            "cpuset": "8-15,24-31",
            "numaNodeResources": [{"node": 1, "resources": {"cpu": "16", "memory": "32Gi"}}]})
        self.assertEqual(sorted(g["minor"] for g in allocation(pod)["gpu"]), list(range(8)))
        # Another such pod fits nowhere: g-one's GPUs are taken, g-split cannot align.
        message = self.create_unschedulable(numa_pod("train-2", cpu="4", memory="8Gi", numa_spec=numa_spec,
                                                      extra_requests={"nvidia.com/gpu": "8"}))
        self.assertIn("Unaligned NUMA Hint cause", message)
        # A small pod with a GPU follows the GPU's NUMA node on g-split.
        small = self.place_one(numa_pod("small", cpu="2", memory="4Gi", numa_spec=numa_spec,
                                        extra_requests={"nvidia.com/gpu": "1"}))
        self.assertEqual(small["spec"]["nodeName"], "g-split")
        numa = resource_status(small)["numaNodeResources"]
        self.assertEqual(len(numa), 1)
        gpu_numa = 0 if allocation(small)["gpu"][0]["minor"] < 4 else 1
        self.assertEqual(numa[0]["node"], gpu_numa)
        cpus = parse_cpuset(cpuset_of(small))
        details = {d["id"]: d["node"] for d in cpu_details()}
        self.assertEqual({details[c] for c in cpus}, {gpu_numa})

    def test_restricted_rejects_a_node_that_cannot_align(self):
        node = make_gpu_node("r-0", cpu="32", memory="128Gi", labels={NUMA_POLICY: "Restricted"})
        self.start([node, make_device("r-0"), make_topology("r-0")])
        # 4 GPUs fit on one NUMA node, 20 CPUs do not: no affinity suits both.
        message = self.create_unschedulable(numa_pod("wide", cpu="20", memory="8Gi", qos="LS",
                                                      extra_requests={"nvidia.com/gpu": "4"}))
        self.assertIn("Unaligned NUMA Hint cause", message)
        self.assertIn("gpu prefer", message)
        # With 8 CPUs everything fits on the GPUs' NUMA node.
        pod = self.place_one(numa_pod("narrow", cpu="8", memory="8Gi", qos="LS",
                                      extra_requests={"nvidia.com/gpu": "4"}))
        numa = resource_status(pod)["numaNodeResources"]
        self.assertEqual(len(numa), 1, numa)
        minors = sorted(g["minor"] for g in allocation(pod)["gpu"])
        self.assertIn(minors, [[0, 1, 2, 3], [4, 5, 6, 7]])
        self.assertEqual(numa[0]["node"], minors[0] // 4)
        self.assertIsNone(cpuset_of(pod))  # LS: aligned, but no cpuset

    # ---- properties ----

    def test_property_random_exclusive_pods_never_share_a_cpu(self):
        nodes = ["n-%d" % i for i in range(8)]
        kubelet = {"policy": "static", "reservedCPUs": "0,16"}
        objects = []
        for i, n in enumerate(nodes):
            objects.append(make_cpu_node(n, labels={NUMA_STRATEGY: "MostAllocated"} if i % 2 else None))
            objects.append(make_topology(n, annotations={KUBELET_CPU_POLICY: kubelet} if i < 4 else None))
        self.start(objects)
        rng = random.Random(20261123)
        pods = [random_pod(rng, "p-%03d" % i) for i in range(200)]
        self.client.create_all(pods, threads=4)
        self.settle([p["metadata"]["name"] for p in pods], timeout=300)
        placed = [p for p in self.client.pods() if p["spec"].get("nodeName")]
        # The cluster was filled: most CPUs are requested and some pods had to wait.
        requested = sum(int(p["spec"]["containers"][0]["resources"]["requests"]["cpu"]) for p in placed)
        self.assertGreater(requested, 0.8 * 32 * len(nodes))
        self.assertLess(len(placed), len(pods))
        reserved = {n: {0, 16} for n in nodes[:4]}
        self.assertEqual(shared_cpus(placed, reserved), [])
        for pod in placed:
            qos = pod["metadata"]["labels"].get("koordinator.sh/qosClass")
            want = int(pod["spec"]["containers"][0]["resources"]["requests"]["cpu"])
            got = parse_cpuset(cpuset_of(pod))
            self.assertEqual(len(got), want if qos in ("LSR", "LSE") else 0, pod["metadata"]["name"])

    def test_restart_rebuilds_the_same_cpusets(self):
        nodes = ["n-%d" % i for i in range(4)]
        self.start([make_cpu_node(n) for n in nodes] + [make_topology(n) for n in nodes])
        rng = random.Random(11)
        pods = [random_pod(rng, "a-%02d" % i) for i in range(20)]
        self.client.create_all(pods, threads=2)
        self.settle([p["metadata"]["name"] for p in pods])
        before = {n: self.debug("/nodes/" + n) for n in nodes}
        self.assertTrue(any(before[n]["pods"] for n in nodes))
        self.scheduler.stop()
        self.scheduler = self.cluster.start_scheduler(fast_config())
        self.scheduler.wait_ready()

        def same():
            after = {n: self.debug("/nodes/" + n) for n in nodes}
            return after == before

        self.cluster.wait(same, 30, "the same NodeNUMAResource state after the restart")
        more = [random_pod(rng, "b-%02d" % i) for i in range(24)]
        self.client.create_all(more, threads=2)
        self.settle([p["metadata"]["name"] for p in pods + more])
        self.assertEqual(shared_cpus(self.client.pods()), [])


if __name__ == "__main__":
    unittest.main()
