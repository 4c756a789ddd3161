#pragma once
// The inspect answer of Alibaba's gpushare-scheduler-extender
// (GET /gpushare-scheduler/inspect[/<node>]; pkg/scheduler/inspect.go and
// gpushare-inspect.go): per GPU-share node its GPU memory in the device
// plugin's unit, per GPU the memory used and the pods using it.
//
//   {"nodes":[{"name":"n1","totalGPU":32,"usedGPU":12,
//              "devs":[{"id":0,"totalGPU":16,"usedGPU":12,
//                       "pods":[{"name":"p","namespace":"default","usedGPU":12}]},
//                      {"id":1,"totalGPU":16,"usedGPU":0,"pods":[]}]}],
//    "error":"..."}                       (error only when there is one)
//
// As upstream: a GPU's usedGPU sums its pods' ALIYUN_COM_GPU_MEM_POD
// annotations (GpuShareNode's accounting), a pod's usedGPU is its
// aliyun.com/gpu-mem limits, and only pods not Succeeded/Failed are listed.

#include <string>
#include <vector>

#include "model/pod.hpp"
#include "plugins/deviceshare/gpushare_extender.hpp"

namespace troupe::plugins::deviceshare {

/// One element of "nodes": `gpus` is the node's accounting, `pods` the pods
/// on the node; each is listed under the GPU `gpus` accounts it on (those
/// it does not account, or accounts as finished, are left out).
std::string gpushare_inspect_node_json(const GpuShareNode& gpus, const std::vector<const Pod*>& pods);

/// The whole answer: the node elements as gpushare_inspect_node_json wrote
/// them (an entry may hold several, comma-separated), and an error message
/// when not empty.
std::string gpushare_inspect_json(const std::vector<std::string>& nodes, const std::string& error);

}  // namespace troupe::plugins::deviceshare
