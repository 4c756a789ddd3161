#include "actors/gpu_health.hpp"

namespace troupe::actors {

namespace {

const JsonValue* member(const JsonValue& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(key);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::string string_of(const JsonValue* value) {
  return value != nullptr && value->IsString() ? std::string(value->GetString(), value->GetStringLength())
                                               : std::string();
}

}  // namespace

std::optional<std::string> gpu_health_node(std::string_view name) {
  if (name.size() <= kGpuHealthPrefix.size() || name.substr(0, kGpuHealthPrefix.size()) != kGpuHealthPrefix)
    return std::nullopt;
  return std::string(name.substr(kGpuHealthPrefix.size()));
}

std::optional<plugins::gpushare::UnhealthyGpus> decode_gpu_health(const JsonValue& configmap) {
  const JsonValue* metadata = member(configmap, "metadata");
  if (metadata == nullptr) return std::nullopt;
  if (string_of(member(*metadata, "namespace")) != kGpuHealthNamespace) return std::nullopt;
  auto node = gpu_health_node(string_of(member(*metadata, "name")));
  if (!node) return std::nullopt;
  plugins::gpushare::UnhealthyGpus health;
  health.node_name = std::move(*node);
  if (const JsonValue* data = member(configmap, "data"))
    health.indices = plugins::deviceshare::GpuShareNode::parse_unhealthy(string_of(member(*data, "gpus")));
  return health;
}

}  // namespace troupe::actors
