#include "test/plugins/descheduler/helpers.hpp"

#include "plugins/descheduler/job_scavenger.hpp"

namespace troupe::plugins::descheduler {
namespace {

using namespace std::chrono_literals;

TEST_CASE("job scavenger: a job goes once older than its TTL and five minutes, or 30 minutes without one",
          "[descheduler][migration]") {
  const Timestamp created = timestamp_now();
  struct Case {
    const char* what;
    std::optional<std::chrono::nanoseconds> spec_ttl;
    std::chrono::seconds age;
    bool due;
  };
  const Case cases[] = {
      {"TTL 5m: at 9m59s it stays", std::chrono::minutes(5), 599s, false},
      {"TTL 5m: at 10m it goes", std::chrono::minutes(5), 600s, true},
      {"no TTL: at 20 minutes it stays", std::nullopt, 1200s, false},
      {"no TTL: at 29m59s it stays", std::nullopt, 1799s, false},
      {"no TTL: at 30 minutes it goes", std::nullopt, 1800s, true},
      {"a TTL of 0 is none: at 20 minutes it stays", 0ns, 1200s, false},
      {"a TTL of 0 is none: at 30 minutes it goes", 0ns, 1800s, true},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    PodMigrationJob job;
    job.meta.name = "j";
    job.meta.creation_timestamp = created;
    job.spec.ttl = c.spec_ttl;
    CHECK(due_for_scavenging(job, created + c.age) == c.due);
  }
  PodMigrationJob unstamped;
  CHECK_FALSE(due_for_scavenging(unstamped, created + std::chrono::hours(24)));
}

}  // namespace
}  // namespace troupe::plugins::descheduler
