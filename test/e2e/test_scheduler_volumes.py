"""troupe scheduler end to end: volume scheduling (kube-scheduler's
VolumeBinding and VolumeZone, for claims that are already bound).

- A pod whose claim is bound to a PersistentVolume with node affinity lands on
  a node the volume reaches; one with zone labels, on a node of its zone.
- A pod whose claim does not exist yet is reported with kube-scheduler's
  message, and placed once the claim and its volume appear (a storage event
  requeues it).
- An unbound claim of an Immediate class and a volume no node reaches are
  reported on the pod.
- Unbound claims of WaitForFirstConsumer classes are bound by the scheduler:
  to a local volume the chosen node reaches (its claimRef written), or
  provisioned for the chosen node (volume.kubernetes.io/selected-node
  written, allowedTopologies honoured); the pod is bound once the PV
  controller has bound its claims. This test plays the PV controller and the
  provisioner (VolumeController below). A CSI driver that publishes its
  storage capacity provisions only where a CSIStorageCapacity has room.
  A provisioner that gives up sends
  the pod back to be scheduled again; a claim nobody binds fails the binding
  after bindTimeoutSeconds.
- A ReadWriteOncePod claim serves one pod: a second pod using it waits until
  the first is gone, or preempts it when more important (VolumeRestrictions).
- A node attaches at most its CSINode's count of a driver's volumes
  (NodeVolumeLimits); a pod that would exceed it goes elsewhere or waits.
- A node does not give one in-tree disk (here a gcePersistentDisk) to two
  writers (VolumeRestrictions).
"""
import os
import sys
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (SchedulingTest, make_node, make_pod, profile,  # noqa: E402
                               scheduler_config)

ZONE = "topology.kubernetes.io/zone"
HOSTNAME = "kubernetes.io/hostname"


def zoned_node(name, zone):
    return make_node(name, cpu="4", labels={ZONE: zone, HOSTNAME: name})


def volume(name, labels=None, node_in=None):
    """A PersistentVolume; node_in = (label, [values]) for its node affinity."""
    spec = {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "storageClassName": "",
            "csi": {"driver": "csi.example.com", "volumeHandle": name}}
    if node_in:
        key, values = node_in
        spec["nodeAffinity"] = {"required": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": key, "operator": "In", "values": values}]}]}}
    return {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": name, "labels": labels or {}},
            "spec": spec}


def claim(name, bound_to=None, storage_class=None, access_mode="ReadWriteOnce"):
    """A claim in "default": bound (binding completed) to `bound_to`, else pending."""
    metadata = {"name": name, "namespace": "default"}
    spec = {"accessModes": [access_mode], "resources": {"requests": {"storage": "1Gi"}}}
    if bound_to:
        metadata["annotations"] = {"pv.kubernetes.io/bind-completed": "yes"}
        spec["volumeName"] = bound_to
    if storage_class is not None:
        spec["storageClassName"] = storage_class
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": metadata, "spec": spec}


def storage_class(name, mode, provisioner="csi.example.com", zones=None):
    sc = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": name},
          "provisioner": provisioner, "volumeBindingMode": mode}
    if zones:
        sc["allowedTopologies"] = [{"matchLabelExpressions": [{"key": ZONE, "values": zones}]}]
    return sc


def local_volume(name, node, storage_class_name="local"):
    """An Available local volume of 1Gi on `node` (the PV controller made it Available)."""
    pv = volume(name, node_in=(HOSTNAME, [node]))
    pv["spec"]["storageClassName"] = storage_class_name
    pv["status"] = {"phase": "Available"}
    return pv


MERGE = "application/merge-patch+json"
SELECTED_NODE = "volume.kubernetes.io/selected-node"


