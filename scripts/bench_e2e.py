#!/usr/bin/env python3
"""End-to-end benchmark: `troupe scheduler` binding pods through `troupe apiserver`.

    python3 scripts/bench_e2e.py [--nodes 1000] [--pods 5000] [--runs 3] [--json]

Each run, on loopback:
  1. starts `troupe apiserver` and creates N nodes (raw HTTP, keep-alive, several threads);
  2. measures the API server's binding ceiling: a trivial client (several
     processes, one keep-alive connection each, so Python's GIL is not the
     limit) POSTs pods/NAME/binding as fast as it can for a separate set of
     pods (namespace "ceiling", addressed to no scheduler); then the same with
     a Scheduled event per binding, which is what the scheduler writes per pod;
  3. creates M pending pods (namespace "bench", schedulerName troupe-scheduler);
  4. starts `troupe scheduler` and watches the pods until all are bound,
     recording when each binding appeared; samples the scheduler's and the API
     server's CPU time from /proc/PID/stat and the scheduler's peak RSS (VmHWM);
  5. keeps watching the namespace's events until every pod's Scheduled event
     was written, and samples the scheduler's CPU time again (events may be
     written after the bindings: this is the whole job's cost).
Prints a table of the medians over the runs (and every run with --json).

The pods of the ceiling phase stay bound (they carry no requests), so the
scheduler's initial list holds them too, as a real cluster's would.
"""
import argparse
import http.client
import json
import multiprocessing
import os
import statistics
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "e2e"))
from helpers import ApiServer  # noqa: E402
from scheduler_helpers import Scheduler, make_node, make_pod, scheduler_config  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------
# raw HTTP


def connect(url, timeout=60):
    parsed = urllib.parse.urlparse(url)
    return http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=timeout)


def post_all(url, requests, counter=None):
    """POSTs (path, body) pairs over one keep-alive connection; raises on a non-2xx answer."""
    conn = connect(url)
    try:
        for path, body in requests:
            conn.request("POST", path, body, {"Content-Type": "application/json", "Accept": "application/json"})
            response = conn.getresponse()
            data = response.read()
            if response.status // 100 != 2:
                raise RuntimeError("POST %s -> %d: %s" % (path, response.status, data[:300]))
            if counter is not None:
                counter[0] += 1
    finally:
        conn.close()


def post_parallel(url, requests, threads):
    """Splits the requests over `threads` threads (creation is not what we measure)."""
    errors = []

    def work(chunk):
        try:
            post_all(url, chunk)
        except Exception as e:  # noqa: BLE001 - re-raised below
            errors.append(e)

    workers = [threading.Thread(target=work, args=(requests[i::threads],)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if errors:
        raise errors[0]


def create_objects(url, objects, threads):
    requests = []
    for obj in objects:
        if obj["kind"] == "Node":
            requests.append(("/api/v1/nodes", json.dumps(obj)))
        elif obj["kind"] == "Namespace":
            requests.append(("/api/v1/namespaces", json.dumps(obj)))
        else:
            requests.append(("/api/v1/namespaces/%s/pods" % obj["metadata"]["namespace"], json.dumps(obj)))
    started = time.monotonic()
    post_parallel(url, requests, threads)
    return len(requests) / (time.monotonic() - started)


def namespace(name):
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}


# --------------------------------------------------------------------------
# the binding ceiling


def binding_request(ns, pod, node):
    body = {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": pod, "namespace": ns},
            "target": {"apiVersion": "v1", "kind": "Node", "name": node}}
    return "/api/v1/namespaces/%s/pods/%s/binding" % (ns, pod), json.dumps(body)


def event_request(ns, pod, node):
    now = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())
    body = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
            "metadata": {"name": "%s.%x" % (pod, time.time_ns()), "namespace": ns},
            "eventTime": now, "reportingController": "bench", "reportingInstance": "bench-1",
            "action": "Binding", "reason": "Scheduled", "type": "Normal",
            "regarding": {"kind": "Pod", "namespace": ns, "name": pod, "apiVersion": "v1"},
            "note": "Successfully assigned %s/%s to %s" % (ns, pod, node)}
    return "/apis/events.k8s.io/v1/namespaces/%s/events" % ns, json.dumps(body)


