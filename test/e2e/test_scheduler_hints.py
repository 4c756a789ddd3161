"""troupe scheduler end to end: Koordinator's SchedulingHint.

A pod's `internal.scheduling.koordinator.sh/scheduling-hint` annotation (or the
deprecated `scheduling.koordinator.sh/scheduling-hint`) restricts the nodes it
may use (`nodeNames`) and names nodes to try first (`preferredNodeNames`): the
best of the preferred nodes that fit wins over better-scored nodes elsewhere,
and when none fits the whole cluster is searched. A preferred node outside
`nodeNames` is ignored, `maxHintNodes` cuts the list, and a malformed hint
keeps the pod pending with a message that names the annotation until it is
fixed. A hint whose `extensions` name DeviceShare makes the pod's own
device-allocated annotation its designated devices.

Every test places a pod without a hint first: NodeResourcesFit's default
LeastAllocated sends it to the big node n-big, so a hinted pod placed
elsewhere shows the hint at work.
"""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_builders import DEVICE_ALLOCATED, KOORD, allocation, gpu_pod, make_device, make_gpu_node  # noqa: E402
from scheduler_helpers import (SchedulingTest, fast_config, make_node, make_pod, profile,  # noqa: E402
                               scheduler_config)

HINT = "internal.scheduling.koordinator.sh/scheduling-hint"
DEPRECATED_HINT = "scheduling.koordinator.sh/scheduling-hint"


def nodes():
    return [make_node("n-big", cpu="32", memory="64Gi"), make_node("n-mid", cpu="8", memory="16Gi"),
            make_node("n-small", cpu="4", memory="8Gi"), make_node("n-other", cpu="4", memory="8Gi")]


def hinted_pod(name, hint, cpu="1", key=HINT):
    pod = make_pod(name, cpu=cpu, memory="1Gi")
    pod["metadata"]["annotations"] = {key: hint if isinstance(hint, str) else json.dumps(hint)}
    return pod