class VolumeController:
    """What kube-controller-manager's PV controller and a CSI provisioner do,
    enough for these tests: a claim whose volume got a claimRef is bound to
    it; a claim with a selected node, of a class this provisioner serves, gets
    a new volume on that node and is bound to it. `fail_once`: classes whose
    first provisioning fails (the annotation is taken off, as a provisioner
    does to have the pod scheduled again)."""

    def __init__(self, client, provisioner="csi.example.com", fail_once=()):
        self.client = client
        self.provisioner = provisioner
        self.fail_once = set(fail_once)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        self.thread.join(10)

    def run(self):
        while not self.stopped.wait(0.2):
            self.step()

    def step(self):
        classes = {sc["metadata"]["name"]: sc for sc in self.list("/apis/storage.k8s.io/v1/storageclasses")}
        claims = {(c["metadata"]["namespace"], c["metadata"]["name"]): c
                  for c in self.list("/api/v1/persistentvolumeclaims")}
        for pv in self.list("/api/v1/persistentvolumes"):
            ref = pv["spec"].get("claimRef")
            claim_obj = claims.get((ref["namespace"], ref["name"])) if ref else None
            if claim_obj and not claim_obj["spec"].get("volumeName"):
                self.bind(claim_obj, pv["metadata"]["name"])
        for claim_obj in claims.values():
            node = claim_obj["metadata"].get("annotations", {}).get(SELECTED_NODE)
            class_name = claim_obj["spec"].get("storageClassName")
            sc = classes.get(class_name)
            if node and not claim_obj["spec"].get("volumeName") and sc and sc["provisioner"] == self.provisioner:
                self.provision(claim_obj, node, class_name)

    def list(self, path):
        return self.client.ok("GET", path)["items"]

    def provision(self, claim_obj, node, class_name):
        meta = claim_obj["metadata"]
        path = "/api/v1/namespaces/%s/persistentvolumeclaims/%s" % (meta["namespace"], meta["name"])
        if class_name in self.fail_once:
            self.fail_once.discard(class_name)
            # The PV controller has marked the claim for its provisioner, which takes the node off.
            annotations = {SELECTED_NODE: None, "volume.kubernetes.io/storage-provisioner": self.provisioner}
            self.client.ok("PATCH", path, {"metadata": {"annotations": annotations}}, MERGE)
            return
        pv = local_volume("pvc-" + meta["uid"], node, class_name)
        pv["spec"]["claimRef"] = {"kind": "PersistentVolumeClaim", "namespace": meta["namespace"],
                                  "name": meta["name"], "uid": meta["uid"]}
        pv["status"] = {"phase": "Bound"}
        self.client.create(pv)
        self.bind(claim_obj, pv["metadata"]["name"])

    def bind(self, claim_obj, volume_name):
        meta = claim_obj["metadata"]
        path = "/api/v1/namespaces/%s/persistentvolumeclaims/%s" % (meta["namespace"], meta["name"])
        self.client.ok("PATCH", path, {"metadata": {"annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
                                       "spec": {"volumeName": volume_name}}, MERGE)


def pod_with_claims(name, *claims):
    pod = make_pod(name, cpu="100m", memory="64Mi")
    pod["spec"]["volumes"] = [{"name": "v%d" % i, "persistentVolumeClaim": {"claimName": c}}
                              for i, c in enumerate(claims)]
    return pod


def csi_node(node, driver, count):
    return {"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": node},
            "spec": {"drivers": [{"name": driver, "nodeID": node, "topologyKeys": None,
                                  "allocatable": {"count": count}}]}}


