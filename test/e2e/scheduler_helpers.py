"""Helpers for end-to-end tests of `troupe scheduler` against `troupe apiserver`.

    from scheduler_helpers import Cluster, all_bound, make_node, make_pod

    class MyTest(unittest.TestCase):
        def test_it(self):
            cluster = Cluster(self)                    # troupe apiserver + Client; stopped at cleanup
            cluster.client.create_all([make_node("n1", cpu="4", memory="8Gi")])
            scheduler = cluster.start_scheduler()      # troupe scheduler with scheduler_config()
            cluster.client.create(make_pod("p1", cpu="500m"))
            cluster.wait(lambda: all_bound(cluster.client, ["p1"]), 30, "p1 bound")
            scheduler.metric("scheduler_schedule_attempts_total", profile="troupe-scheduler", result="scheduled")

Every process gets its own temporary directory and is killed when its `with`
block ends (SIGTERM, then SIGKILL), so a failing test never leaves processes
behind. Nothing here sleeps for a fixed time: waits poll a condition until a
deadline and fail with a message that says what was awaited.
"""
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import unittest
import threading
import time

import yaml

from helpers import ApiServer, troupe_binary

SCHEDULER_NAME = "troupe-scheduler"
DEFAULT_NS = "default"


# --------------------------------------------------------------------------
# Waiting


def wait_for(predicate, timeout, what, interval=0.1):
    """Polls `predicate` until it returns something truthy (which is returned).
    Raises AssertionError naming `what` (a string or a callable giving the
    message, e.g. with the last state seen) when `timeout` seconds pass."""
    deadline = time.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.time() >= deadline:
            message = what() if callable(what) else what
            raise AssertionError("timed out after %.0f s waiting for: %s" % (timeout, message))
        time.sleep(interval)


