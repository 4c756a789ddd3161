"""kubectl against `troupe apiserver`: discovery, create/apply/get/list with
label and field selectors, the columns `get` prints (server-side Tables), the
three patch types, delete and `get -w`, for core
objects and every custom resource kind, a pod's scheduling gates (removed by name with a strategic merge
patch, never added), over plain HTTP and over TLS with a token."""
import json
import os
import subprocess
import sys
import threading
import time
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import MANIFESTS, ApiServer, kubectl, kubectl_binary, minimal_pod  # noqa: E402

CRD_MANIFESTS = [
    # file, resource name for kubectl, namespaced
    ("device.yaml", "devices.scheduling.koordinator.sh", False, "node-e2e"),
    ("reservation.yaml", "reservations.scheduling.koordinator.sh", False, "reserve-e2e"),
    ("podmigrationjob.yaml", "podmigrationjobs.scheduling.koordinator.sh", False, "pmj-e2e"),
    ("noderesourcetopology.yaml", "noderesourcetopologies.topology.node.k8s.io", False, "node-e2e"),
    ("podgroup.yaml", "podgroups.scheduling.sigs.k8s.io", True, "gang-e2e"),
    ("elasticquota.yaml", "elasticquotas.scheduling.sigs.k8s.io", True, "quota-e2e"),
    ("nodemetric.yaml", "nodemetrics.slo.koordinator.sh", False, "node-e2e"),
]


def get_json(server, *args):
    return json.loads(kubectl(server, "get", *args, "-o", "json").stdout)