class VolumeSchedulingTest(SchedulingTest):
    def test_a_node_attaches_at_most_its_csi_nodes_count_of_volumes(self):
        objects = [zoned_node("n-a1", "a"), zoned_node("n-a2", "a"),
                   csi_node("n-a1", "csi.example.com", 1), csi_node("n-a2", "csi.example.com", 1)]
        for i in range(1, 4):
            objects += [volume("pv-%d" % i), claim("data-%d" % i, bound_to="pv-%d" % i)]
        self.start(objects)
        first = self.place_one(pod_with_claims("first", "data-1"))["spec"]["nodeName"]
        # The node of the first pod has attached its one volume: the second goes to the other.
        second = self.place_one(pod_with_claims("second", "data-2"))["spec"]["nodeName"]
        self.assertNotEqual(first, second)
        # A pod sharing the first's volume fits there: the volume is attached already.
        self.assertEqual(self.place_one(pod_with_claims("sharer", "data-1"))["spec"]["nodeName"], first)
        message = self.create_unschedulable(pod_with_claims("third", "data-3"))
        self.assertEqual(message, "0/2 nodes are available: 2 node(s) exceed max volume count. preemption: 0/2 nodes "
                                  "are available: 2 No preemption victims found for incoming pod..")
        # The second pod goes: its node has room again, and the third is placed there.
        self.client.delete_pod("second")
        self.cluster.wait(lambda: (self.client.pod("third") or {}).get("spec", {}).get("nodeName") == second, 30,
                          "third placed where second was")

    def test_bound_volumes_take_their_pods_to_nodes_they_reach(self):
        nodes = [zoned_node("n-a1", "a"), zoned_node("n-a2", "a"), zoned_node("n-b1", "b")]
        self.start(nodes + [
            volume("pv-zone-b", labels={ZONE: "b"}),
            volume("pv-host-a2", node_in=(HOSTNAME, ["n-a2"])),
            claim("data-b", bound_to="pv-zone-b"),
            claim("data-a2", bound_to="pv-host-a2"),
        ])
        placed = self.place([pod_with_claims("in-zone-b", "data-b"), pod_with_claims("on-a2", "data-a2")])
        self.assertEqual(placed["in-zone-b"]["spec"]["nodeName"], "n-b1")
        self.assertEqual(placed["on-a2"]["spec"]["nodeName"], "n-a2")
        # Both volumes at once: no node is in zone b and is n-a2. As upstream's
        # GetEligibleNodes, PreFilter keeps only n-a2, which VolumeZone turns down.
        message = self.create_unschedulable(pod_with_claims("both", "data-b", "data-a2"))
        self.assertTrue(message.startswith("0/3 nodes are available: 1 node(s) had no available volume zone, "
                                           "2 node(s) didn't satisfy plugin(s) [VolumeBinding]."), message)

    def test_a_pod_waits_for_its_claim_then_is_placed(self):
        self.start([zoned_node("n-a1", "a"), zoned_node("n-b1", "b")])
        message = self.create_unschedulable(pod_with_claims("late", "data-late"))
        # PostFilter runs after a PreFilter rejection too: preemption cannot help on any node.
        self.assertEqual(message, '0/2 nodes are available: persistentvolumeclaim "data-late" not found. '
                                  'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..')  # upstream's double stop
        # The volume, then its claim: the claim's arrival requeues the pod.
        self.client.create(volume("pv-late", labels={ZONE: "a"}, node_in=(ZONE, ["a"])))
        self.client.create(claim("data-late", bound_to="pv-late"))
        self.cluster.wait(lambda: (self.client.pod("late") or {}).get("spec", {}).get("nodeName") == "n-a1", 30,
                          "late placed on n-a1 once its claim exists")

    def test_claims_troupe_cannot_place_are_reported(self):
        self.start([zoned_node("n-a1", "a"),
                    storage_class("fast", "Immediate"), storage_class("local", "WaitForFirstConsumer"),
                    storage_class("by-hand", "WaitForFirstConsumer", provisioner="kubernetes.io/no-provisioner"),
                    claim("pending-fast", storage_class="fast"), claim("pending-by-hand", storage_class="by-hand"),
                    volume("pv-nowhere", node_in=(ZONE, ["z"])), claim("data-nowhere", bound_to="pv-nowhere"),
                    claim("data-gone", bound_to="pv-gone")])
        cases = {
            "immediate": ("pending-fast", "pod has unbound immediate PersistentVolumeClaims"),
            "no-volume": ("pending-by-hand",
                          "1 node(s) didn't find available persistent volumes to bind"),
            "nowhere": ("data-nowhere", "1 node(s) had volume node affinity conflict"),
            # VolumeZone's PreFilter looks the volume up before VolumeBinding's Filter would, as upstream.
            "gone": ("data-gone", 'persistentvolume "pv-gone" not found'),
        }
        for name, (claim_name, expected) in cases.items():
            with self.subTest(name):
                message = self.create_unschedulable(pod_with_claims(name, claim_name))
                self.assertIn(expected, message)

    def test_a_read_write_once_pod_claim_serves_one_pod(self):
        self.start([zoned_node("n-a1", "a"), zoned_node("n-a2", "a"), volume("pv-solo"),
                    claim("solo", bound_to="pv-solo", access_mode="ReadWriteOncePod")])
        self.place_one(pod_with_claims("first", "solo"))
        message = self.create_unschedulable(pod_with_claims("second", "solo"))
        self.assertEqual(message, "0/2 nodes are available: 2 node has pod using PersistentVolumeClaim with the "
                                  "same name and ReadWriteOncePod access mode. preemption: 0/2 nodes are available: "
                                  "2 No preemption victims found for incoming pod..")  # upstream's double stop
        # The first pod goes: its deletion requeues the second, which now gets the claim.
        self.client.delete_pod("first")
        self.cluster.wait(lambda: (self.client.pod("second") or {}).get("spec", {}).get("nodeName"), 30,
                          "second placed once first is gone")

    def test_a_more_important_pod_preempts_the_holder_of_a_read_write_once_pod_claim(self):
        self.start([zoned_node("n-a1", "a"), zoned_node("n-a2", "a"), volume("pv-solo"),
                    claim("solo", bound_to="pv-solo", access_mode="ReadWriteOncePod")])
        holder = self.place_one(pod_with_claims("holder", "solo"))
        important = pod_with_claims("important", "solo")
        important["spec"]["priority"] = 1000
        self.client.create(important)
        # Only the node holding the claim's user can make room: the holder is the victim there,
        # and the important pod is nominated to that node.
        nominated = self.cluster.wait(
            lambda: (self.client.pod("important") or {}).get("status", {}).get("nominatedNodeName"), 30,
            "important nominated")
        self.assertEqual(nominated, holder["spec"]["nodeName"])
        self.cluster.wait(lambda: (self.client.pod("important") or {}).get("spec", {}).get("nodeName"), 30,
                          "important placed after preempting the holder")
        self.assertIsNone(self.client.pod("holder"))
        # The nominated node fits once the holder is gone: it is taken, as upstream's PreferNominatedNode.
        self.assertEqual(self.client.pod("important")["spec"]["nodeName"], nominated)

    def test_two_pods_do_not_share_an_in_tree_disk_on_one_node(self):
        self.start([zoned_node("n-a1", "a"), zoned_node("n-a2", "a")])

        def with_disk(name, read_only=False):
            pod = make_pod(name, cpu="100m", memory="64Mi")
            pod["spec"]["volumes"] = [{"name": "data", "gcePersistentDisk": {"pdName": "disk-1",
                                                                              "readOnly": read_only}}]
            return pod
        first = self.place_one(with_disk("first"))["spec"]["nodeName"]
        second = self.place_one(with_disk("second"))["spec"]["nodeName"]
        self.assertNotEqual(first, second)
        message = self.create_unschedulable(with_disk("third"))
        self.assertEqual(message, "0/2 nodes are available: 2 node(s) had no available disk. preemption: 0/2 nodes "
                                  "are available: 2 No preemption victims found for incoming pod..")
        # The first pod goes: its deletion requeues the third, which takes its node.
        self.client.delete_pod("first")
        self.cluster.wait(lambda: (self.client.pod("third") or {}).get("spec", {}).get("nodeName") == first, 30,
                          "third placed where first was")