def free_port():
    """A port nothing listens on right now (for servers that must reuse one)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------------------
# Quantities and capacity


_SUFFIXES = {
    "": 1, "m": 10 ** -3, "k": 10 ** 3, "M": 10 ** 6, "G": 10 ** 9, "T": 10 ** 12, "P": 10 ** 15, "E": 10 ** 18,
    "Ki": 2 ** 10, "Mi": 2 ** 20, "Gi": 2 ** 30, "Ti": 2 ** 40, "Pi": 2 ** 50, "Ei": 2 ** 60,
}
_QUANTITY = re.compile(r"^([+-]?[0-9.]+)([eE][+-]?[0-9]+|[a-zA-Z]*)$")


def parse_quantity(text):
    """A Kubernetes quantity as a float in base units ("500m" -> 0.5, "1Gi" -> 1073741824)."""
    if isinstance(text, (int, float)):
        return float(text)
    match = _QUANTITY.match(str(text).strip())
    if not match:
        raise ValueError("not a quantity: %r" % text)
    number, suffix = match.groups()
    if suffix[:1] in ("e", "E"):
        return float(number) * 10 ** int(suffix[1:])
    if suffix not in _SUFFIXES:
        raise ValueError("not a quantity: %r" % text)
    return float(number) * _SUFFIXES[suffix]


def pod_requests(pod):
    """Effective requests of a pod as kube-scheduler computes them: the sum over
    containers, at least the largest init container, plus overhead."""
    spec = pod.get("spec", {})
    total = {}
    for container in spec.get("containers", []):
        for name, value in container.get("resources", {}).get("requests", {}).items():
            total[name] = total.get(name, 0.0) + parse_quantity(value)
    for container in spec.get("initContainers", []):
        for name, value in container.get("resources", {}).get("requests", {}).items():
            total[name] = max(total.get(name, 0.0), parse_quantity(value))
    for name, value in (spec.get("overhead") or {}).items():
        total[name] = total.get(name, 0.0) + parse_quantity(value)
    return total


def capacity_violations(nodes, pods):
    """For every node: the sum of its bound pods' requests must not exceed its
    allocatable, and the pod count must not exceed allocatable pods. Returns
    a list of human-readable violations (empty when all is well)."""
    used = {}
    for pod in pods:
        node = pod.get("spec", {}).get("nodeName")
        if not node or pod.get("status", {}).get("phase") in ("Succeeded", "Failed"):
            continue
        entry = used.setdefault(node, {"pods": 0.0})
        entry["pods"] += 1
        for name, value in pod_requests(pod).items():
            entry[name] = entry.get(name, 0.0) + value
    problems = []
    by_name = {n["metadata"]["name"]: n for n in nodes}
    for node_name, entry in sorted(used.items()):
        node = by_name.get(node_name)
        if node is None:
            problems.append("%d pod(s) bound to unknown node %s" % (entry["pods"], node_name))
            continue
        allocatable = {k: parse_quantity(v) for k, v in node.get("status", {}).get("allocatable", {}).items()}
        for name, value in sorted(entry.items()):
            limit = allocatable.get(name, 0.0)
            if value > limit + 1e-9:
                problems.append("node %s: %s requested %g > allocatable %g" % (node_name, name, value, limit))
    return problems


# --------------------------------------------------------------------------
# Objects


def make_node(name, cpu="4", memory="8Gi", pods=110, labels=None, taints=None, unschedulable=False, extra=None):
    """A Ready node with the given allocatable (= capacity)."""
    resources = {"cpu": str(cpu), "memory": str(memory), "pods": str(pods)}
    resources.update(extra or {})
    node = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": dict({"kubernetes.io/hostname": name}, **(labels or {}))},
        "spec": {},
        "status": {
            "capacity": dict(resources),
            "allocatable": dict(resources),
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}],
        },
    }
    if taints:
        node["spec"]["taints"] = taints
    if unschedulable:
        node["spec"]["unschedulable"] = True
    return node


def taint(key, value="", effect="NoSchedule"):
    return {"key": key, "value": value, "effect": effect}


def toleration(key, value=None, effect=None, operator=None):
    t = {"key": key}
    if value is not None:
        t["value"] = value
        t["operator"] = operator or "Equal"
    else:
        t["operator"] = operator or "Exists"
    if effect:
        t["effect"] = effect
    return t


def make_pod(name, cpu=None, memory=None, scheduler=SCHEDULER_NAME, namespace=DEFAULT_NS, node_selector=None,
             affinity=None, tolerations=None, host_ports=None, node_name=None, labels=None, priority=None,
             extra_requests=None):
    """A pod for the scheduler. scheduler=None leaves spec.schedulerName out
    (the API server then defaults it to default-scheduler)."""
    requests = {}
    if cpu is not None:
        requests["cpu"] = str(cpu)
    if memory is not None:
        requests["memory"] = str(memory)
    requests.update(extra_requests or {})
    container = {"name": "c", "image": "busybox"}
    if requests:
        container["resources"] = {"requests": requests}
    if host_ports:
        container["ports"] = [{"containerPort": p, "hostPort": p, "protocol": "TCP"} for p in host_ports]
    spec = {"containers": [container]}
    if scheduler is not None:
        spec["schedulerName"] = scheduler
    if node_selector:
        spec["nodeSelector"] = node_selector
    if affinity:
        spec["affinity"] = affinity
    if tolerations:
        spec["tolerations"] = tolerations
    if node_name:
        spec["nodeName"] = node_name
    if priority is not None:
        spec["priority"] = priority
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": labels or {}},
        "spec": spec,
    }


def required_node_affinity(*terms):
    """terms: lists of (key, operator, values) expressions; terms are ORed."""
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": k, "operator": op, "values": list(v)} if v is not None
                              else {"key": k, "operator": op} for k, op, v in term]}
        for term in terms]}}}


def preferred_node_affinity(*weighted):
    """weighted: (weight, [(key, operator, values), ...]) pairs."""
    return {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": w, "preference": {"matchExpressions": [{"key": k, "operator": op, "values": list(v)}
                                                          for k, op, v in exprs]}}
        for w, exprs in weighted]}}


def condition(pod, kind="PodScheduled"):
    for c in pod.get("status", {}).get("conditions", []) or []:
        if c.get("type") == kind:
            return c
    return None


# --------------------------------------------------------------------------
# HTTP client


DEVICES_PATH = "/apis/scheduling.koordinator.sh/v1alpha1/devices"
TOPOLOGIES_PATH = "/apis/topology.node.k8s.io/v1alpha1/noderesourcetopologies"
# Namespaced collections of the objects whose selectors PodTopologySpread's default constraints read.
STORAGE_PATHS = {
    "PersistentVolumeClaim": "/api/v1/namespaces/{ns}/persistentvolumeclaims",
    "PersistentVolume": "/api/v1/persistentvolumes",
    "StorageClass": "/apis/storage.k8s.io/v1/storageclasses",
    "CSINode": "/apis/storage.k8s.io/v1/csinodes",
    "CSIDriver": "/apis/storage.k8s.io/v1/csidrivers",
    "CSIStorageCapacity": "/apis/storage.k8s.io/v1/namespaces/{ns}/csistoragecapacities",
}
QUOTAS_PATH = "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/%s/elasticquotas"
WORKLOAD_PATHS = {
    "Service": "/api/v1/namespaces/%s/services",
    "ReplicationController": "/api/v1/namespaces/%s/replicationcontrollers",
    "ReplicaSet": "/apis/apps/v1/namespaces/%s/replicasets",
    "StatefulSet": "/apis/apps/v1/namespaces/%s/statefulsets",
}


class Client:
    """A keep-alive JSON client for a troupe apiserver, one connection per
    thread (http.client connections are not thread-safe). Follows the server
    across restarts on the same URL: a dropped connection is reopened once."""

    def __init__(self, server, timeout=30):
        self.server = server
        self.timeout = timeout
        self.local = threading.local()
        self.lock = threading.Lock()
        self.open = set()  # every connection of every thread, for close()

    def _connection(self):
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.server.connection(timeout=self.timeout)
            self.local.conn = conn
            with self.lock:
                self.open.add(conn)
        return conn

    def _drop(self):
        conn = getattr(self.local, "conn", None)
        if conn is not None:
            conn.close()
            with self.lock:
                self.open.discard(conn)
        self.local.conn = None

    def close(self):
        with self.lock:
            for conn in self.open:
                conn.close()
            self.open.clear()

    def request(self, method, path, body=None, content_type="application/json", retry=True):
        """Returns (status, parsed JSON or text)."""
        headers = {"Accept": "application/json"}
        if self.server.token:
            headers["Authorization"] = "Bearer " + self.server.token
        if body is not None:
            if not isinstance(body, (str, bytes)):
                body = json.dumps(body)
            headers["Content-Type"] = content_type
        try:
            conn = self._connection()
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
        except (http.client.HTTPException, OSError):
            self._drop()
            if not retry:
                raise
            return self.request(method, path, body, content_type, retry=False)
        if response.getheader("Connection", "").lower() == "close":
            self._drop()
        try:
            return response.status, json.loads(data)
        except ValueError:
            return response.status, data.decode(errors="replace")

    def ok(self, method, path, body=None, content_type="application/json"):
        """request() that raises unless the answer is 2xx; returns the body."""
        status, parsed = self.request(method, path, body, content_type)
        if status // 100 != 2:
            raise AssertionError("%s %s -> %d: %s" % (method, path, status, parsed))
        return parsed

    # --- collections ---

    def create(self, obj):
        kind = obj["kind"]
        if kind == "Node":
            return self.ok("POST", "/api/v1/nodes", obj)
        if kind == "Pod":
            ns = obj["metadata"].get("namespace", DEFAULT_NS)
            return self.ok("POST", "/api/v1/namespaces/%s/pods" % ns, obj)
        if kind == "Device":
            return self.ok("POST", DEVICES_PATH, obj)
        if kind == "NodeResourceTopology":
            return self.ok("POST", TOPOLOGIES_PATH, obj)
        if kind == "ElasticQuota":
            return self.ok("POST", QUOTAS_PATH % obj["metadata"].get("namespace", DEFAULT_NS), obj)
        if kind in WORKLOAD_PATHS:
            ns = obj["metadata"].get("namespace", DEFAULT_NS)
            return self.ok("POST", WORKLOAD_PATHS[kind] % ns, obj)
        if kind in STORAGE_PATHS:
            ns = obj["metadata"].get("namespace", DEFAULT_NS)
            return self.ok("POST", STORAGE_PATHS[kind].replace("{ns}", ns), obj)
        raise ValueError("create() knows nodes, pods, devices, node resource topologies, elastic quotas, "
                         "services, controllers and storage objects, not %s" % kind)

    def create_all(self, objects, threads=4):
        """Creates objects in parallel over `threads` keep-alive connections."""
        objects = list(objects)
        errors = []

        def work(chunk):
            try:
                for obj in chunk:
                    self.create(obj)
            except Exception as e:  # noqa: BLE001 - re-raised below
                errors.append(e)
            finally:
                self._drop()

        chunks = [objects[i::threads] for i in range(threads)]
        workers = [threading.Thread(target=work, args=(c,)) for c in chunks if c]
        for w in workers:
            w.start()
        for w in workers:
            w.join(120)
        if errors:
            raise errors[0]

    def nodes(self):
        return self.ok("GET", "/api/v1/nodes")["items"]

    def pods(self, namespace=None):
        path = "/api/v1/pods" if namespace is None else "/api/v1/namespaces/%s/pods" % namespace
        return self.ok("GET", path)["items"]

    def pod(self, name, namespace=DEFAULT_NS):
        status, parsed = self.request("GET", "/api/v1/namespaces/%s/pods/%s" % (namespace, name))
        return parsed if status == 200 else None

    def delete_pod(self, name, namespace=DEFAULT_NS):
        return self.ok("DELETE", "/api/v1/namespaces/%s/pods/%s" % (namespace, name))

    def bind(self, name, node, namespace=DEFAULT_NS):
        body = {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": name, "namespace": namespace},
                "target": {"apiVersion": "v1", "kind": "Node", "name": node}}
        return self.ok("POST", "/api/v1/namespaces/%s/pods/%s/binding" % (namespace, name), body)

    def placements(self, namespace=None):
        """{pod name (namespace/name when namespace is None): node name or None}."""
        out = {}
        for pod in self.pods(namespace):
            meta = pod["metadata"]
            key = meta["name"] if namespace is not None else meta["namespace"] + "/" + meta["name"]
            out[key] = pod.get("spec", {}).get("nodeName") or None
        return out

    def events_about(self, pod_name, namespace=DEFAULT_NS):
        """Events regarding a pod, as dicts with api, reason, type, message,
        controller. Both event APIs show one set of events: read through
        events.k8s.io/v1, or core/v1 where that API is not served."""
        found = []
        status, body = self.request("GET", "/apis/events.k8s.io/v1/namespaces/%s/events" % namespace)
        if status == 200:
            for e in body.get("items", []):
                if (e.get("regarding") or {}).get("name") == pod_name:
                    found.append({"api": "events.k8s.io/v1", "reason": e.get("reason"), "type": e.get("type"),
                                  "message": e.get("note"), "controller": e.get("reportingController"),
                                  "uid": (e.get("regarding") or {}).get("uid")})
            return found
        status, body = self.request("GET", "/api/v1/namespaces/%s/events" % namespace)
        if status == 200:
            for e in body.get("items", []):
                if (e.get("involvedObject") or {}).get("name") == pod_name:
                    found.append({"api": "v1", "reason": e.get("reason"), "type": e.get("type"),
                                  "message": e.get("message"),
                                  "controller": e.get("reportingComponent") or (e.get("source") or {}).get("component"),
                                  "uid": (e.get("involvedObject") or {}).get("uid")})
        return found


class PodHistory(threading.Thread):
    """What a watch of the default namespace's pods saw, per pod name, in
    order: `seen(pod)` of each event's pod, unless it is None. A poll can miss
    a state that the next write replaces; the watch does not."""

    def __init__(self, client, seen):
        super().__init__(daemon=True)
        self.seen = seen
        self.conn = client.server.connection(timeout=120)
        headers = {"Accept": "application/json"}
        if client.server.token:
            headers["Authorization"] = "Bearer " + client.server.token
        self.conn.request("GET", "/api/v1/namespaces/%s/pods?watch=true" % DEFAULT_NS, headers=headers)
        self.response = self.conn.getresponse()
        self.lock = threading.Lock()
        self.history = {}
        self.start()

    def run(self):
        try:
            for line in self.response:
                pod = json.loads(line).get("object") or {}
                value = self.seen(pod)
                if value is not None:
                    with self.lock:
                        self.history.setdefault(pod["metadata"]["name"], []).append(value)
        except (OSError, ValueError):
            pass  # closed at the end of the test

    def of(self, name):
        with self.lock:
            return list(self.history.get(name, []))

    def close(self):
        self.conn.close()


def all_bound(client, names, namespace=DEFAULT_NS):
    """The placements once every pod in `names` is bound, else None (for wait_for)."""
    placed = client.placements(namespace)
    if all(placed.get(n) for n in names):
        return placed
    return None


def describe_pending(client, namespace=DEFAULT_NS, limit=5):
    """A few unbound pods with their PodScheduled message: for failure messages."""
    lines = []
    pods = [p for p in client.pods(namespace) if not p.get("spec", {}).get("nodeName")]
    for pod in pods[:limit]:
        c = condition(pod) or {}
        lines.append("%s: %s" % (pod["metadata"]["name"], c.get("message", "no PodScheduled condition")))
    return "%d pod(s) unbound; %s" % (len(pods), "; ".join(lines))


# --------------------------------------------------------------------------
# Scheduler configuration


def profile(name=SCHEDULER_NAME, plugins=None, plugin_config=None, percentage=None):
    p = {"schedulerName": name}
    if plugins is not None:
        p["plugins"] = plugins
    if plugin_config is not None:
        p["pluginConfig"] = plugin_config
    if percentage is not None:
        p["percentageOfNodesToScore"] = percentage
    return p


def fit_strategy(kind, cpu_weight=1, memory_weight=1):
    """pluginConfig entry for NodeResourcesFit's scoring strategy."""
    resources = [{"name": "cpu", "weight": cpu_weight}, {"name": "memory", "weight": memory_weight}]
    return {"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": kind, "resources": resources}}}


