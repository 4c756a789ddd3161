#pragma once
// gpushare-scheduler-extender's GPU health ConfigMaps, as the INFORMER reads
// them: kube-system/unhealthy-gpu-<node>, whose key `gpus` lists the GPU
// indices ("0,2") no pod may be placed on (pkg/cache/nodeinfo.go). Entries
// that are not integers are skipped (upstream's strconv.Atoi error leaves 0,
// marking GPU 0 unhealthy for any bad entry; troupe does not copy that); a
// ConfigMap deleted, or without `gpus`, leaves every GPU of the node usable.

#include <optional>
#include <string>
#include <string_view>

#include "model/json.hpp"
#include "plugins/gpushare/gpushare_node_state.hpp"

namespace troupe::actors {

/// Where the extender looks for the ConfigMaps.
inline constexpr std::string_view kGpuHealthNamespace = "kube-system";
inline constexpr std::string_view kGpuHealthPrefix = "unhealthy-gpu-";

/// The node a ConfigMap named `name` lists unhealthy GPUs of; nullopt for
/// any other ConfigMap (and for the bare prefix).
std::optional<std::string> gpu_health_node(std::string_view name);

/// A ConfigMap object (API JSON) as the node's unhealthy GPUs; nullopt when
/// it is not one of the health ConfigMaps.
std::optional<plugins::gpushare::UnhealthyGpus> decode_gpu_health(const JsonValue& configmap);

}  // namespace troupe::actors