def _ceiling_worker(url, jobs, with_events, start_at, results):
    requests = []
    for ns, pod, node in jobs:
        requests.append(binding_request(ns, pod, node))
        if with_events:
            requests.append(event_request(ns, pod, node))
    delay = start_at - time.time()
    if delay > 0:
        time.sleep(delay)
    began = time.time()
    post_all(url, requests)
    results.put((began, time.time(), len(jobs)))


def binding_ceiling(url, ns, pods, nodes, connections, with_events):
    """Bindings per second from `connections` processes, one keep-alive connection each."""
    jobs = [(ns, pod, nodes[i % len(nodes)]) for i, pod in enumerate(pods)]
    results = multiprocessing.Queue()
    start_at = time.time() + 0.5  # every process ready before the clock starts
    workers = [multiprocessing.Process(target=_ceiling_worker,
                                       args=(url, jobs[i::connections], with_events, start_at, results))
               for i in range(connections)]
    for w in workers:
        w.start()
    spans = [results.get(timeout=600) for _ in workers]
    for w in workers:
        w.join()
        if w.exitcode != 0:
            raise RuntimeError("a ceiling client failed")
    began = min(s[0] for s in spans)
    ended = max(s[1] for s in spans)
    return sum(s[2] for s in spans) / (ended - began)


# --------------------------------------------------------------------------
# watching bindings


class FirstSeenWatcher:
    """Watches a collection from a resourceVersion and records the time each
    name is first reported by `name_of(object)` (None: not yet), until
    `expected` names were seen."""

    def __init__(self, url, path, resource_version, expected, name_of):
        self.expected = expected
        self.name_of = name_of
        self.seen_at = {}
        self.done = threading.Event()
        self.error = None
        self.conn = connect(url, timeout=900)
        self.conn.request("GET", "%s?watch=1&resourceVersion=%s" % (path, resource_version))
        self.response = self.conn.getresponse()
        if self.response.status != 200:
            raise RuntimeError("watch %s -> %d" % (path, self.response.status))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            for line in self.response:
                event = json.loads(line)
                if event["type"] == "ERROR":
                    raise RuntimeError("watch ERROR: %s" % event["object"])
                name = self.name_of(event["object"])
                if name and name not in self.seen_at:
                    self.seen_at[name] = time.monotonic()
                    if len(self.seen_at) >= self.expected:
                        self.done.set()
                        return
        except Exception as e:  # noqa: BLE001 - reported by the caller
            self.error = e
            self.done.set()

    def close(self):
        self.conn.close()


def binding_watcher(url, ns, resource_version, expected):
    """When each pod of the namespace first shows a nodeName."""
    def bound_name(pod):
        return pod["metadata"]["name"] if pod.get("spec", {}).get("nodeName") else None
    return FirstSeenWatcher(url, "/api/v1/namespaces/%s/pods" % ns, resource_version, expected, bound_name)


def scheduled_event_watcher(url, ns, resource_version, expected):
    """When each pod's first Scheduled event (events.k8s.io/v1) appeared."""
    def scheduled_name(event):
        name = (event.get("regarding") or {}).get("name")
        return name if event.get("reason") == "Scheduled" else None
    return FirstSeenWatcher(url, "/apis/events.k8s.io/v1/namespaces/%s/events" % ns, resource_version, expected,
                            scheduled_name)


# --------------------------------------------------------------------------
# /proc


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14, 15)


def peak_rss_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


# --------------------------------------------------------------------------
# one run


