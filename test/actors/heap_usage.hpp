#pragma once
// Live heap of the test process, for the memory probe (memory_probe_test.cpp):
// bytes in use from mallinfo2 (chunk sizes, so malloc's per-chunk overhead is
// included, as in RSS) and the number of live operator-new allocations, which
// heap_usage.cpp counts by replacing the global operator new/delete of the
// troupe_test_actors binary. Differences between two samples attribute bytes
// and allocations to whatever was built (or freed) in between.

#include <cstdint>

namespace troupe::actors::testing {

struct HeapSample {
  int64_t bytes = 0;        // mallinfo2: uordblks + hblkhd
  int64_t allocations = 0;  // live operator-new blocks (malloc calls made directly are not counted)
};

HeapSample heap_now();

inline HeapSample operator-(const HeapSample& a, const HeapSample& b) {
  return HeapSample{a.bytes - b.bytes, a.allocations - b.allocations};
}

}  // namespace troupe::actors::testing
