"""troupe scheduler as a scheduler extender (--extender-bind-address).

A stock kube-scheduler delegates device decisions to troupe over
kube-scheduler's extender protocol (extender/v1 JSON, whose keys are the Go
field names). This test plays the stock scheduler: it POSTs ExtenderArgs /
ExtenderBindingArgs as kube-scheduler would and checks the answers, the bindings and the
annotations — for Alibaba's gpushare verbs (/gpushare-scheduler/*) and for
Koordinator's DeviceShare (/deviceshare/*). Pods placed through the extender
and pods troupe schedules itself share one accounting.
"""
import http.client
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_builders import allocation, gpu_pod, make_device, make_gpu_node  # noqa: E402
from scheduler_helpers import Cluster, all_bound, make_node, make_pod  # noqa: E402


def gpushare_node(name, memory="32", count="2"):
    return make_node(name, cpu="32", memory="64Gi", extra={"aliyun.com/gpu-mem": memory, "aliyun.com/gpu-count": count})


def gpu_mem_pod(name, mem):
    # Pods of the stock scheduler: no schedulerName (default-scheduler).
    pod = make_pod(name, cpu="1", scheduler=None, extra_requests={"aliyun.com/gpu-mem": str(mem)})
    pod["spec"]["containers"][0]["resources"]["limits"] = {"aliyun.com/gpu-mem": str(mem)}
    return pod


