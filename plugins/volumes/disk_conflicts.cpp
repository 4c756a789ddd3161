#include "plugins/volumes/disk_conflicts.hpp"

#include <algorithm>

namespace troupe::plugins::volumes {

namespace {

bool share_a_monitor(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return std::any_of(a.begin(), a.end(),
                     [&b](const std::string& monitor) { return std::find(b.begin(), b.end(), monitor) != b.end(); });
}

}  // namespace

bool disks_conflict(const PodInlineDisk& disk, const PodInlineDisk& existing) {
  using Kind = PodInlineDisk::Kind;
  if (disk.kind != existing.kind || disk.id != existing.id) return false;
  const bool both_read_only = disk.read_only && existing.read_only;
  switch (disk.kind) {
    case Kind::aws_elastic_block_store:
      return true;
    case Kind::rbd:
      return share_a_monitor(disk.monitors, existing.monitors) && !both_read_only;
    case Kind::gce_persistent_disk:
    case Kind::iscsi:
      return !both_read_only;
  }
  return false;
}

bool conflicts_with(const std::vector<PodInlineDisk>& disks, const Pod& placed) {
  for (const PodInlineDisk& disk : disks)
    for (const PodInlineDisk& existing : placed.spec.inline_disks)
      if (disks_conflict(disk, existing)) return true;
  return false;
}

}  // namespace troupe::plugins::volumes
