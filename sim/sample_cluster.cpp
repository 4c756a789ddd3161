#include "sim/sample_cluster.hpp"

#include "sim/loader.hpp"

namespace troupe::sim {

namespace {

// Kept as YAML so it reads like the manifests an operator would apply.
const char* kSampleCluster = R"YAML(
apiVersion: v1
kind: Namespace
metadata: {name: team-a, labels: {team: a}}
---
apiVersion: v1
kind: Node
metadata:
  name: cpu-1
  labels: {kubernetes.io/hostname: cpu-1, topology.kubernetes.io/zone: zone-a, node.kubernetes.io/instance-type: c6.8xlarge}
spec: {}
status:
  capacity: {cpu: "32", memory: 128Gi, pods: "110"}
  allocatable: {cpu: "31", memory: 125Gi, pods: "110"}
  conditions: [{type: Ready, status: "True", reason: KubeletReady}]
  addresses: [{type: InternalIP, address: 10.0.0.11}, {type: Hostname, address: cpu-1}]
---
apiVersion: v1
kind: Node
metadata:
  name: cpu-2
  labels: {kubernetes.io/hostname: cpu-2, topology.kubernetes.io/zone: zone-b, node.kubernetes.io/instance-type: c6.4xlarge, workload: batch}
spec:
  taints: [{key: dedicated, value: batch, effect: NoSchedule}]
status:
  capacity: {cpu: "16", memory: 64Gi, pods: "110"}
  allocatable: {cpu: "15", memory: 61Gi, pods: "110"}
  conditions: [{type: Ready, status: "True", reason: KubeletReady}]
  addresses: [{type: InternalIP, address: 10.0.0.12}, {type: Hostname, address: cpu-2}]
---
apiVersion: v1
kind: Node
metadata:
  name: gpu-a100-1
  labels:
    kubernetes.io/hostname: gpu-a100-1
    topology.kubernetes.io/zone: zone-a
    node.koordinator.sh/gpu-model: A100
    node.koordinator.sh/gpu-vendor: nvidia
    node.koordinator.sh/gpu-driver-version: "535.104"
spec: {}
status:
  capacity:
    cpu: "64"
    memory: 512Gi
    pods: "110"
    nvidia.com/gpu: "4"
    koordinator.sh/gpu-core: "400"
    koordinator.sh/gpu-memory: 320Gi
    koordinator.sh/gpu-memory-ratio: "400"
    koordinator.sh/rdma: "200"
  allocatable:
    cpu: "62"
    memory: 500Gi
    pods: "110"
    nvidia.com/gpu: "4"
    koordinator.sh/gpu-core: "400"
    koordinator.sh/gpu-memory: 320Gi
    koordinator.sh/gpu-memory-ratio: "400"
    koordinator.sh/rdma: "200"
  conditions: [{type: Ready, status: "True", reason: KubeletReady}]
  addresses: [{type: InternalIP, address: 10.0.1.21}, {type: Hostname, address: gpu-a100-1}]
---
apiVersion: v1
kind: Node
metadata:
  name: gpu-t4-1
  labels:
    kubernetes.io/hostname: gpu-t4-1
    topology.kubernetes.io/zone: zone-b
    node.koordinator.sh/gpu-model: T4
    node.koordinator.sh/gpu-vendor: nvidia
spec:
  taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
status:
  capacity:
    cpu: "16"
    memory: 64Gi
    pods: "110"
    nvidia.com/gpu: "2"
    koordinator.sh/gpu-core: "200"
    koordinator.sh/gpu-memory: 32Gi
    koordinator.sh/gpu-memory-ratio: "200"
  allocatable:
    cpu: "15"
    memory: 60Gi
    pods: "110"
    nvidia.com/gpu: "2"
    koordinator.sh/gpu-core: "200"
    koordinator.sh/gpu-memory: 32Gi
    koordinator.sh/gpu-memory-ratio: "200"
  conditions: [{type: Ready, status: "True", reason: KubeletReady}]
  addresses: [{type: InternalIP, address: 10.0.1.22}, {type: Hostname, address: gpu-t4-1}]
---
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Device
metadata: {name: gpu-a100-1, labels: {node.koordinator.sh/gpu-model: A100, node.koordinator.sh/gpu-vendor: nvidia}}
spec:
  devices:
  - {type: gpu, id: GPU-a100-0, minor: 0, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci0000:00, busID: "0000:0b:00.0"}}
  - {type: gpu, id: GPU-a100-1, minor: 1, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci0000:00, busID: "0000:0c:00.0"}}
  - {type: gpu, id: GPU-a100-2, minor: 2, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 1, nodeID: 1, pcieID: pci0000:80, busID: "0000:8b:00.0"}}
  - {type: gpu, id: GPU-a100-3, minor: 3, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 1, nodeID: 1, pcieID: pci0000:80, busID: "0000:8c:00.0"}}
  - {type: rdma, id: "0000:1f:00.0", minor: 0, health: true, resources: {koordinator.sh/rdma: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci0000:00, busID: "0000:1f:00.0"}}
  - {type: rdma, id: "0000:9f:00.0", minor: 1, health: true, resources: {koordinator.sh/rdma: "100"}, topology: {socketID: 1, nodeID: 1, pcieID: pci0000:80, busID: "0000:9f:00.0"}}
