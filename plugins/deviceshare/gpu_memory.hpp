#pragma once
// fillGPUTotalMem for one card (devicehandler_gpu.go): a GPU request carries
// gpu-memory or gpu-memory-ratio; what is recorded for a card carries both,
// one derived from the other against the card's gpu-memory:
//   bytes = ratio × totalMemory / 100                  (integer, BinarySI)
//   ratio = int64(float64(bytes) / float64(totalMemory) × 100)
// A request with neither gets gpu-memory 0 (as Koordinator writes).
//
// The allocator checks this completed request against a card's free
// capacity. Koordinator checks only the dimension the pod named, which lets
// a memory-sized and a ratio-sized pod together exceed a card's memory; with
// pods sized one way only the two checks agree.

#include "plugins/deviceshare/device_amounts.hpp"

namespace troupe::plugins::deviceshare {

DeviceAmounts fill_gpu_memory(const DeviceAmounts& request, const DeviceAmounts& card_total);

}  // namespace troupe::plugins::deviceshare
