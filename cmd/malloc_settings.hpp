#pragma once
// glibc malloc settings for troupe's processes. The scheduler and the API
// server allocate and free many small objects per pod on several threads;
// glibc's defaults give freed memory at the top of each thread's heap back to
// the kernel (trim threshold 128 KiB) and grow a heap by the bare minimum, so
// a steady stream of pods shrinks and regrows the heaps: mprotect/munmap
// calls and page faults on pages just given back. Measured end to end
// (docs/benchmarks.md, Session 33), keeping the heaps cost less CPU per pod.
//
// The price is that memory freed after a peak stays resident until the
// process ends, and the peak grows by a few MiB (2-3 MiB for the scheduler
// binding 5,000 pods). GLIBC_TUNABLES set in the environment still win: these
// are applied only where it sets none.

namespace troupe::cmd {

/// Applies the settings (once, at the start of main).
void apply_malloc_settings();

}  // namespace troupe::cmd
