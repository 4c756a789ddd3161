"""troupe bench and troupe replay at small sizes.

bench: every mix schedules through the real actors and reports the promised
JSON fields with consistent values (each pod bound or failed exactly once,
p50 <= p99, a positive rate and RSS); a cluster too small for the pods fails
some and binds the rest; --partitions and --one-node-per-actor set the node
actor count; --reserved-nodes puts Available Reservations on that share of
the nodes and owner pods land on them (reservation-allocated bindings); bad
flags are rejected with messages naming them.

replay: a hand-made trace of small shared-GPU and CPU-only pods, replayed with both policies: the JSON carries the headline ratio per
seed and its median, next to the reference simulator's; the allocation never
exceeds what was requested or the cluster's capacity; bad policies, seeds and
files are rejected. When the openb data is beside the repository, one seed of
the default trace is replayed and must land in the published baselines' range.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

TROUPE = os.environ.get("TROUPE", "troupe")
SOURCE = os.environ.get("TROUPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(SOURCE, "..", "shared", "data", "openb-gpu-2023")

BENCH_FIELDS = ("pods_per_second", "latency_p50_ms", "latency_p99_ms", "peak_rss_bytes", "rss_bytes_per_node",
                "heap_bytes_per_node", "bound", "failed", "partitions")


def run(*args, timeout=300):
    return subprocess.run([TROUPE, *args], capture_output=True, text=True, timeout=timeout)


def bench_json(*args):
    done = run("bench", "--json", *args)
    if done.returncode != 0:
        raise AssertionError("troupe bench %s failed (%d): %s" % (" ".join(args), done.returncode, done.stderr))
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


class BenchTest(unittest.TestCase):
    def check_run(self, r, pods):
        for field in BENCH_FIELDS:
            self.assertIn(field, r)
        self.assertEqual(r["bound"] + r["failed"], pods, r)
        self.assertGreater(r["pods_per_second"], 0)
        self.assertLessEqual(r["latency_p50_ms"], r["latency_p99_ms"])
        self.assertGreater(r["peak_rss_bytes"], 0)
        if not os.environ.get("TROUPE_SANITIZED"):  # ASan's malloc is not glibc's: mallinfo2 sees none of it
            self.assertGreater(r["heap_bytes_per_node"], 0)  # the loaded nodes live on the heap
        # Scheduling real pods costs CPU; per pod it is the total over the pods.
        self.assertGreater(r["cpu_seconds"], 0)
        expected = 1000 * r["cpu_seconds"] / pods  # both printed with 6 significant digits
        self.assertAlmostEqual(r["cpu_ms_per_pod"], expected, delta=max(1e-3, 1e-5 * expected))

    def test_every_mix_schedules_each_pod_once(self):
        for mix in ("cpu", "gpu-share", "gpu-whole", "gpu-rdma"):
            with self.subTest(mix=mix):
                runs = bench_json("--nodes", "40", "--pods", "120", "--mix", mix)
                self.assertEqual(len(runs), 1)
                self.check_run(runs[0], 120)
                self.assertEqual(runs[0]["mix"], mix)
                self.assertGreater(runs[0]["bound"], 0)
                if mix in ("cpu", "gpu-share"):
                    # 40 nodes of 64 CPUs and 8 GPUs take 120 such pods (at most 2 CPUs or half a card each).
                    self.assertEqual(runs[0]["failed"], 0, runs[0])

    def test_runs_repeat(self):
        runs = bench_json("--nodes", "20", "--pods", "50", "--runs", "3")
        self.assertEqual(len(runs), 3)
        for r in runs:
            self.check_run(r, 50)

    def test_small_cluster_fails_the_overflow(self):
        # One node with 8 GPUs cannot take 40 whole-GPU pods of 1-8 cards.
        r = bench_json("--nodes", "1", "--pods", "40", "--mix", "gpu-whole")[0]
        self.check_run(r, 40)
        self.assertGreater(r["failed"], 0)
        self.assertGreater(r["bound"], 0)
        self.assertLessEqual(r["bound"], 8)

    def test_partition_counts(self):
        self.assertEqual(bench_json("--nodes", "30", "--pods", "30", "--partitions", "3")[0]["partitions"], 3)
        r = bench_json("--nodes", "30", "--pods", "30", "--one-node-per-actor")[0]
        self.assertEqual(r["partitions"], 30)
        self.check_run(r, 30)

    def test_pods_already_placed_and_window(self):
        r = bench_json("--nodes", "20", "--pods", "40", "--placed-per-node", "5", "--window", "1")[0]
        self.check_run(r, 40)
        self.assertEqual(r["placed_per_node"], 5)

    def test_label_values(self):
        # Labelled pods schedule as unlabelled ones do: every pod once, none failed.
        r = bench_json("--nodes", "20", "--pods", "60", "--placed-per-node", "2", "--label-values", "7")[0]
        self.check_run(r, 60)
        self.assertEqual((r["label_values"], r["failed"]), (7, 0), r)
        self.assertEqual(bench_json("--nodes", "5", "--pods", "5")[0]["label_values"], 0)

    def test_reserved_nodes(self):
        for mix in ("cpu", "gpu-share"):
            with self.subTest(mix=mix):
                r = bench_json("--nodes", "40", "--pods", "120", "--mix", mix, "--reserved-nodes", "10")[0]
                self.check_run(r, 120)
                self.assertEqual(r["reserved_nodes_percent"], 10)
                self.assertEqual(r["reservations"], 4)  # 10% of 40 nodes
                self.assertEqual(r["failed"], 0, r)
                # Half the pods own the reservations; with 4 nodes of 8 CPUs (and a card) reserved
                # some owners land on them, never more than there are owners.
                self.assertGreater(r["bound_to_reservations"], 0, r)
                self.assertLessEqual(r["bound_to_reservations"], 60, r)
        plain = bench_json("--nodes", "40", "--pods", "40")[0]
        self.assertEqual((plain["reserved_nodes_percent"], plain["reservations"], plain["bound_to_reservations"]),
                         (0, 0, 0))

    def test_table_output(self):
        done = run("bench", "--nodes", "10", "--pods", "10")
        self.assertEqual(done.returncode, 0, done.stderr)
        header, row = done.stdout.splitlines()[:2]
        self.assertIn("pods/s", header)
        self.assertTrue(row.startswith("cpu"), row)

    def test_bad_flags(self):
        cases = [
            (("--mix", "gpu-huge"), "gpu-share"),
            (("--nodes", "0"), "--nodes"),
            (("--pods", "many"), "--pods"),
            (("--gpu-node-fraction", "2"), "--gpu-node-fraction"),
            (("--reserved-nodes", "101"), "--reserved-nodes"),
            (("--label-values", "-1"), "--label-values"),
            (("--frobnicate",), "frobnicate"),
        ]
        for args, needle in cases:
            with self.subTest(args=args):
                done = run("bench", *args)
                self.assertEqual(done.returncode, 2, done.stdout)
                self.assertIn(needle, done.stderr)


NODES_CSV = """sn,cpu_milli,memory_mib,gpu,model
node-a,32000,131072,4,V100M16
node-b,32000,131072,4,V100M16
node-c,16000,65536,2,T4
node-d,8000,32768,0,
"""

def pods_csv():
    """Shared-GPU pods of at most a quarter card (2.5% of the 10 GPUs), so
    every arrival step is small enough for the 99-101% bins to hold events;
    some pinned to a model, some CPU-only."""
    rows = ["name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec"]
    for i in range(48):
        if i % 6 == 5:
            rows.append("p-%02d,1000,2048,0,0," % i)
            continue
        spec = "V100M16" if i % 7 == 3 else ("T4" if i % 11 == 4 else "")
        rows.append("p-%02d,%d,4096,1,%d,%s" % (i, 1000 + 500 * (i % 3), (100, 200, 250)[i % 3], spec))
    return "\n".join(rows) + "\n"


class ReplayTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.nodes = os.path.join(cls.tmp.name, "nodes.csv")
        cls.pods = os.path.join(cls.tmp.name, "pods.csv")
        with open(cls.nodes, "w") as f:
            f.write(NODES_CSV)
        with open(cls.pods, "w") as f:
            f.write(pods_csv())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def replay(self, *args):
        done = run("replay", "--nodes", self.nodes, "--pods", self.pods, "--json", *args)
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)

    def test_both_policies_report_the_headline_and_reference(self):
        for policy in ("least-allocated", "most-allocated"):
            with self.subTest(policy=policy):
                out = self.replay("--policy", policy, "--seeds", "42-44")
                self.assertEqual(out["policy"], policy)
                self.assertEqual([s["seed"] for s in out["seeds"]], [42, 43, 44])
                per_seed = sorted(s["gpu_allocation_ratio_at_100"] for s in out["seeds"])
                self.assertAlmostEqual(out["gpu_allocation_ratio_at_100"], per_seed[1], places=3)
                for s in out["seeds"]:
                    # 10 GPUs: nothing above capacity; the arrivals reach 100% before the end.
                    self.assertGreater(s["gpu_allocation_ratio_at_100"], 0)
                    self.assertLessEqual(s["gpu_allocation_ratio_at_100"], 100)
                    self.assertLessEqual(s["gpu_allocation_ratio_at_100"], s["gpu_allocation_ratio_at_130"])
                    self.assertIsNotNone(s["reference_at_100"])
                    self.assertGreater(s["failed"], 0)  # inflated to 130% of capacity: some must fail
                self.assertEqual(len(out["allocation_curve"]), 131)
                self.assertEqual(len(out["fragmentation_amount_curve"]), 131)

    def test_bad_inputs(self):
        cases = [
            (("--nodes", self.nodes, "--pods", self.pods, "--policy", "best-fit"), "--policy"),
            (("--nodes", self.nodes, "--pods", self.pods, "--seeds", "51-42"), "--seeds"),
            (("--nodes", self.nodes, "--pods", self.pods, "--seeds", "x"), "--seeds"),
            (("--nodes", "/nonexistent.csv", "--pods", self.pods), "/nonexistent.csv"),
            (("--pods", self.pods), "--nodes"),
        ]
        for args, needle in cases:
            with self.subTest(args=args):
                done = run("replay", *args)
                self.assertEqual(done.returncode, 2, done.stdout)
                self.assertIn(needle, done.stderr)

    @unittest.skipUnless(os.path.isdir(DATA), "openb data not beside the repository")
    def test_default_trace_one_seed(self):
        done = run("replay", "--nodes", os.path.join(DATA, "openb_node_list_gpu_node.csv"), "--pods",
                   os.path.join(DATA, "openb_pod_list_default.csv"), "--policy", "most-allocated", "--seeds", "42",
                   "--json", timeout=600)
        self.assertEqual(done.returncode, 0, done.stderr)
        out = json.loads(done.stdout)
        # Published baselines on this trace lie between 86 (Random) and 95 (FGD).
        self.assertGreater(out["gpu_allocation_ratio_at_100"], 80)
        self.assertLess(out["gpu_allocation_ratio_at_100"], 97)


if __name__ == "__main__":
    unittest.main()