def one_run(args, log):
    server = ApiServer(*args.apiserver_arg, ready_timeout=60).start()
    scheduler = None
    watcher = None
    event_watcher = None
    try:
        url = server.url
        nodes = [make_node("node-%05d" % i, cpu="64", memory="256Gi", pods=110) for i in range(args.nodes)]
        node_names = [n["metadata"]["name"] for n in nodes]
        rate = create_objects(url, [namespace("bench"), namespace("ceiling")] + nodes, args.create_threads)
        log("created %d nodes (%.0f objects/s)" % (args.nodes, rate))

        result = {"nodes": args.nodes, "pods": args.pods}
        for label, with_events in (("ceiling_bind_per_s", False), ("ceiling_bind_event_per_s", True)):
            prefix = "e" if with_events else "b"
            names = ["%s-%06d" % (prefix, i) for i in range(args.ceiling_pods)]
            create_objects(url, [make_pod(n, namespace="ceiling", scheduler="nobody") for n in names],
                           args.create_threads)
            result[label] = binding_ceiling(url, "ceiling", names, node_names, args.connections, with_events)
            log("%s: %.0f" % (label, result[label]))

        pods = [make_pod("p-%06d" % i, namespace="bench", cpu="100m", memory="128Mi") for i in range(args.pods)]
        rate = create_objects(url, pods, args.create_threads)
        log("created %d pending pods (%.0f pods/s)" % (args.pods, rate))

        conn = connect(url)
        conn.request("GET", "/api/v1/namespaces/bench/pods?limit=1")
        rv = json.loads(conn.getresponse().read())["metadata"]["resourceVersion"]
        conn.close()
        watcher = binding_watcher(url, "bench", rv, args.pods)
        conn = connect(url)
        conn.request("GET", "/apis/events.k8s.io/v1/namespaces/bench/events?limit=1")
        event_rv = json.loads(conn.getresponse().read())["metadata"]["resourceVersion"]
        conn.close()
        event_watcher = scheduled_event_watcher(url, "bench", event_rv, args.pods)

        config = scheduler_config(troupe={"bindConcurrency": args.bind_concurrency},
                                  extra={"clientConnection": {"qps": args.qps, "burst": args.burst}})
        scheduler = Scheduler(server.kubeconfig, config, log_level="warn")
        api_cpu0 = cpu_seconds(server.process.pid)
        started = time.monotonic()
        scheduler.start()
        if not watcher.done.wait(args.timeout):
            raise RuntimeError("only %d of %d pods bound after %d s" % (len(watcher.seen_at), args.pods,
                                                                       args.timeout))
        if watcher.error:
            raise watcher.error
        ended = time.monotonic()
        sched_cpu = cpu_seconds(scheduler.pid())  # everything since the process started
        api_cpu = cpu_seconds(server.process.pid) - api_cpu0
        times = sorted(watcher.seen_at.values())
        first, last = times[0], times[-1]
        result.update({
            "first_bound_s": first - started,
            "all_bound_s": last - started,
            "bound_per_s": (args.pods - 1) / (last - first) if last > first else float("inf"),
            "bound_per_s_from_start": args.pods / (ended - started),
            "scheduler_cpu_s": sched_cpu,
            "scheduler_cores": sched_cpu / (ended - started),
            "apiserver_cpu_s": api_cpu,
            "scheduler_peak_rss_mib": peak_rss_mib(scheduler.pid()),
        })
        result["bound_vs_ceiling"] = result["bound_per_s"] / result["ceiling_bind_per_s"]
        if not event_watcher.done.wait(args.timeout):
            raise RuntimeError("only %d of %d Scheduled events after %d s" % (len(event_watcher.seen_at), args.pods,
                                                                           args.timeout))
        if event_watcher.error:
            raise event_watcher.error
        result["all_events_s"] = max(event_watcher.seen_at.values()) - started
        result["scheduler_cpu_s_with_events"] = cpu_seconds(scheduler.pid())
        result["apiserver_cpu_s_with_events"] = cpu_seconds(server.process.pid) - api_cpu0
        result["scheduler_cpu_ms_per_pod"] = 1000.0 * result["scheduler_cpu_s_with_events"] / args.pods
        result["apiserver_cpu_ms_per_pod"] = 1000.0 * result["apiserver_cpu_s_with_events"] / args.pods
        log("bound %d pods in %.2f s after the first (%.0f pods/s)" % (args.pods, last - first,
                                                                       result["bound_per_s"]))
        return result
    finally:
        if watcher:
            watcher.close()
        if event_watcher:
            event_watcher.close()
        if scheduler:
            scheduler.stop()
        server.stop()


