#include "test/actors/heap_usage.hpp"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

// The replaced operators count blocks only; sizes come from mallinfo2, so the
// allocator's behaviour (and the bytes measured) is exactly the production one.
// The array, sized and nothrow forms are replaced too: libstdc++'s own call
// these two, but a sanitizer runtime brings its own, which must not free
// what this malloc'ed (or the other way round).
namespace {
std::atomic<int64_t> live_blocks{0};
}  // namespace

void* operator new(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  live_blocks.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  live_blocks.fetch_sub(1, std::memory_order_relaxed);
  std::free(p);
}

void* operator new[](std::size_t size) { return ::operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return ::operator new(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return ::operator new(size, tag); }
void operator delete[](void* p) noexcept { ::operator delete(p); }
void operator delete(void* p, std::size_t) noexcept { ::operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { ::operator delete(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { ::operator delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { ::operator delete(p); }

namespace troupe::actors::testing {

HeapSample heap_now() {
  const struct mallinfo2 info = mallinfo2();
  return HeapSample{static_cast<int64_t>(info.uordblks + info.hblkhd), live_blocks.load(std::memory_order_relaxed)};
}

}  // namespace troupe::actors::testing
