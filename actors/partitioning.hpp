#pragma once
// Which NODE actor owns a node: a stable hash of its name. The INFORMER uses
// it to route node and pod events, the SCHEDULING CYCLE to find the actor
// that Reserves on the chosen node; both must agree, so both call this.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace troupe::actors {

/// FNV-1a: stable across runs and platforms (std::hash is not guaranteed to be).
inline size_t partition_of(std::string_view node_name, size_t partitions) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : node_name) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return partitions == 0 ? 0 : static_cast<size_t>(h % partitions);
}

}  // namespace troupe::actors
