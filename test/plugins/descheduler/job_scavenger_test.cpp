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
    std::chrono::nanoseconds default_ttl;
    std::chrono::seconds age;
    bool due;
  };
  const Case cases[] = {
      {"spec TTL 5m: at 9m59s it stays", std::chrono::minutes(5), 0ns, 599s, false},
      {"spec TTL 5m: at 10m it goes", std::chrono::minutes(5), 0ns, 600s, true},
      {"default TTL when the job has none", std::nullopt, std::chrono::minutes(1), 360s, true},
      {"default TTL: not yet", std::nullopt, std::chrono::minutes(1), 359s, false},
      {"no TTL at all: 30 minutes", std::nullopt, 0ns, 1799s, false},
      {"no TTL at all: at 30 minutes it goes", std::nullopt, 0ns, 1800s, true},
      {"a TTL of 0 on the job is none", 0ns, std::chrono::minutes(1), 1800s, true},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    PodMigrationJob job;
    job.meta.name = "j";
    job.meta.creation_timestamp = created;
    job.spec.ttl = c.spec_ttl;
    CHECK(due_for_scavenging(job, c.default_ttl, created + c.age) == c.due);
  }
  PodMigrationJob unstamped;
  CHECK_FALSE(due_for_scavenging(unstamped, 0ns, created + std::chrono::hours(24)));
}

}  // namespace
}  // namespace troupe::plugins::descheduler
