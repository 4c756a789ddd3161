#include "plugins/coscheduling/coscheduling_plugin.hpp"

#include "config/yaml_fields.hpp"
#include "plugins/common/args.hpp"
#include "plugins/deviceshare/go_json.hpp"

namespace troupe::plugins::coscheduling {

CoschedulingArgs CoschedulingArgs::from_yaml(const YAML::Node& args) {
  CoschedulingArgs out;
  if (config::is_absent(args)) return out;
  config::reject_unknown_fields(args, "", {"defaultTimeout", "controllerWorkers", "skipCheckScheduleCycle",
                                           "enablePreemption", "awareNetworkTopology", "defaultMatchPolicy"});
  config::Duration timeout = out.defaults.timeout;
  config::read_optional(args, "", "defaultTimeout", timeout);
  if (timeout.count() < 0) throw config::FieldError("defaultTimeout", "must not be negative");
  out.defaults.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(timeout);
  config::read_optional(args, "", "controllerWorkers", out.controller_workers);
  if (out.controller_workers < 1) throw config::FieldError("controllerWorkers", "must be at least 1");
  config::read_optional(args, "", "skipCheckScheduleCycle", out.skip_check_schedule_cycle);
  // Gang preemption and network-topology-aware gangs are not implemented:
  // refuse to be configured for them rather than silently ignore it.
  for (const char* unsupported : {"enablePreemption", "awareNetworkTopology"}) {
    bool enabled = false;
    config::read_optional(args, "", unsupported, enabled);
    if (enabled) throw config::FieldError(unsupported, "true is not supported by troupe");
  }
  std::string policy;
  config::read_optional(args, "", "defaultMatchPolicy", policy);
  if (!policy.empty()) {
    auto parsed = parse_match_policy(policy);
    if (!parsed)
      throw config::FieldError("defaultMatchPolicy", "must be one of only-waiting, waiting-and-running, "
                                                     "once-satisfied; got \"" + policy + "\"");
    out.defaults.match_policy = *parsed;
  }
  return out;
}

Result<std::shared_ptr<const Plugin>> Coscheduling::make(const YAML::Node& args) {
  return build_plugin<CoschedulingArgs, Coscheduling>(args, CoschedulingArgs::from_yaml);
}

const Coscheduling* Coscheduling::of(const Framework& framework) {
  return framework.find_plugin<Coscheduling>();
}

void Coscheduling::share_view(CycleState& state, GangView view) const { state.write(state_slot(), std::move(view)); }

const GangView* Coscheduling::view(const CycleState& state) const { return state.read<GangView>(state_slot()); }

PluginStatus Coscheduling::pre_filter(CycleState& state, const PodInfo&, PreFilterResult&) const {
  const GangView* gang = view(state);
  if (gang == nullptr) return {};
  // Neither an unreadable gang nor a missing member is something preemption could fix.
  if (!gang->invalid.empty()) return PluginStatus::unresolvable(gang->invalid);
  if (gang->not_ready) return PluginStatus::unresolvable(*gang->not_ready);
  return {};
}

PostFilterResult Coscheduling::post_filter(CycleState& state, const PodInfo&, const NodeStatuses&) const {
  PostFilterResult out;
  out.status = PluginStatus(Code::unschedulable);
  const GangView* gang = view(state);
  if (gang == nullptr || !gang->spec || !gang->failure_rejects_group || gang->skip_reject) return out;
  GangView rejected = *gang;
  rejected.rejected_at_post_filter = true;
  out.status = PluginStatus::unschedulable("Gang " + deviceshare::go_quote(gang->spec->id) +
                                           " gets rejected due to pod is unschedulable");
  out.message = out.status.message();
  share_view(state, std::move(rejected));
  return out;
}

PermitResult Coscheduling::permit(CycleState& state, const PodInfo&, const std::string&) const {
  PermitResult result;
  const GangView* gang = view(state);
  if (gang == nullptr || !gang->spec || gang->permit_allowed) return result;
  result.status = PluginStatus(Code::wait);
  result.timeout = gang->spec->wait_time;
  return result;
}

std::vector<ClusterEvent> Coscheduling::events_to_register() const {
  return {{EventResource::pod, kAdd | kDelete, "GangMemberAddOrPodDelete"},
          {EventResource::node, kAdd | kUpdateNodeAllocatable, "NodeAddOrAllocatableChange"},
          // PodGroups come as "other" objects, with Devices and NodeResourceTopologies.
          {EventResource::other, kAdd | kUpdateOther, "PodGroupAddOrUpdate"}};
}

}  // namespace troupe::plugins::coscheduling