class KubectlPlainHttp(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if kubectl_binary() is None:
            raise unittest.SkipTest("no kubectl on this machine")
        cls.server = ApiServer().start()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_discovery_lists_every_served_resource(self):
        out = kubectl(self.server, "api-resources").stdout
        for name in ["pods", "nodes", "namespaces", "events", "configmaps", "leases", "poddisruptionbudgets",
                     "devices", "reservations", "podmigrationjobs", "noderesourcetopologies", "podgroups",
                     "elasticquotas", "nodemetrics", "services", "replicationcontrollers", "statefulsets"]:
            self.assertIn(name, out)
        version = kubectl(self.server, "version", "-o", "json", check=False).stdout
        self.assertIn("v1.30.0-troupe", version)
        namespaces = [n["metadata"]["name"] for n in get_json(self.server, "namespaces")["items"]]
        self.assertIn("default", namespaces)
        self.assertIn("kube-system", namespaces)

    def test_core_objects_round_trip(self):
        kubectl(self.server, "apply", "--validate=false", "-f", os.path.join(MANIFESTS, "core.yaml"))
        pods = get_json(self.server, "pods", "-l", "app=web")
        self.assertEqual([p["metadata"]["name"] for p in pods["items"]], ["web"])
        pod = pods["items"][0]
        self.assertEqual(pod["status"]["phase"], "Pending")
        self.assertTrue(pod["metadata"]["uid"])
        self.assertTrue(pod["metadata"]["creationTimestamp"])
        self.assertEqual(get_json(self.server, "pods", "-l", "app=db")["items"], [])
        by_field = get_json(self.server, "pods", "-A", "--field-selector", "spec.schedulerName=troupe")
        self.assertEqual(len(by_field["items"]), 1)
        unscheduled = get_json(self.server, "pods", "--field-selector", "spec.nodeName=")
        self.assertEqual(len(unscheduled["items"]), 1)
        self.assertEqual(get_json(self.server, "pods", "--field-selector", "spec.nodeName=elsewhere")["items"], [])
        bad = kubectl(self.server, "get", "pods", "--field-selector", "foo.bar=x", check=False)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("not a known field selector", bad.stderr)

        # Strategic merge: the env list merges by name.
        kubectl(self.server, "patch", "pod", "web", "-p",
                '{"spec":{"containers":[{"name":"web","env":[{"name":"B","value":"2"}]}]}}')
        env = get_json(self.server, "pod", "web")["spec"]["containers"][0]["env"]
        self.assertEqual(sorted(e["name"] for e in env), ["A", "B"])
        # Merge patch and JSON patch.
        kubectl(self.server, "patch", "pod", "web", "--type", "merge", "-p", '{"metadata":{"labels":{"tier":"back"}}}')
        kubectl(self.server, "patch", "pod", "web", "--type", "json", "-p",
                '[{"op":"add","path":"/metadata/annotations","value":{"note":"hi"}}]')
        pod = get_json(self.server, "pod", "web")
        self.assertEqual(pod["metadata"]["labels"]["tier"], "back")
        self.assertEqual(pod["metadata"]["annotations"]["note"], "hi")
        # A re-apply of a changed manifest patches the live object.
        node = get_json(self.server, "node", "node-e2e")
        self.assertEqual(node["spec"]["taints"][0]["key"], "dedicated")
        kubectl(self.server, "label", "node", "node-e2e", "extra=yes")
        self.assertEqual(get_json(self.server, "nodes", "-l", "extra=yes")["items"][0]["metadata"]["name"], "node-e2e")
        cm = get_json(self.server, "configmap", "settings")
        self.assertEqual(cm["data"]["mode"], "fast")
        with open(os.path.join(MANIFESTS, "core.yaml")) as f:
            manifest = f.read().replace("mode: fast", "mode: slow")
        kubectl(self.server, "apply", "--validate=false", "-f", "-", input=manifest)
        self.assertEqual(get_json(self.server, "configmap", "settings")["data"]["mode"], "slow")

        kubectl(self.server, "delete", "pod", "web")
        gone = kubectl(self.server, "get", "pod", "web", check=False)
        self.assertNotEqual(gone.returncode, 0)
        self.assertIn("NotFound", gone.stderr)
        kubectl(self.server, "delete", "-f", os.path.join(MANIFESTS, "core.yaml"), "--ignore-not-found")
        self.assertEqual(get_json(self.server, "configmaps")["items"], [])

    def test_scheduling_gates_can_only_be_removed(self):
        pod = minimal_pod("gated-kubectl")
        pod["spec"]["schedulingGates"] = [{"name": "example.com/a"}, {"name": "example.com/b"}]
        kubectl(self.server, "create", "--validate=false", "-f", "-", input=json.dumps(pod))
        created = get_json(self.server, "pod", "gated-kubectl")
        self.assertEqual([(c["type"], c["status"], c["reason"]) for c in created["status"]["conditions"]],
                         [("PodScheduled", "False", "SchedulingGated")])
        added = kubectl(self.server, "patch", "pod", "gated-kubectl", "--type=json", "-p",
                        '[{"op":"add","path":"/spec/schedulingGates/-","value":{"name":"example.com/c"}}]',
                        check=False)
        self.assertNotEqual(added.returncode, 0)
        self.assertIn("spec.schedulingGates[2].name: Forbidden: only deletion is allowed, but found new scheduling "
                      "gate 'example.com/c'", added.stderr)
        # A strategic merge patch's delete directive removes one gate by name.
        kubectl(self.server, "patch", "pod", "gated-kubectl", "-p",
                '{"spec":{"schedulingGates":[{"$patch":"delete","name":"example.com/a"}]}}')
        self.assertEqual(get_json(self.server, "pod", "gated-kubectl")["spec"]["schedulingGates"],
                         [{"name": "example.com/b"}])
        kubectl(self.server, "patch", "pod", "gated-kubectl", "-p", '{"spec":{"schedulingGates":null}}')
        self.assertNotIn("schedulingGates", get_json(self.server, "pod", "gated-kubectl")["spec"])
        kubectl(self.server, "delete", "pod", "gated-kubectl")

    def test_server_side_dry_run_is_refused_and_changes_nothing(self):
        kubectl(self.server, "create", "--validate=false", "-f", "-", input=json.dumps(minimal_pod("dry-kubectl")))
        for args in (("delete", "pod", "dry-kubectl"),
                     ("label", "pod", "dry-kubectl", "tier=dry"),
                     ("create", "configmap", "dry-settings", "--from-literal=a=b")):
            refused = kubectl(self.server, *args, "--dry-run=server", check=False)
            self.assertNotEqual(refused.returncode, 0, args)
            self.assertIn("dryRun is not supported by this server", refused.stderr)
        pod = get_json(self.server, "pod", "dry-kubectl")
        self.assertNotIn("tier", pod["metadata"].get("labels", {}))
        self.assertNotEqual(kubectl(self.server, "get", "configmap", "dry-settings", check=False).returncode, 0)
        kubectl(self.server, "delete", "pod", "dry-kubectl")

    def test_every_custom_resource_kind(self):
        for manifest, resource, namespaced, name in CRD_MANIFESTS:
            with self.subTest(resource=resource):
                path = os.path.join(MANIFESTS, manifest)
                kubectl(self.server, "apply", "--validate=false", "-f", path)
                obj = get_json(self.server, resource, name)
                self.assertEqual(obj["metadata"]["name"], name)
                if namespaced:
                    self.assertEqual(obj["metadata"]["namespace"], "default")
                else:
                    self.assertNotIn("namespace", obj["metadata"])
                listed = get_json(self.server, resource)
                self.assertEqual([o["metadata"]["name"] for o in listed["items"]], [name])
                kubectl(self.server, "patch", resource, name, "--type", "merge", "-p",
                        '{"metadata":{"labels":{"patched":"merge"}}}')
                kubectl(self.server, "patch", resource, name, "--type", "json", "-p",
                        '[{"op":"add","path":"/metadata/labels/json","value":"yes"}]')
                labels = get_json(self.server, resource, name)["metadata"]["labels"]
                self.assertEqual(labels["patched"], "merge")
                self.assertEqual(labels["json"], "yes")
                self.assertEqual(len(get_json(self.server, resource, "-l", "patched=merge")["items"]), 1)
                strategic = kubectl(self.server, "patch", resource, name, "-p", '{"metadata":{"labels":{"x":"y"}}}',
                                    check=False)
                self.assertNotEqual(strategic.returncode, 0)
                self.assertIn("the body of the request was in an unknown format", strategic.stderr)
                kubectl(self.server, "apply", "--validate=false", "-f", path)  # unchanged re-apply
                kubectl(self.server, "delete", "-f", path)
                self.assertEqual(get_json(self.server, resource)["items"], [])

    def test_get_prints_the_columns_kube_apiserver_prints(self):
        # Server-side Tables: what `kubectl get` shows without -o.
        node = {"apiVersion": "v1", "kind": "Node",
                "metadata": {"name": "table-node", "labels": {"node-role.kubernetes.io/worker": ""}},
                "spec": {"unschedulable": True},
                "status": {"conditions": [{"type": "Ready", "status": "True"}],
                           "addresses": [{"type": "InternalIP", "address": "10.1.2.3"}],
                           "nodeInfo": {"kubeletVersion": "v1.30.0", "osImage": "Debian GNU/Linux 12",
                                        "kernelVersion": "6.1.0", "containerRuntimeVersion": "containerd://1.7"}}}
        self.assertEqual(self.server.request("POST", "/api/v1/nodes", node)[0], 201)
        running = minimal_pod("table-running")
        running["spec"]["nodeName"] = "table-node"
        self.assertEqual(self.server.request("POST", "/api/v1/namespaces/default/pods", running)[0], 201)
        status = {"status": {"phase": "Running", "podIPs": [{"ip": "10.244.0.7"}], "containerStatuses": [
            {"name": "c", "ready": True, "restartCount": 2, "image": "busybox", "imageID": "", "state": {
                "running": {"startedAt": "2026-01-01T00:00:00Z"}}}]}}
        self.assertEqual(self.server.request("PATCH", "/api/v1/namespaces/default/pods/table-running/status", status,
                                             "application/merge-patch+json")[0], 200)
        gated = minimal_pod("table-gated")
        gated["spec"]["schedulingGates"] = [{"name": "example.com/wait"}]
        self.assertEqual(self.server.request("POST", "/api/v1/namespaces/default/pods", gated)[0], 201)
        try:
            pods = kubectl(self.server, "get", "pods", "-o", "wide").stdout.splitlines()
            self.assertEqual(pods[0].split(), ["NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE",
                                               "NOMINATED", "NODE", "READINESS", "GATES"])
            rows = {line.split()[0]: line.split() for line in pods[1:]}
            self.assertEqual(rows["table-running"][1:4], ["1/1", "Running", "2"])
            self.assertEqual(rows["table-running"][5:7], ["10.244.0.7", "table-node"])
            self.assertEqual(rows["table-gated"][1:4], ["0/1", "SchedulingGated", "0"])
            self.assertEqual(rows["table-gated"][5:8], ["<none>", "<none>", "<none>"])
            narrow = kubectl(self.server, "get", "pod", "table-running").stdout.splitlines()
            self.assertEqual(narrow[0].split(), ["NAME", "READY", "STATUS", "RESTARTS", "AGE"])
            nodes = kubectl(self.server, "get", "node", "table-node", "-o", "wide").stdout.splitlines()
            self.assertEqual(nodes[1].split()[:3], ["table-node", "Ready,SchedulingDisabled", "worker"])
            self.assertIn("v1.30.0", nodes[1])
            self.assertIn("10.1.2.3", nodes[1])
            self.assertIn("containerd://1.7", nodes[1])
            # --show-labels and -A read each row's object metadata.
            labelled = kubectl(self.server, "get", "nodes", "--show-labels").stdout
            self.assertIn("node-role.kubernetes.io/worker=", labelled)
            everywhere = kubectl(self.server, "get", "pods", "-A").stdout.splitlines()
            self.assertEqual(everywhere[0].split()[:2], ["NAMESPACE", "NAME"])
            # --sort-by asks for whole objects in the rows.
            by_name = kubectl(self.server, "get", "pods", "--sort-by=.metadata.name").stdout.splitlines()
            self.assertEqual([line.split()[0] for line in by_name[1:]], ["table-gated", "table-running"])
            self.assertEqual(self.server.request("POST", "/api/v1/namespaces/default/configmaps", {
                "metadata": {"name": "table-cm"}, "data": {"a": "1", "b": "2"}})[0], 201)
            configmaps = kubectl(self.server, "get", "configmap", "table-cm").stdout.splitlines()
            self.assertEqual(configmaps[0].split(), ["NAME", "DATA", "AGE"])
            self.assertEqual(configmaps[1].split()[:2], ["table-cm", "2"])
            kubectl(self.server, "delete", "configmap", "table-cm")
            namespaces = kubectl(self.server, "get", "namespace", "default").stdout.splitlines()
            self.assertEqual(namespaces[1].split()[:2], ["default", "Active"])
            # events.k8s.io Events (troupe scheduler writes these) print like core ones, through both APIs.
            event = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                     "metadata": {"name": "table-event", "namespace": "default"},
                     "eventTime": "2026-01-01T00:00:00.000000Z", "type": "Warning", "reason": "FailedScheduling",
                     "note": "0/1 nodes are available", "action": "Scheduling",
                     "reportingController": "troupe-scheduler", "reportingInstance": "troupe-0",
                     "regarding": {"kind": "Pod", "name": "table-gated", "namespace": "default",
                                   "uid": self.server.request("GET", "/api/v1/namespaces/default/pods/table-gated")[
                                       1]["metadata"]["uid"]}}
            self.assertEqual(self.server.request("POST", "/apis/events.k8s.io/v1/namespaces/default/events",
                                                 event)[0], 201)
            for resource in ("events.events.k8s.io", "events"):  # one set of events behind both APIs
                events = kubectl(self.server, "get", resource).stdout.splitlines()
                self.assertEqual(events[0].split(), ["LAST", "SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"])
                self.assertEqual(events[1].split()[1:5], ["Warning", "FailedScheduling", "pod/table-gated", "0/1"])
            described = kubectl(self.server, "describe", "pod", "table-gated").stdout
            self.assertIn("FailedScheduling", described)
            self.assertIn("troupe-scheduler", described)
            # A Reservation prints its CRD's printer columns.
            kubectl(self.server, "apply", "--validate=false", "-f", os.path.join(MANIFESTS, "reservation.yaml"))
            reservations = kubectl(self.server, "get", "reservations").stdout.splitlines()
            self.assertEqual(reservations[0].split(), ["NAME", "PHASE", "AGE", "NODE", "TTL", "EXPIRES"])
            row = reservations[1].split()  # no phase, node or expiry yet: empty cells
            self.assertEqual([row[0], row[2]], ["reserve-e2e", "1h"])
            self.assertEqual(len(row), 3)
            kubectl(self.server, "delete", "-f", os.path.join(MANIFESTS, "reservation.yaml"))
        finally:
            kubectl(self.server, "delete", "pod", "table-running", "table-gated", "--wait=false")
            kubectl(self.server, "delete", "node", "table-node")

    def watch_while_creating(self, prefix, *args):
        """Runs `kubectl get configmaps -w ARGS` while two ConfigMaps named PREFIX-0/1 are created; its output lines."""
        cmd = [kubectl_binary(), "--kubeconfig", self.server.kubeconfig, "--cache-dir",
               os.path.join(self.server.dir, "watch-cache"), "get", "configmaps", "-w"] + list(args)
        watcher = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env=dict(os.environ, HOME=self.server.dir))
        lines = []
        reader = threading.Thread(target=lambda: [lines.append(l.strip()) for l in watcher.stdout])
        reader.daemon = True
        reader.start()
        try:
            deadline = time.time() + 30
            created = 0
            while time.time() < deadline and len([l for l in lines if prefix in l]) < 2:
                if created < 2:
                    time.sleep(1)  # let the watch start before writing
                    for i in range(2):
                        self.server.request("POST", "/api/v1/namespaces/default/configmaps",
                                            {"apiVersion": "v1", "kind": "ConfigMap",
                                             "metadata": {"name": "%s-%d" % (prefix, i)}})
                    created = 2
                time.sleep(0.2)
            return list(lines)
        finally:
            watcher.kill()
            watcher.wait()
            reader.join(5)
            watcher.stdout.close()
            watcher.stderr.close()

    def test_get_watch_prints_new_objects(self):
        lines = self.watch_while_creating("watched", "-o", "name")
        self.assertIn("configmap/watched-0", lines)
        self.assertIn("configmap/watched-1", lines)

    def test_get_watch_prints_table_rows_under_one_header(self):
        lines = self.watch_while_creating("tabled")
        rows = [l.split() for l in lines if l]
        self.assertEqual([r for r in rows if r[0] == "NAME"], [["NAME", "DATA", "AGE"]])
        self.assertIn("tabled-0", [r[0] for r in rows])
        self.assertIn("tabled-1", [r[0] for r in rows])


