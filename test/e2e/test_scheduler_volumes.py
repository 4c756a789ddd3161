"""troupe scheduler end to end: volume scheduling (kube-scheduler's
VolumeBinding and VolumeZone, for claims that are already bound).

- A pod whose claim is bound to a PersistentVolume with node affinity lands on
  a node the volume reaches; one with zone labels, on a node of its zone.
- A pod whose claim does not exist yet is reported with kube-scheduler's
  message, and placed once the claim and its volume appear (a storage event
  requeues it).
- An unbound claim of an Immediate class, a volume no node reaches, and an
  unbound WaitForFirstConsumer claim (troupe does not bind volumes) are
  reported on the pod.
- A ReadWriteOncePod claim serves one pod: a second pod using it waits until
  the first is gone, or preempts it when more important (VolumeRestrictions).
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import SchedulingTest, make_node, make_pod  # noqa: E402

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


def storage_class(name, mode):
    return {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": name},
            "provisioner": "csi.example.com", "volumeBindingMode": mode}


def pod_with_claims(name, *claims):
    pod = make_pod(name, cpu="100m", memory="64Mi")
    pod["spec"]["volumes"] = [{"name": "v%d" % i, "persistentVolumeClaim": {"claimName": c}}
                              for i, c in enumerate(claims)]
    return pod


class VolumeSchedulingTest(SchedulingTest):
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
        # Both volumes at once: no node is in zone b and is n-a2.
        message = self.create_unschedulable(pod_with_claims("both", "data-b", "data-a2"))
        self.assertTrue(message.startswith("0/3 nodes are available: "), message)
        self.assertIn("node(s) had no available volume zone", message)
        self.assertIn("node(s) had volume node affinity conflict", message)

    def test_a_pod_waits_for_its_claim_then_is_placed(self):
        self.start([zoned_node("n-a1", "a"), zoned_node("n-b1", "b")])
        message = self.create_unschedulable(pod_with_claims("late", "data-late"))
        self.assertIn('persistentvolumeclaim "data-late" not found', message)
        # The volume, then its claim: the claim's arrival requeues the pod.
        self.client.create(volume("pv-late", labels={ZONE: "a"}, node_in=(ZONE, ["a"])))
        self.client.create(claim("data-late", bound_to="pv-late"))
        self.cluster.wait(lambda: (self.client.pod("late") or {}).get("spec", {}).get("nodeName") == "n-a1", 30,
                          "late placed on n-a1 once its claim exists")

    def test_claims_troupe_cannot_place_are_reported(self):
        self.start([zoned_node("n-a1", "a"),
                    storage_class("fast", "Immediate"), storage_class("local", "WaitForFirstConsumer"),
                    claim("pending-fast", storage_class="fast"), claim("pending-local", storage_class="local"),
                    volume("pv-nowhere", node_in=(ZONE, ["z"])), claim("data-nowhere", bound_to="pv-nowhere"),
                    claim("data-gone", bound_to="pv-gone")])
        cases = {
            "immediate": ("pending-fast", "pod has unbound immediate PersistentVolumeClaims"),
            "wffc": ("pending-local", 'persistentvolumeclaim "pending-local" waits for its first consumer (storage '
                                      'class "local"): troupe does not bind volumes'),
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


if __name__ == "__main__":
    unittest.main()