class SchedulingHintTest(SchedulingTest):
    def node_of(self, pod):
        return self.place_one(pod)["spec"]["nodeName"]

    def start_cluster(self, config=None):
        self.start(nodes(), config)
        self.assertEqual(self.node_of(make_pod("no-hint", cpu="1", memory="1Gi")), "n-big")

    def test_node_names_restrict_the_candidates(self):
        self.start_cluster()
        self.assertEqual(self.node_of(hinted_pod("only-small", {"nodeNames": ["n-small"]})), "n-small")
        # Among the nodes named, the scores decide as usual.
        self.assertEqual(self.node_of(hinted_pod("mid-or-small", {"nodeNames": ["n-small", "n-mid"]})), "n-mid")
        message = self.create_unschedulable(hinted_pod("nowhere", {"nodeNames": ["n-gone"]}))
        self.assertTrue(message.startswith("0/4 nodes are available: 4 node(s) didn't satisfy plugin(s) "
                                           "[SchedulingHint]."), message)
        message = self.create_unschedulable(hinted_pod("too-big", {"nodeNames": ["n-small"]}, cpu="6"))
        self.assertTrue(message.startswith("0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't "
                                           "satisfy plugin(s) [SchedulingHint]."), message)

    def test_preferred_nodes_are_tried_first(self):
        self.start_cluster()
        self.assertEqual(self.node_of(hinted_pod("prefers-small", {"preferredNodeNames": ["n-small"]})), "n-small")
        # Several preferred nodes that fit: the best-scored of them, not the hint's first.
        self.assertEqual(self.node_of(hinted_pod("prefers-two", {"preferredNodeNames": ["n-small", "n-mid"]})),
                         "n-mid")
        # The deprecated key is read too.
        self.assertEqual(self.node_of(hinted_pod("old-key", {"preferredNodeNames": ["n-other"]},
                                                 key=DEPRECATED_HINT)), "n-other")

    def test_the_whole_cluster_is_searched_when_no_preferred_node_fits(self):
        self.start_cluster()
        self.assertEqual(self.node_of(hinted_pod("unknown-node", {"preferredNodeNames": ["n-gone"]})), "n-big")
        # n-small has 4 cores: a 6-core pod goes where the scores send it.
        self.assertEqual(self.node_of(hinted_pod("small-too-small", {"preferredNodeNames": ["n-small"]}, cpu="6")),
                         "n-big")
        # A preferred node outside nodeNames is dropped: nodeNames still hold.
        self.assertEqual(self.node_of(hinted_pod("outside", {"nodeNames": ["n-small", "n-mid"],
                                                             "preferredNodeNames": ["n-other"]})), "n-mid")

    def test_max_hint_nodes_cuts_the_preferred_list(self):
        hint = {"name": "SchedulingHint", "args": {"maxHintNodes": 1}}
        self.start_cluster(scheduler_config(profiles=[profile(plugin_config=[hint])]))
        # Only n-small (too small for 6 cores) is tried first; n-mid, second in the list, is past the cut.
        self.assertEqual(self.node_of(hinted_pod("cut", {"preferredNodeNames": ["n-small", "n-mid"]}, cpu="6")),
                         "n-big")

    def test_max_hint_nodes_default_keeps_the_list(self):
        self.start_cluster(fast_config())
        self.assertEqual(self.node_of(hinted_pod("kept", {"preferredNodeNames": ["n-small", "n-mid"]}, cpu="6")),
                         "n-mid")

    def test_a_malformed_hint_keeps_the_pod_pending_until_fixed(self):
        self.start_cluster()
        message = self.create_unschedulable(hinted_pod("bad", '{"nodeNames": "n-small"}'))
        self.assertIn("invalid annotation " + HINT + ": nodeNames", message)
        self.assertIn("SchedulingHint", message)
        status, _ = self.client.request("PATCH", "/api/v1/namespaces/default/pods/bad",
                                        {"metadata": {"annotations": {HINT: json.dumps({"nodeNames": ["n-small"]})}}},
                                        content_type="application/merge-patch+json")
        self.assertEqual(status, 200)
        self.cluster.wait(lambda: (self.client.pod("bad")["spec"].get("nodeName") == "n-small"), 30,
                          "the fixed pod bound to n-small")

    def test_a_device_share_extension_designates_the_devices(self):
        self.start([make_gpu_node("gpu-1"), make_device("gpu-1")])
        whole = {KOORD + "gpu-core": "100", KOORD + "gpu-memory": "80Gi", KOORD + "gpu-memory-ratio": "100"}

        def designated(name, minor, extension=True):
            hint = {"nodeNames": ["gpu-1"]}
            if extension:
                hint["extensions"] = {"DeviceShare": {}}
            return gpu_pod(name, whole=1, annotations={
                HINT: hint, DEVICE_ALLOCATED: {"gpu": [{"minor": minor, "resources": whole}]}})
        # With the extension: exactly minor 5, with its id, as the annotation said.
        got = allocation(self.place_one(designated("on-5", 5)))
        self.assertEqual(got, {"gpu": [{"minor": 5, "resources": whole, "id": "GPU-gpu-1-5"}]})
        # Minor 5 is taken now: a second pod designating it waits, saying why.
        message = self.create_unschedulable(designated("also-5", 5))
        self.assertIn("Insufficient GPU Devices", message)
        # A designation is what the pod may take, its request what it takes:
        # half of minor 6 cannot hold a whole GPU ...
        half = {KOORD + "gpu-core": "50", KOORD + "gpu-memory-ratio": "50"}
        small = gpu_pod("half-named", whole=1, annotations={
            HINT: {"nodeNames": ["gpu-1"], "extensions": {"DeviceShare": {}}},
            DEVICE_ALLOCATED: {"gpu": [{"minor": 6, "resources": half}]}})
        self.assertIn("Insufficient GPU Devices", self.create_unschedulable(small))
        # ... and a pod asking half a GPU with minor 7 named whole gets half of minor 7.
        share = gpu_pod("share-of-7", core="50", ratio="50", annotations={
            HINT: {"nodeNames": ["gpu-1"], "extensions": {"DeviceShare": {}}},
            DEVICE_ALLOCATED: {"gpu": [{"minor": 7, "resources": whole}]}})
        got = allocation(self.place_one(share))
        self.assertEqual(got["gpu"][0]["minor"], 7)
        self.assertEqual(got["gpu"][0]["resources"][KOORD + "gpu-core"], "50")
        # Without the extension the annotation is ignored: the pod naming the
        # taken minor 5 is placed anyway, on a card the allocator chooses.
        got = allocation(self.place_one(designated("chosen", 5, extension=False)))
        self.assertEqual(len(got["gpu"]), 1)


if __name__ == "__main__":
    unittest.main()