---
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Device
metadata: {name: gpu-t4-1, labels: {node.koordinator.sh/gpu-model: T4, node.koordinator.sh/gpu-vendor: nvidia}}
spec:
  devices:
  - {type: gpu, id: GPU-t4-0, minor: 0, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 16Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci0000:00, busID: "0000:3b:00.0"}}
  - {type: gpu, id: GPU-t4-1, minor: 1, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 16Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci0000:00, busID: "0000:3c:00.0"}}
---
apiVersion: v1
kind: Node
metadata:
  name: gpu-h100-1
  labels:
    kubernetes.io/hostname: gpu-h100-1
    topology.kubernetes.io/zone: zone-a
    node.koordinator.sh/gpu-model: H100
    node.koordinator.sh/gpu-vendor: nvidia
spec:
  taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
status:
  capacity: &h100
    cpu: "64"
    memory: 1Ti
    pods: "110"
    nvidia.com/gpu: "8"
    koordinator.sh/gpu: "800"
    koordinator.sh/gpu-core: "800"
    koordinator.sh/gpu-memory: 640Gi
    koordinator.sh/gpu-memory-ratio: "800"
    koordinator.sh/rdma: "400"
  allocatable: *h100
  conditions: [{type: Ready, status: "True", reason: KubeletReady}]
  addresses: [{type: InternalIP, address: 10.0.1.23}, {type: Hostname, address: gpu-h100-1}]
