#include "plugins/registry.hpp"

#include <memory>
#include <optional>
#include <stdexcept>

#include "plugins/common/args.hpp"
#include "plugins/coscheduling/coscheduling_plugin.hpp"
#include "plugins/default_binder/default_binder.hpp"
#include "plugins/default_prebind/default_prebind.hpp"
#include "plugins/default_preemption/default_preemption_plugin.hpp"
#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "plugins/deviceshare/numa_hint_adapter.hpp"
#include "plugins/elastic_quota/elastic_quota_plugin.hpp"
#include "plugins/gpushare/gpushare_plugin.hpp"
#include "plugins/image_locality/image_locality.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"
#include "plugins/load_aware/load_aware_plugin.hpp"
#include "plugins/node_affinity/node_affinity.hpp"
#include "plugins/node_name/node_name.hpp"
#include "plugins/node_numa_resource/node_numa_resource_plugin.hpp"
#include "plugins/node_ports/node_ports.hpp"
#include "plugins/node_resources_balanced_allocation/balanced_allocation.hpp"
#include "plugins/node_resources_fit/node_resources_fit.hpp"
#include "plugins/node_resources_fit_plus/node_resources_fit_plus.hpp"
#include "plugins/node_unschedulable/node_unschedulable.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "plugins/priority_sort/priority_sort.hpp"
#include "plugins/reservation/reservation_plugin.hpp"
#include "plugins/reservation/reserved_capacity.hpp"
#include "plugins/scarce_resource_avoidance/scarce_resource_avoidance.hpp"
#include "plugins/scheduling_gates/scheduling_gates.hpp"
#include "plugins/scheduling_hint/scheduling_hint.hpp"
#include "plugins/taint_toleration/taint_toleration.hpp"
#include "plugins/volumes/node_volume_limits.hpp"
#include "plugins/volumes/volume_binding.hpp"
#include "plugins/volumes/volume_restrictions.hpp"
#include "plugins/volumes/volume_zone.hpp"

