"""troupe scheduler end to end: how PreBind's annotations reach the pod.

By default the Binding carries them (DeviceShare's `device-allocated` here):
the API server copies them onto the pod together with spec.nodeName, so a
watcher never sees one without the other. A profile that enables Koordinator's
DefaultPreBind gets Koordinator's order instead: the annotations are patched
onto the pod first, then the pod is bound, so a watcher sees the allocation on
a pod not yet bound. Both end with the same pod.
"""
import json
import os
import sys
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_builders import DEVICE_ALLOCATED, allocation, gpu_pod, make_device, make_gpu_node  # noqa: E402
from scheduler_helpers import SchedulingTest, profile, scheduler_config  # noqa: E402


class PodStates(threading.Thread):
    """Watches the default namespace's pods; keeps, per pod, each state seen
    as (has the device-allocated annotation, nodeName)."""

    def __init__(self, client):
        super().__init__(daemon=True)
        self.conn = client.server.connection(timeout=120)
        headers = {"Accept": "application/json"}
        if client.server.token:
            headers["Authorization"] = "Bearer " + client.server.token
        self.conn.request("GET", "/api/v1/namespaces/default/pods?watch=true", headers=headers)
        self.response = self.conn.getresponse()
        self.lock = threading.Lock()
        self.states = {}
        self.start()

    def run(self):
        try:
            for line in self.response:
                pod = json.loads(line).get("object") or {}
                annotated = DEVICE_ALLOCATED in (pod["metadata"].get("annotations") or {})
                with self.lock:
                    self.states.setdefault(pod["metadata"]["name"], []).append(
                        (annotated, pod["spec"].get("nodeName")))
        except (OSError, ValueError):
            pass  # closed at the end of the test

    def of(self, name):
        with self.lock:
            return list(self.states.get(name, []))

    def close(self):
        self.conn.close()


def config_with_default_prebind():
    plugins = {"preBind": {"enabled": [{"name": "DefaultPreBind"}]}}
    return scheduler_config(profiles=[profile(plugins=plugins)])


class PreBindWritesTest(SchedulingTest):
    def place_gpu_pod(self, config):
        self.start([make_gpu_node("g-0"), make_device("g-0")], config)
        watcher = PodStates(self.client)
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
