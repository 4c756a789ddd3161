"""troupe scheduler end to end: fine-grained device scheduling (DeviceShare).

Device objects and pods are created through `troupe apiserver`; the
scheduler runs as its own process. The expected allocations are worked out
from Koordinator's rules (../shared/reference/koordinator-api.md §1-3), with
Koordinator's default LeastAllocated scoring, which those tests pin
(koordinator_config): troupe's own default is the Fragmentation strategy,
tested by test_default_strategy_fills_the_leftover_of_a_share. The GPU allocator walks the
topology tree (node → NUMA node → PCIe switch, §3.7): it prefers the scope
that already hosts allocations (cumulativeNotEmpties, a binpack across
scopes) and only then the device score, so shared pods fill one switch
before the next, least used card first within it; whole GPUs stay behind
one PCIe switch; a joint GPU+RDMA pod gets the NIC of its GPU's switch and
that NIC's VF with the smallest bus id.
"""
import json
import os
import random
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_builders import (ALLOCATE_HINT, DEVICE_ALLOCATED, JOINT_ALLOCATE, allocation, gpu_layout,  # noqa: E402
                             gpu_pod, make_device, make_gpu_node, parse_memory)
from scheduler_helpers import (DEVICES_PATH, SCHEDULER_NAME, SchedulingTest, all_bound, describe_pending, fast_config,  # noqa: E402
                               make_node, make_pod, profile, scheduler_config)
from helpers import troupe_binary  # noqa: E402

SUMMARIES = "/apis/v1/plugins/DeviceShare/nodeDeviceSummaries"
# Koordinator's default DeviceShare scoring (troupe's default is Fragmentation).
LEAST_ALLOCATED = {"type": "LeastAllocated", "resources": [
    {"name": "koordinator.sh/gpu-memory-ratio", "weight": 1}, {"name": "koordinator.sh/gpu-memory", "weight": 1},
    {"name": "koordinator.sh/rdma", "weight": 1}, {"name": "koordinator.sh/fpga", "weight": 1}]}


def gpu_mem_pod(name, mem):
    """A pod asking for `mem` of aliyun.com/gpu-mem (gpushare counts the limits)."""
    pod = make_pod(name, cpu="1", extra_requests={"aliyun.com/gpu-mem": str(mem)})
    pod["spec"]["containers"][0]["resources"]["limits"] = {"aliyun.com/gpu-mem": str(mem)}
    return pod


def koordinator_config(**device_share_args):
    """The default profile with DeviceShare scoring as Koordinator does by default."""
    args = dict(device_share_args, scoringStrategy=LEAST_ALLOCATED)
    return scheduler_config(profiles=[profile(plugin_config=[{"name": "DeviceShare", "args": args}])],
                            extra={"clientConnection": {"qps": 2000, "burst": 2000}})
FULL_CARD = {"koordinator.sh/gpu-core": "100", "koordinator.sh/gpu-memory": "80Gi",
             "koordinator.sh/gpu-memory-ratio": "100"}


def over_allocations(pods, gpu_memory=80 * 1024 ** 3):
    """Every card share, card memory or VF given more than once, as strings."""
    core, memory, vfs, problems = {}, {}, {}, []
    for pod in pods:
        node = pod["spec"].get("nodeName")
        alloc = allocation(pod) if node else None
        for entry in (alloc or {}).get("gpu", []):
            key = (node, entry["minor"])
            res = entry["resources"]
            core[key] = core.get(key, 0) + int(res.get("koordinator.sh/gpu-core", "0"))
            memory[key] = memory.get(key, 0) + parse_memory(res.get("koordinator.sh/gpu-memory", "0"))
        for entry in (alloc or {}).get("rdma", []):
            for vf in (entry.get("extension") or {}).get("vfs", []):
                key = (node, entry["minor"], vf["busID"])
                if key in vfs:
                    problems.append("VF %s given to %s and %s" % (key, vfs[key], pod["metadata"]["name"]))
                vfs[key] = pod["metadata"]["name"]
    problems += ["card %s has gpu-core %d" % (k, v) for k, v in core.items() if v > 100]
    problems += ["card %s has gpu-memory %d" % (k, v) for k, v in memory.items() if v > gpu_memory]
    return problems


