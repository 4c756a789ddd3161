#include "plugins/reservation/reservation_metrics.hpp"

#include "plugins/reservation/reservation_status.hpp"

namespace troupe::plugins::reservation {

namespace {

struct Amount {
  double value = 0;
  const char* unit = "raw";
};

/// Koordinator's units: cpu in cores, memory in GiB, anything else as is.
Amount amount_of(const std::string& resource, const Quantity* quantity) {
  constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;
  if (resource == "cpu") return {quantity ? static_cast<double>(quantity->milli_value()) / 1000.0 : 0, "core"};
  if (resource == "memory") return {quantity ? static_cast<double>(quantity->value()) / kBytesPerGiB : 0, "Gi"};
  return {quantity ? static_cast<double>(quantity->value()) : 0, "raw"};
}

}  // namespace

MetricSeries reservation_phase_series(const Reservation& r) {
  const std::string current = reservation_phase(r);
  MetricSeries out;
  for (const char* phase : {"Pending", "Available", "Succeeded", "Failed"})
    out.push_back({{r.meta.name, phase}, current == phase ? 1.0 : 0.0});
  return out;
}

MetricSeries reservation_resource_series(const Reservation& r) {
  MetricSeries out;
  for (const auto& [name, quantity] : r.status.allocatable) {
    const std::string& resource = name.str();
    auto used = r.status.allocated.find(resource);
    const Amount allocatable = amount_of(resource, &quantity);
    const Amount allocated = amount_of(resource, used == r.status.allocated.end() ? nullptr : &used->second);
    out.push_back({{"allocatable", r.meta.name, resource, allocatable.unit}, allocatable.value});
    out.push_back({{"allocated", r.meta.name, resource, allocated.unit}, allocated.value});
    if (allocatable.value > 0)
      out.push_back({{"utilization", r.meta.name, resource, "ratio"}, allocated.value / allocatable.value});
  }
  return out;
}

}  // namespace troupe::plugins::reservation
