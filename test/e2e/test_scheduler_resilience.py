"""troupe scheduler end to end: watch streams cut, 410s, API server restarts.

The workload is deterministic: 20 nodes of exactly 1 cpu, each labelled
slot=j, and pods of 100m that select one slot, ten per node, so every pod fits
exactly one node and every node ends exactly full. Then half the pods of slots
0-9 are deleted and as many new pods select those slots: they fit only if
the scheduler saw every deletion and counts nothing twice. So the pod -> node
map of any correct run is known in advance, and each disrupted run must end
with the same map as an uninterrupted run (which the first test checks too).

Disruptions:
- the API server started with --history 20 --watch-queue 4: a watcher that
  falls 4 events behind is cut off with 410, and a resume from a version more
  than 20 writes old gets 410, so the scheduler re-lists (and must diff) over
  and over while pods are created, bound and deleted;
- the API server restarted on the same port: its nodes and pods dumped, the
  server stopped, the pods "deleted while it was down" dropped from the dump,
  a new server started with --load of the dump (every object gets a new uid),
  then the new pods created. Twice: once with the new server's
  resourceVersions continuing above the old ones (filler ConfigMaps loaded
  first) and a short --history, as a real kube-apiserver restart looks to a
  client (resume -> 410 -> re-list); once with resourceVersions starting
  again below the scheduler's, as after an etcd restore.
"""
import json
import os
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import ApiServer  # noqa: E402
from scheduler_helpers import (Client, Scheduler, all_bound, capacity_violations, describe_pending,  # noqa: E402
                               free_port, make_node, make_pod, wait_for)

SLOTS = 20
PER_SLOT = 10
FIRST = ["a-%03d" % i for i in range(SLOTS * PER_SLOT)]  # a-i selects slot i % SLOTS
DELETED = [name for i, name in enumerate(FIRST) if i < 100 and i % SLOTS < 10]  # 5 on each of slots 0-9
SECOND = ["b-%02d" % k for k in range(len(DELETED))]  # b-k selects slot k % 10


def expected_placements():
    placed = {name: "slot-%02d" % (i % SLOTS) for i, name in enumerate(FIRST) if name not in DELETED}
    placed.update({name: "slot-%02d" % (k % 10) for k, name in enumerate(SECOND)})
    return placed


def nodes():
    return [make_node("slot-%02d" % j, cpu="1", memory="10Gi", labels={"slot": str(j)}) for j in range(SLOTS)]


def first_pods():
    return [make_pod(name, cpu="100m", memory="100Mi", node_selector={"slot": str(i % SLOTS)})
            for i, name in enumerate(FIRST)]


def second_pods():
    return [make_pod(name, cpu="100m", memory="100Mi", node_selector={"slot": str(k % 10)})
            for k, name in enumerate(SECOND)]


def relists(scheduler, resource="pods"):
    return scheduler.stderr().count("reflector %s: listed" % resource)