class KubectlTlsWithToken(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if kubectl_binary() is None:
            raise unittest.SkipTest("no kubectl on this machine")
        cls.server = ApiServer(tls=True, token="s3cret-token").start()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_kubectl_over_tls_with_the_written_kubeconfig(self):
        self.assertTrue(self.server.url.startswith("https://"))
        kubectl(self.server, "apply", "--validate=false", "-f", os.path.join(MANIFESTS, "device.yaml"))
        devices = get_json(self.server, "devices")
        self.assertEqual(devices["items"][0]["metadata"]["name"], "node-e2e")
        kubectl(self.server, "create", "namespace", "tls-ns")
        self.assertEqual(get_json(self.server, "namespace", "tls-ns")["status"]["phase"], "Active")

    def test_wrong_or_missing_token_is_401(self):
        status, body, _ = self.server.request("GET", "/api/v1/pods", headers={"Authorization": "Bearer wrong"})
        self.assertEqual(status, 401)
        self.assertEqual(body["reason"], "Unauthorized")
        token = self.server.token
        self.server.token = None
        try:
            status, body, _ = self.server.request("GET", "/api/v1/namespaces")
            self.assertEqual(status, 401)
            status, body, _ = self.server.request("GET", "/healthz")
            self.assertEqual((status, body), (200, "ok"))
        finally:
            self.server.token = token
        bad = subprocess.run([kubectl_binary(), "--server", self.server.url, "--insecure-skip-tls-verify",
                              "--token", "nope", "get", "pods"], capture_output=True, text=True, timeout=60,
                             env=dict(os.environ, HOME=self.server.dir))
        self.assertNotEqual(bad.returncode, 0)
        output = bad.stderr + bad.stdout
        self.assertTrue("Unauthorized" in output or "provide credentials" in output, output)


if __name__ == "__main__":
    unittest.main(verbosity=2)
