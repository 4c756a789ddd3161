"""The official Python client (python3-kubernetes) against `troupe apiserver`:
list, create, a watch stream seeing events arrive, binding, custom objects
CRUD, and 410 on a watch from a resourceVersion older than the history."""
import os
import sys
import threading
import time
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import ApiServer, minimal_pod  # noqa: E402

try:
    from kubernetes import client, config, watch
    from kubernetes.client.rest import ApiException
except ImportError:
    # python3-kubernetes is a Debian package: if another python3 comes first
    # on PATH (pyenv, venv), run this test with the system interpreter.
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    client = None


def api_client(server):
    return config.new_client_from_config(config_file=server.kubeconfig)


class PythonClient(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if client is None:
            raise unittest.SkipTest("python3-kubernetes is not installed")
        cls.server = ApiServer().start()
        cls.api = api_client(cls.server)
        cls.core = client.CoreV1Api(cls.api)
        cls.custom = client.CustomObjectsApi(cls.api)

    @classmethod
    def tearDownClass(cls):
        cls.api.close()
        cls.server.stop()

    def test_list_and_create_typed_objects(self):
        names = [n.metadata.name for n in self.core.list_namespace().items]
        self.assertIn("default", names)
        self.core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name="py-ns")))
        created = self.core.create_namespaced_pod("py-ns", minimal_pod("p1", "py-ns", {"app": "py"}))
        self.assertEqual(created.metadata.name, "p1")
        self.assertEqual(created.status.phase, "Pending")
        self.assertEqual(created.spec.scheduler_name, "default-scheduler")
        pods = self.core.list_namespaced_pod("py-ns", label_selector="app=py")
        self.assertEqual([p.metadata.name for p in pods.items], ["p1"])
        self.assertTrue(pods.metadata.resource_version)
        generated = self.core.create_namespaced_pod("py-ns", {
            "metadata": {"generateName": "gen-"}, "spec": {"containers": [{"name": "c", "image": "i"}]}})
        self.assertTrue(generated.metadata.name.startswith("gen-"))
        self.assertEqual(len(generated.metadata.name), len("gen-") + 5)
        with self.assertRaises(ApiException) as missing:
            self.core.read_namespaced_pod("nope", "py-ns")
        self.assertEqual(missing.exception.status, 404)
        with self.assertRaises(ApiException) as no_ns:
            self.core.create_namespaced_pod("no-such-ns", minimal_pod("x", "no-such-ns"))
        self.assertEqual(no_ns.exception.status, 404)
        with self.assertRaises(ApiException) as taken:
            self.core.create_namespaced_pod("py-ns", minimal_pod("p1", "py-ns"))
        self.assertEqual(taken.exception.status, 409)
        # Strategic merge patch of the status subresource, as a scheduler sends it.
        patched = self.core.patch_namespaced_pod_status("p1", "py-ns", {
            "status": {"conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}})
        self.assertEqual(patched.status.conditions[0].reason, "Unschedulable")
        self.assertEqual(patched.status.phase, "Pending")

    def test_a_limit_without_a_request_becomes_the_request(self):
        # kube-apiserver's SetDefaults_Pod: the scheduler reads requests only.
        created = self.core.create_namespaced_pod("default", {
            "metadata": {"name": "limits-only"},
            "spec": {"containers": [{"name": "c", "image": "busybox",
                                     "resources": {"requests": {"memory": "1Gi"},
                                                   "limits": {"cpu": "3", "memory": "2Gi"}}}]}})
        resources = created.spec.containers[0].resources
        self.assertEqual(resources.requests, {"cpu": "3", "memory": "1Gi"})
        self.assertEqual(resources.limits, {"cpu": "3", "memory": "2Gi"})

    def test_watch_stream_sees_events_arrive(self):
        self.core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name="watch-ns")))
        rv = self.core.list_namespaced_config_map("watch-ns").metadata.resource_version

        def writer():
            time.sleep(0.5)
            for i in range(5):
                self.core.create_namespaced_config_map("watch-ns", {"metadata": {"name": "cm-%d" % i}})
            self.core.patch_namespaced_config_map("cm-0", "watch-ns", {"data": {"k": "v"}})
            self.core.delete_namespaced_config_map("cm-1", "watch-ns")

        thread = threading.Thread(target=writer)
        thread.start()
        seen = []
        w = watch.Watch()
        for event in w.stream(self.core.list_namespaced_config_map, "watch-ns", resource_version=rv,
                              allow_watch_bookmarks=True, timeout_seconds=20):
            seen.append((event["type"], event["object"].metadata.name))
            if len(seen) == 7:
                w.stop()
        thread.join()
        self.assertEqual(seen[:5], [("ADDED", "cm-%d" % i) for i in range(5)])
        self.assertEqual(seen[5:], [("MODIFIED", "cm-0"), ("DELETED", "cm-1")])

    def test_bookmark_before_timeout(self):
        w = watch.Watch()
        types = [e["type"] for e in w.stream(self.core.list_namespaced_config_map, "default",
                                              resource_version=self.core.list_namespaced_config_map(
                                                  "default").metadata.resource_version,
                                              allow_watch_bookmarks=True, timeout_seconds=1)]
        self.assertEqual(types, ["BOOKMARK"])

    def test_binding_sets_node_and_annotations(self):
        self.core.create_namespaced_pod("default", minimal_pod("to-bind"))
        uid = self.core.read_namespaced_pod("to-bind", "default").metadata.uid
        body = client.V1Binding(
            metadata=client.V1ObjectMeta(name="to-bind", uid=uid, annotations={"scheduling.koordinator.sh/x": "1"}),
            target=client.V1ObjectReference(api_version="v1", kind="Node", name="node-7"))
        response = self.core.create_namespaced_pod_binding("to-bind", "default", body, _preload_content=False)
        self.assertEqual(response.status, 201)
        pod = self.core.read_namespaced_pod("to-bind", "default")
        self.assertEqual(pod.spec.node_name, "node-7")
        self.assertEqual(pod.metadata.annotations["scheduling.koordinator.sh/x"], "1")
        scheduled = [c for c in pod.status.conditions if c.type == "PodScheduled"]
        self.assertEqual(scheduled[0].status, "True")
        with self.assertRaises(ApiException) as again:
            self.core.create_namespaced_pod_binding("to-bind", "default", body, _preload_content=False)
        self.assertEqual(again.exception.status, 409)
        body = again.exception.body
        body = body.decode() if isinstance(body, bytes) else body
        self.assertIn('pod to-bind is already assigned to node \\"node-7\\"', body)
        # The legacy bindings collection, as create_namespaced_binding uses it.
        self.core.create_namespaced_pod("default", minimal_pod("legacy"))
        legacy = client.V1Binding(metadata=client.V1ObjectMeta(name="legacy"),
                                  target=client.V1ObjectReference(kind="Node", name="node-8"))
        self.core.create_namespaced_binding("default", legacy, _preload_content=False)
        self.assertEqual(self.core.read_namespaced_pod("legacy", "default").spec.node_name, "node-8")

    def test_custom_objects_crud(self):
        group, version, plural = "scheduling.koordinator.sh", "v1alpha1", "devices"
        device = {"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Device",
                  "metadata": {"name": "node-py"},
                  "spec": {"devices": [{"type": "gpu", "minor": 0, "health": True,
                                        "resources": {"koordinator.sh/gpu-core": "100"}}]}}
        created = self.custom.create_cluster_custom_object(group, version, plural, device)
        self.assertEqual(created["metadata"]["name"], "node-py")
        got = self.custom.get_cluster_custom_object(group, version, plural, "node-py")
        self.assertEqual(got["spec"]["devices"][0]["resources"]["koordinator.sh/gpu-core"], "100")
        listed = self.custom.list_cluster_custom_object(group, version, plural)
        self.assertEqual(listed["kind"], "DeviceList")
        patched = self.custom.patch_cluster_custom_object(group, version, plural, "node-py",
                                                          {"metadata": {"labels": {"a": "b"}}})
        self.assertEqual(patched["metadata"]["labels"], {"a": "b"})
        # Reservations have a status subresource: status written there, not on the main resource.
        reservation = {"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Reservation",
                       "metadata": {"name": "r-py"}, "spec": {"owners": [{"object": {"name": "x"}}]},
                       "status": {"phase": "Available"}}
        r = self.custom.create_cluster_custom_object(group, version, "reservations", reservation)
        self.assertNotIn("status", r)
        r = self.custom.patch_cluster_custom_object_status(group, version, "reservations", "r-py",
                                                           {"status": {"phase": "Available", "nodeName": "n1"}})
        self.assertEqual(r["status"]["nodeName"], "n1")
        r["spec"]["ttl"] = "1h"
        r["status"]["phase"] = "Failed"  # ignored by an update of the main resource
        replaced = self.custom.replace_cluster_custom_object(group, version, "reservations", "r-py", r)
        self.assertEqual(replaced["spec"]["ttl"], "1h")
        self.assertEqual(replaced["status"]["phase"], "Available")
        stale = dict(replaced)
        stale["metadata"] = dict(replaced["metadata"], resourceVersion=r["metadata"]["resourceVersion"])
        with self.assertRaises(ApiException) as conflict:
            self.custom.replace_cluster_custom_object(group, version, "reservations", "r-py", stale)
        self.assertEqual(conflict.exception.status, 409)
        # Namespaced custom objects.
        pg = {"apiVersion": "scheduling.sigs.k8s.io/v1alpha1", "kind": "PodGroup",
              "metadata": {"name": "gang"}, "spec": {"minMember": 2}}
        self.custom.create_namespaced_custom_object("scheduling.sigs.k8s.io", "v1alpha1", "default", "podgroups", pg)
        all_groups = self.custom.list_cluster_custom_object("scheduling.sigs.k8s.io", "v1alpha1", "podgroups")
        self.assertEqual([g["metadata"]["namespace"] for g in all_groups["items"]], ["default"])
        self.custom.delete_cluster_custom_object(group, version, plural, "node-py")
        with self.assertRaises(ApiException) as gone:
            self.custom.get_cluster_custom_object(group, version, plural, "node-py")
        self.assertEqual(gone.exception.status, 404)
        self.assertIn('devices.scheduling.koordinator.sh \\"node-py\\" not found', gone.exception.body)


class PythonClientExpiredWatch(unittest.TestCase):
    def test_watch_from_a_too_old_version_raises_410(self):
        if client is None:
            self.skipTest("python3-kubernetes is not installed")
        with ApiServer("--history", "10") as server:
            api = api_client(server)
            core = client.CoreV1Api(api)
            first = core.create_namespaced_config_map("default", {"metadata": {"name": "first"}})
            for i in range(20):
                core.create_namespaced_config_map("default", {"metadata": {"name": "cm-%d" % i}})
            w = watch.Watch()
            with self.assertRaises(ApiException) as expired:
                for _ in w.stream(core.list_namespaced_config_map, "default",
                                  resource_version=first.metadata.resource_version, timeout_seconds=5):
                    pass
            self.assertEqual(expired.exception.status, 410)
            self.assertIn("too old resource version", str(expired.exception))
            api.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
