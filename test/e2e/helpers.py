"""Helpers for end-to-end tests that start `troupe apiserver` as a real process.

Usage:
    from helpers import ApiServer, kubectl
    with ApiServer() as server:               # listens on 127.0.0.1:0
        server.url, server.kubeconfig         # read from stdout / the written kubeconfig
        kubectl(server, "get", "pods")

Every server gets its own temporary directory (kubeconfig, stderr log) and is
killed when the `with` block ends, so tests can run in parallel.
"""
import http.client
import json
import os
import select
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("TROUPE_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
MANIFESTS = os.path.join(HERE, "manifests")


def troupe_binary():
    """The troupe executable: $TROUPE, else the usual build directories."""
    if os.environ.get("TROUPE"):
        return os.environ["TROUPE"]
    for build in ("build", "build-apiserver"):
        candidate = os.path.join(SOURCE_DIR, build, "troupe")
        if os.path.exists(candidate):
            return candidate
    raise RuntimeError("set TROUPE to the troupe binary")


class ApiServer:
    """A `troupe apiserver` process on a free port."""

    def __init__(self, *extra_args, tls=False, token=None, load=None, ready_timeout=30):
        self.extra_args = list(extra_args)
        self.tls = tls
        self.token = token
        self.load = load
        self.ready_timeout = ready_timeout
        self.process = None
        self.url = None
        self.dir = tempfile.mkdtemp(prefix="troupe-apiserver-")
        self.kubeconfig = os.path.join(self.dir, "kubeconfig")
        self.log_path = os.path.join(self.dir, "stderr.log")

    def start(self):
        args = [troupe_binary(), "apiserver", "--listen", "127.0.0.1:0", "--write-kubeconfig", self.kubeconfig]
        if self.tls:
            args.append("--tls")
        if self.token:
            args += ["--token", self.token]
        if self.load:
            args += ["--load", self.load]
        args += self.extra_args
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, text=True)
        deadline = time.time() + self.ready_timeout
        line = ""
        while time.time() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                line = self.process.stdout.readline().strip()
                break
            if self.process.poll() is not None:
                break
        if not line.startswith("http"):
            self.stop()
            raise RuntimeError("troupe apiserver did not start: %r\n%s" % (line, self.stderr()))
        self.url = line
        if not os.path.exists(self.kubeconfig):
            self.stop()
            raise RuntimeError("troupe apiserver printed its URL before writing the kubeconfig")
        return self

    def stderr(self):
        try:
            with open(self.log_path) as f:
                return f.read()
        except OSError:
            return ""

    def stop(self):
        """SIGTERM, then SIGKILL if it does not exit within 10 s. Returns the exit code."""
        code = None
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                code = self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                code = self.process.wait()
        elif self.process is not None:
            code = self.process.returncode
        if self.process is not None and self.process.stdout:
            self.process.stdout.close()
        if getattr(self, "log", None):
            self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)
        return code

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # --- raw HTTP, for tests of error bodies and the wire format ---

    def connection(self, timeout=30):
        parsed = urllib.parse.urlparse(self.url)
        if parsed.scheme == "https":
            context = ssl.create_default_context(cadata=self.ca_pem())
            return http.client.HTTPSConnection(parsed.hostname, parsed.port, timeout=timeout, context=context)
        return http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=timeout)

    def ca_pem(self):
        """The CA from the written kubeconfig (certificate-authority-data), or None."""
        import base64
        import re
        with open(self.kubeconfig) as f:
            match = re.search(r"certificate-authority-data:\s*(\S+)", f.read())
        return base64.b64decode(match.group(1)).decode() if match else None

    def request(self, method, path, body=None, content_type="application/json", headers=None):
        """Returns (status, parsed JSON or text, response headers)."""
        conn = self.connection()
        try:
            all_headers = {"Accept": "application/json"}
            if self.token:
                all_headers["Authorization"] = "Bearer " + self.token
            if body is not None:
                if not isinstance(body, (str, bytes)):
                    body = json.dumps(body)
                all_headers["Content-Type"] = content_type
            all_headers.update(headers or {})
            conn.request(method, path, body=body, headers=all_headers)
            response = conn.getresponse()
            data = response.read()
            try:
                parsed = json.loads(data)
            except ValueError:
                parsed = data.decode(errors="replace")
            return response.status, parsed, dict(response.getheaders())
        finally:
            conn.close()


def kubectl_binary():
    return shutil.which("kubectl")


def kubectl(server, *args, input=None, check=True, timeout=60):
    """Runs the machine's kubectl against `server` with a fresh discovery cache.
    Returns the CompletedProcess; raises with kubectl's output if `check` and it failed."""
    cache = os.path.join(server.dir, "kubectl-cache")
    cmd = [kubectl_binary(), "--kubeconfig", server.kubeconfig, "--cache-dir", cache] + list(args)
    env = dict(os.environ, HOME=server.dir)
    result = subprocess.run(cmd, input=input, capture_output=True, text=True, timeout=timeout, env=env)
    if check and result.returncode != 0:
        raise AssertionError("kubectl %s failed (%d):\nstdout: %s\nstderr: %s\nserver log:\n%s" % (
            " ".join(args), result.returncode, result.stdout, result.stderr, server.stderr()[-2000:]))
    return result


def skip_without_kubectl(test_case):
    if kubectl_binary() is None:
        test_case.skipTest("no kubectl on this machine")


def minimal_pod(name, namespace="default", labels=None, scheduler="default-scheduler"):
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": labels or {}},
        "spec": {"schedulerName": scheduler, "containers": [{"name": "c", "image": "busybox"}]},
    }
