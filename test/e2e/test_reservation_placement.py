"""troupe scheduler end to end: Reservations holding resources on their node
(Koordinator's Reservation plugin, ../shared/reference/koordinator-api.md §5).

Each Reservation is pinned to a node by its template and placed by troupe's
reservation controller, which writes the CPUs and GPUs it reserved on the
object (resource-status, device-allocated); the tests read them from there.
(Against a scheduler without the controller the test writes them itself.)
The scheduler then holds the reservation as its reserve pod, CPUs and devices
included: other pods cannot use them; owner pods (label selector) use them
first, and only them with allocatePolicy Restricted. Pod affinity and topology
spreading count the reserve pod (its template's labels) on its node, except
for the pods that may use the reservation. Node layouts are those of
numa_builders.py: CPUs 0-7,16-23 on NUMA node 0, 8-15,24-31 on NUMA node 1;
make_gpu_numa_node puts the 8 GPUs on NUMA node 1.
"""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import time

from device_builders import DEVICE_ALLOCATED, allocation, gpu_pod, make_device, make_gpu_node  # noqa: E402
from numa_builders import (QOS, RESOURCE_STATUS, make_cpu_node, make_gpu_numa_node, make_topology,  # noqa: E402
                           numa_pod, parse_cpuset, resource_status)
from reservation_builders import (DEBUG, EXACT_MATCH, MERGE, RESERVATION_AFFINITY, RESERVATION_IGNORED,  # noqa: E402
                                  RESERVATIONS_PATH, allocated_reservation, make_reservation, play_controller)
from scheduler_helpers import SchedulingTest, fast_config, make_node, make_pod  # noqa: E402

HOST = "kubernetes.io/hostname"
HINT = "internal.scheduling.koordinator.sh/scheduling-hint"

FULL_CARD = {"koordinator.sh/gpu-core": "100", "koordinator.sh/gpu-memory": "80Gi",
             "koordinator.sh/gpu-memory-ratio": "100"}


def gpus_of(obj):
    """GPU minors of a pod's or a Reservation's device-allocated annotation."""
    return {e["minor"] for e in (allocation(obj) or {}).get("gpu", [])}


def cpus_of(obj):
    """CPUs of a pod's or a Reservation's resource-status annotation."""
    return parse_cpuset((resource_status(obj) or {}).get("cpuset"))


def owned(pod, labels, annotations=None):
    pod["metadata"].setdefault("labels", {}).update(labels)
    if annotations:
        pod["metadata"].setdefault("annotations", {}).update(
            {k: v if isinstance(v, str) else json.dumps(v) for k, v in annotations.items()})
    return pod


