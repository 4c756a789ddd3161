#include <catch2/catch.hpp>

#include "plugins/reservation/reservation_metrics.hpp"

using namespace troupe;
using namespace troupe::plugins::reservation;

namespace {

Reservation reservation(const std::string& phase, ResourceList allocatable, ResourceList allocated) {
  Reservation r;
  r.meta.name = "r1";
  r.status.phase = phase;
  r.status.allocatable = std::move(allocatable);
  r.status.allocated = std::move(allocated);
  return r;
}

Quantity q(const char* text) { return Quantity::parse(text).value(); }

double value_of(const MetricSeries& series, const std::vector<std::string>& labels) {
  for (const auto& [l, v] : series)
    if (l == labels) return v;
  FAIL("no series " << labels.size() << " labels starting " << labels.front());
  return -1;
}

}  // namespace

TEST_CASE("reservation metrics: one phase series at 1, the other three at 0", "[reservation]") {
  struct Case {
    const char* phase;
    const char* current;
  };
  for (const Case& c : {Case{"", "Pending"}, Case{"Pending", "Pending"}, Case{"Available", "Available"},
                        Case{"Succeeded", "Succeeded"}, Case{"Failed", "Failed"}, Case{"Waiting", nullptr}}) {
    CAPTURE(c.phase);
    const MetricSeries series = reservation_phase_series(reservation(c.phase, {}, {}));
    REQUIRE(series.size() == 4);
    for (const char* phase : {"Pending", "Available", "Succeeded", "Failed"})
      CHECK(value_of(series, {"r1", phase}) == (c.current != nullptr && std::string(phase) == c.current ? 1 : 0));
  }
}

TEST_CASE("reservation metrics: allocatable, allocated and utilization in Koordinator's units", "[reservation]") {
  const Reservation r = reservation("Available", {{"cpu", q("4")}, {"memory", q("8Gi")}, {"nvidia.com/gpu", q("2")},
                                                  {"example.com/empty", q("0")}},
                                    {{"cpu", q("1500m")}, {"memory", q("2Gi")}});
  const MetricSeries series = reservation_resource_series(r);
  CHECK(value_of(series, {"allocatable", "r1", "cpu", "core"}) == 4.0);
  CHECK(value_of(series, {"allocated", "r1", "cpu", "core"}) == 1.5);
  CHECK(value_of(series, {"utilization", "r1", "cpu", "ratio"}) == Approx(0.375));
  CHECK(value_of(series, {"allocatable", "r1", "memory", "Gi"}) == 8.0);
  CHECK(value_of(series, {"allocated", "r1", "memory", "Gi"}) == 2.0);
  CHECK(value_of(series, {"utilization", "r1", "memory", "ratio"}) == Approx(0.25));
  CHECK(value_of(series, {"allocatable", "r1", "nvidia.com/gpu", "raw"}) == 2.0);
  CHECK(value_of(series, {"allocated", "r1", "nvidia.com/gpu", "raw"}) == 0.0);  // nothing allocated
  CHECK(value_of(series, {"utilization", "r1", "nvidia.com/gpu", "ratio"}) == 0.0);
  // No utilization where nothing is allocatable.
  CHECK(series.size() == 3 * 3 + 2);
  // A reservation not scheduled yet has no allocatable: no series.
  CHECK(reservation_resource_series(reservation("Pending", {}, {})).empty());
}
