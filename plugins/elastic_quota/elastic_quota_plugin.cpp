#include "plugins/elastic_quota/elastic_quota_plugin.hpp"

#include <limits>

#include "config/yaml_fields.hpp"
#include "model/quantity.hpp"
#include "plugins/common/args.hpp"

namespace troupe::plugins::elastic_quota {

namespace {

/// Koordinator's default for the default and system quotas: MaxInt64/5 cpus and bytes.
ResourceList unbounded_cpu_and_memory() {
  const int64_t units = std::numeric_limits<int64_t>::max() / 5;
  return ResourceList{{ResourceName("cpu"), Quantity::from_value(units)},
                      {ResourceName("memory"), Quantity::from_value(units, Quantity::Format::binary_si)}};
}

ResourceList read_resource_list(const YAML::Node& node, const std::string& path) {
  config::expect_map(node, path);
  ResourceList list;
  for (const auto& entry : node) {
    const std::string name = entry.first.as<std::string>();
    const std::string at = config::child_path(path, name);
    auto quantity = Quantity::parse(config::read_string(entry.second, at));
    if (!quantity) throw config::FieldError(at, quantity.message());
    if (quantity->sign() < 0) throw config::FieldError(at, "Invalid value: \"" + quantity->to_string() + "\": must not be negative");
    list.emplace(ResourceName(name), *quantity);
  }
  return list;
}

std::chrono::nanoseconds read_duration_not_negative(const YAML::Node& args, const char* field,
                                                    std::chrono::nanoseconds fallback) {
  if (config::is_absent(args[field])) return fallback;
  const auto duration = config::read_duration(args[field], field);
  if (duration.count() < 0) throw config::FieldError(field, "Invalid value: must not be negative");
  return duration;
}

/// quotav1.LessThanOrEqual(used, limit): the resources of `limit` that `used` exceeds, by name.
std::vector<std::string> exceeded(const ResourceAmounts& used, const ResourceAmounts& limit) {
  std::vector<std::string> out;
  for (const auto& [name, allowed] : limit) {
    auto it = used.find(name);
    if (it != used.end() && it->second > allowed) out.push_back(name);
  }
  return out;
}

std::string go_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : " ") + items[i];
  return out + "]";
}

/// Only the resources the pod asks for, each with the pod's request added.
ResourceAmounts with_pod(const ResourceAmounts& used, const ResourceAmounts& request) {
  ResourceAmounts out;
  for (const auto& [name, amount] : request) {
    auto it = used.find(name);
    out[name] = amount + (it == used.end() ? 0 : it->second);
  }
  return out;
}

std::optional<std::string> parents_rejection(const QuotaView& view, bool runtime_limits) {
  const QuotaUsage& quota = *view.quota;
  std::vector<std::string> topo{view.quota_name};
  // The quota itself first, then each ancestor below the root
  // (checkQuotaRecursive): each against its runtime, or its max with
  // enableRuntimeQuota off (getQuotaInfoUsedLimit), counting only the
  // resources the pod asks for (quotav1.Mask).
  std::vector<QuotaUsage::Parent> levels{{view.quota_name, quota.used, quota.runtime, quota.max}};
  levels.insert(levels.end(), quota.parents.begin(), quota.parents.end());
  for (size_t i = 0; i < levels.size(); ++i) {
    if (i > 0) topo.insert(topo.begin(), levels[i].name);
    const ResourceAmounts& limit = runtime_limits ? levels[i].runtime : levels[i].max;
    auto over = exceeded(with_pod(levels[i].used, view.request), limit);
    if (over.empty()) continue;
    return "Insufficient quotas, quotaNameTopo: " + go_list(topo) + ", runtime: " + print_amounts(limit) +
           ", used: " + print_amounts(levels[i].used) + ", pod's request: " + print_amounts(view.request) +
           ", exceedDimensions: " + go_list(over);
  }
  return std::nullopt;
}

}  // namespace

