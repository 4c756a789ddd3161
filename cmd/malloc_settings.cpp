#include "cmd/malloc_settings.hpp"

#include <malloc.h>

#include <cstdlib>

namespace troupe::cmd {

namespace {

// Free memory kept at the top of a heap before it is given back.
constexpr int kTrimThreshold = 256 << 20;
// Extra memory a heap grows by when it must grow.
constexpr int kTopPad = 64 << 20;
// Allocations from this size on get their own mapping (setting any of these
// also fixes glibc's otherwise adaptive threshold, 128 KiB at start).
constexpr int kMmapThreshold = 8 << 20;

}  // namespace

void apply_malloc_settings() {
  if (std::getenv("GLIBC_TUNABLES") != nullptr) return;
  mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
  mallopt(M_TOP_PAD, kTopPad);
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
}

}  // namespace troupe::cmd