---
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Device
metadata: {name: gpu-h100-1, labels: {node.koordinator.sh/gpu-model: H100, node.koordinator.sh/gpu-vendor: nvidia}}
spec:
  devices:
  - {type: gpu, id: GPU-h100-0, minor: 0, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci-0, busID: "0000:18:00.0"}}
  - {type: gpu, id: GPU-h100-1, minor: 1, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci-0, busID: "0000:28:00.0"}}
  - {type: gpu, id: GPU-h100-2, minor: 2, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci-1, busID: "0000:38:00.0"}}
  - {type: gpu, id: GPU-h100-3, minor: 3, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci-1, busID: "0000:48:00.0"}}
  - {type: gpu, id: GPU-h100-4, minor: 4, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 1, nodeID: 1, pcieID: pci-2, busID: "0000:58:00.0"}}
  - {type: gpu, id: GPU-h100-5, minor: 5, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 1, nodeID: 1, pcieID: pci-2, busID: "0000:68:00.0"}}
  - {type: gpu, id: GPU-h100-6, minor: 6, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 1, nodeID: 1, pcieID: pci-3, busID: "0000:78:00.0"}}
  - {type: gpu, id: GPU-h100-7, minor: 7, health: true, resources: {koordinator.sh/gpu-core: "100", koordinator.sh/gpu-memory: 80Gi, koordinator.sh/gpu-memory-ratio: "100"}, topology: {socketID: 1, nodeID: 1, pcieID: pci-3, busID: "0000:88:00.0"}}
  - {type: rdma, id: "0000:1f:00.0", minor: 0, health: true, resources: {koordinator.sh/rdma: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci-0, busID: "0000:1f:00.0"}, vfGroups: [{labels: {type: sriov}, vfs: [{minor: 0, busID: "0000:1f:00.1"}, {minor: 1, busID: "0000:1f:00.2"}, {minor: 2, busID: "0000:1f:00.3"}, {minor: 3, busID: "0000:1f:00.4"}]}]}
  - {type: rdma, id: "0000:3f:00.0", minor: 1, health: true, resources: {koordinator.sh/rdma: "100"}, topology: {socketID: 0, nodeID: 0, pcieID: pci-1, busID: "0000:3f:00.0"}, vfGroups: [{labels: {type: sriov}, vfs: [{minor: 0, busID: "0000:3f:00.1"}, {minor: 1, busID: "0000:3f:00.2"}, {minor: 2, busID: "0000:3f:00.3"}, {minor: 3, busID: "0000:3f:00.4"}]}]}
  - {type: rdma, id: "0000:5f:00.0", minor: 2, health: true, resources: {koordinator.sh/rdma: "100"}, topology: {socketID: 1, nodeID: 1, pcieID: pci-2, busID: "0000:5f:00.0"}, vfGroups: [{labels: {type: sriov}, vfs: [{minor: 0, busID: "0000:5f:00.1"}, {minor: 1, busID: "0000:5f:00.2"}, {minor: 2, busID: "0000:5f:00.3"}, {minor: 3, busID: "0000:5f:00.4"}]}]}
  - {type: rdma, id: "0000:7f:00.0", minor: 3, health: true, resources: {koordinator.sh/rdma: "100"}, topology: {socketID: 1, nodeID: 1, pcieID: pci-3, busID: "0000:7f:00.0"}, vfGroups: [{labels: {type: sriov}, vfs: [{minor: 0, busID: "0000:7f:00.1"}, {minor: 1, busID: "0000:7f:00.2"}, {minor: 2, busID: "0000:7f:00.3"}, {minor: 3, busID: "0000:7f:00.4"}]}]}
---
apiVersion: topology.node.k8s.io/v1alpha1
kind: NodeResourceTopology
metadata:
  name: gpu-a100-1
  annotations:
    # koordlet's view: 2 sockets x 16 cores x 2 threads; CPU c and c+32 share core c; socket = NUMA node.
    node.koordinator.sh/cpu-topology: '{"detail":[{"id":0,"core":0,"socket":0,"node":0},{"id":1,"core":1,"socket":0,"node":0},{"id":2,"core":2,"socket":0,"node":0},{"id":3,"core":3,"socket":0,"node":0},{"id":4,"core":4,"socket":0,"node":0},{"id":5,"core":5,"socket":0,"node":0},{"id":6,"core":6,"socket":0,"node":0},{"id":7,"core":7,"socket":0,"node":0},{"id":8,"core":8,"socket":0,"node":0},{"id":9,"core":9,"socket":0,"node":0},{"id":10,"core":10,"socket":0,"node":0},{"id":11,"core":11,"socket":0,"node":0},{"id":12,"core":12,"socket":0,"node":0},{"id":13,"core":13,"socket":0,"node":0},{"id":14,"core":14,"socket":0,"node":0},{"id":15,"core":15,"socket":0,"node":0},{"id":16,"core":16,"socket":1,"node":1},{"id":17,"core":17,"socket":1,"node":1},{"id":18,"core":18,"socket":1,"node":1},{"id":19,"core":19,"socket":1,"node":1},{"id":20,"core":20,"socket":1,"node":1},{"id":21,"core":21,"socket":1,"node":1},{"id":22,"core":22,"socket":1,"node":1},{"id":23,"core":23,"socket":1,"node":1},{"id":24,"core":24,"socket":1,"node":1},{"id":25,"core":25,"socket":1,"node":1},{"id":26,"core":26,"socket":1,"node":1},{"id":27,"core":27,"socket":1,"node":1},{"id":28,"core":28,"socket":1,"node":1},{"id":29,"core":29,"socket":1,"node":1},{"id":30,"core":30,"socket":1,"node":1},{"id":31,"core":31,"socket":1,"node":1},{"id":32,"core":0,"socket":0,"node":0},{"id":33,"core":1,"socket":0,"node":0},{"id":34,"core":2,"socket":0,"node":0},{"id":35,"core":3,"socket":0,"node":0},{"id":36,"core":4,"socket":0,"node":0},{"id":37,"core":5,"socket":0,"node":0},{"id":38,"core":6,"socket":0,"node":0},{"id":39,"core":7,"socket":0,"node":0},{"id":40,"core":8,"socket":0,"node":0},{"id":41,"core":9,"socket":0,"node":0},{"id":42,"core":10,"socket":0,"node":0},{"id":43,"core":11,"socket":0,"node":0},{"id":44,"core":12,"socket":0,"node":0},{"id":45,"core":13,"socket":0,"node":0},{"id":46,"core":14,"socket":0,"node":0},{"id":47,"core":15,"socket":0,"node":0},{"id":48,"core":16,"socket":1,"node":1},{"id":49,"core":17,"socket":1,"node":1},{"id":50,"core":18,"socket":1,"node":1},{"id":51,"core":19,"socket":1,"node":1},{"id":52,"core":20,"socket":1,"node":1},{"id":53,"core":21,"socket":1,"node":1},{"id":54,"core":22,"socket":1,"node":1},{"id":55,"core":23,"socket":1,"node":1},{"id":56,"core":24,"socket":1,"node":1},{"id":57,"core":25,"socket":1,"node":1},{"id":58,"core":26,"socket":1,"node":1},{"id":59,"core":27,"socket":1,"node":1},{"id":60,"core":28,"socket":1,"node":1},{"id":61,"core":29,"socket":1,"node":1},{"id":62,"core":30,"socket":1,"node":1},{"id":63,"core":31,"socket":1,"node":1}]}'