class VolumeBindingTest(SchedulingTest):
    def claim_of(self, name):
        return self.client.ok("GET", "/api/v1/namespaces/default/persistentvolumeclaims/" + name)

    def volume_of(self, name):
        return self.client.ok("GET", "/api/v1/persistentvolumes/" + name)

    def test_a_local_volume_takes_its_pod_to_its_node_and_is_bound_to_its_claim(self):
        self.start([zoned_node("n-a1", "a"), zoned_node("n-a2", "a"),
                    storage_class("local", "WaitForFirstConsumer", provisioner="kubernetes.io/no-provisioner"),
                    local_volume("local-a2", "n-a2"),
                    claim("data", storage_class="local"), claim("more-data", storage_class="local")])
        with VolumeController(self.client):
            # Two pods want the one volume at once: the first placed takes it,
            # the other is told no node has a volume left.
            self.client.create_all([pod_with_claims("first", "data"), pod_with_claims("second", "more-data")])
            self.settle(["first", "second"])
            pods = {name: self.client.pod(name) for name in ("first", "second")}
            placed = [name for name, pod in pods.items() if pod["spec"].get("nodeName")]
            self.assertEqual(len(placed), 1, pods)
            winner, loser = placed[0], ({"first", "second"} - set(placed)).pop()
            self.assertEqual(pods[winner]["spec"]["nodeName"], "n-a2")
            claim_name = "data" if winner == "first" else "more-data"
            pv = self.volume_of("local-a2")
            self.assertEqual(pv["spec"]["claimRef"]["name"], claim_name)
            self.assertEqual(pv["spec"]["claimRef"]["uid"], self.claim_of(claim_name)["metadata"]["uid"])
            self.assertEqual(pv["metadata"]["annotations"]["pv.kubernetes.io/bound-by-controller"], "yes")
            self.assertEqual(self.claim_of(claim_name)["spec"]["volumeName"], "local-a2")
            self.assertEqual(self.unschedulable_message(loser),
                             "0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind. "
                             "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..")
            # Another local volume appears: the storage event requeues the loser, which takes it.
            self.client.create(local_volume("local-a1", "n-a1"))
            self.cluster.wait(lambda: (self.client.pod(loser) or {}).get("spec", {}).get("nodeName") == "n-a1", 30,
                              loser + " placed on n-a1 with the new volume")

    def test_a_claim_is_provisioned_for_the_chosen_node_in_the_allowed_zones(self):
        self.start([zoned_node("n-a1", "a"), zoned_node("n-b1", "b"),
                    storage_class("csi", "WaitForFirstConsumer", zones=["b"]),
                    claim("scratch", storage_class="csi")])
        with VolumeController(self.client):
            placed = self.place_one(pod_with_claims("worker", "scratch"))
        self.assertEqual(placed["spec"]["nodeName"], "n-b1")
        claim_obj = self.claim_of("scratch")
        self.assertEqual(claim_obj["metadata"]["annotations"][SELECTED_NODE], "n-b1")
        self.assertEqual(claim_obj["spec"]["volumeName"], "pvc-" + claim_obj["metadata"]["uid"])

    def test_a_claim_is_provisioned_where_the_driver_has_room(self):
        def capacity(name, zone, size):
            return {"apiVersion": "storage.k8s.io/v1", "kind": "CSIStorageCapacity",
                    "metadata": {"name": name, "namespace": "default"}, "storageClassName": "csi",
                    "nodeTopology": {"matchLabels": {ZONE: zone}}, "capacity": size}
        big = claim("big", storage_class="csi")
        big["spec"]["resources"]["requests"]["storage"] = "10Gi"
        huge = claim("huge", storage_class="csi")
        huge["spec"]["resources"]["requests"]["storage"] = "100Gi"
        self.start([zoned_node("n-a1", "a"), zoned_node("n-b1", "b"), storage_class("csi", "WaitForFirstConsumer"),
                    {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "csi.example.com"},
                     "spec": {"storageCapacity": True}},
                    capacity("zone-a", "a", "5Gi"), capacity("zone-b", "b", "50Gi"), big, huge])
        with VolumeController(self.client):
            self.assertEqual(self.place_one(pod_with_claims("fits-b", "big"))["spec"]["nodeName"], "n-b1")
            message = self.create_unschedulable(pod_with_claims("fits-nowhere", "huge"))
        self.assertEqual(message, "0/2 nodes are available: 2 node(s) did not have enough free storage. preemption: "
                                  "0/2 nodes are available: 2 Preemption is not helpful for scheduling..")

    def test_a_pod_whose_provisioning_failed_is_scheduled_again(self):
        self.start([zoned_node("n-a1", "a"), storage_class("flaky", "WaitForFirstConsumer"),
                    claim("scratch", storage_class="flaky")])
        with VolumeController(self.client, fail_once=["flaky"]):
            placed = self.place_one(pod_with_claims("worker", "scratch"), timeout=90)
        self.assertEqual(placed["spec"]["nodeName"], "n-a1")
        messages = [e.get("note") or e.get("message") for e in self.client.events_about("worker")]
        self.assertIn('running PreBind plugin "VolumeBinding": binding volumes: provisioning failed for PVC "scratch"',
                      messages)

    def test_a_claim_nobody_binds_fails_the_binding_after_bind_timeout_seconds(self):
        config = scheduler_config(profiles=[profile(plugin_config=[
            {"name": "VolumeBinding", "args": {"bindTimeoutSeconds": 1}}])])
        self.start([zoned_node("n-a1", "a"), storage_class("unserved", "WaitForFirstConsumer"),
                    claim("scratch", storage_class="unserved")], config=config)
        # No provisioner runs: the claim is annotated for n-a1 and stays unbound.
        message = self.create_unschedulable(pod_with_claims("worker", "scratch"))
        self.assertEqual(message, 'running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded')
        self.assertEqual(self.claim_of("scratch")["metadata"]["annotations"][SELECTED_NODE], "n-a1")

    def test_deleting_a_pod_ends_the_wait_for_its_claims(self):
        self.start([zoned_node("n-a1", "a"), storage_class("unserved", "WaitForFirstConsumer"),
                    claim("scratch", storage_class="unserved"), claim("other", storage_class="unserved")])
        # No provisioner runs: the first pod's binding waits for its claim (600 s by default).
        self.client.create(pod_with_claims("waiting", "scratch"))
        self.cluster.wait(lambda: SELECTED_NODE in self.claim_of("scratch")["metadata"].get("annotations", {}), 30,
                          "scratch annotated for its node")
        self.client.delete_pod("waiting")
        # The wait ends at once: the binding fails and its reservation is released, long before 600 s.
        def failed():
            return [m for m in (e.get("note") or e.get("message") or "" for e in self.client.events_about("waiting"))
                    if "pod does not exist any more" in m]
        messages = self.cluster.wait(failed, 15, "the waiting binding failed")
        self.assertEqual(messages[0], 'running PreBind plugin "VolumeBinding": binding volumes: pod does not exist any '
                                      'more: pod "waiting" not found')
        self.assertEqual(self.scheduler.metric("troupe_bindings_total", result="error"), 1)

    def test_deleting_the_chosen_node_ends_the_wait_for_its_claims(self):
        self.start([zoned_node("n-a1", "a"), storage_class("unserved", "WaitForFirstConsumer"),
                    claim("scratch", storage_class="unserved")])
        self.client.create(pod_with_claims("waiting", "scratch"))
        self.cluster.wait(lambda: SELECTED_NODE in self.claim_of("scratch")["metadata"].get("annotations", {}), 30,
                          "scratch annotated for its node")
        self.client.ok("DELETE", "/api/v1/nodes/n-a1")
        # As checkBindings, which reads the node first: the binding fails and the pod goes back to the queue.
        def failed():
            return [m for m in (e.get("note") or e.get("message") or "" for e in self.client.events_about("waiting"))
                    if "binding volumes" in m]
        messages = self.cluster.wait(failed, 15, "the waiting binding failed")
        self.assertEqual(messages[0], 'running PreBind plugin "VolumeBinding": binding volumes: failed to get node '
                                      '"n-a1": node "n-a1" not found')
        self.assertFalse(self.client.pod("waiting")["spec"].get("nodeName"))


if __name__ == "__main__":
    unittest.main()