class ReservationPlacementTest(SchedulingTest):
    def debug(self, node):
        status, body = self.scheduler.get(DEBUG + node)
        self.assertEqual(status, 200, body)
        return json.loads(body)

    def reservation(self, name):
        status, body = self.client.request("GET", RESERVATIONS_PATH + "/" + name)
        self.assertEqual(status, 200, body)
        return body

    def reserve(self, node, name, requests, owner_labels, fallback=None, template_labels=None, **kwargs):
        """Creates a Reservation pinned to `node` (LSR unless `template_labels`
        say otherwise), waits until it is Available and the scheduler holds
        it; returns the Reservation. `fallback`: the annotations to write when
        no controller places it."""
        self.client.ok("POST", RESERVATIONS_PATH, make_reservation(name, requests, owner_labels, node_name=node,
                                                                   template_labels=template_labels or {QOS: "LSR"},
                                                                   **kwargs))
        deadline = time.time() + 10
        while self.reservation(name).get("status", {}).get("phase") != "Available":
            if time.time() > deadline:  # no reservation controller in this scheduler
                play_controller(self.client, name, node, requests, fallback or {})
                break
            time.sleep(0.1)
        self.cluster.wait(lambda: any(r["name"] == name for r in self.debug(node)["reservations"]), 30,
                          "the scheduler holds reservation " + name)
        return self.reservation(name)

    def start_gpu_node(self):
        """g-0 with reservation train-r (8 CPUs, 2 GPUs) for app=train; returns its (GPUs, CPUs)."""
        node, device = make_gpu_numa_node("g-0")
        self.start([node, device, make_topology("g-0")])
        r = self.reserve("g-0", "train-r", {"cpu": "8", "memory": "16Gi", "nvidia.com/gpu": "2"}, {"app": "train"},
                         fallback={DEVICE_ALLOCATED: {"gpu": [{"minor": m, "resources": FULL_CARD} for m in (2, 3)]},
                                   RESOURCE_STATUS: {"cpuset": "8-11,24-27"}})
        self.assertEqual(len(gpus_of(r)), 2, r)
        self.assertEqual(len(cpus_of(r)), 8, r)
        return gpus_of(r), cpus_of(r)

    def test_reserved_gpus_and_cpus_are_held_for_owners_only(self):
        train_gpus, train_cpus = self.start_gpu_node()
        # Strangers never get the reserved cards or CPUs, even when they fill the rest.
        other = self.place_one(numa_pod("other", cpu="16", extra_requests={"nvidia.com/gpu": "4"}))
        self.assertEqual(gpus_of(other) & train_gpus, set())
        self.assertEqual(cpus_of(other) & train_cpus, set())
        other2 = self.place_one(numa_pod("other-2", cpu="4", extra_requests={"nvidia.com/gpu": "2"}))
        self.assertEqual(gpus_of(other2) & train_gpus, set())
        self.assertEqual(len(gpus_of(other) | gpus_of(other2)), 6)
        self.assertEqual(cpus_of(other2) & train_cpus, set())
        # Only the reservation has GPUs left: a stranger is rejected as by NodeResourcesFit.
        message = self.create_unschedulable(numa_pod("other-3", cpu="1", extra_requests={"nvidia.com/gpu": "1"}))
        self.assertIn("Insufficient nvidia.com/gpu", message)
        # Owners land on it and get exactly its cards and CPUs.
        owners = self.place([owned(numa_pod("train-0", cpu="4", extra_requests={"nvidia.com/gpu": "1"}),
                                   {"app": "train"})])
        self.assertLessEqual(gpus_of(owners["train-0"]), train_gpus)
        self.assertEqual(len(gpus_of(owners["train-0"])), 1)
        self.assertLessEqual(cpus_of(owners["train-0"]), train_cpus)
        self.assertEqual(len(cpus_of(owners["train-0"])), 4)
        for pod in owners.values():
            self.assertEqual(allocated_reservation(pod)["name"], "train-r")
        held = self.debug("g-0")["reservations"][0]
        self.assertEqual(sorted(held["owners"]), sorted(p["metadata"]["uid"] for p in owners.values()))
        self.assertEqual(held["allocated"]["nvidia.com/gpu"], "1")
        self.assertEqual(held["allocated"]["cpu"], "4")
        # Koordinator's own debug answer says the same in its shape.
        status, body = self.scheduler.get("/apis/v1/plugins/Reservation/nodeReservations/g-0")
        self.assertEqual(status, 200, body)
        [item] = json.loads(body)["items"]
        self.assertEqual((item["name"], item["kind"], item["available"]), ("train-r", "Reservation", True))
        self.assertEqual(item["allocatable"]["nvidia.com/gpu"], "2")
        self.assertEqual(item["allocated"], held["allocated"])
        self.assertEqual(item["owners"], [{"labelSelector": {"matchLabels": {"app": "train"}}}])
        self.assertEqual([(p["Name"], p["UID"]) for p in item["assignedPods"]],
                         [("train-0", owners["train-0"]["metadata"]["uid"])])
        status, body = self.scheduler.get("/apis/v1/plugins/Reservation/nodeReservations/no-such-node")
        self.assertEqual((status, json.loads(body)), (200, {}))  # Go's omitempty drops an empty items
        # The reservation's remaining card is its owners': the stranger still waits.
        self.assertIsNone(self.client.pod("other-3")["spec"].get("nodeName"))

    def test_an_owner_inside_a_shared_card_reservation_counts_once_for_strangers(self):
        # One card: train-r holds half of it; its owner takes 40% of that half.
        # Koordinator gives the owner's use back to other pods (it is inside
        # the hold): the card has 50% free for a stranger, not 10%.
        self.start([make_gpu_node("g-1", gpus=1, nics=1),
                    make_device("g-1", numa_nodes=1, switches_per_numa=1, gpus_per_switch=1)])
        half = {"koordinator.sh/gpu-core": "50", "koordinator.sh/gpu-memory-ratio": "50", "cpu": "1", "memory": "1Gi"}
        r = self.reserve("g-1", "train-r", half, {"app": "train"}, template_labels={"app": "reserved"},
                         fallback={DEVICE_ALLOCATED: {"gpu": [{"minor": 0, "resources": {
                             "koordinator.sh/gpu-core": "50", "koordinator.sh/gpu-memory-ratio": "50",
                             "koordinator.sh/gpu-memory": "40Gi"}}]}})
        self.assertEqual(gpus_of(r), {0}, r)
        owner = self.place_one(owned(gpu_pod("train-0", core=40, ratio=40), {"app": "train"}))
        self.assertEqual(allocated_reservation(owner)["name"], "train-r")
        stranger = self.place_one(gpu_pod("stranger", core=50, ratio=50))
        self.assertEqual(gpus_of(stranger), {0})
        # The card is full now: 50 held (40 of it the owner's) and the stranger's 50.
        message = self.create_unschedulable(gpu_pod("one-more", core=10, ratio=10))
        self.assertIn("Insufficient", message)

    def test_a_designated_owner_takes_the_named_card_from_its_reservation(self):
        # A SchedulingHint's DeviceShare extension designates the pod's device-allocated
        # annotation: the allocator sees only the named card, over what the pod's reservations give back.
        train_gpus, _ = self.start_gpu_node()
        named = max(train_gpus)
        designation = {HINT: {"nodeNames": ["g-0"], "extensions": {"DeviceShare": {}}},
                       DEVICE_ALLOCATED: {"gpu": [{"minor": named, "resources": FULL_CARD}]}}
        # A stranger naming a reserved card waits: the reservation holds it for its owners.
        stranger = owned(numa_pod("stranger", cpu="1", extra_requests={"nvidia.com/gpu": "1"}), {}, designation)
        self.assertIn("Insufficient", self.create_unschedulable(stranger))
        # An owner naming it gets exactly that card, from the reservation.
        owner = self.place_one(owned(numa_pod("train-0", cpu="4", extra_requests={"nvidia.com/gpu": "1"}),
                                     {"app": "train"}, designation))
        self.assertEqual(gpus_of(owner), {named})
        self.assertEqual(allocated_reservation(owner)["name"], "train-r")
        self.assertIsNone(self.client.pod("stranger")["spec"].get("nodeName"))

    def test_restart_keeps_the_same_accounting(self):
        train_gpus, train_cpus = self.start_gpu_node()
        owner = self.place_one(owned(numa_pod("train-0", cpu="4", extra_requests={"nvidia.com/gpu": "1"}),
                                     {"app": "train"}))
        self.assertLessEqual(gpus_of(owner), train_gpus)
        self.assertLessEqual(cpus_of(owner), train_cpus)
        self.place_one(numa_pod("other", cpu="4", extra_requests={"nvidia.com/gpu": "1"}))
        views = {"reservations": DEBUG + "g-0", "cpus": "/apis/v1/plugins/NodeNUMAResource/nodes/g-0",
                 "devices": "/apis/v1/plugins/DeviceShare/nodeDeviceSummaries/g-0"}

        def snapshot():
            out = {}
            for key, path in views.items():
                status, body = self.scheduler.get(path)
                out[key] = json.loads(body) if status == 200 else status
            return out

        before = snapshot()
        self.scheduler.stop()
        self.scheduler = self.cluster.start_scheduler(fast_config())
        self.scheduler.wait_ready()
        self.cluster.wait(lambda: snapshot() == before, 30,
                          lambda: "the same reservation, CPU and device state after the restart: %s vs %s"
                          % (snapshot(), before))

    def test_restricted_aligned_exact_match_and_ignored(self):
        self.start([make_cpu_node("c-0"), make_topology("c-0")])
        small = {"cpu": "4", "memory": "4Gi"}
        strict_cpus = cpus_of(self.reserve("c-0", "strict", small, {"app": "strict"}, policy="Restricted",
                                           fallback={RESOURCE_STATUS: {"cpuset": "0-1,16-17"}}))
        loose_cpus = cpus_of(self.reserve("c-0", "loose", small, {"app": "loose"}, policy="Aligned",
                                          fallback={RESOURCE_STATUS: {"cpuset": "2-3,18-19"}}))
        self.assertEqual((len(strict_cpus), len(loose_cpus), strict_cpus & loose_cpus), (4, 4, set()))
        # Aligned: the reserved CPUs first, then the node's.
        loose = self.place_one(owned(numa_pod("loose-0", cpu="6", memory="4Gi"), {"app": "loose"}))
        self.assertLessEqual(loose_cpus, cpus_of(loose))
        self.assertEqual(allocated_reservation(loose)["name"], "loose")
        # Restricted, asked for by name: more than it holds is rejected by the reservation.
        message = self.create_unschedulable(owned(numa_pod("strict-big", cpu="6", memory="4Gi"), {"app": "strict"},
                                                  {RESERVATION_AFFINITY: {"name": "strict"}}))
        self.assertIn("Insufficient cpu", message)
        strict = self.place_one(owned(numa_pod("strict-0", cpu="2", memory="2Gi"), {"app": "strict"},
                                      {RESERVATION_AFFINITY: {"name": "strict"}}))
        self.assertLessEqual(cpus_of(strict), strict_cpus)
        self.assertEqual(allocated_reservation(strict)["name"], "strict")
        # An affinity naming no reservation anywhere: rejected once at PreFilter, with the reference's message.
        message = self.create_unschedulable(owned(numa_pod("lost", cpu="1", memory="1Gi"), {"app": "strict"},
                                                  {RESERVATION_AFFINITY: {"name": "nowhere"}}))
        # PostFilter runs all the same: nothing to preempt, and why the reservations it owns did not help.
        self.assertEqual(message, "0/1 nodes are available: node(s) no reservations match reservation affinity. "
                                  "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling., "
                                  "1 Reservation(s) didn't match the requested reservation name, "
                                  "1 Reservation(s) matched owner total.")

        self.reserve("c-0", "exact", {"cpu": "2", "memory": "2Gi"}, {"app": "exact"},
                     fallback={RESOURCE_STATUS: {"cpuset": "4,20"}})
        exact = {EXACT_MATCH: {"resourceNames": ["cpu", "memory"]}}
        # Exact match: a pod asking for less than the reservation holds does not use it...
        partial = self.place_one(owned(numa_pod("exact-1", cpu="1", memory="2Gi", qos="LS"), {"app": "exact"}, exact))
        self.assertIsNone(allocated_reservation(partial))
        # ... one asking for exactly its cpu and memory does.
        whole = self.place_one(owned(numa_pod("exact-2", cpu="2", memory="2Gi", qos="LS"), {"app": "exact"}, exact))
        self.assertEqual(allocated_reservation(whole)["name"], "exact")
        # reservation-ignored: an owner placed as if no reservation existed.
        ignored = numa_pod("ignored", cpu="1", memory="1Gi", qos="LS")
        ignored["metadata"]["labels"].update({"app": "loose", RESERVATION_IGNORED: "true"})
        self.assertIsNone(allocated_reservation(self.place_one(ignored)))

    def test_a_reservation_that_leaves_available_releases_the_node(self):
        self.start([make_cpu_node("c-0"), make_topology("c-0")])
        self.reserve("c-0", "big", {"cpu": "30", "memory": "8Gi"}, {"app": "big"})
        self.assertIn("Insufficient cpu", self.create_unschedulable(numa_pod("waits", cpu="4", qos="LS")))
        self.client.ok("PATCH", RESERVATIONS_PATH + "/big/status", {"status": {"phase": "Succeeded"}}, MERGE)
        self.cluster.wait(lambda: self.debug("c-0")["reservations"] == [], 30, "the reservation dropped")
        placed = self.cluster.wait(lambda: self.client.pod("waits")["spec"].get("nodeName"), 30, "waits bound")
        self.assertEqual(placed, "c-0")

    def test_reservations_count_in_pod_affinity_and_spreading_except_for_their_owners(self):
        """As in Koordinator's NodeInfo, an Available reservation is its reserve
        pod on its node, template labels included, for InterPodAffinity and
        PodTopologySpread; a pod that may use the reservation does not count it."""
        bound = []
        for name, cpu, labels in (("web-0", "100m", {"app": "web"}), ("filler", "2500m", {})):
            pod = make_pod(name, cpu=cpu, memory="64Mi", labels=labels)
            pod["spec"]["nodeName"] = "n-1"
            del pod["spec"]["schedulerName"]
            bound.append(pod)
        self.start([make_node("n-0"), make_node("n-1")] + bound)
        small = {"cpu": "500m", "memory": "256Mi"}
        self.reserve("n-0", "web-r", small, {"owner": "web"}, template_labels={"app": "web"})
        self.reserve("n-0", "db-r", small, {"owner": "db"}, template_labels={"app": "db"})

        def apart(name, labels):
            return make_pod(name, cpu="100m", memory="64Mi", labels=dict(labels, app="web"), affinity={
                "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                    {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": HOST}]}})

        def spread(name, labels):
            pod = make_pod(name, cpu="100m", memory="64Mi", labels=dict(labels, app="db"))
            pod["spec"]["topologySpreadConstraints"] = [{"maxSkew": 1, "topologyKey": HOST,
                                                         "whenUnsatisfiable": "DoNotSchedule",
                                                         "labelSelector": {"matchLabels": {"app": "db"}}}]
            return pod

        # A stranger avoiding app=web: web-0 is on n-1, web-r's reserve pod on n-0.
        message = self.create_unschedulable(apart("stranger", {}))
        self.assertIn("didn't match pod anti-affinity rules", message)
        # web-r's owner does not count web-r: it lands in its reservation.
        owner = self.place_one(apart("web-owner", {"owner": "web"}))
        self.assertEqual((owner["spec"]["nodeName"], allocated_reservation(owner)["name"]), ("n-0", "web-r"))
        # A stranger spread by app=db counts db-r on n-0: it takes the fuller n-1.
        self.assertEqual(self.place_one(spread("db-0", {}))["spec"]["nodeName"], "n-1")
        # db-r's owner sees n-0 without it (0 against db-0's 1) and must go there.
        owner = self.place_one(spread("db-owner", {"owner": "db"}))
        self.assertEqual((owner["spec"]["nodeName"], allocated_reservation(owner)["name"]), ("n-0", "db-r"))

        # A reservation that stops being Available stops counting, and what it kept out is tried again.
        self.reserve("n-1", "cache-r", small, {"owner": "cache"}, template_labels={"app": "cache"})
        shy = make_pod("shy", cpu="100m", memory="64Mi", node_selector={HOST: "n-1"}, affinity={
            "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": HOST}]}})
        self.assertIn("didn't match pod anti-affinity rules", self.create_unschedulable(shy))
        self.client.ok("PATCH", RESERVATIONS_PATH + "/cache-r/status", {"status": {"phase": "Succeeded"}}, MERGE)
        self.cluster.wait(lambda: self.client.pod("shy")["spec"].get("nodeName") == "n-1", 30,
                          "shy placed once cache-r is Succeeded")


if __name__ == "__main__":
    unittest.main()
