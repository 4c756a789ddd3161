"""troupe scheduler end to end: the reservation controller (issue 6, the
Reservation lifecycle) through `troupe apiserver`.

troupe schedules a Pending Reservation itself: its reserve pod goes through
the ordinary cycle (every plugin, CPU and device allocation included) and is
bound by writing the Reservation's status (nodeName, allocatable, phase
Available, conditions Scheduled/Ready) and its allocation annotations. The
controller then expires it (ttl/expires -> Failed, reason Expired), fails it
when its node goes, marks an allocateOnce one Succeeded once an owner is bound,
keeps currentOwners/allocated, and deletes finished ones after the retention
(ReservationArgs.gcDurationSeconds).
"""
import json
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_builders import DEVICE_ALLOCATED, gpu_pod  # noqa: E402
from numa_builders import (QOS, RESOURCE_SPEC, RESOURCE_STATUS, make_gpu_numa_node, make_topology,  # noqa: E402
                           parse_cpuset)
from scheduler_helpers import (SCHEDULER_NAME, SchedulingTest, make_node, make_pod, profile,  # noqa: E402
                               scheduler_config)

RESERVATIONS = "/apis/scheduling.koordinator.sh/v1alpha1/reservations"
RESERVATION_ALLOCATED = "scheduling.koordinator.sh/reservation-allocated"


def reservation(name, requests, owner_labels=None, ttl="1h", allocate_once=True, labels=None, annotations=None,
                owners=True):
    """A Reservation whose template asks for `requests` (requests = limits),
    for the pods labelled `owner_labels` (default: app=<name>)."""
    container = {"name": "main", "image": "busybox",
                 "resources": {"requests": dict(requests), "limits": dict(requests)}}
    template_meta = {"labels": dict(labels or {})}
    if annotations:
        template_meta["annotations"] = {k: json.dumps(v) for k, v in annotations.items()}
    spec = {"template": {"metadata": template_meta,
                         "spec": {"containers": [container], "schedulerName": SCHEDULER_NAME}},
            "allocateOnce": allocate_once}
    if owners:
        spec["owners"] = [{"labelSelector": {"matchLabels": dict(owner_labels or {"app": name})}}]
    if ttl is not None:
        spec["ttl"] = ttl
    return {"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Reservation", "metadata": {"name": name},
            "spec": spec}


def conditions(r):
    return {c["type"]: c for c in (r.get("status") or {}).get("conditions") or []}


def config(gc_seconds=None):
    """The default profile; with gc_seconds, the Reservation plugin's args set its retention."""
    plugin_config = None
    if gc_seconds is not None:
        plugin_config = [{"name": "Reservation", "args": {"gcDurationSeconds": gc_seconds}}]
    return scheduler_config(profiles=[profile(plugin_config=plugin_config)],
                            extra={"clientConnection": {"qps": 2000, "burst": 2000}})


class ReservationReads:
    """Reading Reservations back, for the reservation tests (a SchedulingTest mixin)."""

    def get_reservation(self, name):
        status, body = self.client.request("GET", RESERVATIONS + "/" + name)
        return body if status == 200 else None

    def wait_phase(self, name, phase, timeout=30):
        def reached():
            r = self.get_reservation(name)
            return r if r and (r.get("status") or {}).get("phase") == phase else None
        return self.cluster.wait(reached, timeout,
                                 lambda: "reservation %s %s; now: %s" % (name, phase, self.get_reservation(name)))


def series(metrics, metric, **labels):
    """One series' value (parsed /metrics), None when it is absent."""
    return metrics.get((metric, tuple(sorted(labels.items()))))