class DeviceTest(SchedulingTest):
    def test_gpu_share_gets_koordinators_exact_annotation(self):
        self.start([make_gpu_node("g-0"), make_device("g-0")], koordinator_config())
        first = self.place_one(gpu_pod("share-1", core=50, ratio=50))
        self.assertEqual(first["metadata"]["annotations"][DEVICE_ALLOCATED],
                         '{"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"50",'
                         '"koordinator.sh/gpu-memory":"40Gi","koordinator.sh/gpu-memory-ratio":"50"},'
                         '"id":"GPU-g-0-0"}]}')
        # The tree prefers the switch already in use (minors 0 and 1); within it,
        # LeastAllocated picks the emptier card.
        second = self.place_one(gpu_pod("share-2", koord_gpu=25))
        self.assertEqual(allocation(second), {"gpu": [{
            "minor": 1, "id": "GPU-g-0-1",
            "resources": {"koordinator.sh/gpu-core": "25", "koordinator.sh/gpu-memory": "20Gi",
                          "koordinator.sh/gpu-memory-ratio": "25"}}]})
        # A memory request is shared and converted to a ratio of the card's memory;
        # same switch, and card 1 (75 free) beats card 0 (50 free).
        third = self.place_one(gpu_pod("share-3", core=10, memory="8Gi"))
        self.assertEqual(allocation(third)["gpu"][0]["resources"],
                         {"koordinator.sh/gpu-core": "10", "koordinator.sh/gpu-memory": "8Gi",
                          "koordinator.sh/gpu-memory-ratio": "10"})
        self.assertEqual(allocation(third)["gpu"][0]["minor"], 1)
        # A share that fits on neither card of the full switch goes to the next switch.
        fourth = self.place_one(gpu_pod("share-4", koord_gpu=70))
        self.assertEqual(allocation(fourth)["gpu"][0]["minor"], 2)

    def minor_after_a_big_share(self, config):
        """Card of a 16 % share placed after an 81 % one on an empty node."""
        self.start([make_gpu_node("g-0"), make_device("g-0")], config)
        big = allocation(self.place_one(gpu_pod("big", koord_gpu=81)))
        self.assertEqual(big["gpu"][0]["minor"], 0)
        return allocation(self.place_one(gpu_pod("small", koord_gpu=16)))["gpu"][0]["minor"]

    def test_default_strategy_fills_the_leftover_of_a_share(self):
        # troupe's default: Fragmentation, learning the task sizes from the pods
        # it sees. The small share closes the big one's leftover (19 -> 3)
        # rather than breaking a fresh card.
        self.assertEqual(self.minor_after_a_big_share(None), 0)

    def test_least_allocated_takes_the_emptier_card(self):
        # Koordinator's default: the emptier card of the switch in use.
        self.assertEqual(self.minor_after_a_big_share(koordinator_config()), 1)

    def test_binpack_with_most_allocated(self):
        config = scheduler_config(profiles=[profile(plugin_config=[{
            "name": "DeviceShare", "args": {"scoringStrategy": {"type": "MostAllocated"}}}])])
        self.start([make_gpu_node("g-0"), make_device("g-0")], config)
        minors = [allocation(self.place_one(gpu_pod("bp-%d" % i, koord_gpu=30)))["gpu"][0]["minor"]
                  for i in range(4)]
        self.assertEqual(minors, [0, 0, 0, 1])

    def test_whole_gpus_stay_within_one_pcie_switch(self):
        self.start([make_gpu_node("g-0"), make_device("g-0")], koordinator_config())
        gpus, _ = gpu_layout()
        pcie_of = {minor: pcie for minor, _, pcie in gpus}
        # Four GPUs take a whole NUMA node (both of its switches), the first by id.
        four = allocation(self.place_one(gpu_pod("whole-4", whole=4)))["gpu"]
        self.assertEqual([e["minor"] for e in four], [0, 1, 2, 3])
        self.assertTrue(all(e["resources"] == FULL_CARD for e in four), four)
        # A share lands on NUMA node 1, switch pci-1-0 (the lowest id), card 4.
        share = allocation(self.place_one(gpu_pod("share", koord_gpu=10)))["gpu"]
        self.assertEqual(share[0]["minor"], 4)
        # Two whole GPUs must come from one switch: pci-1-0 has only card 5 free, so pci-1-1.
        two = allocation(self.place_one(gpu_pod("whole-2", whole=2)))["gpu"]
        self.assertEqual([e["minor"] for e in two], [6, 7])
        self.assertEqual(len({pcie_of[e["minor"]] for e in two}), 1, two)
        # Nothing left for another pair: card 5 is free but alone, card 4 is shared.
        self.assertIn("Insufficient", self.create_unschedulable(gpu_pod("whole-2b", whole=2)))

    def test_gpu_rdma_joint_allocation_with_virtual_functions(self):
        self.start([make_gpu_node("g-0"), make_device("g-0")], koordinator_config())
        annotations = {JOINT_ALLOCATE: {"deviceTypes": ["gpu", "rdma"], "requiredScope": "SamePCIe"},
                       ALLOCATE_HINT: {"rdma": {"vfSelector": {}}}}
        pod = self.place_one(gpu_pod("joint-1", whole=1, rdma=1, annotations=annotations))
        self.assertEqual(pod["metadata"]["annotations"][DEVICE_ALLOCATED],
                         '{"gpu":[{"minor":0,"resources":{"koordinator.sh/gpu-core":"100",'
                         '"koordinator.sh/gpu-memory":"80Gi","koordinator.sh/gpu-memory-ratio":"100"},'
                         '"id":"GPU-g-0-0"}],"rdma":[{"minor":0,"resources":{"koordinator.sh/rdma":"1"},'
                         '"id":"0000:80:00.0","extension":{"vfs":[{"busID":"0000:80:00.1"}]}}]}')
        second = allocation(self.place_one(gpu_pod("joint-2", whole=1, rdma=1, annotations=annotations)))
        # LeastAllocated: the next GPU is on another switch, and the NIC follows it.
        gpus, nics = gpu_layout()
        pcie_gpu = {m: p for m, _, p in gpus}
        pcie_nic = {m: p for m, _, p in nics}
        self.assertEqual(pcie_gpu[second["gpu"][0]["minor"]], pcie_nic[second["rdma"][0]["minor"]])
        self.assertEqual(len(second["rdma"][0]["extension"]["vfs"]), 1)

    def test_unhealthy_and_deleted_devices_are_never_used(self):
        node = make_gpu_node("g-0", gpus=2, nics=1)
        self.start([node, make_device("g-0", numa_nodes=1, switches_per_numa=1, unhealthy=(0,))], koordinator_config())
        first = allocation(self.place_one(gpu_pod("s-1", koord_gpu=10)))
        self.assertEqual(first["gpu"][0]["minor"], 1)
        # Card 1 is partly used and card 0 unhealthy: no whole GPU.
        self.assertIn("Insufficient", self.create_unschedulable(gpu_pod("w-1", whole=1)))
        # The Device goes away: no card of the node can be used, not even card 1's free share.
        self.client.ok("DELETE", DEVICES_PATH + "/g-0")
        # Devices and pods come on separate watch streams: wait until the
        # scheduler has seen the deletion before asking for a share.
        self.cluster.wait(lambda: not any(v not in ("0", "0Gi") for v in
                                          self.summaries("/g-0").get("deviceTotal", {}).values()),
                          30, "the scheduler sees g-0's Device deleted")
        self.assertIn("Insufficient", self.create_unschedulable(gpu_pod("s-2", koord_gpu=10)))
        # Reported healthy again: the waiting pods are placed, the whole GPU on card 0.
        self.client.create(make_device("g-0", numa_nodes=1, switches_per_numa=1))
        placed = self.cluster.wait(lambda: all_bound(self.client, ["w-1", "s-2"]), 30,
                                   lambda: describe_pending(self.client))
        self.assertEqual(allocation(self.client.pod("w-1"))["gpu"][0]["minor"], 0)
        self.assertEqual(allocation(self.client.pod("s-2"))["gpu"][0]["minor"], 1)
        self.assertEqual(set(placed.values()), {"g-0"})

    def test_unreadable_device_gets_a_warning_event_and_no_gpu_pod_binds_without_its_card(self):
        bad = make_device("g-0")
        bad["spec"]["devices"][0]["resources"]["koordinator.sh/gpu-memory"] = "lots"
        self.start([make_gpu_node("g-0"), bad])
        # Not a node without a Device (which DeviceShare does not filter): a node with no devices to give.
        self.assertIn("Insufficient", self.create_unschedulable(gpu_pod("s-1", koord_gpu=10)))
        events = self.cluster.wait(
            lambda: [e for e in self.client.events_about("g-0") if e["reason"] == "Invalid"], 30,
            lambda: "a Warning event on the Device: %s" % self.client.events_about("g-0"))
        self.assertEqual(len(events), 1)
        self.assertEqual(events[0]["type"], "Warning")
        self.assertIn("troupe cannot read this Device and ignores this version of it", events[0]["message"])
        self.assertIn('invalid quantity "lots"', events[0]["message"])
        # Fixed: the waiting pod is placed, with its card.
        device = self.client.ok("GET", DEVICES_PATH + "/g-0")
        device["spec"] = make_device("g-0")["spec"]
        self.client.ok("PUT", DEVICES_PATH + "/g-0", device)
        self.cluster.wait(lambda: all_bound(self.client, ["s-1"]), 30, lambda: describe_pending(self.client))
        self.assertEqual(len(allocation(self.client.pod("s-1"))["gpu"]), 1)
        # A later bad edit keeps the last readable version: a second pod still gets a card.
        device = self.client.ok("GET", DEVICES_PATH + "/g-0")
        device["spec"]["devices"][1]["minor"] = "one"
        self.client.ok("PUT", DEVICES_PATH + "/g-0", device)
        self.cluster.wait(
            lambda: [e for e in self.client.events_about("g-0") if "minor" in (e["message"] or "")], 30,
            lambda: "a second Warning event: %s" % self.client.events_about("g-0"))
        self.assertEqual(len(allocation(self.place_one(gpu_pod("s-2", koord_gpu=10)))["gpu"]), 1)

    def test_invalid_device_request_is_rejected_with_koordinators_message(self):
        self.start([make_gpu_node("g-0"), make_device("g-0")])
        message = self.create_unschedulable(gpu_pod("bad", whole=1, core=50))
        self.assertIn("invalid resource device requests", message)
        self.assertIn("nvidia.com/gpu", message)
        message = self.create_unschedulable(gpu_pod("bad-unit", koord_gpu=150))
        self.assertIn("invalid resource unit koordinator.sh/gpu: 150", message)
        # The scheduler keeps going.
        self.place_one(gpu_pod("good", koord_gpu=50))

    def test_device_plugin_adaption_writes_minors_timestamp_and_hami_label(self):
        config = koordinator_config(devicePluginAdaption=True)
        node = make_gpu_node("g-0", labels={"koordinator.sh/gpu-isolation-provider": "HAMi-core"})
        self.start([node, make_device("g-0")], config)
        hami = {"koordinator.sh/gpu-isolation-provider": "HAMi-core"}
        pod = self.place_one(gpu_pod("hami", koord_gpu=50, labels=hami))
        annotations = pod["metadata"]["annotations"]
        self.assertEqual(annotations["scheduling.koordinator.sh/gpu-minors"], "0")
        self.assertTrue(annotations["scheduling.koordinator.sh/bind-timestamp"].isdigit())
        self.assertEqual(pod["metadata"]["labels"]["hami.io/vgpu-node"], "g-0")
        whole = self.place_one(gpu_pod("plain", whole=2))
        self.assertEqual(whole["metadata"]["annotations"]["scheduling.koordinator.sh/gpu-minors"], "2,3")
        self.assertNotIn("hami.io/vgpu-node", whole["metadata"].get("labels") or {})
        # A HAMi-core pod never goes to a node without the isolation provider.
        self.client.create(make_gpu_node("g-1"))
        self.client.create(make_device("g-1"))
        on = self.place([gpu_pod("hami-%d" % i, koord_gpu=50, labels=hami) for i in range(4)])
        self.assertEqual({p["spec"]["nodeName"] for p in on.values()}, {"g-0"})

    def test_feature_gate_device_plugin_adaption_as_koord_schedulers_flag(self):
        # A koord-scheduler Deployment's --feature-gates: the gate turns the arg on; others are ignored, said so.
        self.client.create_all([make_gpu_node("g-0"), make_device("g-0")])
        self.scheduler = self.cluster.start_scheduler(
            koordinator_config(), extra_args=["--feature-gates", "DevicePluginAdaption=true,CompactCPUs=false"])
        self.scheduler.wait_ready()
        pod = self.place_one(gpu_pod("adapted", whole=1))
        self.assertEqual(pod["metadata"]["annotations"]["scheduling.koordinator.sh/gpu-minors"], "0")
        self.scheduler.wait_logged("feature gate CompactCPUs=false ignored: troupe has no such switch")
        bad = subprocess.run([troupe_binary(), "scheduler", "--feature-gates", "DevicePluginAdaption=maybe"],
                             capture_output=True, text=True, timeout=30)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--feature-gates: invalid value of DevicePluginAdaption=maybe", bad.stderr)

    def test_aliyun_gpu_mem_pods_are_binpacked_on_one_card(self):
        node = make_node("gs-0", cpu="32", memory="64Gi",
                         extra={"aliyun.com/gpu-mem": "32", "aliyun.com/gpu-count": "2"})
        self.start([node])
        first, second, third = [gpu_mem_pod("mem-%d" % i, 10) for i in range(3)]
        got = self.place_one(first)["metadata"]["annotations"]
        self.assertEqual({k: v for k, v in got.items() if k != "ALIYUN_COM_GPU_MEM_ASSUME_TIME"},
                         {"ALIYUN_COM_GPU_MEM_IDX": "0", "ALIYUN_COM_GPU_MEM_DEV": "16",
                          "ALIYUN_COM_GPU_MEM_POD": "10", "ALIYUN_COM_GPU_MEM_ASSIGNED": "false"})
        self.assertTrue(got["ALIYUN_COM_GPU_MEM_ASSUME_TIME"].isdigit())
        # Card 0 has 6 left: the next 10 goes to card 1; then nothing fits on one card.
        self.assertEqual(self.place_one(second)["metadata"]["annotations"]["ALIYUN_COM_GPU_MEM_IDX"], "1")
        self.assertIn("Insufficient GPU Memory in one device", self.create_unschedulable(third))
        # Deleting a pod frees its card: the waiting pod takes card 0.
        self.client.delete_pod("mem-0")
        self.cluster.wait(lambda: all_bound(self.client, ["mem-2"]), 30, lambda: describe_pending(self.client))
        self.assertEqual(self.client.pod("mem-2")["metadata"]["annotations"]["ALIYUN_COM_GPU_MEM_IDX"], "0")

    def test_aliyun_gpu_mem_pods_avoid_the_gpus_a_health_configmap_lists(self):
        # gpushare-scheduler-extender's kube-system/unhealthy-gpu-<node>: no pod goes to the GPUs in `gpus`.
        node = make_node("gs-0", cpu="32", memory="64Gi",
                         extra={"aliyun.com/gpu-mem": "32", "aliyun.com/gpu-count": "2"})
        health = {"apiVersion": "v1", "kind": "ConfigMap",
                  "metadata": {"name": "unhealthy-gpu-gs-0", "namespace": "kube-system"}, "data": {"gpus": "0"}}
        self.client.ok("POST", "/api/v1/namespaces/kube-system/configmaps", health)
        self.start([node])
        pods = [gpu_mem_pod("sick-%d" % i, 10) for i in range(2)]
        # Binpack would take card 0 (both empty, lowest index): it is listed, so card 1.
        self.assertEqual(self.place_one(pods[0])["metadata"]["annotations"]["ALIYUN_COM_GPU_MEM_IDX"], "1")
        self.assertIn("Insufficient GPU Memory in one device", self.create_unschedulable(pods[1]))
        # The GPU is back in service when the ConfigMap goes: the waiting pod takes card 0.
        self.client.ok("DELETE", "/api/v1/namespaces/kube-system/configmaps/unhealthy-gpu-gs-0")
        self.cluster.wait(lambda: all_bound(self.client, ["sick-1"]), 30, lambda: describe_pending(self.client))
        self.assertEqual(self.client.pod("sick-1")["metadata"]["annotations"]["ALIYUN_COM_GPU_MEM_IDX"], "0")

    def test_nodes_without_device_objects_are_not_filtered_by_deviceshare(self):
        self.start([make_gpu_node("plain")])
        pod = self.place_one(gpu_pod("nodev", whole=1))
        self.assertIsNone(allocation(pod))

    def test_debug_endpoint_and_restart_rebuild_the_same_accounting(self):
        nodes = ["g-%d" % i for i in range(3)]
        self.start([make_gpu_node(n) for n in nodes] + [make_device(n) for n in nodes])
        rng = random.Random(7)
        pods = [random_pod(rng, "a-%d" % i) for i in range(24)]
        self.client.create_all(pods, threads=2)
        self.settle([p["metadata"]["name"] for p in pods])
        before = self.summaries()
        self.assertEqual(sorted(before), nodes)
        one = self.summaries("/g-0")
        self.assertEqual(one, before["g-0"])
        self.scheduler.stop()
        self.scheduler = self.cluster.start_scheduler(fast_config())
        self.scheduler.wait_ready()
        after = self.cluster.wait(lambda: self.summaries_if_settled(before), 30, "summaries after restart")
        self.assertEqual(after, before)
        more = [random_pod(rng, "b-%d" % i) for i in range(30)]
        self.client.create_all(more, threads=2)
        self.settle([p["metadata"]["name"] for p in pods + more])
        self.assertEqual(over_allocations(self.client.pods()), [])

    def summaries(self, suffix=""):
        status, body = self.scheduler.get(SUMMARIES + suffix)
        self.assertEqual(status, 200, body)
        return json.loads(body)

    def test_learned_task_classes_are_shown_as_configuration(self):
        # What the Fragmentation scoring learned of the pods it placed, in the form taskClasses takes.
        self.start([make_gpu_node("g-0"), make_device("g-0")])
        self.place([gpu_pod("half-%d" % i, koord_gpu=50, cpu="2") for i in range(3)] + [gpu_pod("whole", whole=1)])
        status, body = self.scheduler.get("/apis/v1/plugins/DeviceShare/learnedTaskClasses")
        self.assertEqual(status, 200, body)
        learned = json.loads(body)[SCHEDULER_NAME]
        self.assertEqual(learned["observed"], 4)
        classes = sorted(learned["taskClasses"], key=lambda c: -c["weight"])
        self.assertEqual(classes, [{"cpuMilli": 2000, "gpuMilli": 500, "gpuCount": 1, "weight": 0.75},
                                   {"cpuMilli": 1000, "gpuMilli": 1000, "gpuCount": 1, "weight": 0.25}])

    def summaries_if_settled(self, expected):
        got = self.summaries()
        return got if got == expected else None

    def test_property_random_pods_never_over_allocate(self):
        nodes = ["g-%02d" % i for i in range(50)]
        self.start([make_gpu_node(n) for n in nodes] + [make_device(n) for n in nodes])
        rng = random.Random(20261122)
        pods = [random_pod(rng, "p-%04d" % i) for i in range(1000)]
        self.client.create_all(pods, threads=4)
        self.settle([p["metadata"]["name"] for p in pods], timeout=300)
        all_pods = self.client.pods()
        self.assertEqual(over_allocations(all_pods), [])
        bound = [p for p in all_pods if p["spec"].get("nodeName")]
        # Demand (~900 GPUs) exceeds the 400 cards: they must end up nearly full.
        used = sum(int(e["resources"].get("koordinator.sh/gpu-core", "0"))
                   for p in bound for e in (allocation(p) or {}).get("gpu", []))
        self.assertGreater(used, 0.9 * 400 * 100, "%d pods bound, gpu-core used %d" % (len(bound), used))
        # Every bound pod that asked for devices on a node with a Device got an allocation.
        for p in bound:
            self.assertIsNotNone(allocation(p), p["metadata"]["name"])
        # The scheduler's own view agrees with the annotations.
        summaries = self.summaries()
        for node, summary in summaries.items():
            for minor, used in summary["deviceUsedDetail"].get("gpu", {}).items():
                self.assertLessEqual(int(used.get("koordinator.sh/gpu-core", "0")), 100, (node, minor))


def random_pod(rng, name):
    """A share, whole-GPU or joint GPU+RDMA pod, as the benchmark mixes."""
    kind = rng.random()
    if kind < 0.55:
        share = rng.choice([10, 25, 30, 50])
        if rng.random() < 0.5:
            return gpu_pod(name, koord_gpu=share)
        return gpu_pod(name, core=share, memory="%dGi" % rng.choice([4, 8, 16]))
    if kind < 0.85:
        return gpu_pod(name, whole=rng.choice([1, 1, 2, 4]))
    return gpu_pod(name, whole=1, rdma=1,
                   annotations={JOINT_ALLOCATE: {"deviceTypes": ["gpu", "rdma"], "requiredScope": "SamePCIe"},
                                ALLOCATE_HINT: {"rdma": {"vfSelector": {}}}})


if __name__ == "__main__":
    unittest.main()