ElasticQuotaArgs ElasticQuotaArgs::from_yaml(const YAML::Node& args) {
  ElasticQuotaArgs out;
  out.default_quota_group_max = unbounded_cpu_and_memory();
  out.system_quota_group_max = unbounded_cpu_and_memory();
  if (config::is_absent(args)) return out;
  // The last three are accepted with no effect: they tune quota preemption
  // and Koordinator's quota snapshot, which troupe does not have (README
  // "Not supported yet").
  config::reject_unknown_fields(args, "",
                                {"defaultQuotaGroupMax", "systemQuotaGroupMax", "quotaGroupNamespace",
                                 "enableRuntimeQuota", "enableCheckParentQuota", "enableMinQuotaScale", "hookPlugins",
                                 "delayEvictTime", "revokePodInterval", "monitorAllQuotas",
                                 "disableDefaultQuotaPreemption", "enableQueueHint", "quotaSnapshotUpdateInterval"});
  config::read_optional(args, "", "monitorAllQuotas", out.monitor_all_quotas);
  out.delay_evict_time = read_duration_not_negative(args, "delayEvictTime", out.delay_evict_time);
  out.revoke_pod_interval = read_duration_not_negative(args, "revokePodInterval", out.revoke_pod_interval);
  // Koordinator evicts every revokePodInterval: a zero interval would spin.
  if (out.revoke_pod_interval.count() == 0)
    throw config::FieldError("revokePodInterval", "Invalid value: must be greater than 0");
  read_duration_not_negative(args, "quotaSnapshotUpdateInterval", std::chrono::seconds(0));
  if (!config::is_absent(args["defaultQuotaGroupMax"]))
    out.default_quota_group_max = read_resource_list(args["defaultQuotaGroupMax"], "defaultQuotaGroupMax");
  if (!config::is_absent(args["systemQuotaGroupMax"]))
    out.system_quota_group_max = read_resource_list(args["systemQuotaGroupMax"], "systemQuotaGroupMax");
  config::read_optional(args, "", "quotaGroupNamespace", out.quota_group_namespace);
  config::read_optional(args, "", "enableRuntimeQuota", out.enable_runtime_quota);
  config::read_optional(args, "", "enableCheckParentQuota", out.enable_check_parent_quota);
  config::read_optional(args, "", "enableMinQuotaScale", out.enable_min_quota_scale);
  for (const char* flag : {"disableDefaultQuotaPreemption", "enableQueueHint"})
    if (!config::is_absent(args[flag])) config::read_bool(args[flag], flag);
  // Koordinator's hook plugins are Go code registered in its binary: troupe has none to name.
  const YAML::Node hooks = args["hookPlugins"];
  if (!config::is_absent(hooks)) {
    config::expect_sequence(hooks, "hookPlugins");
    if (hooks.size() > 0) throw config::FieldError("hookPlugins", "quota hook plugins are not implemented by troupe");
  }
  return out;
}

std::optional<std::string> quota_rejection(const QuotaView& view, const ElasticQuotaArgs& args) {
  if (!view.quota) return "Could not find the specified ElasticQuota " + view.quota_name;
  const QuotaUsage& quota = *view.quota;
  if (!quota.unreachable_parent.empty())
    return "Insufficient quotas, quotaName: " + view.quota_name + ", its parent quota " + quota.unreachable_parent +
           " is not in the quota tree (missing, or in a loop)";
  const ResourceAmounts& limit = args.enable_runtime_quota ? quota.runtime : quota.max;
  auto over = exceeded(with_pod(quota.used, view.request), limit);
  if (!over.empty())
    return "Insufficient quotas, quotaName: " + view.quota_name + ", runtime: " + print_amounts(limit) +
           ", used: " + print_amounts(quota.used) + ", pod's request: " + print_amounts(view.request) +
           ", exceedDimensions: " + go_list(over);
  if (view.non_preemptible) {
    auto over_min = exceeded(with_pod(quota.non_preemptible_used, view.request), quota.min);
    if (!over_min.empty())
      return "Insufficient non-preemptible quotas, quotaName: " + view.quota_name + ", min: " + print_amounts(quota.min) +
             ", nonPreemptibleUsed: " + print_amounts(quota.non_preemptible_used) +
             ", pod's request: " + print_amounts(view.request) + ", exceedDimensions: " + go_list(over_min);
  }
  if (args.enable_check_parent_quota) return parents_rejection(view, args.enable_runtime_quota);
  return std::nullopt;
}

Result<std::shared_ptr<const Plugin>> ElasticQuotaPlugin::make(const YAML::Node& args) {
  return build_plugin<ElasticQuotaArgs, ElasticQuotaPlugin>(args, ElasticQuotaArgs::from_yaml);
}

const ElasticQuotaPlugin* ElasticQuotaPlugin::of(const Framework& framework) {
  return framework.find_plugin<ElasticQuotaPlugin>();
}

void ElasticQuotaPlugin::share_view(CycleState& state, QuotaView view) const {
  state.write<QuotaView>(state_slot(), std::move(view));
}

PluginStatus ElasticQuotaPlugin::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const {
  (void)pod;
  (void)result;
  const auto* view = state.read<QuotaView>(state_slot());
  if (view == nullptr) return PluginStatus::internal_error("ElasticQuota: the cycle shared no quota view");
  if (auto rejection = quota_rejection(*view, args_)) return PluginStatus::unschedulable(std::move(*rejection));
  return {};
}

std::vector<ClusterEvent> ElasticQuotaPlugin::events_to_register() const {
  return {{EventResource::pod, kDelete, "PodDelete"},
          {EventResource::node, kAdd | kUpdateNodeAllocatable, "NodeAddOrAllocatableChange"},
          // ElasticQuotas come as "other" objects, with PodGroups and Devices.
          {EventResource::other, kAdd | kUpdateOther | kDelete, "ElasticQuotaChange"}};
}

}  // namespace troupe::plugins::elastic_quota
