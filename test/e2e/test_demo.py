"""`troupe demo` end to end: it exits 0 and its report shows each device
scheduling feature with the allocation Koordinator's rules give on the
sample H100 node (8 GPUs, two per PCIe switch, one RDMA NIC with VFs per
switch)."""
import os
import re
import subprocess
import unittest


def report_rows(text):
    """pod name -> [node, devices line or None, cpus line or None] from the demo's report."""
    rows, last = {}, None
    for line in text.splitlines():
        m = re.match(r"^(\S+)\s+(troupe\S*|some-other-scheduler)\s+(\S+)\s+", line)
        if m:
            last = m.group(1)
            rows[last] = [m.group(3), None, None]
            continue
        d = re.match(r"^\s+devices: (.*)$", line)
        if d and last:
            rows[last][1] = d.group(1)
        c = re.match(r"^\s+cpus: (.*)$", line)
        if c and last:
            rows[last][2] = c.group(1)
    return rows


class DemoTest(unittest.TestCase):
    def test_demo_report_shows_device_scheduling(self):
        out = subprocess.run([os.environ["TROUPE"], "demo"], capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stdout[-3000:] + out.stderr[-3000:])
        rows = report_rows(out.stdout)
        for pod in ("gpu-partition", "gpu-pcie-2", "gpu-rdma", "gpu-share-1", "gpu-share-2"):
            self.assertEqual(rows[pod][0], "gpu-h100-1", (pod, rows.get(pod)))
        # A 4-GPU partition of the built-in H100 table is one NUMA node's GPUs.
        self.assertIn(rows["gpu-partition"][1], ("gpu 0 1 2 3", "gpu 4 5 6 7"))
        # Two whole GPUs behind one switch: minors 2k and 2k+1.
        a, b = map(int, rows["gpu-pcie-2"][1].split()[1:])
        self.assertEqual((a // 2, b), (b // 2, a + 1))
        # GPU + RDMA on the same switch (NIC k serves GPUs 2k, 2k+1), with a VF.
        m = re.match(r"gpu (\d+) \| rdma (\d+) vf 0000:[0-9a-f]{2}:00\.\d$", rows["gpu-rdma"][1])
        self.assertIsNotNone(m, rows["gpu-rdma"])
        self.assertEqual(int(m.group(1)) // 2, int(m.group(2)))
        # The two shares binpack on one card.
        self.assertRegex(rows["gpu-share-1"][1], r"^gpu \d+\(50%\)$")
        self.assertEqual(rows["gpu-share-1"][1].split("(")[0], rows["gpu-share-2"][1].split("(")[0])

    def test_demo_report_shows_cpu_orchestration(self):
        out = subprocess.run([os.environ["TROUPE"], "demo"], capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stdout[-3000:] + out.stderr[-3000:])
        rows = report_rows(out.stdout)
        # gpu-a100-1: 2 sockets = 2 NUMA nodes x 16 cores x 2 threads; CPU c and c+32 share core c.
        # FullPCPUs: 4 CPUs as two whole cores, the first free ones (takeCPUs on an empty node).
        self.assertEqual(rows["lsr-fullpcpus"][2], "cpuset 0-1,32-33")
        # SingleNUMANode: the GPUs (0,1 on NUMA 0; 2,3 on NUMA 1), CPUs and memory on one NUMA node.
        node = int(rows["numa-gpu"][2].split("numa ")[1])
        gpus = [int(g) for g in rows["numa-gpu"][1].split()[1:]]
        self.assertEqual({g // 2 for g in gpus}, {node})
        first, second = rows["numa-gpu"][2].split()[1].split(",")
        low = int(first.split("-")[0])
        self.assertEqual(low // 16, node)
        self.assertEqual(int(second.split("-")[0]), low + 32)

    def test_demo_reservation_scene_is_consumed_by_its_owner(self):
        out = subprocess.run([os.environ["TROUPE"], "demo"], capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stdout[-3000:] + out.stderr[-3000:])
        held = re.search(r"^reservation demo-train-reservation: Available on (\S+), holding cpu 2, memory 4Gi, "
                         r"(GPU \d+)$", out.stdout, re.M)
        self.assertIsNotNone(held, out.stdout[-1500:])
        owner = re.search(r"^pod demo-train-owner: bound to (\S+) with (GPU \d+), reservation-allocated "
                          r"\{\"name\":\"demo-train-reservation\",\"uid\":\"[^\"]+\"\}$", out.stdout, re.M)
        self.assertIsNotNone(owner, out.stdout[-1500:])
        # The owner lands on the reservation's node and gets the very GPU it held.
        self.assertEqual(owner.groups(), held.groups())
        self.assertIn("reservation demo-train-reservation: Succeeded (allocateOnce, consumed by demo-train-owner)",
                      out.stdout)

    def test_demo_migration_scene_relieves_the_hot_node(self):
        out = subprocess.run([os.environ["TROUPE"], "demo"], capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stdout[-3000:] + out.stderr[-3000:])
        # The fake koordlet's NodeMetric: 10 cores of the node's own pods + 3 replicas x 1 core x 1.5.
        self.assertIn("node cpu-2: NodeMetric reports 14500m of 15 cpu (97%), above LowNodeLoad's high threshold 90%\n",
                      out.stdout)
        # LowNodeLoad moves exactly one replica (97% -> 87%); its job runs with EvictDirectly and succeeds.
        jobs = re.findall(r"(?m)^LowNodeLoad: PodMigrationJob for pod (demo-web-[012]) \(EvictDirectly\): "
                          r"(?:Pending -> )?(?:Running -> )?Succeeded$", out.stdout)
        self.assertEqual(len(jobs), 1, out.stdout[-1500:])
        self.assertIn("pod %s: evicted from cpu-2\n" % jobs[0], out.stdout)
        self.assertIn("node cpu-2: NodeMetric reports 13 of 15 cpu (87%)\n", out.stdout)
        # The replacement cannot go back: cpu-2 is tainted for batch work.
        placed = re.search(r"(?m)^pod demo-web-3 \(its replacement from the ReplicaSet\): bound to (\S+)$", out.stdout)
        self.assertIsNotNone(placed, out.stdout[-1500:])
        self.assertNotEqual(placed.group(1), "cpu-2")

    def test_demo_preemption_scene_evicts_the_least_important_pod(self):
        out = subprocess.run([os.environ["TROUPE"], "demo"], capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stdout[-3000:] + out.stderr[-3000:])
        self.assertIn("pod demo-urgent (priority 1000, 1 cpu): nominated demo-small, evicted demo-low-1\n", out.stdout)
        self.assertIn("pod demo-urgent: bound to demo-small; still running there: demo-low-2, demo-low-3\n",
                      out.stdout)

    def test_demo_gang_scene_binds_the_complete_gang_only(self):
        out = subprocess.run([os.environ["TROUPE"], "demo"], capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stdout[-3000:] + out.stderr[-3000:])
        rows = report_rows(out.stdout)
        # The PodGroup's two members are bound; the gang of 3 with one member is not tried.
        self.assertNotEqual(rows["train-0"][0], "<pending>", out.stdout[-3000:])
        self.assertNotEqual(rows["train-1"][0], "<pending>", out.stdout[-3000:])
        self.assertEqual(rows["gang-of-3"][0], "<pending>")
        self.assertRegex(out.stdout, r"-> 0/\d+ nodes are available: gang child pod not collect enough, "
                                     r"gangName: default/gang-of-3, podName: default/gang-of-3 \(1 of 3 members exist\)")


if __name__ == "__main__":
    unittest.main()
