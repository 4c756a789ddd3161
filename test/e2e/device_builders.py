"""Builders for device-scheduling tests: GPU nodes with their Device object
(Koordinator's scheduling.koordinator.sh/v1alpha1 Device, named after the
node), and pods asking for GPU shares, whole GPUs and RDMA.

Layout of a GPU node built here (as koordlet reports a typical 8-GPU server):
NUMA node n holds PCIe switches "pci-<n>-<s>"; each switch has
`gpus_per_switch` GPUs and one RDMA NIC with `vfs_per_nic` virtual functions.
"""
import json

from scheduler_helpers import make_node, make_pod

KOORD = "koordinator.sh/"
DEVICE_ALLOCATED = "scheduling.koordinator.sh/device-allocated"
JOINT_ALLOCATE = "scheduling.koordinator.sh/device-joint-allocate"
ALLOCATE_HINT = "scheduling.koordinator.sh/device-allocate-hint"
GIB = 1024 ** 3


def gpu_layout(numa_nodes=2, switches_per_numa=2, gpus_per_switch=2, vfs_per_nic=4):
    """[(minor, numa, pcie_id)] for the GPUs and the NICs of one node."""
    gpus, nics = [], []
    for numa in range(numa_nodes):
        for s in range(switches_per_numa):
            pcie = "pci-%d-%d" % (numa, s)
            for _ in range(gpus_per_switch):
                gpus.append((len(gpus), numa, pcie))
            nics.append((len(nics), numa, pcie))
    return gpus, nics


def make_device(node_name, numa_nodes=2, switches_per_numa=2, gpus_per_switch=2, gpu_memory="80Gi",
                vfs_per_nic=4, unhealthy=(), labels=None, annotations=None):
    gpus, nics = gpu_layout(numa_nodes, switches_per_numa, gpus_per_switch, vfs_per_nic)
    devices = []
    for minor, numa, pcie in gpus:
        devices.append({
            "type": "gpu", "id": "GPU-%s-%d" % (node_name, minor), "minor": minor, "health": minor not in unhealthy,
            "resources": {KOORD + "gpu-core": "100", KOORD + "gpu-memory": gpu_memory,
                          KOORD + "gpu-memory-ratio": "100"},
            "topology": {"socketID": numa, "nodeID": numa, "pcieID": pcie,
                         "busID": "0000:%02x:00.0" % (0x10 + minor)},
        })
    for minor, numa, pcie in nics:
        bus = 0x80 + 0x10 * minor
        devices.append({
            "type": "rdma", "id": "0000:%02x:00.0" % bus, "minor": minor, "health": True,
            "resources": {KOORD + "rdma": "100"},
            "topology": {"socketID": numa, "nodeID": numa, "pcieID": pcie, "busID": "0000:%02x:00.0" % bus},
            "vfGroups": [{"labels": {"type": "sriov"},
                          "vfs": [{"minor": v, "busID": "0000:%02x:00.%d" % (bus, v + 1)}
                                  for v in range(vfs_per_nic)]}],
        })
    meta = {"name": node_name, "labels": dict(labels or {})}
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Device", "metadata": meta,
            "spec": {"devices": devices}}


def make_gpu_node(name, gpus=8, nics=4, gpu_memory_gib=80, cpu="128", memory="1Ti", labels=None):
    """A node whose allocatable carries the device resources koord-manager derives from its Device."""
    extra = {
        "nvidia.com/gpu": str(gpus),
        KOORD + "gpu": str(100 * gpus),
        KOORD + "gpu-core": str(100 * gpus),
        KOORD + "gpu-memory-ratio": str(100 * gpus),
        KOORD + "gpu-memory": "%dGi" % (gpu_memory_gib * gpus),
        KOORD + "rdma": str(100 * nics),
    }
    return make_node(name, cpu=cpu, memory=memory, labels=labels, extra=extra)


def gpu_pod(name, core=None, ratio=None, memory=None, whole=None, koord_gpu=None, rdma=None, cpu="1",
            annotations=None, labels=None, **kwargs):
    """A pod asking for devices; each argument is one resource request."""
    requests = {}
    if core is not None:
        requests[KOORD + "gpu-core"] = str(core)
    if ratio is not None:
        requests[KOORD + "gpu-memory-ratio"] = str(ratio)
    if memory is not None:
        requests[KOORD + "gpu-memory"] = str(memory)
    if whole is not None:
        requests["nvidia.com/gpu"] = str(whole)
    if koord_gpu is not None:
        requests[KOORD + "gpu"] = str(koord_gpu)
    if rdma is not None:
        requests[KOORD + "rdma"] = str(rdma)
    pod = make_pod(name, cpu=cpu, extra_requests=requests, labels=labels, **kwargs)
    container = pod["spec"]["containers"][0]
    container["resources"]["limits"] = dict(requests)
    if annotations:
        pod["metadata"]["annotations"] = {k: v if isinstance(v, str) else json.dumps(v)
                                          for k, v in annotations.items()}
    return pod


def allocation(pod):
    """The pod's device-allocated annotation, decoded (None without one)."""
    text = (pod["metadata"].get("annotations") or {}).get(DEVICE_ALLOCATED)
    return json.loads(text) if text else None


def parse_memory(text):
    units = {"Ki": 1024, "Mi": 1024 ** 2, "Gi": GIB, "Ti": 1024 ** 4}
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return int(text[:-len(suffix)]) * factor
    return int(text)
