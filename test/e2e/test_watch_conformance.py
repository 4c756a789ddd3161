"""Watch and error-handling conformance of `troupe apiserver`, over raw HTTP:
10 concurrent watchers see every one of 10,000 writes in the same order;
a watch resumed from a resourceVersion loses nothing; a too-old version gets
an ERROR 410 event; malformed, unknown, mistyped, oversized and random-garbage
requests get the right Status (or a clean close) and never crash the server."""
import http.client
import json
import os
import random
import socket
import sys
import threading
import time
import unittest
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import ApiServer, minimal_pod  # noqa: E402

WRITES = 10000
WATCHERS = 10
WRITER_THREADS = 4
CM_PATH = "/api/v1/namespaces/default/configmaps"


class WatchStream:
    """A raw watch: GET ...?watch=1, read newline-delimited events in a thread."""

    def __init__(self, server, path, stop_name=None, expected=None, timeout=120):
        self.events = []
        self.error = None
        self.stop_name = stop_name
        self.expected = expected
        parsed = urllib.parse.urlparse(server.url)
        self.conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=timeout)
        self.conn.request("GET", path)
        self.response = self.conn.getresponse()
        self.thread = threading.Thread(target=self._read)
        self.thread.daemon = True
        self.thread.start()

    def _read(self):
        try:
            for line in self.response:
                event = json.loads(line)
                self.events.append(event)
                if event["type"] == "ERROR":
                    break
                if self.stop_name and event["object"]["metadata"].get("name") == self.stop_name:
                    break
                if self.expected and len(self.events) >= self.expected:
                    break
        except Exception as e:  # noqa: BLE001 - reported by the test
            self.error = e
        finally:
            self.conn.close()

    def join(self, timeout=120):
        self.thread.join(timeout)
        return not self.thread.is_alive()


def writer(server, names, errors):
    """Creates, updates and deletes config maps over one keep-alive connection."""
    parsed = urllib.parse.urlparse(server.url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
    try:
        for i, name in enumerate(names):
            kind = i % 3
            if kind == 0:
                body = json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}})
                conn.request("POST", CM_PATH, body, {"Content-Type": "application/json"})
            elif kind == 1:
                conn.request("PATCH", CM_PATH + "/" + names[i - 1], json.dumps({"data": {"i": str(i)}}),
                             {"Content-Type": "application/merge-patch+json"})
            else:
                conn.request("DELETE", CM_PATH + "/" + names[i - 2])
            response = conn.getresponse()
            response.read()
            if response.status >= 300:
                errors.append((name, response.status))
    finally:
        conn.close()


