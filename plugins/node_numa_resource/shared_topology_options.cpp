#include "plugins/node_numa_resource/shared_topology_options.hpp"

#include <cstdint>

#include "plugins/common/content_key.hpp"
#include "plugins/common/shared_by_key.hpp"
#include "plugins/node_numa_resource/cpu_topology_cache.hpp"

namespace troupe::plugins::numa {

namespace {

SharedByKey<TopologyOptions>& shared_options() {
  static SharedByKey<TopologyOptions> cache;
  return cache;
}

// The cpu-topology annotation by the identity of its parsed topology (the
// process-wide cache shares one per distinct text), so the key does not hold
// the text (kilobytes). The topology is returned to be held until the
// options are built: they then hold it, and while they live no other text
// can get its address. A text that does not parse is keyed by its error.
std::shared_ptr<const CpuTopology> write_cpu_topology(ContentKey& key, const std::string& annotation) {
  auto topology = process_cpu_topology_cache().get(annotation);
  if (!topology) {
    key.text("invalid").text(topology.message());
    return nullptr;
  }
  if (!(*topology)->valid()) {  // the options ignore it, as if there were no annotation
    key.text("-");
    return nullptr;
  }
  key.text("topology").number(static_cast<int64_t>(reinterpret_cast<std::uintptr_t>(topology->get())));
  return *topology;
}

/// topology_options_key, and the parsed topology it names (held by the caller).
std::string options_key(const NodeResourceTopology& nrt, std::shared_ptr<const CpuTopology>& topology) {
  ContentKey key;
  const auto& annotations = nrt.meta.annotations;
  for (const char* name : {kAnnotationCpuTopology, kAnnotationKubeletCpuManagerPolicy, kAnnotationPodCpuAllocs,
                           kAnnotationNodeReservation, kAnnotationSystemQos}) {
    auto it = annotations.find(name);
    if (it == annotations.end()) {
      key.text("-");
    } else if (name == kAnnotationCpuTopology) {
      topology = write_cpu_topology(key, it->second);
    } else {
      key.text(it->second);
    }
  }
  key.number(static_cast<int64_t>(nrt.topology_policies.size()));
  for (const auto& p : nrt.topology_policies) key.text(p);
  for (const auto& zone : nrt.zones) {
    if (zone.type != "Node") continue;  // read_zones reads NUMA zones only: name and allocatable
    key.text(zone.name).number(static_cast<int64_t>(zone.resources.size()));
    for (const auto& r : zone.resources) key.text(r.name).text(r.allocatable.to_string());
  }
  return key.take();
}

}  // namespace

std::string topology_options_key(const NodeResourceTopology& nrt) {
  std::shared_ptr<const CpuTopology> topology;
  return options_key(nrt, topology);
}

std::shared_ptr<const TopologyOptions> shared_topology_options(const NodeResourceTopology& nrt) {
  std::shared_ptr<const CpuTopology> topology;  // held until the options hold it
  return shared_options().get(options_key(nrt, topology), [&] {
    return std::make_shared<const TopologyOptions>(build_topology_options(nrt));
  });
}

}  // namespace troupe::plugins::numa