def scheduler_config(profiles=None, leader_elect=False, lease=None, initial_backoff=1, max_backoff=10, troupe=None,
                     extra=None):
    """A KubeSchedulerConfiguration as a dict. `lease` = (duration, renewDeadline,
    retryPeriod) strings for leader election, e.g. ("2s", "1500ms", "500ms")."""
    config = {
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "kind": "KubeSchedulerConfiguration",
        "podInitialBackoffSeconds": initial_backoff,
        "podMaxBackoffSeconds": max_backoff,
        "leaderElection": {"leaderElect": leader_elect},
        "profiles": profiles or [profile()],
    }
    if lease:
        config["leaderElection"].update({"leaseDuration": lease[0], "renewDeadline": lease[1],
                                         "retryPeriod": lease[2], "resourceNamespace": "kube-system",
                                         "resourceName": "troupe-scheduler"})
    if troupe:
        config["troupe"] = troupe
    config.update(extra or {})
    return config


# --------------------------------------------------------------------------
# The scheduler process


class Scheduler:
    """A `troupe scheduler` process. The kubeconfig is copied into the
    scheduler's own directory, so the API server may be stopped and restarted
    (on the same URL) under it."""

    READY_LINE = re.compile(r"troupe scheduler running; metrics on port (\d+)")
    EXTENDER_LINE = re.compile(r"troupe scheduler extender on port (\d+)")

    def __init__(self, kubeconfig, config=None, log_level="info", extra_args=(), start_timeout=60):
        self.dir = tempfile.mkdtemp(prefix="troupe-scheduler-")
        self.kubeconfig = os.path.join(self.dir, "kubeconfig")
        shutil.copyfile(kubeconfig, self.kubeconfig)
        self.config_path = os.path.join(self.dir, "config.yaml")
        with open(self.config_path, "w") as f:
            f.write(config if isinstance(config, str) else yaml.safe_dump(config or scheduler_config()))
        self.log_level = log_level
        self.extra_args = list(extra_args)
        self.start_timeout = start_timeout
        self.log_path = os.path.join(self.dir, "stderr.log")
        self.process = None
        self.port = None
        self.extender_port = None  # with --extender-bind-address
        self.log = None

    def start(self):
        args = [troupe_binary(), "scheduler", "--config", self.config_path, "--kubeconfig", self.kubeconfig,
                "--metrics-bind-address", "127.0.0.1:0", "--log-level", self.log_level] + self.extra_args
        # spdlog writes to stdout: one pipe for both streams, drained by a
        # thread into the log file (an undrained pipe would block the process).
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        errors="replace")
        started = threading.Event()
        self.reader = threading.Thread(target=self._drain, args=(self.process.stdout, self.log, started), daemon=True)
        self.reader.start()
        deadline = time.time() + self.start_timeout
        while time.time() < deadline and not started.is_set() and self.process.poll() is None:
            started.wait(0.1)
        if self.port is not None:
            return self
        code = self.process.poll()
        self.stop(cleanup=False)
        log = self.stderr()
        shutil.rmtree(self.dir, ignore_errors=True)
        raise RuntimeError("troupe scheduler did not start (exit %s):\n%s" % (code, log[-3000:]))

    def _drain(self, stream, log, started):
        for line in stream:
            log.write(line)
            log.flush()
            if self.extender_port is None:
                match = self.EXTENDER_LINE.search(line)
                if match:
                    self.extender_port = int(match.group(1))
            if self.port is None:
                match = self.READY_LINE.search(line)
                if match:
                    self.port = int(match.group(1))
                    started.set()

    def pid(self):
        return self.process.pid

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def wait_logged(self, text, timeout=10):
        """Waits until the process has written `text`: its log reaches the file
        through a pipe and a reader thread, so it may lag what the process
        already shows elsewhere (its metrics, the API server's objects)."""
        return wait_for(lambda: text in self.stderr(), timeout,
                        lambda: "%r in the log:\n%s" % (text, self.stderr()[-3000:]))

    def stderr(self):
        """Everything the process wrote (stdout and stderr)."""
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def kill(self):
        """SIGKILL: the process gets no chance to release its lease."""
        if self.alive():
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self, cleanup=True):
        """SIGTERM, SIGKILL after 10 s. Returns the exit code."""
        code = None
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            code = self.process.returncode
            self.reader.join(10)  # EOF once the process is gone
            if self.process.stdout:
                self.process.stdout.close()
        if self.log:
            self.log.close()
            self.log = None
        if cleanup:
            shutil.rmtree(self.dir, ignore_errors=True)
        return code

    def __enter__(self):
        return self.start()

    def __exit__(self, exc_type, *exc):
        if exc_type is not None and os.environ.get("TROUPE_E2E_VERBOSE"):
            print("--- scheduler log (last 4000 chars) ---\n" + self.stderr()[-4000:])
        self.stop()

    # --- its HTTP endpoint ---

    def get(self, path, timeout=10):
        """(status, body text) of GET path on the metrics port."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            return response.status, response.read().decode(errors="replace")
        finally:
            conn.close()

    def metrics(self):
        status, text = self.get("/metrics")
        if status != 200:
            raise AssertionError("/metrics -> %d: %s" % (status, text))
        return parse_metrics(text)

    def metric(self, name, **labels):
        """The value of one series (0 if absent)."""
        return metric_value(self.metrics(), name, **labels)

    def wait_ready(self, timeout=30):
        wait_for(lambda: self.get("/readyz")[0] == 200, timeout, "scheduler /readyz 200\n" + self.stderr()[-2000:])


def parse_metrics(text):
    """Prometheus text format -> {(name, ((label, value), ...)): float}."""
    out = {}
    series = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)')
    label = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = series.match(line)
        if not match:
            raise AssertionError("unparseable metrics line: %r" % line)
        labels = tuple(sorted(label.findall(match.group(3) or "")))
        out[(match.group(1), labels)] = float(match.group(4))
    return out


def metric_value(metrics, name, **labels):
    wanted = tuple(sorted(labels.items()))
    return metrics.get((name, wanted), 0.0)


def metric_sum(metrics, name, **labels):
    """Sum over every series of `name` whose labels include `labels`."""
    total = 0.0
    for (n, series_labels), value in metrics.items():
        if n == name and all(dict(series_labels).get(k) == v for k, v in labels.items()):
            total += value
    return total


# --------------------------------------------------------------------------
# Cluster fixture


class Cluster:
    """An API server, a client for it and (started by start_scheduler) one or
    more schedulers; everything is stopped by close(). For unittest:

        def setUp(self):
            self.cluster = Cluster(self)   # registers its own cleanup
    """

    def __init__(self, test_case=None, *server_args, **server_kwargs):
        self.server = ApiServer(*server_args, **server_kwargs).start()
        self.client = Client(self.server)
        self.schedulers = []
        if test_case is not None:
            test_case.addCleanup(self.close)

    def start_scheduler(self, config=None, **kwargs):
        scheduler = Scheduler(self.server.kubeconfig, config, **kwargs)
        self.schedulers.append(scheduler)
        return scheduler.start()

    def wait(self, predicate, timeout, what, interval=0.1):
        """wait_for() whose failure message ends with the processes' logs."""
        def message():
            text = what() if callable(what) else what
            return text + "\n" + self.logs()
        return wait_for(predicate, timeout, message, interval)

    def logs(self):
        parts = []
        for i, s in enumerate(self.schedulers):
            parts.append("--- scheduler %d log ---\n%s" % (i, s.stderr()[-3000:]))
        parts.append("--- apiserver log ---\n%s" % self.server.stderr()[-1500:])
        return "\n".join(parts)

    def close(self):
        self.client.close()
        for s in self.schedulers:
            s.stop()
        self.server.stop()


