#include "plugins/deviceshare/device_requests.hpp"

#include <algorithm>
#include <vector>

#include "model/pod_requests.hpp"
#include "model/resource_names.hpp"

namespace troupe::plugins::deviceshare {

namespace rn = resource_names;

namespace {

// Combination flags, in Koordinator's order (deviceshare/utils.go).
enum Flag : uint32_t {
  kNvidiaGpu = 1u << 0,
  kAmdGpu = 1u << 1,
  kHygonDcu = 1u << 2,
  kKoordGpu = 1u << 3,
  kGpuShared = 1u << 4,
  kGpuCore = 1u << 5,
  kGpuMemory = 1u << 6,
  kGpuMemoryRatio = 1u << 7,
  kNpuCore = 1u << 8,
  kNpuCpu = 1u << 9,
  kNpuDvpp = 1u << 10,
  kFpga = 1u << 11,
  kRdma = 1u << 12,
};

struct NameFlag {
  std::string_view name;
  uint32_t flag;
};

constexpr NameFlag kGpuNames[] = {
    {rn::kNvidiaGpu, kNvidiaGpu},   {rn::kAmdGpu, kAmdGpu},           {rn::kHygonDcu, kHygonDcu},
    {rn::kKoordGpu, kKoordGpu},     {rn::kGpuShared, kGpuShared},     {rn::kGpuCore, kGpuCore},
    {rn::kGpuMemory, kGpuMemory},   {rn::kGpuMemoryRatio, kGpuMemoryRatio}, {rn::kHuaweiNpuCore, kNpuCore},
    {rn::kHuaweiNpuCpu, kNpuCpu},   {rn::kHuaweiNpuDvpp, kNpuDvpp},
};
constexpr NameFlag kRdmaNames[] = {{rn::kRdma, kRdma}};
constexpr NameFlag kFpgaNames[] = {{rn::kFpga, kFpga}};

template <size_t N>
uint32_t flag_of(const NameFlag (&names)[N], std::string_view name) {
  for (const auto& nf : names)
    if (nf.name == name) return nf.flag;
  return 0;
}

enum class Check { always, percentage, gpu_shared, huawei_shared };

struct Combination {
  uint32_t flags;
  Check check;
};

constexpr Combination kValidCombinations[] = {
    {kNvidiaGpu, Check::always},
    {kAmdGpu, Check::always},
    {kHygonDcu, Check::always},
    {kKoordGpu, Check::always},
    {kGpuMemory, Check::percentage},
    {kGpuMemoryRatio, Check::percentage},
    {kGpuCore | kGpuMemory, Check::percentage},
    {kGpuCore | kGpuMemoryRatio, Check::percentage},
    {kNpuCore | kGpuMemoryRatio, Check::percentage},
    {kGpuShared | kGpuMemory, Check::gpu_shared},
    {kGpuShared | kGpuMemoryRatio, Check::gpu_shared},
    {kGpuShared | kGpuCore | kGpuMemory, Check::gpu_shared},
    {kGpuShared | kGpuCore | kGpuMemoryRatio, Check::gpu_shared},
    {kGpuShared | kNpuCore | kNpuCpu | kGpuMemory, Check::huawei_shared},
    {kGpuShared | kNpuCore | kNpuCpu | kNpuDvpp | kGpuMemory, Check::huawei_shared},
    {kFpga, Check::always},
    {kRdma, Check::always},
};

const Quantity* find(const ResourceList& list, std::string_view name) {
  auto it = list.find(name);
  return it == list.end() ? nullptr : &it->second;
}

// ValidateMultiple(a, b) && ValidateLessThan100Times(a, b).
bool multiple_within_100_times(const Quantity& a, const Quantity& b) {
  const int64_t av = a.value();
  const int64_t bv = b.value();
  if (bv <= 0) return false;  // Go would divide by zero; such a request is never valid
  return av % bv == 0 && av / bv <= 100;
}

bool percentage_check(const ResourceList& r) {
  const Quantity* core = find(r, rn::kGpuCore);
  const Quantity* ratio = find(r, rn::kGpuMemoryRatio);
  return (core == nullptr || is_percentage_amount(*core)) && (ratio == nullptr || is_percentage_amount(*ratio));
}

bool gpu_shared_check(const ResourceList& r) {
  const Quantity* shared = find(r, rn::kGpuShared);
  if (shared == nullptr) return false;
  const Quantity* core = find(r, rn::kGpuCore);
  const Quantity* ratio = find(r, rn::kGpuMemoryRatio);
  if (core != nullptr && !multiple_within_100_times(*core, *shared)) return false;
  if (ratio != nullptr && !multiple_within_100_times(*ratio, *shared)) return false;
  return true;
}

bool huawei_shared_check(const ResourceList& r) {
  const Quantity* shared = find(r, rn::kGpuShared);
  if (shared == nullptr) return false;
  if (shared->value() > 1) return false;  // multi-card NPU share is unsupported on the device side
  const Quantity* dvpp = find(r, rn::kHuaweiNpuDvpp);
  return dvpp == nullptr || dvpp->value() <= 100;
}

bool passes(Check check, const ResourceList& r) {
  switch (check) {
    case Check::always: return true;
    case Check::percentage: return percentage_check(r);
    case Check::gpu_shared: return gpu_shared_check(r);
    case Check::huawei_shared: return huawei_shared_check(r);
  }
  return false;
}

std::string invalid_combination_message(const ResourceList& r) {
  std::string names;
  for (const auto& [name, q] : r) {  // sorted by name
    if (!names.empty()) names += ' ';
    names += name;
  }
  return "invalid resource device requests: [" + names + "]";
}

bool unit_validated(std::string_view name) { return name == rn::kKoordGpu || name == rn::kFpga || name == rn::kRdma; }

// ValidateDeviceRequest: the per-name unit check first, then the combination.
Result<uint32_t> validate(const ResourceList& masked, uint32_t combination) {
  for (const auto& [name, q] : masked) {
    if (unit_validated(name) && !is_percentage_amount(q))
      return Error{"invalid resource unit " + name + ": " + q.to_string()};
  }
  for (const auto& c : kValidCombinations)
    if (c.flags == combination) {
      if (passes(c.check, masked)) return combination;
      break;
    }
  return Error{invalid_combination_message(masked)};
}

Quantity hundreds(const Quantity& count) { return Quantity::from_value(count.value() * 100); }

// ConvertDeviceRequest (ResourceCombinationsMapper).
ResourceList convert(const ResourceList& r, uint32_t combination) {
  auto copy = [&](ResourceList& out, std::string_view name) {
    if (const Quantity* q = find(r, name)) out.emplace(std::string(name), *q);
  };
  ResourceList out;
  if (combination == kNvidiaGpu || combination == kAmdGpu || combination == kHygonDcu) {
    const std::string_view whole = combination == kNvidiaGpu ? rn::kNvidiaGpu
                                   : combination == kAmdGpu  ? rn::kAmdGpu
                                                             : rn::kHygonDcu;
    const Quantity q = hundreds(*find(r, whole));
    out.emplace(std::string(rn::kGpuCore), q);
    out.emplace(std::string(rn::kGpuMemoryRatio), q);
    return out;
  }
  if (combination == kKoordGpu) {
    const Quantity& q = *find(r, rn::kKoordGpu);
    out.emplace(std::string(rn::kGpuCore), q);
    out.emplace(std::string(rn::kGpuMemoryRatio), q);
    return out;
  }
  // Every other valid combination passes its names through.
  for (std::string_view name : {rn::kGpuShared, rn::kGpuCore, rn::kGpuMemory, rn::kGpuMemoryRatio, rn::kHuaweiNpuCore,
                                rn::kHuaweiNpuCpu, rn::kHuaweiNpuDvpp, rn::kRdma, rn::kFpga})
    copy(out, name);
  return out;
}

template <size_t N>
Result<std::optional<TypeRequest>> request_for(const ResourceList& pod, const NameFlag (&names)[N]) {
  ResourceList masked;
  uint32_t combination = 0;
  for (const auto& nf : names) {
    const Quantity* q = find(pod, nf.name);
    if (q == nullptr) continue;
    masked.emplace(std::string(nf.name), *q);
    combination |= nf.flag;
  }
  if (masked.is_zero()) return std::optional<TypeRequest>();
  auto valid = validate(masked, combination);
  if (!valid) return valid.error();
  TypeRequest out;
  out.resources = convert(masked, combination);
  out.amounts = DeviceAmounts::from_list(out.resources);
  return std::optional<TypeRequest>(std::move(out));
}

}  // namespace

bool PodDeviceRequests::empty() const {
  return std::none_of(by_type.begin(), by_type.end(), [](const auto& r) { return r.has_value(); });
}

bool is_percentage_amount(const Quantity& q) {
  const int64_t v = q.value();
  return !(v > 100 && v % 100 != 0);
}

std::string_view canonical_device_resource_name(std::string_view name) {
  constexpr std::string_view kDeprecatedPrefix = "kubernetes.io/";
  if (name.substr(0, kDeprecatedPrefix.size()) != kDeprecatedPrefix) return name;
  const std::string_view rest = name.substr(kDeprecatedPrefix.size());
  for (std::string_view current : {rn::kRdma, rn::kFpga, rn::kKoordGpu, rn::kGpuCore, rn::kGpuMemory,
                                   rn::kGpuMemoryRatio}) {
    if (current.substr(current.find('/') + 1) == rest) return current;
  }
  return name;
}

Result<PodDeviceRequests> device_requests_from(const ResourceList& pod_requests) {
  // Zero entries removed (quotav1.RemoveZeros), deprecated names renamed.
  ResourceList requests;
  for (const auto& [name, q] : pod_requests) {
    if (q.is_zero()) continue;
    requests[std::string(canonical_device_resource_name(name))] = q;
  }
  PodDeviceRequests out;
  struct TypeNames {
    DeviceType type;
    Result<std::optional<TypeRequest>> (*fn)(const ResourceList&);
  };
  const TypeNames order[] = {
      {DeviceType::gpu, [](const ResourceList& r) { return request_for(r, kGpuNames); }},
      {DeviceType::rdma, [](const ResourceList& r) { return request_for(r, kRdmaNames); }},
      {DeviceType::fpga, [](const ResourceList& r) { return request_for(r, kFpgaNames); }},
  };
  for (const auto& tn : order) {
    auto r = tn.fn(requests);
    if (!r) return r.error();
    out.by_type[type_index(tn.type)] = std::move(*r);
  }
  return out;
}

Result<PodDeviceRequests> get_pod_device_requests(const PodSpec& spec) {
  return device_requests_from(pod_requests(spec));
}

GpuPerCard split_gpu_request(const ResourceList& gpu) {
  GpuPerCard out;
  const Quantity* shared = find(gpu, rn::kGpuShared);
  const Quantity* ratio = find(gpu, rn::kGpuMemoryRatio);
  if (shared != nullptr && shared->value() > 0) {
    out.count = shared->value();
  } else if (ratio != nullptr && ratio->value() > 100 && ratio->value() % 100 == 0) {
    out.count = ratio->value() / 100;
  }
  auto per_card = [&](std::string_view name, Quantity::Format format) {
    if (const Quantity* q = find(gpu, name))
      out.per_gpu.emplace(std::string(name), Quantity::from_value(q->value() / out.count, format));
  };
  per_card(rn::kGpuCore, Quantity::Format::decimal_si);
  per_card(rn::kHuaweiNpuCore, Quantity::Format::decimal_si);
  per_card(rn::kHuaweiNpuCpu, Quantity::Format::decimal_si);
  per_card(rn::kHuaweiNpuDvpp, Quantity::Format::decimal_si);
  if (ratio != nullptr) {
    const int64_t per = ratio->value() / out.count;
    out.shared = per < 100;
    out.per_gpu.emplace(std::string(rn::kGpuMemoryRatio), Quantity::from_value(per));
  } else if (const Quantity* memory = find(gpu, rn::kGpuMemory)) {
    out.shared = true;  // a memory request always shares the card, even a whole card's worth
    out.per_gpu.emplace(std::string(rn::kGpuMemory),
                        Quantity::from_value(memory->value() / out.count, Quantity::Format::binary_si));
  }
  out.amounts = DeviceAmounts::from_list(out.per_gpu);
  return out;
}

}  // namespace troupe::plugins::deviceshare
