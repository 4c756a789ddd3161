#include "plugins/volumes/volume_plugins.hpp"

#include "plugins/volumes/node_volume_limits.hpp"
#include "plugins/volumes/volume_binding.hpp"
#include "plugins/volumes/volume_restrictions.hpp"
#include "plugins/volumes/volume_zone.hpp"

namespace troupe::plugins::volumes {

bool reads_volumes(const Framework& framework) {
  for (size_t slot = 0; slot < framework.plugin_count(); ++slot) {
    const Plugin* plugin = framework.plugin_at(slot);
    if (dynamic_cast<const VolumeBinding*>(plugin) != nullptr || dynamic_cast<const VolumeZone*>(plugin) != nullptr ||
        dynamic_cast<const VolumeRestrictions*>(plugin) != nullptr ||
        dynamic_cast<const NodeVolumeLimits*>(plugin) != nullptr)
      return true;
  }
  return false;
}

}  // namespace troupe::plugins::volumes
