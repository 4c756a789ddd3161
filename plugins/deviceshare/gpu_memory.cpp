#include "plugins/deviceshare/gpu_memory.hpp"

namespace troupe::plugins::deviceshare {

DeviceAmounts fill_gpu_memory(const DeviceAmounts& request, const DeviceAmounts& card_total) {
  const bool has_memory = request.has(DeviceResource::gpu_memory);
  const bool has_ratio = request.has(DeviceResource::gpu_memory_ratio);
  if (has_memory && has_ratio) return request;
  DeviceAmounts out = request;
  const int64_t total_memory = card_total.value(DeviceResource::gpu_memory);
  if (has_memory) {
    const int64_t bytes = request.value(DeviceResource::gpu_memory);
    // Go divides in float64; a card reporting no memory would give ±Inf there.
    const int64_t ratio = total_memory == 0 ? 0
                                            : static_cast<int64_t>(static_cast<double>(bytes) /
                                                                   static_cast<double>(total_memory) * 100);
    out.set_value(DeviceResource::gpu_memory_ratio, ratio);
  } else {
    const int64_t ratio = request.value(DeviceResource::gpu_memory_ratio);
    const __int128 bytes = static_cast<__int128>(ratio) * total_memory / 100;
    out.set_value(DeviceResource::gpu_memory, static_cast<int64_t>(bytes));
  }
  return out;
}

}  // namespace troupe::plugins::deviceshare
