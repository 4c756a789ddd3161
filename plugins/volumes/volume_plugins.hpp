#pragma once
// Which profiles schedule volumes: those that run VolumeBinding, VolumeZone
// or VolumeRestrictions need the claims, volumes and storage classes followed.

#include "plugins/framework/framework.hpp"

namespace troupe::plugins::volumes {

bool reads_volumes(const Framework& framework);

}  // namespace troupe::plugins::volumes
