#include "sim/demo_workload.hpp"

namespace troupe::sim {

namespace {

// Every pod says what it demonstrates; the demo prints it beside the outcome.
const char* kWorkload = R"YAML(
apiVersion: v1
kind: Pod
metadata: {name: api-zone-a, namespace: default, annotations: {troupe.dev/demo: "nodeSelector zone-a"}}
spec:
  schedulerName: troupe-scheduler
  priority: 100
  nodeSelector: {topology.kubernetes.io/zone: zone-a}
  containers: [{name: api, image: api:1, resources: {requests: {cpu: "4", memory: 8Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: nightly-batch, namespace: default, annotations: {troupe.dev/demo: "toleration + required affinity onto the tainted batch node"}}
spec:
  schedulerName: troupe-scheduler
  tolerations: [{key: dedicated, operator: Equal, value: batch, effect: NoSchedule}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: workload, operator: In, values: [batch]}]}]
  containers: [{name: job, image: batch:1, resources: {requests: {cpu: "8", memory: 16Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: t4-inference, namespace: default, annotations: {troupe.dev/demo: "preferred affinity for T4 (tolerates the GPU taint)"}}
spec:
  schedulerName: troupe-scheduler
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        preference: {matchExpressions: [{key: node.koordinator.sh/gpu-model, operator: In, values: [T4]}]}
  containers: [{name: model, image: infer:1, resources: {requests: {cpu: "2", memory: 4Gi, nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: ingress-1, namespace: default, annotations: {troupe.dev/demo: "hostPort 8443 (NodePorts)"}}
spec:
  schedulerName: troupe-scheduler
  containers: [{name: proxy, image: proxy:1, ports: [{containerPort: 8443, hostPort: 8443}], resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: ingress-2, namespace: default, annotations: {troupe.dev/demo: "same hostPort: never on ingress-1's node"}}
spec:
  schedulerName: troupe-scheduler
  containers: [{name: proxy, image: proxy:1, ports: [{containerPort: 8443, hostPort: 8443}], resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: packed-1, namespace: default, annotations: {troupe.dev/demo: "profile troupe-binpack: MostAllocated packs"}}
spec:
  schedulerName: troupe-binpack
  containers: [{name: w, image: w:1, resources: {requests: {cpu: "2", memory: 2Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: packed-2, namespace: default, annotations: {troupe.dev/demo: "profile troupe-binpack: lands beside packed-1"}}
spec:
  schedulerName: troupe-binpack
  containers: [{name: w, image: w:1, resources: {requests: {cpu: "2", memory: 2Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: too-big, namespace: default, annotations: {troupe.dev/demo: "fits nowhere: kube-scheduler's message"}}
spec:
  schedulerName: troupe-scheduler
  containers: [{name: huge, image: huge:1, resources: {requests: {cpu: "96", memory: 8Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: malformed, namespace: default, annotations: {troupe.dev/demo: "bad affinity: reported on this pod only"}}
spec:
  schedulerName: troupe-scheduler
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: cores, operator: Gt, values: [many]}]}]
  containers: [{name: c, image: c:1}]
---
apiVersion: v1
kind: Pod
metadata: {name: not-ours, namespace: default, annotations: {troupe.dev/demo: "another scheduler's pod: left alone"}}
spec:
  schedulerName: some-other-scheduler
  containers: [{name: c, image: c:1, resources: {requests: {cpu: "1"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: gpu-share-1, namespace: default, annotations: {troupe.dev/demo: "GPU share: half a card (koordinator.sh/gpu: 50)"}}
spec:
  schedulerName: troupe-scheduler
  priority: 48
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  nodeSelector: {node.koordinator.sh/gpu-model: H100}
  containers: [{name: m, image: infer:1, resources: {requests: {cpu: "2", memory: 8Gi, koordinator.sh/gpu: "50"}, limits: {koordinator.sh/gpu: "50"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: gpu-share-2, namespace: default, annotations: {troupe.dev/demo: "GPU share: 30% of a card + 16Gi (binpacks beside share-1)"}}
spec:
  schedulerName: troupe-scheduler
  priority: 47
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  nodeSelector: {node.koordinator.sh/gpu-model: H100}
  containers: [{name: m, image: infer:1, resources: {requests: {cpu: "2", memory: 8Gi, koordinator.sh/gpu-core: "30", koordinator.sh/gpu-memory: 16Gi}, limits: {koordinator.sh/gpu-core: "30", koordinator.sh/gpu-memory: 16Gi}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: gpu-pcie-2
  namespace: default
  annotations:
    troupe.dev/demo: "2 whole GPUs behind one PCIe switch (requiredTopologyScope: PCIe)"
    scheduling.koordinator.sh/device-allocate-hint: '{"gpu":{"requiredTopologyScope":"PCIe"}}'
spec:
  schedulerName: troupe-scheduler
  priority: 49
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  nodeSelector: {node.koordinator.sh/gpu-model: H100}
  containers: [{name: t, image: train:1, resources: {requests: {cpu: "8", memory: 64Gi, nvidia.com/gpu: "2"}, limits: {nvidia.com/gpu: "2"}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: gpu-rdma
  namespace: default
  annotations:
    troupe.dev/demo: "GPU + RDMA on the same PCIe switch, with a virtual function"
    scheduling.koordinator.sh/device-joint-allocate: '{"deviceTypes":["gpu","rdma"],"requiredScope":"SamePCIe"}'
    scheduling.koordinator.sh/device-allocate-hint: '{"rdma":{"vfSelector":{}}}'
spec:
  schedulerName: troupe-scheduler
  priority: 50
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  nodeSelector: {node.koordinator.sh/gpu-model: H100}
  containers: [{name: t, image: train:1, resources: {requests: {cpu: "8", memory: 64Gi, nvidia.com/gpu: "1", koordinator.sh/rdma: "1"}, limits: {nvidia.com/gpu: "1", koordinator.sh/rdma: "1"}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: gpu-partition
  namespace: default
  annotations:
    troupe.dev/demo: "4 GPUs from H100's partition table (gpu-partition-spec Restricted)"
    scheduling.koordinator.sh/gpu-partition-spec: '{"allocatePolicy":"Restricted"}'
spec:
  schedulerName: troupe-scheduler
  priority: 51
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  nodeSelector: {node.koordinator.sh/gpu-model: H100}
  containers: [{name: t, image: train:1, resources: {requests: {cpu: "16", memory: 128Gi, nvidia.com/gpu: "4"}, limits: {nvidia.com/gpu: "4"}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: lsr-fullpcpus
  namespace: default
  labels: {koordinator.sh/qosClass: LSR}
  annotations:
    troupe.dev/demo: "LSR pod: 4 exclusive CPUs as whole cores (FullPCPUs)"
    scheduling.koordinator.sh/resource-spec: '{"preferredCPUBindPolicy":"FullPCPUs"}'
spec:
  schedulerName: troupe-scheduler
  priority: 61
  nodeSelector: {kubernetes.io/hostname: gpu-a100-1}
  containers: [{name: db, image: db:1, resources: {requests: {cpu: "4", memory: 8Gi}, limits: {cpu: "4", memory: 8Gi}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: numa-gpu
  namespace: default
  labels: {koordinator.sh/qosClass: LSR}
  annotations:
    troupe.dev/demo: "2 GPUs, 8 CPUs and memory on one NUMA node (SingleNUMANode)"
    scheduling.koordinator.sh/numa-topology-spec: '{"numaTopologyPolicy":"SingleNUMANode"}'
spec:
  schedulerName: troupe-scheduler
  priority: 60
  nodeSelector: {kubernetes.io/hostname: gpu-a100-1}
  containers: [{name: t, image: train:1, resources: {requests: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "2"}, limits: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "2"}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: train-0
  namespace: team-a
  labels: {pod-group.scheduling.sigs.k8s.io: training}
  annotations: {troupe.dev/demo: "gang (PodGroup team-a/training, minMember 2): waits at Permit for train-1"}
spec:
  schedulerName: troupe-scheduler
  containers: [{name: w, image: train:1, resources: {requests: {cpu: "1", memory: 2Gi}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: train-1
  namespace: team-a
  labels: {pod-group.scheduling.sigs.k8s.io: training}
  annotations: {troupe.dev/demo: "gang (PodGroup team-a/training): bound together with train-0"}
spec:
  schedulerName: troupe-scheduler
  containers: [{name: w, image: train:1, resources: {requests: {cpu: "1", memory: 2Gi}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: gang-of-3
  namespace: default
  annotations:
    troupe.dev/demo: "gang of 3 with 1 member so far: not tried until the others exist"
    gang.scheduling.koordinator.sh/name: gang-of-3
    gang.scheduling.koordinator.sh/min-available: "3"
spec:
  schedulerName: troupe-scheduler
  containers: [{name: w, image: train:1, resources: {requests: {cpu: "1", memory: 2Gi}}}]
)YAML";

const char* kConfig = R"YAML(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection: {leaderElect: false}
profiles:
- schedulerName: troupe-scheduler
- schedulerName: troupe
- schedulerName: troupe-binpack
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
)YAML";

}  // namespace

const std::string& demo_workload_yaml() {
  static const std::string text = kWorkload;
  return text;
}

const std::string& demo_scheduler_config_yaml() {
  static const std::string text = kConfig;
  return text;
}

}  // namespace troupe::sim
