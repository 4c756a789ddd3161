"""Builders for CPU-orchestration tests (NodeNUMAResource): nodes with their
NodeResourceTopology (topology.node.k8s.io/v1alpha1, named after the node,
carrying koordlet's node.koordinator.sh/cpu-topology annotation and one zone
of type Node per NUMA node), and latency-sensitive pods.

CPU numbering follows Linux on a hyper-threaded x86 server: with C physical
cores in all, logical CPU c (c < C) and its sibling c + C share core c; core c
belongs to socket c // cores_per_socket, NUMA nodes split each socket's cores
evenly. On the default 2-socket, 8-cores-per-socket node: NUMA node 0 holds
CPUs 0-7 and 16-23, NUMA node 1 holds 8-15 and 24-31.
"""
import json

from device_builders import make_device, make_gpu_node
from scheduler_helpers import make_node, make_pod

CPU_TOPOLOGY = "node.koordinator.sh/cpu-topology"
KUBELET_CPU_POLICY = "kubelet.koordinator.sh/cpu-manager-policy"
POD_CPU_ALLOCS = "node.koordinator.sh/pod-cpu-allocs"
RESOURCE_SPEC = "scheduling.koordinator.sh/resource-spec"
RESOURCE_STATUS = "scheduling.koordinator.sh/resource-status"
NUMA_TOPOLOGY_SPEC = "scheduling.koordinator.sh/numa-topology-spec"
QOS = "koordinator.sh/qosClass"
CPU_BIND_POLICY = "node.koordinator.sh/cpu-bind-policy"
NUMA_POLICY = "node.koordinator.sh/numa-topology-policy"
NUMA_STRATEGY = "node.koordinator.sh/numa-allocate-strategy"


def cpu_details(sockets=2, cores_per_socket=8, threads=2, numa_per_socket=1):
    """koordlet's cpu-topology "detail" entries, ordered by CPU id."""
    cores = sockets * cores_per_socket
    cores_per_numa = cores_per_socket // numa_per_socket
    details = []
    for thread in range(threads):
        for core in range(cores):
            details.append({"id": thread * cores + core, "core": core, "socket": core // cores_per_socket,
                            "node": core // cores_per_numa})
    return details


def cpus_of_numa(details, numa):
    return sorted(d["id"] for d in details if d["node"] == numa)


def make_topology(node_name, details=None, memory_per_numa="64Gi", policies=None, annotations=None):
    """The node's NodeResourceTopology: one zone per NUMA node with its CPUs
    and `memory_per_numa` as capacity = allocatable = available."""
    details = details if details is not None else cpu_details()
    numa_ids = sorted({d["node"] for d in details})
    zones = []
    for numa in numa_ids:
        cpus = str(len(cpus_of_numa(details, numa)))
        zones.append({"name": "node-%d" % numa, "type": "Node", "resources": [
            {"name": "cpu", "capacity": cpus, "allocatable": cpus, "available": cpus},
            {"name": "memory", "capacity": memory_per_numa, "allocatable": memory_per_numa,
             "available": memory_per_numa},
        ]})
    meta_annotations = {CPU_TOPOLOGY: json.dumps({"detail": details})}
    for key, value in (annotations or {}).items():
        meta_annotations[key] = value if isinstance(value, str) else json.dumps(value)
    return {"apiVersion": "topology.node.k8s.io/v1alpha1", "kind": "NodeResourceTopology",
            "metadata": {"name": node_name, "annotations": meta_annotations},
            "topologyPolicies": list(policies or ["None"]), "zones": zones}


def make_cpu_node(name, details=None, memory_per_numa_gib=64, labels=None, extra=None):
    """A Node whose cpu and memory allocatable are the topology's totals."""
    details = details if details is not None else cpu_details()
    numa = len({d["node"] for d in details})
    return make_node(name, cpu=str(len(details)), memory="%dGi" % (memory_per_numa_gib * numa), labels=labels,
                     extra=extra)


def make_gpu_numa_node(name, gpu_numa=1, labels=None):
    """A 2-NUMA, 32-CPU node whose 8 GPUs (and 4 RDMA NICs) all sit on NUMA
    node `gpu_numa`, with its Device."""
    node = make_gpu_node(name, cpu="32", memory="128Gi", labels=labels)
    device = make_device(name, numa_nodes=1, switches_per_numa=4, gpus_per_switch=2)
    for d in device["spec"]["devices"]:
        d["topology"]["nodeID"] = gpu_numa
        d["topology"]["socketID"] = gpu_numa
    return node, device


def numa_pod(name, cpu="4", memory="8Gi", qos="LSR", resource_spec=None, numa_spec=None, priority=None,
             extra_requests=None, limits=True):
    """A pod with a koordinator QoS label (qos=None: none), requests = limits
    (Guaranteed), and the given resource-spec / numa-topology-spec."""
    labels = {QOS: qos} if qos else {}
    pod = make_pod(name, cpu=cpu, memory=memory, labels=labels, priority=priority, extra_requests=extra_requests)
    container = pod["spec"]["containers"][0]
    if limits:
        container["resources"]["limits"] = dict(container["resources"]["requests"])
    annotations = {}
    if resource_spec is not None:
        annotations[RESOURCE_SPEC] = json.dumps(resource_spec)
    if numa_spec is not None:
        annotations[NUMA_TOPOLOGY_SPEC] = json.dumps(numa_spec)
    if annotations:
        pod["metadata"]["annotations"] = annotations
    return pod


def resource_status(pod):
    """The pod's resource-status annotation, decoded (None without one)."""
    text = (pod["metadata"].get("annotations") or {}).get(RESOURCE_STATUS)
    return json.loads(text) if text else None


def parse_cpuset(text):
    """Linux cpulist ("0-1,16-17") -> set of ints."""
    cpus = set()
    for part in filter(None, (text or "").split(",")):
        if "-" in part:
            low, high = part.split("-")
            cpus.update(range(int(low), int(high) + 1))
        else:
            cpus.add(int(part))
    return cpus
