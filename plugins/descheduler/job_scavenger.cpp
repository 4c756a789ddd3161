#include "plugins/descheduler/job_scavenger.hpp"

namespace troupe::plugins::descheduler {

std::chrono::nanoseconds scavenge_after(std::chrono::nanoseconds ttl) {
  if (ttl.count() > 0) return ttl + std::chrono::minutes(5);
  return std::chrono::minutes(30);
}

bool due_for_scavenging(const PodMigrationJob& job, Timestamp now) {
  if (!job.meta.creation_timestamp) return false;
  const auto limit = scavenge_after(job.spec.ttl.value_or(std::chrono::nanoseconds::zero()));
  return now - *job.meta.creation_timestamp >= std::chrono::duration_cast<std::chrono::microseconds>(limit);
}

}  // namespace troupe::plugins::descheduler
