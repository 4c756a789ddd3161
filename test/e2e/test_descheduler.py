"""troupe scheduler end to end: descheduling and PodMigrationJobs (issue 8).

`troupe apiserver` has no kubelet, koordlet, ReplicaSet controller, disruption
controller or reservation-aware scheduler, so the tests play those parts
themselves, each named where it happens:
  - the kubelet marks bound pods Running and Ready;
  - the koordlet publishes a NodeMetric per node from the pods on it (each
    pod's usage is written on it as the annotation test.troupe.dev/cpu-usage);
  - the ReplicaSet controller re-creates evicted pods of a workload (pods own
    an ownerReference to a ReplicaSet-like owner);
  - the disruption controller writes a PDB's status;
  - the reservation controller (troupe does not schedule Reservations yet,
    issue 6): it picks the reserved node, marks the Reservation Available,
    and records the replacement pod as its owner.
Everything else — LowNodeLoad's plan, the PodMigrationJobs, arbitration, the
job state machine, evictions through the Eviction API, status writes — is
troupe scheduler's own work, configured by --descheduler-config.
"""
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import unittest

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (DEFAULT_NS, SCHEDULER_NAME, Client, Cluster, make_node,  # noqa: E402
                               make_pod, metric_sum, parse_quantity, profile, required_node_affinity,
                               scheduler_config)
from device_builders import DEVICE_ALLOCATED, allocation, gpu_pod, make_device, make_gpu_node  # noqa: E402

NODEMETRICS = "/apis/slo.koordinator.sh/v1alpha1/nodemetrics"
DEVICES = "/apis/scheduling.koordinator.sh/v1alpha1/devices"
SUMMARIES = "/apis/v1/plugins/DeviceShare/nodeDeviceSummaries"
JOBS = "/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs"
RESERVATIONS = "/apis/scheduling.koordinator.sh/v1alpha1/reservations"
PDBS = "/apis/policy/v1/namespaces/default/poddisruptionbudgets"
USAGE = "test.troupe.dev/cpu-usage"
MERGE = "application/merge-patch+json"


def now_rfc3339():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def workload_pod(name, app, cpu_usage, node=None, cpu="1", scheduler=SCHEDULER_NAME):
    """A pod of ReplicaSet `app` using `cpu_usage` cores (as the koordlet will report)."""
    pod = make_pod(name, cpu=cpu, memory="1Gi", node_name=node, labels={"app": app}, scheduler=scheduler)
    pod["metadata"]["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": app,
                                           "uid": "uid-rs-" + app, "controller": True}]
    pod["metadata"]["annotations"] = {USAGE: str(cpu_usage)}
    return pod


def descheduler_config(dry_run=False, total=None, per_node=None, job_mode="EvictDirectly", **migration):
    config = {
        "apiVersion": "descheduler/v1alpha2",
        "kind": "DeschedulerConfiguration",
        "deschedulingInterval": "1s",
        "dryRun": dry_run,
        "profiles": [{
            "name": "koord-descheduler",
            "plugins": {"balance": {"enabled": [{"name": "LowNodeLoad"}]}},
            "pluginConfig": [
                {"name": "LowNodeLoad", "args": {
                    "lowThresholds": {"cpu": 30, "memory": 30},
                    "highThresholds": {"cpu": 70, "memory": 80},
                    "anomalyCondition": {"consecutiveAbnormalities": 1}}},
                {"name": "MigrationController", "args": dict({"defaultJobMode": job_mode}, **migration)},
            ],
        }],
    }
    if total is not None:
        config["maxNoOfPodsToEvictTotal"] = total
    if per_node is not None:
        config["maxNoOfPodsToEvictPerNode"] = per_node
    return config


def defrag_config(dry_run=False, total=None, migration=None, **args):
    """Only GPUDefragmentation balances; jobs evict directly."""
    config = {
        "deschedulingInterval": "1s",
        "dryRun": dry_run,
        "profiles": [{
            "name": "koord-descheduler",
            "plugins": {"balance": {"enabled": [{"name": "GPUDefragmentation"}]}},
            "pluginConfig": [
                {"name": "GPUDefragmentation", "args": args},
                {"name": "MigrationController", "args": dict({"defaultJobMode": "EvictDirectly"},
                                                             **(migration or {}))},
            ],
        }],
    }
    if total is not None:
        config["maxNoOfPodsToEvictTotal"] = total
    return config