ROWS = [
    ("nodes", "nodes", "%d"),
    ("pods", "pending pods", "%d"),
    ("ceiling_bind_per_s", "API server ceiling: bindings/s", "%.0f"),
    ("ceiling_bind_event_per_s", "API server ceiling: binding+event/s", "%.0f"),
    ("first_bound_s", "first pod bound after start (s)", "%.2f"),
    ("all_bound_s", "all pods bound after start (s)", "%.2f"),
    ("bound_per_s", "bound/s (first to last binding)", "%.0f"),
    ("bound_per_s_from_start", "bound/s (from process start)", "%.0f"),
    ("bound_vs_ceiling", "bound/s / binding ceiling", "%.2f"),
    ("scheduler_cpu_s", "scheduler CPU (s)", "%.2f"),
    ("scheduler_cores", "scheduler cores used", "%.2f"),
    ("apiserver_cpu_s", "API server CPU meanwhile (s)", "%.2f"),
    ("scheduler_peak_rss_mib", "scheduler peak RSS (MiB)", "%.1f"),
    ("all_events_s", "all Scheduled events written after start (s)", "%.2f"),
    ("scheduler_cpu_s_with_events", "scheduler CPU incl. events (s)", "%.2f"),
    ("apiserver_cpu_s_with_events", "API server CPU incl. events (s)", "%.2f"),
    ("scheduler_cpu_ms_per_pod", "scheduler CPU ms per pod (incl. events)", "%.3f"),
    ("apiserver_cpu_ms_per_pod", "API server CPU ms per pod (incl. events)", "%.3f"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--pods", type=int, default=5000)
    parser.add_argument("--ceiling-pods", type=int, default=None, help="pods per ceiling measurement (default --pods)")
    parser.add_argument("--connections", type=int, default=4, help="ceiling client connections (processes)")
    parser.add_argument("--create-threads", type=int, default=6)
    parser.add_argument("--bind-concurrency", type=int, default=16, help="the scheduler's troupe.bindConcurrency")
    parser.add_argument("--qps", type=float, default=5000, help="the scheduler's clientConnection.qps")
    parser.add_argument("--burst", type=int, default=10000, help="the scheduler's clientConnection.burst")
    parser.add_argument("--apiserver-arg", action="append", default=[], help="extra flag for troupe apiserver")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=600, help="seconds to wait for all pods to bind")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = parser.parse_args()
    if args.ceiling_pods is None:
        args.ceiling_pods = args.pods
    log = (lambda m: print(m, file=sys.stderr, flush=True))

    runs = []
    for i in range(args.runs):
        log("--- run %d of %d" % (i + 1, args.runs))
        runs.append(one_run(args, log))
    median = {key: statistics.median(r[key] for r in runs) for key, _, _ in ROWS}
    if args.json:
        print(json.dumps({"median": median, "runs": runs, "settings": {
            "connections": args.connections, "bind_concurrency": args.bind_concurrency, "qps": args.qps,
            "burst": args.burst, "ceiling_pods": args.ceiling_pods, "cpus": os.cpu_count()}}, indent=2))
        return
    print("%-40s %12s%s" % ("", "median" if args.runs > 1 else "",
                            "".join("%10s" % ("run %d" % (i + 1)) for i in range(args.runs)) if args.runs > 1 else ""))
    for key, label, fmt in ROWS:
        line = "%-40s %12s" % (label, fmt % median[key])
        if args.runs > 1:
            line += "".join("%10s" % (fmt % r[key]) for r in runs)
        print(line)


if __name__ == "__main__":
    main()
