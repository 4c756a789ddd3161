#pragma once
// Koordinator's PodMigrationJob scavenger (controllers/migration
// doScavenge), pure: every job, whatever its phase, is deleted once it is
// older than its TTL plus five minutes (30 minutes when it has none),
// together with the Reservation it created, so that finished jobs and their
// reservations do not pile up in the API server and in the descheduler's view.

#include <chrono>
#include <string>
#include <vector>

#include "model/pod_migration_job.hpp"
#include "model/timestamp.hpp"

namespace troupe::plugins::descheduler {

/// How old a job whose spec.ttl is this may grow (0: it has none).
std::chrono::nanoseconds scavenge_after(std::chrono::nanoseconds ttl);

/// Whether the job is due for deletion at `now` (a job without a creation
/// timestamp never is). Only the job's own spec.ttl counts, as in Koordinator
/// (whose descheduler stamps defaultJobTTL on the jobs it creates, as troupe's does).
bool due_for_scavenging(const PodMigrationJob& job, Timestamp now);

}  // namespace troupe::plugins::descheduler