class ReservationLifecycleTest(ReservationReads, SchedulingTest):
    def create_reservation(self, r):
        return self.client.ok("POST", RESERVATIONS, r)

    def owner(self, name, reservation_name, cpu="1", memory="1Gi"):
        return make_pod(name, cpu=cpu, memory=memory, labels={"app": reservation_name})

    # ---- scheduling a reservation ----

    def test_gpu_and_cpuset_reservation_becomes_available_and_holds_its_devices(self):
        node, device = make_gpu_numa_node("g-one", gpu_numa=1)
        self.start([node, device, make_topology("g-one")])
        self.create_reservation(reservation(
            "train", {"cpu": "8", "memory": "16Gi", "nvidia.com/gpu": "2"}, labels={QOS: "LSR"},
            annotations={RESOURCE_SPEC: {"requiredCPUBindPolicy": "FullPCPUs"}}))
        r = self.wait_phase("train", "Available")
        status = r["status"]
        self.assertEqual(status["nodeName"], "g-one")
        self.assertEqual(status["allocatable"]["cpu"], "8")
        self.assertEqual(status["allocatable"]["nvidia.com/gpu"], "2")
        cond = conditions(r)
        self.assertEqual((cond["Scheduled"]["status"], cond["Scheduled"]["reason"]), ("True", "Scheduled"))
        self.assertEqual((cond["Ready"]["status"], cond["Ready"]["reason"]), ("True", "Available"))
        annotations = r["metadata"]["annotations"]
        gpus = json.loads(annotations[DEVICE_ALLOCATED])["gpu"]
        self.assertEqual(len(gpus), 2)
        cpus = parse_cpuset(json.loads(annotations[RESOURCE_STATUS])["cpuset"])
        self.assertEqual(len(cpus), 8)
        # The GPUs sit on NUMA node 1 (CPUs 8-15, 24-31): FullPCPUs takes 4 whole cores there or on node 0.
        self.assertTrue(cpus <= set(range(8, 16)) | set(range(24, 32)) or cpus <= set(range(0, 8)) | set(range(16, 24)),
                        cpus)
        # The hold is real: a stranger asking for all 8 GPUs no longer fits, 6 do and get the other cards.
        message = self.create_unschedulable(gpu_pod("all-eight", whole=8))
        self.assertIn("nvidia.com/gpu", message)
        six = self.place_one(gpu_pod("six", whole=6))
        six_minors = {g["minor"] for g in json.loads(six["metadata"]["annotations"][DEVICE_ALLOCATED])["gpu"]}
        self.assertFalse(six_minors & {g["minor"] for g in gpus})
        # The phase gauge is refreshed by the controller's once-a-second pass.
        self.cluster.wait(lambda: self.scheduler.metric("troupe_reservations", phase="Available") == 1, 10,
                          lambda: "troupe_reservations{phase=Available} 1: %s" % self.scheduler.metric(
                              "troupe_reservations", phase="Available"))
        # Koordinator's per-reservation series: its phase, and what it holds in cores, GiB and units.
        metrics = self.cluster.wait(
            lambda: (lambda m: m if series(m, "scheduler_reservation_status_phase", name="train", phase="Available")
                     else None)(self.scheduler.metrics()), 10, "scheduler_reservation_status_phase{train,Available}")
        phase = {p: series(metrics, "scheduler_reservation_status_phase", name="train", phase=p)
                 for p in ("Pending", "Available", "Succeeded", "Failed")}
        self.assertEqual(phase, {"Pending": 0, "Available": 1, "Succeeded": 0, "Failed": 0})
        for resource, unit, value in (("cpu", "core", 8), ("memory", "Gi", 16), ("nvidia.com/gpu", "raw", 2)):
            self.assertEqual(series(metrics, "scheduler_reservation_resource", type="allocatable", name="train",
                                    resource=resource, unit=unit), value)
        # A reservation deleted takes its series along.
        self.client.ok("DELETE", RESERVATIONS + "/train")
        self.cluster.wait(lambda: series(self.scheduler.metrics(), "scheduler_reservation_status_phase",
                                         name="train", phase="Available") is None, 10,
                          "the deleted reservation's series gone")

    def test_unschedulable_reservation_says_why_and_stays_pending(self):
        self.start([make_node("small", cpu="2", memory="4Gi")], config())
        self.create_reservation(reservation("huge", {"cpu": "64", "memory": "1Gi"}))

        def scheduled_false():
            r = self.get_reservation("huge")
            c = conditions(r or {}).get("Scheduled")
            return c if c and c["status"] == "False" else None
        c = self.cluster.wait(scheduled_false, 30, lambda: str(self.get_reservation("huge")))
        self.assertEqual(c["reason"], "Unschedulable")
        self.assertIn("Insufficient cpu", c["message"])
        r = self.get_reservation("huge")
        self.assertIn((r.get("status") or {}).get("phase"), (None, "", "Pending"))
        self.assertFalse((r.get("status") or {}).get("nodeName"))
        # A smaller template is a new reserve pod: it is queued again and placed.
        smaller = {"cpu": "1", "memory": "1Gi"}
        r["spec"]["template"]["spec"]["containers"][0]["resources"] = {"requests": smaller, "limits": smaller}
        self.client.ok("PUT", RESERVATIONS + "/huge", r)
        placed = self.wait_phase("huge", "Available")
        self.assertEqual(placed["status"]["nodeName"], "small")
        self.assertEqual(placed["status"]["allocatable"]["cpu"], "1")

    def test_invalid_reservation_fails_naming_the_problem(self):
        self.start([make_node("n1")], config())
        self.create_reservation(reservation("ownerless", {"cpu": "1"}, owners=False))
        r = self.wait_phase("ownerless", "Failed")
        c = conditions(r)["Scheduled"]
        self.assertEqual((c["status"], c["reason"]), ("False", "Invalid"))
        self.assertIn("misses the owner spec", c["message"])

    def test_a_reservation_without_ttl_or_expires_gets_the_crd_defaults(self):
        # Koordinator's CRD defaults ttl to 24h and allocateOnce to true; the API server applies them.
        self.start([make_node("n1")], config())
        bare = reservation("bare", {"cpu": "1"}, ttl=None)
        del bare["spec"]["allocateOnce"]
        created = self.create_reservation(bare)
        self.assertEqual((created["spec"]["ttl"], created["spec"]["allocateOnce"]), ("24h", True))
        self.assertEqual(self.wait_phase("bare", "Available")["status"]["nodeName"], "n1")

    def test_malformed_reservation_fails_naming_the_field_and_a_started_one_is_kept(self):
        self.start([make_node("n1", cpu="4")], config())
        self.create_reservation(reservation("held", {"cpu": "3"}))
        self.wait_phase("held", "Available")
        self.create_reservation(reservation("bad-quantity", {"cpu": "1 core"}))
        theirs = reservation("theirs-bad", {"cpu": "1 core"})
        theirs["spec"]["template"]["spec"]["schedulerName"] = "some-other-scheduler"
        self.create_reservation(theirs)
        r = self.wait_phase("bad-quantity", "Failed")
        c = conditions(r)["Scheduled"]
        self.assertEqual((c["status"], c["reason"]), ("False", "Invalid"))
        self.assertIn("the reservation is malformed", c["message"])
        self.assertIn("cpu", c["message"])
        self.assertEqual(r["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"], "1 core")
        # A started reservation keeps its last readable version through a bad edit: still Available, still holding.
        held = self.get_reservation("held")
        held["spec"]["ttl"] = "a while"
        self.client.ok("PUT", RESERVATIONS + "/held", held)
        message = self.create_unschedulable(make_pod("stranger", cpu="2", memory="1Gi"))
        self.assertIn("Insufficient cpu", message)
        time.sleep(2.5)  # two more passes of the controller (one a second): neither is failed by them
        self.assertEqual(self.get_reservation("held")["status"]["phase"], "Available")
        # Where users look: a Warning event on each reservation troupe cannot read.
        for name, field in (("held", "spec.ttl"), ("bad-quantity", "cpu")):
            events = self.cluster.wait(
                lambda: [e for e in self.client.events_about(name) if e["reason"] == "Invalid"], 30,
                lambda: "a Warning event on %s: %s" % (name, self.client.events_about(name)))
            self.assertEqual(len(events), 1, events)
            self.assertEqual(events[0]["type"], "Warning")
            self.assertIn("troupe cannot read this Reservation and ignores this version of it", events[0]["message"])
            self.assertIn(field, events[0]["message"])
        # Another scheduler's malformed reservation is not ours to fail, nor to report.
        self.assertFalse(self.get_reservation("theirs-bad").get("status"))
        self.assertEqual([e for e in self.client.events_about("theirs-bad") if e["reason"] == "Invalid"], [])

    def test_another_schedulers_reservation_is_left_alone(self):
        self.start([make_node("n1")], config())
        theirs = reservation("theirs", {"cpu": "1"}, ttl="1s")
        theirs["spec"]["template"]["spec"]["schedulerName"] = "some-other-scheduler"
        self.create_reservation(theirs)
        self.create_reservation(reservation("ours", {"cpu": "1"}, ttl="1s"))
        self.wait_phase("ours", "Failed", timeout=20)  # ours was placed and has expired by now
        self.assertFalse(self.get_reservation("theirs").get("status"))

    # ---- the lifecycle ----

    def test_allocate_once_reservation_succeeds_once_its_owner_is_bound(self):
        self.start([make_node("n1", cpu="4", memory="8Gi")], config())
        self.create_reservation(reservation("once", {"cpu": "2", "memory": "2Gi"}))
        self.wait_phase("once", "Available")
        owner = self.place_one(self.owner("once-owner", "once", cpu="2", memory="2Gi"))
        allocated = json.loads(owner["metadata"]["annotations"][RESERVATION_ALLOCATED])
        self.assertEqual(allocated["name"], "once")
        r = self.wait_phase("once", "Succeeded")
        self.assertEqual([o["name"] for o in r["status"]["currentOwners"]], ["once-owner"])
        self.assertEqual(r["status"]["allocated"]["cpu"], "2")
        ready = conditions(r)["Ready"]
        self.assertEqual((ready["status"], ready["reason"]), ("False", "Succeeded"))

    def test_reusable_reservation_tracks_owners_and_allocated(self):
        self.start([make_node("n1", cpu="8", memory="16Gi")], config())
        self.create_reservation(reservation("pool", {"cpu": "4", "memory": "4Gi"}, allocate_once=False))
        self.wait_phase("pool", "Available")
        self.place([self.owner("p1", "pool"), self.owner("p2", "pool")])

        def owners(count):
            def check():
                r = self.get_reservation("pool")
                got = (r.get("status") or {}).get("currentOwners") or []
                return r if len(got) == count else None
            return check
        r = self.cluster.wait(owners(2), 30, lambda: str(self.get_reservation("pool")))
        self.assertEqual(r["status"]["phase"], "Available")
        self.assertEqual(r["status"]["allocated"]["cpu"], "2")
        self.client.delete_pod("p1")
        r = self.cluster.wait(owners(1), 30, lambda: str(self.get_reservation("pool")))
        self.assertEqual(r["status"]["allocated"]["cpu"], "1")

    def test_ttl_expiry_fails_pending_and_available_reservations(self):
        self.start([make_node("n1", cpu="4", memory="8Gi")], config())
        self.create_reservation(reservation("short", {"cpu": "1"}, ttl="3s"))
        self.wait_phase("short", "Available")
        r = self.wait_phase("short", "Failed", timeout=20)
        ready = conditions(r)["Ready"]
        self.assertEqual((ready["status"], ready["reason"]), ("False", "Expired"))
        self.assertEqual(r["status"]["nodeName"], "n1")
        # Its hold is released: a stranger may take the whole node again.
        self.place_one(make_pod("whole", cpu="4", memory="1Gi"))

    def test_node_deleted_fails_the_reservation(self):
        self.start([make_node("doomed", cpu="4", memory="8Gi")], config())
        self.create_reservation(reservation("on-doomed", {"cpu": "1"}))
        self.wait_phase("on-doomed", "Available")
        self.client.ok("DELETE", "/api/v1/nodes/doomed")
        r = self.wait_phase("on-doomed", "Failed")
        self.assertIn("node doomed not found", conditions(r)["Ready"]["message"])

    def test_finished_reservations_are_garbage_collected_after_the_retention(self):
        self.start([make_node("n1", cpu="4", memory="8Gi")], config(gc_seconds=4))
        # Unschedulable for longer than the retention, then edited into one that does not decode.
        self.create_reservation(reservation("late", {"cpu": "100"}))
        self.cluster.wait(lambda: conditions(self.get_reservation("late") or {}).get("Scheduled"), 20,
                          "late is unschedulable")
        time.sleep(4.5)
        late = self.get_reservation("late")
        late["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "1 core"
        self.client.ok("PUT", RESERVATIONS + "/late", late)
        # Marked Failed, and kept the retention from then (not from when it became unschedulable) ...
        self.wait_phase("late", "Failed", timeout=20)
        time.sleep(1.5)
        self.assertIsNotNone(self.get_reservation("late"), "deleted before the retention passed")
        # ... then collected from what can be read of it.
        self.cluster.wait(lambda: self.get_reservation("late") is None, 20, "reservation late deleted")
        self.create_reservation(reservation("brief", {"cpu": "1"}, ttl="1s"))
        self.wait_phase("brief", "Failed", timeout=20)
        self.cluster.wait(lambda: self.get_reservation("brief") is None, 20, "reservation brief deleted")

    # ---- leader election ----

    def test_only_the_leader_writes_reservations(self):
        leading = scheduler_config(leader_elect=True, lease=("2s", "1500ms", "500ms"))
        self.client.create_all([make_node("n1", cpu="4", memory="8Gi")])
        first = self.cluster.start_scheduler(leading)
        self.cluster.wait(lambda: "became leader" in first.stderr(), 30, "the first scheduler leads")
        second = self.cluster.start_scheduler(leading)
        second.wait_ready()
        self.create_reservation(reservation("led", {"cpu": "1"}, ttl="2s"))
        self.wait_phase("led", "Available")
        self.wait_phase("led", "Failed", timeout=20)
        # Both see it and queue it; only the leader binds it and writes its expiry.
        second.wait_logged("reservation led: queued for scheduling")
        first.wait_logged("reservation led: wrote status (the reservation outlived its ttl)")
        self.assertNotIn("reservation led: wrote", second.stderr())
        self.assertNotIn("became leader", second.stderr())

    # ---- restart ----

    def test_restart_keeps_available_reservations_and_their_hold(self):
        self.start([make_node("n1", cpu="4", memory="8Gi")], config())
        self.create_reservation(reservation("kept", {"cpu": "3", "memory": "1Gi"}, allocate_once=False))
        before = self.wait_phase("kept", "Available")
        self.scheduler.stop()
        self.scheduler = self.cluster.start_scheduler(config())
        self.scheduler.wait_ready()
        # The hold survives: a stranger needing 2 CPUs does not fit beside the 3 reserved.
        message = self.create_unschedulable(make_pod("stranger", cpu="2", memory="1Gi"))
        self.assertIn("Insufficient cpu", message)
        after = self.get_reservation("kept")
        self.assertEqual(after["metadata"]["resourceVersion"], before["metadata"]["resourceVersion"],
                         "an Available reservation must not be scheduled again")
        self.assertEqual(after["status"]["nodeName"], "n1")
        owner = self.place_one(self.owner("kept-owner", "kept", cpu="3", memory="1Gi"))
        self.assertEqual(owner["spec"]["nodeName"], "n1")


if __name__ == "__main__":
    unittest.main()
