#include "plugins/node_numa_resource/shared_topology_options.hpp"

#include "plugins/common/content_key.hpp"
#include "plugins/common/shared_by_key.hpp"

namespace troupe::plugins::numa {

namespace {

void write_attributes(ContentKey& key, const std::vector<NrtAttribute>& attributes) {
  key.number(static_cast<int64_t>(attributes.size()));
  for (const auto& a : attributes) key.text(a.name).text(a.value);
}

void write_zone(ContentKey& key, const NrtZone& zone) {
  key.text(zone.name).text(zone.type).text(zone.parent);
  key.number(static_cast<int64_t>(zone.costs.size()));
  for (const auto& c : zone.costs) key.text(c.name).number(c.value);
  write_attributes(key, zone.attributes);
  key.number(static_cast<int64_t>(zone.resources.size()));
  for (const auto& r : zone.resources)
    key.text(r.name).text(r.capacity.to_string()).text(r.allocatable.to_string()).text(r.available.to_string());
}

SharedByKey<TopologyOptions>& shared_options() {
  static SharedByKey<TopologyOptions> cache;
  return cache;
}

}  // namespace

std::string topology_options_key(const NodeResourceTopology& nrt) {
  ContentKey key;
  key.strings(nrt.meta.annotations);
  key.number(static_cast<int64_t>(nrt.topology_policies.size()));
  for (const auto& p : nrt.topology_policies) key.text(p);
  write_attributes(key, nrt.attributes);
  key.number(static_cast<int64_t>(nrt.zones.size()));
  for (const auto& zone : nrt.zones) write_zone(key, zone);
  return key.take();
}

std::shared_ptr<const TopologyOptions> shared_topology_options(const NodeResourceTopology& nrt) {
  return shared_options().get(topology_options_key(nrt), [&] {
    return std::make_shared<const TopologyOptions>(build_topology_options(nrt));
  });
}

}  // namespace troupe::plugins::numa