class ExtenderEndpointTest(unittest.TestCase):
    def setUp(self):
        self.cluster = Cluster(self)
        self.client = self.cluster.client

    def start(self, objects):
        self.client.create_all(objects)
        self.scheduler = self.cluster.start_scheduler(extra_args=["--extender-bind-address", "127.0.0.1:0"])
        self.scheduler.wait_ready()
        self.assertIsNotNone(self.scheduler.extender_port)

    def post(self, path, body):
        conn = http.client.HTTPConnection("127.0.0.1", self.scheduler.extender_port, timeout=30)
        try:
            conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
            response = conn.getresponse()
            return response.status, json.loads(response.read().decode())
        finally:
            conn.close()

    def get(self, path, method="GET"):
        conn = http.client.HTTPConnection("127.0.0.1", self.scheduler.extender_port, timeout=30)
        try:
            conn.request(method, path)
            response = conn.getresponse()
            body = response.read().decode()
            return response.status, json.loads(body) if response.getheader("Content-Type") == "application/json" else body
        finally:
            conn.close()

    def created(self, pod):
        self.client.create(pod)
        return self.client.pod(pod["metadata"]["name"])

    def bind(self, prefix, pod, node):
        meta = pod["metadata"]
        return self.post(prefix + "/bind", {"PodName": meta["name"], "PodNamespace": meta["namespace"],
                                            "PodUID": meta["uid"], "Node": node})

    def test_gpushare_verbs_filter_and_bind_with_binpack(self):
        self.start([gpushare_node("gs-0"), gpushare_node("gs-1", memory="8", count="1"),
                    make_node("plain", cpu="32", memory="64Gi")])
        pod = self.created(gpu_mem_pod("m-0", 10))
        status, result = self.post("/gpushare-scheduler/filter",
                                   {"Pod": pod, "NodeNames": ["gs-0", "gs-1", "plain"]})
        self.assertEqual(status, 200)
        self.assertEqual(result["NodeNames"], ["gs-0"])
        self.assertEqual(result["FailedNodes"], {"gs-1": "Insufficient GPU Memory in one device",
                                                 "plain": "The node plain is not for GPU share, need skip"})
        # nodeCacheCapable=false: whole Node objects in, the passing ones out.
        nodes = {"items": [n for n in self.client.nodes() if n["metadata"]["name"] in ("gs-0", "gs-1")]}
        status, result = self.post("/gpushare-scheduler/filter", {"Pod": pod, "Nodes": nodes, "NodeNames": None})
        self.assertEqual([n["metadata"]["name"] for n in result["Nodes"]["items"]], ["gs-0"])

        status, result = self.bind("/gpushare-scheduler", pod, "gs-0")
        self.assertEqual((status, result), (200, {"Error": ""}))
        bound = self.client.pod("m-0")
        self.assertEqual(bound["spec"]["nodeName"], "gs-0")
        annotations = bound["metadata"]["annotations"]
        self.assertEqual(annotations["ALIYUN_COM_GPU_MEM_IDX"], "0")
        self.assertEqual(annotations["ALIYUN_COM_GPU_MEM_POD"], "10")
        self.assertEqual(annotations["ALIYUN_COM_GPU_MEM_DEV"], "16")
        # Binpack: card 0 has 6 left; 6 fits there, 10 goes to card 1.
        small = self.created(gpu_mem_pod("m-1", 6))
        self.assertEqual(self.bind("/gpushare-scheduler", small, "gs-0")[0], 200)
        self.assertEqual(self.client.pod("m-1")["metadata"]["annotations"]["ALIYUN_COM_GPU_MEM_IDX"], "0")
        big = self.created(gpu_mem_pod("m-2", 10))
        self.assertEqual(self.bind("/gpushare-scheduler", big, "gs-0")[0], 200)
        self.assertEqual(self.client.pod("m-2")["metadata"]["annotations"]["ALIYUN_COM_GPU_MEM_IDX"], "1")
        # Both cards are now too full for 10: filter says so, bind refuses and binds nothing.
        late = self.created(gpu_mem_pod("m-3", 10))
        # (Go decodes keys case-insensitively, so lower-case clients work too.)
        status, result = self.post("/gpushare-scheduler/filter", {"pod": late, "nodenames": ["gs-0"]})
        self.assertEqual(result["NodeNames"], [])
        status, result = self.bind("/gpushare-scheduler", late, "gs-0")
        self.assertEqual(status, 500)
        self.assertIn("Insufficient GPU Memory in one device", result["Error"])
        self.assertIsNone(self.client.pod("m-3")["spec"].get("nodeName"))

    def test_gpushare_inspect_shows_memory_per_node_gpu_and_pod(self):
        self.start([gpushare_node("gs-0"), gpushare_node("gs-1", memory="8", count="1"),
                    make_node("plain", cpu="32", memory="64Gi")])
        for name, mem in (("i-0", 10), ("i-1", 6), ("i-2", 10)):
            pod = self.created(gpu_mem_pod(name, mem))
            self.assertEqual(self.bind("/gpushare-scheduler", pod, "gs-0")[0], 200)

        def pod_entry(name, used):
            return {"name": name, "namespace": "default", "usedGPU": used}

        gs0 = {"name": "gs-0", "totalGPU": 32, "usedGPU": 26, "devs": [
            {"id": 0, "totalGPU": 16, "usedGPU": 16, "pods": [pod_entry("i-0", 10), pod_entry("i-1", 6)]},
            {"id": 1, "totalGPU": 16, "usedGPU": 10, "pods": [pod_entry("i-2", 10)]}]}
        gs1 = {"name": "gs-1", "totalGPU": 8, "usedGPU": 0,
               "devs": [{"id": 0, "totalGPU": 8, "usedGPU": 0, "pods": []}]}
        status, result = self.get("/gpushare-scheduler/inspect")
        self.assertEqual(status, 200)
        # Every GPU-share node (the plain node has no GPU memory), in no particular order.
        self.assertEqual(sorted(result["nodes"], key=lambda n: n["name"]), [gs0, gs1])
        self.assertNotIn("error", result)
        self.assertEqual(self.get("/gpushare-scheduler/inspect/gs-0"), (200, {"nodes": [gs0]}))
        # A node asked for by name is shown even without GPU memory.
        self.assertEqual(self.get("/gpushare-scheduler/inspect/plain"),
                         (200, {"nodes": [{"name": "plain", "totalGPU": 0, "usedGPU": 0, "devs": []}]}))
        self.assertEqual(self.get("/gpushare-scheduler/inspect/nowhere"),
                         (404, {"nodes": [], "error": 'node "nowhere" not found'}))
        self.assertEqual(self.get("/gpushare-scheduler/inspect", method="POST")[0], 405)
        # A pod that finished frees its memory and leaves the list.
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/i-1/status", {"status": {"phase": "Succeeded"}},
                       "application/merge-patch+json")
        self.cluster.wait(lambda: self.get("/gpushare-scheduler/inspect/gs-0")[1]["nodes"][0]["devs"][0]["usedGPU"] == 10,
                          10, "the finished pod's memory freed")
        self.assertEqual(self.get("/gpushare-scheduler/inspect/gs-0")[1]["nodes"][0]["devs"][0]["pods"],
                         [pod_entry("i-0", 10)])

    def test_deviceshare_verbs_share_accounting_with_troupes_own_pods(self):
        self.start([make_gpu_node("g-0", gpus=2, nics=1), make_device("g-0", numa_nodes=1, switches_per_numa=1),
                    make_gpu_node("g-1", gpus=2, nics=1), make_device("g-1", numa_nodes=1, switches_per_numa=1)])
        # troupe itself places a whole GPU on one node...
        own = gpu_pod("own", whole=2)
        own["spec"]["nodeSelector"] = {"kubernetes.io/hostname": "g-1"}
        self.client.create(own)
        self.cluster.wait(lambda: all_bound(self.client, ["own"]), 30, "own pod bound")
        # ...so for the stock scheduler's pod only g-0 has room.
        pod = self.created(gpu_pod("ext", koord_gpu=50, scheduler=None))
        status, result = self.post("/deviceshare/filter", {"Pod": pod, "NodeNames": ["g-0", "g-1", "gone"]})
        self.assertEqual(status, 200)
        self.assertEqual(result["NodeNames"], ["g-0"])
        self.assertIn("g-1", result["FailedNodes"])
        self.assertEqual(result["FailedNodes"]["gone"], "node(s) not found")
        status, priorities = self.post("/deviceshare/prioritize", {"Pod": pod, "NodeNames": ["g-0"]})
        self.assertEqual(status, 200)
        self.assertEqual([p["Host"] for p in priorities], ["g-0"])
        self.assertTrue(0 <= priorities[0]["Score"] <= 10)
        self.assertEqual(self.bind("/deviceshare", pod, "g-0"), (200, {"Error": ""}))
        bound = self.client.pod("ext")
        self.assertEqual(bound["spec"]["nodeName"], "g-0")
        self.assertEqual(allocation(bound)["gpu"][0]["resources"]["koordinator.sh/gpu-core"], "50")
        # An invalid request is refused by name.
        bad = self.created(gpu_pod("bad", whole=1, core=50, scheduler=None))
        status, result = self.post("/deviceshare/filter", {"Pod": bad, "NodeNames": ["g-0"]})
        self.assertIn("invalid resource device requests", result["FailedAndUnresolvableNodes"]["g-0"])
        # Malformed ExtenderArgs get an error, not a crash.
        status, result = self.post("/deviceshare/filter", {"NodeNames": ["g-0"]})
        self.assertEqual(result["Error"], "Pod: Required value")


if __name__ == "__main__":
    unittest.main()
