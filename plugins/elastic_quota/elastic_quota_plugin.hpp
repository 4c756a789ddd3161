#pragma once
// ElasticQuota (Koordinator): a pod is placed only while its quota group has
// room for it. At PreFilter, what the pod's quota uses plus what the pod asks
// for must stay within the quota's runtime (or its max, with
// enableRuntimeQuota: false), resource by resource; a non-preemptible pod
// (label quota.scheduling.koordinator.sh/preemptible: "false") must also fit
// in the quota's min with the quota's other non-preemptible pods; with
// enableCheckParentQuota every ancestor below the root is checked too.
//
// The quotas and their accounting live in a QuotaBook the scheduling cycle
// owns (quota_book.hpp): the cycle charges a pod to its quota at Reserve and
// hands this plugin the pod's QuotaView before PreFilter, so the plugin stays
// a pure function of what it is given.
//   args: {defaultQuotaGroupMax, systemQuotaGroupMax: {cpu: MaxInt64/5, memory: MaxInt64/5},
//          enableRuntimeQuota: true, enableCheckParentQuota: false, enableMinQuotaScale: true,
//          monitorAllQuotas: false, delayEvictTime: 120s, revokePodInterval: 1s, ...}
// Absent (see README): quota preemption (Koordinator's PostFilter), quota
// trees by tree-id.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/result.hpp"
#include "plugins/elastic_quota/quota_book.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/plugin.hpp"

namespace troupe::plugins::elastic_quota {

struct ElasticQuotaArgs {
  /// The default and system quotas' max (quantities as given: the quota
  /// status actor writes them on the quota objects it creates).
  ResourceList default_quota_group_max;
  ResourceList system_quota_group_max;
  std::string quota_group_namespace = "koordinator-system";
  bool enable_runtime_quota = true;
  bool enable_check_parent_quota = false;
  bool enable_min_quota_scale = true;
  /// The overuse revoke (overuse_revoke.hpp): off unless monitorAllQuotas;
  /// a quota over its runtime for longer than delayEvictTime loses pods,
  /// checked every revokePodInterval.
  bool monitor_all_quotas = false;
  std::chrono::nanoseconds delay_evict_time = std::chrono::seconds(120);
  std::chrono::nanoseconds revoke_pod_interval = std::chrono::seconds(1);

  /// Defaults as Koordinator's; errors name the field.
  static ElasticQuotaArgs from_yaml(const YAML::Node& args);
};

/// What the cycle tells the plugin about the pod under attempt.
struct QuotaView : StateData {
  std::optional<QuotaUsage> quota;  // the pod's quota (nullopt: the book does not know it)
  std::string quota_name;
  ResourceAmounts request;
  bool non_preemptible = false;
};

/// PreFilter's verdict on a view: nullopt when the pod fits its quota, else
/// Koordinator's message ("Insufficient quotas, quotaName: ..., runtime: ...,
/// used: ..., pod's request: ..., exceedDimensions: [...]").
std::optional<std::string> quota_rejection(const QuotaView& view, const ElasticQuotaArgs& args);

class ElasticQuotaPlugin final : public PreFilterPlugin, public EnqueueExtensions {
 public:
  static constexpr const char* kName = "ElasticQuota";

  explicit ElasticQuotaPlugin(ElasticQuotaArgs args) : args_(std::move(args)) {}
  static Result<std::shared_ptr<const Plugin>> make(const YAML::Node& args);
  /// The profile's instance, or nullptr when the profile does not run it.
  static const ElasticQuotaPlugin* of(const Framework& framework);

  const ElasticQuotaArgs& args() const { return args_; }
  std::string_view name() const override { return kName; }

  void share_view(CycleState& state, QuotaView view) const;
  PluginStatus pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const override;
  /// A pod deleted, a node added or grown, a quota added or changed: the
  /// quota's room may have grown.
  std::vector<ClusterEvent> events_to_register() const override;

 private:
  ElasticQuotaArgs args_;
};

}  // namespace troupe::plugins::elastic_quota