class WatchConformance(unittest.TestCase):
    def test_concurrent_watchers_see_every_write_in_order_and_resume_loses_nothing(self):
        with ApiServer() as server:
            status, listed, _ = server.request("GET", CM_PATH)
            start_rv = listed["metadata"]["resourceVersion"]
            watchers = [WatchStream(server, CM_PATH + "?watch=1&resourceVersion=%s" % start_rv, expected=WRITES)
                        for _ in range(WATCHERS)]
            time.sleep(0.5)
            per_thread = WRITES // WRITER_THREADS  # a multiple of 3: create, update, delete of one name
            errors = []
            threads = []
            for t in range(WRITER_THREADS):
                names = ["w%d-%d" % (t, i // 3) for i in range(per_thread)]
                threads.append(threading.Thread(target=writer, args=(server, names, errors)))
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            self.assertEqual(errors, [])
            for w in watchers:
                self.assertTrue(w.join(), "a watcher did not receive every event")
                self.assertIsNone(w.error)
            reference = [(e["type"], e["object"]["metadata"]["resourceVersion"]) for e in watchers[0].events]
            self.assertEqual(len(reference), WRITES)
            rvs = [int(rv) for _, rv in reference]
            self.assertEqual(rvs, sorted(rvs))
            self.assertEqual(len(set(rvs)), WRITES)
            self.assertEqual(rvs[-1] - rvs[0], WRITES - 1)  # nothing else was written
            for w in watchers[1:]:
                self.assertEqual([(e["type"], e["object"]["metadata"]["resourceVersion"]) for e in w.events],
                                 reference)
            counts = {t: sum(1 for e, _ in reference if e == t) for t in ("ADDED", "MODIFIED", "DELETED")}
            expected = {"ADDED": 0, "MODIFIED": 0, "DELETED": 0}
            for i in range(per_thread):
                expected[("ADDED", "MODIFIED", "DELETED")[i % 3]] += WRITER_THREADS
            self.assertEqual(counts, expected)
            leftovers = sorted("w%d-%d" % (t, (per_thread - 1) // 3) for t in range(WRITER_THREADS)
                               if per_thread % 3 != 0)

            # Resume from the middle: exactly the events after that version.
            middle = reference[WRITES // 2][1]
            resumed = WatchStream(server, CM_PATH + "?watch=true&resourceVersion=%s" % middle,
                                  expected=WRITES - WRITES // 2 - 1)
            self.assertTrue(resumed.join())
            self.assertEqual([(e["type"], e["object"]["metadata"]["resourceVersion"]) for e in resumed.events],
                             reference[WRITES // 2 + 1:])

            # Without a version: the current state as ADDED (the names never deleted), then live events.
            fresh = WatchStream(server, CM_PATH + "?watch=1", stop_name="after")
            time.sleep(0.3)
            server.request("POST", CM_PATH, {"metadata": {"name": "after"}})
            self.assertTrue(fresh.join(30))
            seen = [(e["type"], e["object"]["metadata"]["name"]) for e in fresh.events]
            self.assertEqual(sorted(seen[:-1]), [("ADDED", n) for n in leftovers])
            self.assertEqual(seen[-1], ("ADDED", "after"))

    def test_initial_state_selectors_and_timeout(self):
        with ApiServer() as server:
            for i in range(3):
                server.request("POST", "/api/v1/namespaces/default/pods",
                               minimal_pod("p%d" % i, labels={"app": "a" if i < 2 else "b"}))
            w = WatchStream(server, "/api/v1/pods?watch=1&labelSelector=app%3Da&timeoutSeconds=2")
            # The server hangs up when the watch ends: a client must not reuse the connection.
            self.assertEqual(w.response.getheader("Connection"), "close")
            self.assertTrue(w.join(20))
            self.assertEqual(sorted(e["object"]["metadata"]["name"] for e in w.events), ["p0", "p1"])
            self.assertTrue(all(e["type"] == "ADDED" for e in w.events))
            # Field selector on an unscheduled pod, then the pod leaves the selector when bound.
            w = WatchStream(server, "/api/v1/namespaces/default/pods?watch=1&fieldSelector=spec.nodeName%3D"
                                    "&timeoutSeconds=3&allowWatchBookmarks=true")
            time.sleep(0.3)
            status, _, _ = server.request("POST", "/api/v1/namespaces/default/pods/p0/binding",
                                          {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "p0"},
                                           "target": {"kind": "Node", "name": "n1"}})
            self.assertEqual(status, 201)
            self.assertTrue(w.join(20))
            types = [(e["type"], e["object"]["metadata"].get("name")) for e in w.events]
            self.assertEqual(sorted(types[:3]), [("ADDED", "p0"), ("ADDED", "p1"), ("ADDED", "p2")])
            self.assertEqual(types[3], ("DELETED", "p0"))
            self.assertEqual(types[4][0], "BOOKMARK")
            self.assertEqual(len(types), 5)

    def test_a_quiet_watch_gets_periodic_bookmarks(self):
        with ApiServer("--bookmark-interval", "1") as server:
            _, created, _ = server.request("POST", CM_PATH, {"metadata": {"name": "quiet"}})
            rv = created["metadata"]["resourceVersion"]
            w = WatchStream(server, CM_PATH + "?watch=1&allowWatchBookmarks=true&timeoutSeconds=4&resourceVersion=" + rv)
            time.sleep(1.5)
            status, _, _ = server.request("POST", "/api/v1/nodes", {"metadata": {"name": "elsewhere"}})
            self.assertEqual(status, 201)
            self.assertTrue(w.join(20))
            bookmarks = [e for e in w.events if e["type"] == "BOOKMARK"]
            # About one a second while nothing happens, and one as the watch ends.
            self.assertGreaterEqual(len(bookmarks), 3, w.events)
            self.assertEqual([e["type"] for e in w.events], ["BOOKMARK"] * len(w.events))
            versions = [int(e["object"]["metadata"]["resourceVersion"]) for e in bookmarks]
            self.assertEqual(versions, sorted(versions))
            self.assertGreater(versions[-1], int(rv))  # the write to another resource moved it on
        # Without allowWatchBookmarks, none.
        with ApiServer("--bookmark-interval", "1") as server:
            w = WatchStream(server, CM_PATH + "?watch=1&timeoutSeconds=2&resourceVersion=1")
            self.assertTrue(w.join(20))
            self.assertEqual(w.events, [])

    def test_too_old_resource_version_gets_an_error_event(self):
        with ApiServer("--history", "50") as server:
            _, first, _ = server.request("POST", CM_PATH, {"metadata": {"name": "first"}})
            for i in range(100):
                server.request("POST", CM_PATH, {"metadata": {"name": "cm-%d" % i}})
            w = WatchStream(server, CM_PATH + "?watch=1&resourceVersion=" + first["metadata"]["resourceVersion"])
            self.assertTrue(w.join(20))
            self.assertEqual(len(w.events), 1)
            event = w.events[0]
            self.assertEqual(event["type"], "ERROR")
            self.assertEqual(event["object"]["code"], 410)
            self.assertEqual(event["object"]["reason"], "Expired")
            self.assertRegex(event["object"]["message"], r"^too old resource version: \d+ \(\d+\)$")


class ErrorHandling(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ApiServer().start()

    @classmethod
    def tearDownClass(cls):
        code = cls.server.stop()
        assert code == 0, "the server did not exit cleanly on SIGTERM (exit %s)" % code

    def check(self, method, path, body, code, reason, message=None, content_type="application/json"):
        status, status_body, _ = self.server.request(method, path, body, content_type=content_type)
        self.assertEqual(status, code, status_body)
        self.assertEqual(status_body["kind"], "Status")
        self.assertEqual(status_body["status"], "Failure")
        self.assertEqual(status_body["code"], code)
        self.assertEqual(status_body["reason"], reason)
        if message is not None:
            self.assertEqual(status_body["message"], message)
        return status_body

    def test_status_errors(self):
        pods = "/api/v1/namespaces/default/pods"
        self.check("POST", pods, "{not json", 400, "BadRequest")
        self.check("POST", pods, "[1,2]", 400, "BadRequest")
        self.check("GET", "/api/v1/widgets", None, 404, "NotFound", "the server could not find the requested resource")
        self.check("GET", "/apis/nope.example.com/v1", None, 404, "NotFound")
        self.check("GET", pods + "/ghost", None, 404, "NotFound", 'pods "ghost" not found')
        self.check("GET", "/apis/scheduling.koordinator.sh/v1alpha1/devices/ghost", None, 404, "NotFound",
                   'devices.scheduling.koordinator.sh "ghost" not found')
        self.check("GET", "/openapi/v2", None, 404, "NotFound")
        self.check("GET", "/api/v1/namespaces/default/nodes", None, 404, "NotFound")  # cluster-scoped
        self.check("POST", pods, {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "x"}}, 400, "BadRequest")
        body = self.check("POST", "/apis/scheduling.koordinator.sh/v1alpha1/devices",
                          {"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Reservation",
                           "metadata": {"name": "x"}}, 422, "Invalid")
        self.assertEqual(body["details"]["causes"][0]["field"], "kind")
        body = self.check("POST", pods, {"metadata": {"name": "nocontainers"}, "spec": {}}, 422, "Invalid",
                          'Pod "nocontainers" is invalid: spec.containers: Required value')
        self.assertEqual(body["details"]["causes"][0]["reason"], "FieldValueRequired")
        self.check("POST", pods, {"metadata": {}, "spec": {"containers": [{"name": "c"}]}}, 422, "Invalid")
        self.check("POST", pods, {"metadata": {"name": "Bad_Name"}, "spec": {"containers": [{"name": "c"}]}},
                   422, "Invalid")
        self.check("POST", pods + "/ghost", {}, 405, "MethodNotAllowed")
        self.check("PUT", pods, {}, 405, "MethodNotAllowed")
        self.check("GET", pods + "?watch=maybe", None, 400, "BadRequest")
        self.check("GET", pods + "?labelSelector=a%20in%20(", None, 400, "BadRequest")
        self.check("GET", pods + "?fieldSelector=foo.bar%3Dx", None, 400, "BadRequest")
        self.check("GET", pods + "?limit=-3", None, 400, "BadRequest")
        self.check("GET", pods + "?limit=1&continue=garbage!", None, 400, "BadRequest")
        self.check("POST", "/api/v1/namespaces/missing/configmaps", {"metadata": {"name": "c"}}, 404, "NotFound",
                   'namespaces "missing" not found')

        # Conflicts and preconditions.
        status, pod, _ = self.server.request("POST", pods, minimal_pod("dup"))
        self.assertEqual(status, 201)
        self.check("POST", pods, minimal_pod("dup"), 409, "AlreadyExists", 'pods "dup" already exists')
        stale = dict(pod)
        stale["metadata"] = dict(pod["metadata"], resourceVersion="1")
        self.check("PUT", pods + "/dup", stale, 409, "Conflict",
                   'Operation cannot be fulfilled on pods "dup": the object has been modified; please apply your '
                   'changes to the latest version and try again')
        self.check("PATCH", pods + "/dup", {"metadata": {"resourceVersion": "1"}}, 409, "Conflict",
                   content_type="application/merge-patch+json")
        self.check("PATCH", pods + "/dup", {"a": 1}, 415, "UnsupportedMediaType", content_type="text/plain")
        self.check("PATCH", "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/default/podgroups/x", {}, 415,
                   "UnsupportedMediaType",
                   "the body of the request was in an unknown format - accepted media types include: "
                   "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
                   content_type="application/strategic-merge-patch+json")
        self.check("PATCH", pods + "/dup", '{"op":"x"}', 400, "BadRequest", content_type="application/json-patch+json")
        self.check("DELETE", pods + "/dup", {"preconditions": {"uid": "other"}}, 409, "Conflict")
        binding = {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "dup"},
                   "target": {"kind": "Node", "name": "n1"}}
        status, ok, _ = self.server.request("POST", pods + "/dup/binding", binding)
        self.assertEqual((status, ok["status"], ok["code"]), (201, "Success", 201))
        self.check("POST", pods + "/dup/binding", binding, 409, "Conflict",
                   'Operation cannot be fulfilled on pods/binding "dup": pod dup is already assigned to node "n1"')
        self.check("POST", pods + "/other/binding", binding, 400, "BadRequest")
        self.check("POST", pods + "/ghost/binding", dict(binding, metadata={"name": "ghost"}), 404, "NotFound")

        # Oversized bodies: 413 and the server keeps serving.
        huge = json.dumps({"metadata": {"name": "huge"}, "data": {"x": "y" * (4 * 1024 * 1024)}})
        status, body, _ = self.server.request("POST", "/api/v1/namespaces/default/configmaps", huge)
        self.assertEqual(status, 413)
        self.assertEqual(body["reason"], "RequestEntityTooLarge")
        self.assertEqual(self.server.request("GET", "/healthz")[0], 200)

    def test_eviction_respects_disruption_budgets(self):
        ns = "/api/v1/namespaces/default/pods"
        for name in ("e1", "e2"):
            self.server.request("POST", ns, minimal_pod(name, labels={"app": "evict"}))
            status, _, _ = self.server.request("PUT", ns + "/%s/status" % name, dict(
                self.server.request("GET", ns + "/" + name)[1], status={"phase": "Running"}))
            self.assertEqual(status, 200)
        pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "keep-one"},
               "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "evict"}}}}
        self.assertEqual(self.server.request("POST", "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
                                             pdb)[0], 201)
        eviction = {"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": "e1"}}
        status, body, _ = self.server.request("POST", ns + "/e1/eviction", eviction)
        self.assertEqual(status, 201, body)
        self.assertEqual(self.server.request("GET", ns + "/e1")[0], 404)
        body = self.check("POST", ns + "/e2/eviction", dict(eviction, metadata={"name": "e2"}), 429,
                          "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.")
        self.assertEqual(body["details"]["causes"][0]["reason"], "DisruptionBudget")
        self.assertEqual(self.server.request("GET", ns + "/e2")[0], 200)

    def running_pod(self, name, labels, owner=None):
        ns = "/api/v1/namespaces/default/pods"
        pod = minimal_pod(name, labels=labels)
        if owner:
            pod["metadata"]["ownerReferences"] = [owner]
        self.assertEqual(self.server.request("POST", ns, pod)[0], 201)
        status, _, _ = self.server.request("PUT", ns + "/%s/status" % name, dict(
            self.server.request("GET", ns + "/" + name)[1], status={"phase": "Running"}))
        self.assertEqual(status, 200)

    def test_eviction_counts_the_controllers_replicas_for_max_unavailable(self):
        ns = "/api/v1/namespaces/default/pods"
        rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web"},
              "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                       "template": {"metadata": {"labels": {"app": "web"}},
                                    "spec": {"containers": [{"name": "c", "image": "busybox"}]}}}}
        status, created, _ = self.server.request("POST", "/apis/apps/v1/namespaces/default/replicasets", rs)
        self.assertEqual(status, 201, created)
        owner = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web", "uid": created["metadata"]["uid"],
                 "controller": True}
        for name in ("w1", "w2", "w3"):
            self.running_pod(name, {"app": "web"}, owner)
        self.running_pod("o1", {"app": "orphan"})
        for pdb_name, app in (("web-budget", "web"), ("orphan-budget", "orphan")):
            pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": pdb_name},
                   "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": app}}}}
            self.assertEqual(self.server.request("POST", "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
                                                 pdb)[0], 201)
        # 3 replicas wanted, 1 may be unavailable: the first eviction only (the
        # evicted pod still counts until its ReplicaSet replaces it).
        eviction = {"apiVersion": "policy/v1", "kind": "Eviction"}
        status, body, _ = self.server.request("POST", ns + "/w1/eviction", dict(eviction, metadata={"name": "w1"}))
        self.assertEqual(status, 201, body)
        body = self.check("POST", ns + "/w2/eviction", dict(eviction, metadata={"name": "w2"}), 429,
                          "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.")
        self.assertEqual(body["details"]["causes"][0]["message"],
                         "The disruption budget web-budget needs 2 healthy pods and has 2 currently")
        for name in ("w2", "w3"):
            self.assertEqual(self.server.request("GET", ns + "/" + name)[0], 200)
        # Pods without a controller are not counted (unmanaged): 0 expected, any may go.
        status, body, _ = self.server.request("POST", ns + "/o1/eviction", dict(eviction, metadata={"name": "o1"}))
        self.assertEqual(status, 201, body)
        # A controller of a kind whose scale is unknown here (a Job): no disruption allowed.
        job_owner = {"apiVersion": "batch/v1", "kind": "Job", "name": "batch", "uid": "job-uid", "controller": True}
        self.running_pod("j1", {"app": "job"}, job_owner)
        pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "job-budget"},
               "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "job"}}}}
        self.assertEqual(self.server.request("POST", "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
                                             pdb)[0], 201)
        body = self.check("POST", ns + "/j1/eviction", dict(eviction, metadata={"name": "j1"}), 429,
                          "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.")
        self.assertIn("has no scale known here", body["details"]["causes"][0]["message"])
        # A budget with neither minAvailable nor maxUnavailable wants no pod healthy.
        self.running_pod("f1", {"app": "free"})
        pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "free-budget"},
               "spec": {"selector": {"matchLabels": {"app": "free"}}}}
        self.assertEqual(self.server.request("POST", "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
                                             pdb)[0], 201)
        status, body, _ = self.server.request("POST", ns + "/f1/eviction", dict(eviction, metadata={"name": "f1"}))
        self.assertEqual(status, 201, body)

    def test_random_garbage_never_crashes_the_server(self):
        parsed = urllib.parse.urlparse(self.server.url)
        rng = random.Random(1234)
        prefixes = [b"", b"GET ", b"POST /api/v1/namespaces/default/pods HTTP/1.1\r\n",
                    b"GET /api/v1/pods HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
                    b"PATCH /api/v1/nodes/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"]
        for i in range(200):
            payload = rng.choice(prefixes) + bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 600)))
            if i % 4 == 0:
                payload += b"\r\n\r\n"
            with socket.create_connection((parsed.hostname, parsed.port), timeout=5) as s:
                try:
                    s.sendall(payload)
                    s.shutdown(socket.SHUT_WR)
                    while s.recv(65536):
                        pass
                except OSError:  # the server may hang up first: that is fine
                    pass
        status, body, _ = self.server.request("GET", "/healthz")
        self.assertEqual((status, body), (200, "ok"))
        status, body, _ = self.server.request("GET", "/api/v1/namespaces")
        self.assertEqual(status, 200)


if __name__ == "__main__":
    unittest.main(verbosity=2)