# --------------------------------------------------------------------------
# A test case with one cluster and one scheduler


def fast_config():
    """The default profile with a client fast enough for hundreds of pods."""
    return scheduler_config(profiles=[profile()], extra={"clientConnection": {"qps": 2000, "burst": 2000}})


class SchedulingTest(unittest.TestCase):
    """An API server per test (self.cluster, self.client); start() adds the
    objects and a scheduler; the helpers wait for placements and verdicts."""

    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client

    def start(self, objects, config=None):
        self.client.create_all(objects)
        self.scheduler = self.cluster.start_scheduler(config or fast_config())
        self.scheduler.wait_ready()

    def place(self, pods, timeout=60):
        """Creates the pods and waits until all are bound; returns name -> pod."""
        self.client.create_all(pods, threads=2)
        names = [p["metadata"]["name"] for p in pods]
        self.cluster.wait(lambda: all_bound(self.client, names), timeout,
                          lambda: "%d pods bound; %s" % (len(names), describe_pending(self.client)))
        return {n: self.client.pod(n) for n in names}

    def place_one(self, pod, timeout=60):
        return self.place([pod], timeout)[pod["metadata"]["name"]]

    def unschedulable_message(self, name, timeout=30):
        """Waits for PodScheduled=False on the pod; returns its message."""
        c = self.cluster.wait(lambda: (condition(self.client.pod(name) or {}) or {}).get("status") == "False"
                              and condition(self.client.pod(name)), timeout, name + " marked unschedulable")
        self.assertIsNone(self.client.pod(name)["spec"].get("nodeName"))
        return c["message"]

    def create_unschedulable(self, pod, timeout=30):
        """Creates the pod and returns the message of its PodScheduled=False."""
        self.client.create(pod)
        return self.unschedulable_message(pod["metadata"]["name"], timeout)

    def settle(self, names, timeout=180):
        """Waits until every pod is bound or marked unschedulable."""
        def settled():
            pods = {p["metadata"]["name"]: p for p in self.client.pods()}
            return all(n in pods and (pods[n]["spec"].get("nodeName") or
                                      (condition(pods[n]) or {}).get("status") == "False") for n in names)
        self.cluster.wait(settled, timeout, lambda: describe_pending(self.client))