namespace troupe::plugins {

namespace {

// NodeNUMAResource merges DeviceShare's NUMA hints, and DeviceShare's Reserve
// allocates within the affinity NodeNUMAResource's Reserve chose. The
// Framework builds a profile's plugins independently and in any order, so the
// two factories meet here: the adapter exists before either plugin, and the
// NUMA plugin is noted for DeviceShare's affinity source.
struct NumaPeers {
  std::shared_ptr<deviceshare::DeviceShareNumaHints> device_hints =
      std::make_shared<deviceshare::DeviceShareNumaHints>();
  const numa::NodeNUMAResource* numa = nullptr;
};

PluginFactory numa_factory(std::shared_ptr<NumaPeers> peers) {
  if (!peers) return numa::NodeNUMAResource::make;
  return [peers](const YAML::Node& args) {
    auto plugin = numa::NodeNUMAResource::make_with_hint_providers(args, {peers->device_hints});
    if (plugin) peers->numa = dynamic_cast<const numa::NodeNUMAResource*>(plugin->get());
    return plugin;
  };
}

PluginFactory deviceshare_factory(std::shared_ptr<NumaPeers> peers) {
  if (!peers) return deviceshare::DeviceShare::make;
  return [peers](const YAML::Node& args) {
    // Both plugins belong to the same Framework, so the NUMA plugin lives as
    // long as the DeviceShare asking it.
    auto affinity = [peers](const CycleState& state) -> std::optional<uint64_t> {
      if (peers->numa == nullptr) return std::nullopt;
      return peers->numa->reserved_affinity(state);
    };
    auto plugin = deviceshare::DeviceShare::make_with_numa_affinity(args, affinity);
    if (plugin) peers->device_hints->attach(dynamic_cast<const deviceshare::DeviceShare*>(plugin->get()));
    return plugin;
  };
}

// NodeResourcesFit sees a node's reservation holds through the profile's
// Reservation plugin (reservation/reserved_capacity.hpp): both factories share
// one ReservedCapacity, which the Reservation plugin attaches itself to.
PluginFactory fit_factory(std::shared_ptr<reservation::ReservedCapacity> reserved) {
  if (!reserved) return NodeResourcesFit::make;
  return [reserved](const YAML::Node& args) { return NodeResourcesFit::make_with_reserved_capacity(args, reserved); };
}

PluginFactory reservation_factory(std::shared_ptr<reservation::ReservedCapacity> reserved) {
  if (!reserved) return reservation::ReservationPlugin::make;
  return [reserved](const YAML::Node& args) {
    auto plugin = reservation::ReservationPlugin::make(args);
    if (plugin) reserved->attach(dynamic_cast<const reservation::ReservationPlugin*>(plugin->get()));
    return plugin;
  };
}

/// `peers`, `reserved`: null for the catalog; make_frameworks passes one of
/// each per profile so that profile's cooperating plugins are wired together.
Registry build_in_tree_registry(const std::shared_ptr<NumaPeers>& peers = nullptr,
                                const std::shared_ptr<reservation::ReservedCapacity>& reserved = nullptr) {
  struct Line {
    const char* name;
    PluginFactory factory;
    int32_t default_weight;
    bool enabled_by_default = true;  // in the default profile (as multiPoint)
  };
  // Order = kube-scheduler's default multiPoint order for the plugins both have.
  const Line lines[] = {
      {names::kSchedulingGates, build_without_args<SchedulingGates>, 0},
      {names::kPrioritySort, build_without_args<PrioritySort>, 0},
      {names::kNodeUnschedulable, build_without_args<NodeUnschedulable>, 0},
      {names::kNodeName, build_without_args<NodeName>, 0},
      {names::kTaintToleration, build_without_args<TaintToleration>, 3},
      {names::kNodeAffinity, NodeAffinity::make, 2},
      {names::kNodePorts, build_without_args<NodePorts>, 0},
      {names::kNodeResourcesFit, fit_factory(reserved), 1},
      {volumes::VolumeRestrictions::kName, build_without_args<volumes::VolumeRestrictions>, 0},
      {volumes::NodeVolumeLimits::kName, build_without_args<volumes::NodeVolumeLimits>, 0},
      {volumes::VolumeBinding::kName, volumes::VolumeBinding::make, 0},
      {volumes::VolumeZone::kName, build_without_args<volumes::VolumeZone>, 0},
      {spread::PodTopologySpread::kName, spread::PodTopologySpread::make, 2},
      {affinity::InterPodAffinity::kName, affinity::InterPodAffinity::make, 2},
      {preemption::DefaultPreemption::kName, preemption::DefaultPreemption::make, 0},
      {names::kNodeResourcesBalancedAllocation, NodeResourcesBalancedAllocation::make, 1},
      {names::kImageLocality, build_without_args<image_locality::ImageLocality>, 1},
      {names::kNodeResourcesFitPlus, NodeResourcesFitPlus::make, 1},
      {names::kScarceResourceAvoidance, ScarceResourceAvoidance::make, 1},
      // Not in the default profile: it needs koordlet's NodeMetrics (Koordinator's profile enables it).
      {load_aware::LoadAwareScheduling::kName, load_aware::LoadAwareScheduling::make, 1, false},
      // Koordinator's reference profile runs it first at PreFilter.
      {scheduling_hint::SchedulingHintPlugin::kName, scheduling_hint::SchedulingHintPlugin::make, 0},
      // Before NodeNUMAResource and DeviceShare: their Reserve restores the reservation this one nominates.
      {reservation::ReservationPlugin::kName, reservation_factory(reserved), 1},
      // Before DeviceShare: its Reserve chooses the NUMA affinity DeviceShare's Reserve uses.
      {numa::NodeNUMAResource::kName, numa_factory(peers), 1},
      {deviceshare::DeviceShare::kName, deviceshare_factory(peers), 1},
      {gpushare::AliyunGpuShare::kName, gpushare::AliyunGpuShare::make, 0},
      {coscheduling::Coscheduling::kName, coscheduling::Coscheduling::make, 0},
      // Not in the default profile: quotas are an operator's choice (Koordinator's profile enables it).
      {elastic_quota::ElasticQuotaPlugin::kName, elastic_quota::ElasticQuotaPlugin::make, 0, false},
      // Not in the default profile: the Binding carries PreBind's annotations in one write.
      {names::kDefaultPreBind, build_without_args<DefaultPreBind>, 0, false},
      {names::kDefaultBinder, build_without_args<DefaultBinder>, 0},
  };
  Registry registry;
  for (const auto& line : lines) {
    Status added = registry.add(line.name, line.factory, line.enabled_by_default, line.default_weight);
    // The table above is code, not input: a failure here is a programming error.
    if (!added) throw std::logic_error("in-tree registry: " + added.message());
  }
  return registry;
}

}  // namespace

const Registry& in_tree_registry() {
  static const Registry registry = build_in_tree_registry();
  return registry;
}

const std::vector<std::string>& plugins_implemented_elsewhere() {
  static const std::vector<std::string> names = {
      // kube-scheduler in-tree plugins.
      "EBSLimits", "GCEPDLimits",
      "AzureDiskLimits", "CinderLimits", "DynamicResources"};
  return names;
}

const config::PluginCatalog& in_tree_catalog() {
  static const config::PluginCatalog catalog = in_tree_registry().catalog(plugins_implemented_elsewhere());
  return catalog;
}

Result<config::SchedulerConfiguration> load_scheduler_configuration(const std::string& path) {
  return config::load_scheduler_configuration(path, in_tree_catalog());
}

Result<config::SchedulerConfiguration> parse_scheduler_configuration(const std::string& yaml_text) {
  return config::parse_scheduler_configuration(yaml_text, in_tree_catalog());
}

Result<std::vector<Framework>> make_frameworks(const config::SchedulerConfiguration& config) {
  std::vector<Framework> frameworks;
  for (const auto& profile : config.profiles) {
    auto peers = std::make_shared<NumaPeers>();
    auto reserved = std::make_shared<reservation::ReservedCapacity>();
    const Registry registry = build_in_tree_registry(peers, reserved);
    *peers = NumaPeers{};  // forget the instances Registry::add built to learn extension points
    reserved->attach(nullptr);
    auto framework = Framework::create(profile, registry);
    if (!framework) return Error{framework.message()};
    frameworks.push_back(std::move(framework).value());
  }
  return frameworks;
}

}  // namespace troupe::plugins
