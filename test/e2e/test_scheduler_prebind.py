"""troupe scheduler end to end: how PreBind's annotations reach the pod.

By default the Binding carries them (DeviceShare's `device-allocated` here):
the API server copies them onto the pod together with spec.nodeName, so a
watcher never sees one without the other. A profile that enables Koordinator's
DefaultPreBind gets Koordinator's order instead: the annotations are patched
onto the pod first, then the pod is bound, so a watcher sees the allocation on
a pod not yet bound. Both end with the same pod.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_builders import DEVICE_ALLOCATED, allocation, gpu_pod, make_device, make_gpu_node  # noqa: E402
from scheduler_helpers import PodHistory, SchedulingTest, profile, scheduler_config  # noqa: E402


def pod_states(client):
    """Each state a watch saw of each pod: (has device-allocated, nodeName)."""
    return PodHistory(client, lambda pod: (DEVICE_ALLOCATED in (pod["metadata"].get("annotations") or {}),
                                           pod["spec"].get("nodeName")))


def config_with_default_prebind():
    plugins = {"preBind": {"enabled": [{"name": "DefaultPreBind"}]}}
    return scheduler_config(profiles=[profile(plugins=plugins)])


class PreBindWritesTest(SchedulingTest):
    def place_gpu_pod(self, config):
        self.start([make_gpu_node("g-0"), make_device("g-0")], config)
        watcher = pod_states(self.client)
        self.addCleanup(watcher.close)
        pod = self.place_one(gpu_pod("trainer", whole=1))
        self.assertEqual(pod["spec"]["nodeName"], "g-0")
        self.assertEqual(len(allocation(pod)["gpu"]), 1)
        # The watch may lag the read: wait until it has seen the pod bound.
        self.cluster.wait(lambda: any(node for _, node in watcher.of("trainer")), 10, "the watch to see the binding")
        return watcher.of("trainer")

    def test_the_binding_carries_the_annotations_by_default(self):
        states = self.place_gpu_pod(None)
        self.assertNotIn((True, None), states)  # never annotated while unbound
        self.assertEqual(states[-1], (True, "g-0"))

    def test_default_prebind_patches_them_onto_the_pod_first(self):
        states = self.place_gpu_pod(config_with_default_prebind())
        first_annotated = next(i for i, (annotated, _) in enumerate(states) if annotated)
        self.assertEqual(states[first_annotated], (True, None), states)
        self.assertEqual(states[-1], (True, "g-0"))
        # The Binding still reports the pod scheduled (the event is written after it).
        def scheduled():
            return [e for e in self.client.events_about("trainer") if e.get("reason") == "Scheduled"]
        self.cluster.wait(scheduled, 10, "the Scheduled event")
        self.assertEqual(len(scheduled()), 1)


if __name__ == "__main__":
    unittest.main()