topologyPolicies: [None]
zones:
- {name: node-0, type: Node, resources: [{name: cpu, capacity: "32", allocatable: "31", available: "31"}, {name: memory, capacity: 256Gi, allocatable: 250Gi, available: 250Gi}]}
- {name: node-1, type: Node, resources: [{name: cpu, capacity: "32", allocatable: "31", available: "31"}, {name: memory, capacity: 256Gi, allocatable: 250Gi, available: 250Gi}]}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: PodGroup
metadata: {name: training, namespace: team-a}
spec: {minMember: 2, scheduleTimeoutSeconds: 60}
---
apiVersion: scheduling.sigs.k8s.io/v1alpha1
kind: ElasticQuota
metadata: {name: team-a, namespace: team-a}
spec: {min: {cpu: "16", memory: 64Gi}, max: {cpu: "64", memory: 256Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: web-0, namespace: default, labels: {app: web}}
spec:
  nodeName: cpu-1
  schedulerName: default-scheduler
  containers: [{name: web, image: nginx, resources: {requests: {cpu: "2", memory: 4Gi}}}]
status:
  phase: Running
  conditions: [{type: PodScheduled, status: "True"}, {type: Ready, status: "True"}]
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: default, labels: {app: web}}
spec:
  nodeName: cpu-2
  schedulerName: default-scheduler
  tolerations: [{key: dedicated, operator: Equal, value: batch, effect: NoSchedule}]
  containers: [{name: web, image: nginx, resources: {requests: {cpu: "2", memory: 4Gi}}}]
status:
  phase: Running
  conditions: [{type: PodScheduled, status: "True"}, {type: Ready, status: "True"}]
---
apiVersion: v1
kind: Pod
metadata: {name: inference, namespace: team-a, labels: {app: inference}}
spec:
  schedulerName: troupe
  containers: [{name: model, image: inference:1, resources: {requests: {cpu: "4", memory: 16Gi, koordinator.sh/gpu-core: "50", koordinator.sh/gpu-memory-ratio: "50"}, limits: {koordinator.sh/gpu-core: "50", koordinator.sh/gpu-memory-ratio: "50"}}}]
status: {phase: Pending}
)YAML";

}  // namespace

const std::string& sample_cluster_yaml() {
  static const std::string text = kSampleCluster;
  return text;
}

Result<size_t> load_sample_cluster(ApiHandler& handler) {
  return load_text(handler, sample_cluster_yaml(), "sample cluster");
}

}  // namespace troupe::sim