def shared_gpu_pod(name, node, minor, core=50):
    """A pod of ReplicaSet `infer` already placed (by an earlier scheduler) on a share of one card."""
    pod = gpu_pod(name, core=core, ratio=core, node_name=node, labels={"app": "infer"}, annotations={
        DEVICE_ALLOCATED: {"gpu": [{"minor": minor, "resources": {
            "koordinator.sh/gpu-core": str(core), "koordinator.sh/gpu-memory": "%dGi" % (16 * core // 100),
            "koordinator.sh/gpu-memory-ratio": str(core)}, "id": "GPU-%s-%d" % (node, minor)}]}})
    pod["metadata"]["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "infer",
                                           "uid": "uid-rs-infer", "controller": True}]
    return pod


class Actors:
    """The stand-ins (kubelet, koordlet, ReplicaSet controller) on a thread of their own."""

    def __init__(self, server, replicas=None):
        self.client = Client(server)
        self.replicas = replicas or {}  # app -> (count, cpu usage)
        self.created = 0
        self.stop_event = threading.Event()
        self.errors = []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self):
        self.step()  # metrics exist before the scheduler's first cycle
        self.thread.start()
        return self

    def stop(self):
        self.stop_event.set()
        if self.thread.is_alive():
            self.thread.join(10)
        self.client.close()

    def run(self):
        while not self.stop_event.wait(0.1):
            try:
                self.step()
            except Exception as e:  # noqa: BLE001 - reported by the test
                self.errors.append(repr(e))

    def step(self):
        pods = [p for p in self.client.pods() if not p["metadata"].get("deletionTimestamp")]
        self.kubelet(pods)
        self.koordlet(pods)
        self.replicaset_controller(pods)

    def kubelet(self, pods):
        for pod in pods:
            if pod["spec"].get("nodeName") and pod.get("status", {}).get("phase") != "Running":
                self.client.ok("PATCH", "/api/v1/namespaces/%s/pods/%s/status" % (
                    pod["metadata"]["namespace"], pod["metadata"]["name"]),
                    {"status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}}, MERGE)

    def koordlet(self, pods):
        by_node = {}
        for pod in pods:
            if pod["spec"].get("nodeName"):
                by_node.setdefault(pod["spec"]["nodeName"], []).append(pod)
        for node in self.client.nodes():
            name = node["metadata"]["name"]
            pod_metrics, total = [], 0.5  # half a core of system usage
            for pod in by_node.get(name, []):
                cores = float(pod["metadata"].get("annotations", {}).get(USAGE, "0"))
                total += cores
                pod_metrics.append({"namespace": pod["metadata"]["namespace"], "name": pod["metadata"]["name"],
                                    "podUsage": {"resources": {"cpu": "%dm" % (cores * 1000), "memory": "1Gi"}}})
            status = {"updateTime": now_rfc3339(),
                      "nodeMetric": {"nodeUsage": {"resources": {"cpu": "%dm" % (total * 1000), "memory": "2Gi"}},
                                     "systemUsage": {"resources": {"cpu": "500m", "memory": "1Gi"}}},
                      "podsMetric": pod_metrics}
            code, _ = self.client.request("GET", NODEMETRICS + "/" + name)
            if code == 404:
                self.client.ok("POST", NODEMETRICS, {"apiVersion": "slo.koordinator.sh/v1alpha1", "kind": "NodeMetric",
                                                     "metadata": {"name": name}})
            self.client.ok("PATCH", NODEMETRICS + "/" + name + "/status", {"status": status}, MERGE)

    def replicaset_controller(self, pods):
        for app, (count, usage) in self.replicas.items():
            live = [p for p in pods if p["metadata"].get("labels", {}).get("app") == app]
            for _ in range(count - len(live)):
                self.created += 1
                self.client.ok("POST", "/api/v1/namespaces/default/pods",
                               workload_pod("%s-r%d" % (app, self.created), app, usage))


def node_cpu_usage(client, node):
    metric = client.ok("GET", NODEMETRICS + "/" + node)
    return parse_quantity(metric["status"]["nodeMetric"]["nodeUsage"]["resources"]["cpu"])


def jobs(client):
    return client.ok("GET", JOBS)["items"]


def phase(job):
    return job.get("status", {}).get("phase", "")


class DeschedulerFixture:
    """The cluster, the stand-in controllers and a scheduler with a descheduler configuration."""

    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client
        self.dir = tempfile.mkdtemp(prefix="troupe-descheduler-")
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)
        self.actors = None

    def tearDown(self):
        if self.actors:
            self.actors.stop()
            self.assertEqual(self.actors.errors[:3], [], "the test's stand-in controllers failed")

    def start(self, descheduler=None, replicas=None):
        self.actors = Actors(self.cluster.server, replicas).start()
        extra = []
        if descheduler is not None:
            path = os.path.join(self.dir, "descheduler.yaml")
            with open(path, "w") as f:
                yaml.safe_dump(descheduler, f)
            extra = ["--descheduler-config", path]
        scheduler = self.cluster.start_scheduler(scheduler_config(profiles=[profile()]), extra_args=extra)
        scheduler.wait_ready()
        return scheduler


class DeschedulerTest(DeschedulerFixture, unittest.TestCase):
    def three_nodes(self):
        for name in ("n1", "n2", "n3"):
            self.client.create(make_node(name, cpu="10", memory="40Gi"))

    def hot_web(self, replicas=5, usage=1.8):
        """n1 hosts the ReplicaSet web: 5 x 1.8 cores + 0.5 system = 95% of 10 cores (high threshold 70%)."""
        for i in range(replicas):
            self.client.create(workload_pod("web-%d" % i, "web", usage, node="n1"))

    def reservation_first_job_for_db_0(self):
        """db-0 on n1 and db-1 on n2 (ReplicaSet db), the scheduler with the controller's defaults, and a
        user's ReservationFirst job for db-0; returns the job and the path of the reservation it makes."""
        self.three_nodes()
        self.client.create(workload_pod("db-0", "db", 1.0, node="n1", cpu="2"))
        self.client.create(workload_pod("db-1", "db", 1.0, node="n2", cpu="2"))
        self.start()
        job = self.client.ok("POST", JOBS, {"apiVersion": "scheduling.koordinator.sh/v1alpha1",
                                            "kind": "PodMigrationJob", "metadata": {"name": "move-db-0"},
                                            "spec": {"podRef": {"namespace": "default", "name": "db-0"},
                                                     "mode": "ReservationFirst"}})
        return job, RESERVATIONS + "/" + job["metadata"]["uid"]

    def test_hot_node_relieved_below_high_threshold_within_limits(self):
        self.three_nodes()
        self.hot_web()
        # objectLimiters: 2 migrations of web per 2 s (the default window is 5 minutes).
        scheduler = self.start(descheduler_config(total=5, per_node=3, maxMigratingPerNode=1,
                                                  objectLimiters={"workload": {"duration": "2s", "maxMigrating": 2}}),
                               replicas={"web": (5, 1.8)})
        # 9.5 cores -> at most 7: two pods of 1.8 go (7.9 is still hot, 6.1 is not).
        self.cluster.wait(lambda: len([j for j in jobs(self.client) if phase(j) == "Succeeded"]) >= 2, 60,
                          lambda: "two jobs did not succeed: %s" % [(j["metadata"]["name"], j.get("status"))
                                                                    for j in jobs(self.client)])
        # Evicted pods come back through the ReplicaSet and troupe places them off the hot node.
        self.cluster.wait(lambda: len([p for p in self.client.pods() if p["spec"].get("nodeName")]) == 5, 30,
                          "the replacements were not scheduled")
        time.sleep(4)  # four more cycles: nothing else may move
        all_jobs = jobs(self.client)
        self.assertEqual(len(all_jobs), 2, [(j["metadata"]["name"], phase(j)) for j in all_jobs])
        for job in all_jobs:
            self.assertEqual(job["metadata"]["annotations"]["descheduler.koordinator.sh/evict-trigger"], "LowNodeLoad")
            self.assertEqual(job["spec"]["mode"], "EvictDirectly")
            self.assertTrue(job["spec"]["podRef"]["name"].startswith("web-"))
        placed = {}
        for pod in self.client.pods():
            placed.setdefault(pod["spec"]["nodeName"], []).append(pod["metadata"]["name"])
        self.assertEqual(len(placed["n1"]), 3, placed)
        self.assertLessEqual(node_cpu_usage(self.client, "n1"), 7.0)
        for node in ("n2", "n3"):  # no target became hot
            self.assertLessEqual(node_cpu_usage(self.client, node), 7.0)
        metrics = scheduler.metrics()
        self.assertEqual(metric_sum(metrics, "troupe_descheduler_evictions_total", plugin="LowNodeLoad",
                                    result="success"), 2)
        # Koordinator's counter: both pods left the hot node n1.
        self.assertEqual(metric_sum(metrics, "descheduler_pods_evicted", result="success", strategy="LowNodeLoad",
                                    namespace="default", node="n1"), 2)
        self.assertEqual(metric_sum(metrics, "troupe_migration_jobs", phase="Succeeded"), 2)
        self.assertGreaterEqual(metric_sum(metrics, "troupe_descheduler_cycle_duration_seconds_count"), 3)

    def test_pods_the_arbiter_would_reject_are_not_planned(self):
        self.three_nodes()
        # n1 is as hot as in the tests above, but each pod is the only replica of its ReplicaSet:
        # the arbiter rejects such a migration outright, so LowNodeLoad plans none (Koordinator's
        # Reconciler.Filter) rather than failing a job for one every cycle.
        for i in range(5):
            self.client.create(workload_pod("solo-%d" % i, "solo-%d" % i, 1.8, node="n1"))
        scheduler = self.start(descheduler_config())
        self.cluster.wait(lambda: scheduler.metric("troupe_descheduler_cycle_duration_seconds_count") >= 3, 30,
                          "three descheduling cycles")
        self.assertEqual(jobs(self.client), [])
        self.assertIn("0 migration(s) planned", scheduler.stderr())

    def test_eviction_limit_total_is_never_exceeded(self):
        self.three_nodes()
        self.hot_web()
        # n1 needs two pods moved; maxNoOfPodsToEvictTotal: 1 allows one per cycle.
        scheduler = self.start(descheduler_config(total=1), replicas={"web": (5, 1.8)})
        self.cluster.wait(lambda: any(phase(j) == "Succeeded" for j in jobs(self.client)), 60, "no job succeeded")
        time.sleep(3)
        log = scheduler.stderr()
        self.assertIn("1 migration(s) planned", log)
        self.assertNotIn("2 migration(s) planned", log)
        self.assertGreaterEqual(len(jobs(self.client)), 1)

    def test_pdb_protected_pods_are_not_evicted(self):
        self.three_nodes()
        self.hot_web()
        pdb = self.client.ok("POST", PDBS, {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                                            "metadata": {"name": "web"},
                                            "spec": {"minAvailable": 5, "selector": {"matchLabels": {"app": "web"}}}})
        # As the disruption controller: 5 healthy, 5 desired, nothing may go.
        self.client.ok("PATCH", PDBS + "/web/status", {"status": {
            "observedGeneration": pdb["metadata"].get("generation", 1), "disruptionsAllowed": 0,
            "currentHealthy": 5, "desiredHealthy": 5, "expectedPods": 5}}, MERGE)
        scheduler = self.start(descheduler_config())
        time.sleep(4)
        self.assertEqual(jobs(self.client), [])
        # A user's job for a protected pod: the Eviction API refuses (429) and the job fails.
        self.client.ok("POST", JOBS, {"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "PodMigrationJob",
                                      "metadata": {"name": "move-web-0"},
                                      "spec": {"podRef": {"namespace": "default", "name": "web-0"}}})
        self.cluster.wait(lambda: phase(self.client.ok("GET", JOBS + "/move-web-0")) == "Failed", 30,
                          lambda: "job did not fail: %s" % self.client.ok("GET", JOBS + "/move-web-0").get("status"))
        status = self.client.ok("GET", JOBS + "/move-web-0")["status"]
        self.assertEqual(status["reason"], "FailedEvict")
        self.assertIn("disruption budget", status["message"])
        self.assertEqual(len([p for p in self.client.pods() if p["spec"].get("nodeName") == "n1"]), 5)
        self.assertEqual(metric_sum(scheduler.metrics(), "troupe_descheduler_evictions_total", plugin="MigrationController",
                                    result="blocked"), 1)
        self.assertEqual(metric_sum(scheduler.metrics(), "descheduler_pods_evicted", result="error",
                                    strategy="MigrationController", node="n1"), 1)

    def user_job(self, name, pod):
        return self.client.ok("POST", JOBS, {"apiVersion": "scheduling.koordinator.sh/v1alpha1",
                                             "kind": "PodMigrationJob", "metadata": {"name": name},
                                             "spec": {"podRef": {"namespace": "default", "name": pod}}})

    def protected_db(self):
        """db-0 on n1 and db-1 on n2, under a PDB that allows no disruption."""
        self.three_nodes()
        self.client.create(workload_pod("db-0", "db", 1.0, node="n1"))
        self.client.create(workload_pod("db-1", "db", 1.0, node="n2"))
        pdb = self.client.ok("POST", PDBS, {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                                            "metadata": {"name": "db"},
                                            "spec": {"minAvailable": 2, "selector": {"matchLabels": {"app": "db"}}}})
        self.client.ok("PATCH", PDBS + "/db/status", {"status": {
            "observedGeneration": pdb["metadata"].get("generation", 1), "disruptionsAllowed": 0,
            "currentHealthy": 2, "desiredHealthy": 2, "expectedPods": 2}}, MERGE)

    def test_eviction_policy_delete_deletes_without_the_eviction_api(self):
        # Delete bypasses the Eviction API, so even a PDB that allows nothing does not stop it.
        self.protected_db()
        scheduler = self.start(descheduler_config(evictionPolicy="Delete"))
        self.user_job("move-db-0", "db-0")
        self.cluster.wait(lambda: phase(self.client.ok("GET", JOBS + "/move-db-0")) == "Succeeded", 30,
                          lambda: "job did not succeed: %s" % self.client.ok("GET", JOBS + "/move-db-0").get("status"))
        self.assertIsNone(self.client.pod("db-0"))
        self.assertIsNotNone(self.client.pod("db-1"))
        self.assertEqual(metric_sum(scheduler.metrics(), "troupe_descheduler_evictions_total",
                                    plugin="MigrationController", result="success"), 1)

    def test_eviction_policy_soft_eviction_marks_the_pod_for_its_controller(self):
        self.protected_db()
        self.start(descheduler_config(evictionPolicy="SoftEviction"))
        self.user_job("move-db-0", "db-0")

        def mark():
            return ((self.client.pod("db-0") or {}).get("metadata", {}).get("annotations", {})
                    .get("scheduling.koordinator.sh/soft-eviction"))
        self.cluster.wait(mark, 30, lambda: "db-0 was not marked; job %s" % self.client.ok(
            "GET", JOBS + "/move-db-0").get("status"))
        spec = json.loads(mark())
        self.assertEqual(spec["initiator"], "MigrationController")
        self.assertRegex(spec["timestamp"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        # The pod stays until its own controller acts; the job waits for that.
        time.sleep(2)
        self.assertIsNotNone(self.client.pod("db-0"))
        status = self.client.ok("GET", JOBS + "/move-db-0")["status"]
        self.assertEqual((status["phase"], status["reason"]), ("Running", "Evicting"))
        # As the workload's controller honouring the mark: it deletes the pod.
        self.client.ok("DELETE", "/api/v1/namespaces/default/pods/db-0")
        self.cluster.wait(lambda: phase(self.client.ok("GET", JOBS + "/move-db-0")) == "Succeeded", 30,
                          lambda: "job did not succeed: %s" % self.client.ok("GET", JOBS + "/move-db-0").get("status"))

    def test_dry_run_evicts_nothing_and_reports(self):
        self.three_nodes()
        self.hot_web()
        scheduler = self.start(descheduler_config(dry_run=True))
        self.cluster.wait(lambda: metric_sum(scheduler.metrics(), "troupe_descheduler_evictions_total",
                                             plugin="LowNodeLoad", result="dry-run") >= 2, 30,
                          "dry run reported nothing")
        scheduler.wait_logged("dry run: LowNodeLoad would migrate pod default/web-")
        self.assertEqual(jobs(self.client), [])
        self.assertEqual(sorted(p["metadata"]["name"] for p in self.client.pods()),
                         ["web-%d" % i for i in range(5)])

    def test_a_deleted_job_takes_its_unused_reservation_with_it(self):
        _, reservation_path = self.reservation_first_job_for_db_0()
        self.cluster.wait(lambda: self.client.request("GET", reservation_path)[0] == 200, 30,
                          "no reservation was created")
        # A user gives up the migration: the reservation nobody uses goes with the job.
        self.client.ok("DELETE", JOBS + "/move-db-0")
        self.cluster.wait(lambda: self.client.request("GET", reservation_path)[0] == 404, 30,
                          "the job's reservation was not deleted")
        self.assertIsNotNone(self.client.pod("db-0"))  # nothing was evicted

    def test_reservation_first_job_moves_pod_to_reserved_node(self):
        # No --descheduler-config: the MigrationController runs with its defaults.
        job, reservation_path = self.reservation_first_job_for_db_0()

        def reservation():
            code, body = self.client.request("GET", reservation_path)
            return body if code == 200 else None
        self.cluster.wait(reservation, 30, "no reservation was created")
        made = reservation()
        # Owned by the pod's ReplicaSet: its replacement is another pod of it.
        self.assertEqual(made["spec"]["owners"][0]["controller"]["uid"], "uid-rs-db")
        self.assertTrue(made["spec"].get("allocateOnce", True))  # absent means true
        terms = made["spec"]["template"]["spec"]["affinity"]["nodeAffinity"][
            "requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
        self.assertEqual(terms[0]["matchFields"], [{"key": "metadata.name", "operator": "NotIn", "values": ["n1"]}])
        self.assertIn("db-0", self.client.pods().__repr__())  # not evicted before the reservation is Available

        # As the reservation controller: n3 is free and not n1, so the reservation goes there.
        self.client.ok("PATCH", reservation_path + "/status", {"status": {"phase": "Available", "nodeName": "n3"}},
                       MERGE)
        self.cluster.wait(lambda: self.client.pod("db-0") is None, 30, "db-0 was not evicted")
        # As the ReplicaSet controller and a reservation-aware scheduler: the replacement
        # is tied to the reservation; troupe scheduler places it.
        replacement = workload_pod("db-2", "db", 1.0, cpu="2")
        replacement["metadata"]["annotations"]["scheduling.koordinator.sh/reservation-affinity"] = json.dumps(
            {"name": job["metadata"]["uid"]})
        replacement["spec"]["affinity"] = required_node_affinity([("kubernetes.io/hostname", "In", ["n3"])])
        self.client.create(replacement)
        self.cluster.wait(lambda: (self.client.pod("db-2") or {}).get("spec", {}).get("nodeName"), 30,
                          "db-2 was not scheduled")
        self.assertEqual(self.client.pod("db-2")["spec"]["nodeName"], "n3")
        self.client.ok("PATCH", reservation_path + "/status", {"status": {
            "currentOwners": [{"namespace": "default", "name": "db-2", "uid": self.client.pod("db-2")["metadata"]["uid"]}]}},
            MERGE)
        self.cluster.wait(lambda: phase(self.client.ok("GET", JOBS + "/move-db-0")) == "Succeeded", 30,
                          lambda: "job did not succeed: %s" % self.client.ok("GET", JOBS + "/move-db-0").get("status"))
        status = self.client.ok("GET", JOBS + "/move-db-0")["status"]
        self.assertEqual(status["nodeName"], "n3")
        conditions = {c["type"]: c["status"] for c in status["conditions"]}
        for kind in ("ReservationCreated", "ReservationScheduled", "Eviction", "PodBoundReservation", "BoundPodReady"):
            self.assertEqual(conditions.get(kind), "True", (kind, status["conditions"]))

    def test_a_pod_that_may_not_move_fails_its_job_as_koordinators_arbitrator_does(self):
        # ReservationFirst needs the pod's scheduler to be troupe (it must place the replacement).
        self.three_nodes()
        self.client.create(workload_pod("db-0", "db", 1.0, node="n1", cpu="2", scheduler="other-scheduler"))
        self.start()
        self.client.ok("POST", JOBS, {"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "PodMigrationJob",
                                      "metadata": {"name": "stuck"},
                                      "spec": {"podRef": {"namespace": "default", "name": "db-0"},
                                               "mode": "ReservationFirst"}})
        self.cluster.wait(lambda: phase(self.client.ok("GET", JOBS + "/stuck")) == "Failed", 30,
                          lambda: "job not failed: %s" % self.client.ok("GET", JOBS + "/stuck"))
        status = self.client.ok("GET", JOBS + "/stuck")["status"]
        self.assertEqual(status["reason"], "ForbiddenMigratePod")
        self.assertTrue(status["message"].startswith(
            'Pod "default/db-0" is forbidden to migrate because it does not meet the requirements: '
            "pod's schedulerName other-scheduler cannot migrate in ReservationFirst mode"), status["message"])
        events = self.cluster.wait(
            lambda: [e for e in self.client.events_about("stuck") if e["reason"] == "ForbiddenMigratePod"], 30,
            lambda: "a Warning event on the job: %s" % self.client.events_about("stuck"))
        self.assertEqual((events[0]["type"], events[0]["message"]), ("Warning", status["message"]))
        self.assertIsNotNone(self.client.pod("db-0"))  # nothing evicted

    def test_malformed_job_fails_naming_the_field(self):
        self.three_nodes()
        self.client.create(workload_pod("db-0", "db", 1.0, node="n1", cpu="2"))
        self.start()
        self.client.ok("POST", JOBS, {"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "PodMigrationJob",
                                      "metadata": {"name": "soon"},
                                      "spec": {"podRef": {"namespace": "default", "name": "db-0"}, "ttl": "soon"}})
        self.cluster.wait(lambda: phase(self.client.ok("GET", JOBS + "/soon")) == "Failed", 30,
                          lambda: "job not failed: %s" % self.client.ok("GET", JOBS + "/soon"))
        job = self.client.ok("GET", JOBS + "/soon")
        self.assertEqual(job["status"]["reason"], "Invalid")
        self.assertIn("the PodMigrationJob is malformed", job["status"]["message"])
        self.assertIn("spec.ttl", job["status"]["message"])
        self.assertEqual(job["spec"]["ttl"], "soon")  # nothing else touched
        self.assertIsNotNone(self.client.pod("db-0"))  # and nothing evicted
        # And a Warning event on the job, once (marking it Failed is a new version with the same problem).
        events = self.cluster.wait(lambda: [e for e in self.client.events_about("soon") if e["reason"] == "Invalid"],
                                   30, lambda: "a Warning event on the job: %s" % self.client.events_about("soon"))
        self.assertEqual(events[0]["type"], "Warning")
        self.assertIn("troupe cannot read this PodMigrationJob and ignores this version of it: spec.ttl",
                      events[0]["message"])
        time.sleep(1)
        self.assertEqual(len([e for e in self.client.events_about("soon") if e["reason"] == "Invalid"]), 1)

    def test_reservation_first_with_troupe_scheduling_the_reservation(self):
        # No stand-in reservation controller: troupe schedules the Reservation, binds the
        # replacement onto it and records its owner; the test plays only kubelet and ReplicaSet.
        job, reservation_path = self.reservation_first_job_for_db_0()

        def reservation():
            code, body = self.client.request("GET", reservation_path)
            return body if code == 200 else None
        self.cluster.wait(lambda: (reservation() or {}).get("status", {}).get("phase") == "Available", 30,
                          lambda: "the reservation was not scheduled: %s" % (reservation() or {}).get("status"))
        reserved_on = reservation()["status"]["nodeName"]
        self.assertNotEqual(reserved_on, "n1")
        self.cluster.wait(lambda: self.client.pod("db-0") is None, 30, "db-0 was not evicted")
        replacement = workload_pod("db-2", "db", 1.0, cpu="2")
        replacement["metadata"]["annotations"]["scheduling.koordinator.sh/reservation-affinity"] = json.dumps(
            {"name": job["metadata"]["uid"]})
        self.client.create(replacement)
        self.cluster.wait(lambda: phase(self.client.ok("GET", JOBS + "/move-db-0")) == "Succeeded", 60,
                          lambda: "job did not succeed: %s; reservation %s; db-2 %s" % (
                              self.client.ok("GET", JOBS + "/move-db-0").get("status"),
                              (reservation() or {}).get("status"),
                              (self.client.pod("db-2") or {}).get("spec", {}).get("nodeName")))
        self.assertEqual(self.client.pod("db-2")["spec"]["nodeName"], reserved_on)


class GpuDefragmentationTest(DeschedulerFixture, unittest.TestCase):
    """Two nodes with two 16Gi cards each, one half-card shared pod per card:
    no whole card is free, though two cards' worth of capacity is."""

    def fragmented(self, descheduler):
        for node in ("g1", "g2"):
            self.client.create(make_gpu_node(node, gpus=2, nics=1, gpu_memory_gib=16))
            self.client.create(make_device(node, numa_nodes=1, switches_per_numa=1, gpus_per_switch=2,
                                           gpu_memory="16Gi", vfs_per_nic=1))
        self.shared = {"s-g1-0": ("g1", 0), "s-g1-1": ("g1", 1), "s-g2-0": ("g2", 0), "s-g2-1": ("g2", 1)}
        for name, (node, minor) in self.shared.items():
            self.client.create(shared_gpu_pod(name, node, minor))
        scheduler = self.start(descheduler)

        def devices_seen():  # Devices and pods come on separate watch streams
            code, body = scheduler.get(SUMMARIES)
            if code != 200:
                return False
            summaries = json.loads(body)
            return all(summaries.get(n, {}).get("deviceUsed", {}).get("koordinator.sh/gpu-core") == "100"
                       for n in ("g1", "g2"))
        self.cluster.wait(devices_seen, 30, "the scheduler did not see the Devices and shared pods")
        return scheduler

    def whole_gpu_pod(self, name):
        self.client.create(gpu_pod(name, whole=1))

    def gpu_jobs(self):
        return [j for j in jobs(self.client)
                if j["metadata"]["annotations"].get("descheduler.koordinator.sh/evict-trigger") == "GPUDefragmentation"]

    def test_shared_pods_move_so_a_whole_gpu_pod_binds(self):
        scheduler = self.fragmented(defrag_config())
        self.whole_gpu_pod("train-0")
        self.cluster.wait(lambda: (self.client.pod("train-0") or {}).get("spec", {}).get("nodeName"), 60,
                          lambda: "train-0 never bound; jobs: %s" % [(j["spec"]["podRef"]["name"], j.get("status"))
                                                                     for j in jobs(self.client)])
        train = self.client.pod("train-0")
        card = (train["spec"]["nodeName"], allocation(train)["gpu"][0]["minor"])
        # Exactly one shared pod moved: the one that sat on the card train-0 got.
        all_jobs = self.gpu_jobs()
        self.assertEqual(len(all_jobs), 1, [(j["spec"]["podRef"]["name"], phase(j)) for j in jobs(self.client)])
        moved = all_jobs[0]["spec"]["podRef"]["name"]
        self.assertEqual(self.shared[moved], card)
        self.assertIn("for pending pod default/train-0", all_jobs[0]["metadata"]["annotations"][
            "descheduler.koordinator.sh/evict-reason"])
        self.cluster.wait(lambda: phase(self.gpu_jobs()[0]) == "Succeeded", 30, "the job did not succeed")
        self.assertIsNone(self.client.pod(moved))
        for name in self.shared:  # the others stayed
            if name != moved:
                self.assertEqual(self.client.pod(name)["spec"]["nodeName"], self.shared[name][0])
        # As the ReplicaSet controller: the replacement, scheduled by troupe, fits on the other node's half-free card.
        self.client.create(gpu_pod("s-new", core=50, ratio=50, labels={"app": "infer"}))
        self.cluster.wait(lambda: (self.client.pod("s-new") or {}).get("spec", {}).get("nodeName"), 30,
                          "the replacement shared pod was not scheduled")
        self.assertNotEqual(self.client.pod("s-new")["spec"]["nodeName"], card[0])
        time.sleep(2)  # two more cycles: nothing else moves
        self.assertEqual(len(self.gpu_jobs()), 1)
        metrics = scheduler.metrics()
        self.assertEqual(metric_sum(metrics, "troupe_descheduler_evictions_total", plugin="GPUDefragmentation",
                                    result="success"), 1)

    def test_limits_allow_one_migration_per_cycle(self):
        # The workload's own limiter would hold the second migration for 5 minutes by default.
        scheduler = self.fragmented(defrag_config(total=1, migration={
            "objectLimiters": {"workload": {"duration": "1s", "maxMigrating": 1}}}))
        self.whole_gpu_pod("train-0")
        self.whole_gpu_pod("train-1")
        # Two cards must be freed; one eviction per cycle, so they come one after the other.
        self.cluster.wait(lambda: all((self.client.pod(n) or {}).get("spec", {}).get("nodeName")
                                      for n in ("train-0", "train-1")), 90,
                          lambda: "the whole-GPU pods did not both bind; jobs: %s" % [
                              (j["spec"]["podRef"]["name"], phase(j)) for j in jobs(self.client)])
        log = scheduler.stderr()
        self.assertIn("GPUDefragmentation: 2 pending whole-GPU pod(s), 1 migration(s) planned", log)
        self.assertNotIn("2 migration(s) planned", log)
        self.assertIn("above what is left of the total limit", log)
        self.assertEqual(len(self.gpu_jobs()), 2)
        cards = [(p["spec"]["nodeName"], allocation(p)["gpu"][0]["minor"])
                 for p in (self.client.pod("train-0"), self.client.pod("train-1"))]
        self.assertNotEqual(cards[0], cards[1])

    def test_dry_run_reports_and_evicts_nothing(self):
        scheduler = self.fragmented(defrag_config(dry_run=True))
        self.whole_gpu_pod("train-0")
        self.cluster.wait(lambda: metric_sum(scheduler.metrics(), "troupe_descheduler_evictions_total",
                                             plugin="GPUDefragmentation", result="dry-run") >= 1, 30,
                          "dry run reported nothing")
        scheduler.wait_logged("dry run: GPUDefragmentation would migrate pod default/s-g")
        self.assertEqual(jobs(self.client), [])
        self.assertEqual(sorted(p["metadata"]["name"] for p in self.client.pods() if p["spec"].get("nodeName")),
                         sorted(self.shared))
        self.assertFalse(self.client.pod("train-0")["spec"].get("nodeName"))


if __name__ == "__main__":
    unittest.main()