class ResilienceTest(unittest.TestCase):
    def start_server(self, *args, **kwargs):
        server = ApiServer(*args, **kwargs).start()
        self.addCleanup(server.stop)
        client = Client(server)
        self.addCleanup(client.close)
        return server, client

    def start_scheduler(self, server):
        scheduler = Scheduler(server.kubeconfig)
        self.addCleanup(scheduler.stop)
        return scheduler.start()

    def wait_all(self, client, scheduler, names, timeout, what):
        return wait_for(lambda: all_bound(client, names), timeout,
                        lambda: "%s; %s\n--- scheduler log ---\n%s" % (what, describe_pending(client),
                                                                       scheduler.stderr()[-4000:]))

    def final_check(self, client, scheduler):
        placed = client.placements("default")
        self.assertEqual(capacity_violations(client.nodes(), client.pods()), [])
        self.assertEqual(placed, expected_placements(), "\n--- scheduler log ---\n" + scheduler.stderr()[-3000:])
        self.assertTrue(scheduler.alive())
        return placed

    def churn(self, client):
        """Deletes DELETED and creates SECOND at the same time (new pods may
        come before the room they need, and must wait for it)."""
        errors = []

        def delete():
            try:
                for name in DELETED:
                    client.delete_pod(name)
            except Exception as e:  # noqa: BLE001 - re-raised below
                errors.append(e)
            finally:
                client._drop()

        deleter = threading.Thread(target=delete)
        deleter.start()
        client.create_all(second_pods(), threads=2)
        deleter.join(120)
        if errors:
            raise errors[0]

    def test_uninterrupted_run(self):
        server, client = self.start_server()
        client.create_all(nodes())
        scheduler = self.start_scheduler(server)
        client.create_all(first_pods())
        self.wait_all(client, scheduler, FIRST, 90, "first pods bound")
        self.churn(client)
        self.wait_all(client, scheduler, SECOND, 90, "second pods bound")
        self.final_check(client, scheduler)

    def test_cut_watches_and_expired_resumes(self):
        server, client = self.start_server("--history", "20", "--watch-queue", "4")
        client.create_all(nodes())
        scheduler = self.start_scheduler(server)
        client.create_all(first_pods())
        self.wait_all(client, scheduler, FIRST, 120, "first pods bound despite cut watches")
        self.churn(client)
        self.wait_all(client, scheduler, SECOND, 120, "second pods bound despite cut watches")
        self.final_check(client, scheduler)
        # The disruption did happen: the pods were re-listed after cut-offs.
        self.assertGreaterEqual(relists(scheduler), 2, scheduler.stderr()[-3000:])

    def restart(self, pad_resource_versions, server_args=()):
        """Runs the first pods, then replaces the API server by a new one on
        the same port loaded with a dump of the old one's nodes and pods minus
        DELETED (the pods deleted while it was down), then creates SECOND.
        pad_resource_versions: make the new server's resourceVersions continue
        above the old one's (as etcd keeps them across a kube-apiserver
        restart) by loading filler ConfigMaps first."""
        port = free_port()
        server, client = self.start_server("--listen", "127.0.0.1:%d" % port)
        client.create_all(nodes())
        scheduler = self.start_scheduler(server)
        client.create_all(first_pods())
        self.wait_all(client, scheduler, FIRST, 90, "first pods bound")

        old_version = int(client.ok("GET", "/api/v1/pods?limit=1")["metadata"]["resourceVersion"])
        items = client.nodes() + [p for p in client.pods() if p["metadata"]["name"] not in DELETED]
        for item in items:
            item["metadata"].pop("resourceVersion", None)
            item.setdefault("apiVersion", "v1")
            item.setdefault("kind", "Pod" if "containers" in item.get("spec", {}) else "Node")
        if pad_resource_versions:
            fillers = old_version + 100 - len(items)
            items = [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "filler-%05d" % i,
                                                                            "namespace": "default"}}
                     for i in range(fillers)] + items
        dump_dir = tempfile.mkdtemp(prefix="troupe-dump-")
        dump = os.path.join(dump_dir, "cluster.json")
        with open(dump, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
        self.addCleanup(lambda: (os.remove(dump), os.rmdir(dump_dir)))
        client.close()
        self.assertEqual(server.stop(), 0)

        time.sleep(2)  # the scheduler's watches fail and back off
        self.assertTrue(scheduler.alive())
        server, client = self.start_server("--listen", "127.0.0.1:%d" % port, *server_args, load=dump)
        self.assertEqual(len(client.pods()), len(FIRST) - len(DELETED))
        new_version = int(client.ok("GET", "/api/v1/pods?limit=1")["metadata"]["resourceVersion"])
        if pad_resource_versions:
            self.assertGreater(new_version, old_version)
        else:
            self.assertLess(new_version, old_version)
        client.create_all(second_pods(), threads=2)
        # The reflectors back off for a few seconds while the server is away.
        self.wait_all(client, scheduler, SECOND, 60, "second pods bound after the restart")
        self.final_check(client, scheduler)

    def test_api_server_restart(self):
        # Like a kube-apiserver restart: resourceVersions continue (etcd keeps
        # them) but the new watch cache holds no history back to the version
        # the scheduler watched from, so its resume gets 410 and it re-lists.
        # Every object also has a new uid (the loader assigns them).
        self.restart(pad_resource_versions=True, server_args=("--history", "50"))

    def test_api_server_restored_with_older_resource_versions(self):
        # Like an etcd restore: resourceVersions start again below the one
        # the scheduler watched from. A watch from a version the server has
        # not reached yet gets "Too large resource version" (504); client-go
        # answers any such watch error with a re-list.
        self.restart(pad_resource_versions=False)


if __name__ == "__main__":
    unittest.main()
