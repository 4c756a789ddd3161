#include <catch2/catch.hpp>

#include "actors/leader_election.hpp"

using namespace troupe;
using namespace troupe::actors;
using namespace std::chrono_literals;

namespace {

// An in-memory Lease with resourceVersion semantics, shared by two electors.
class MemoryLease : public LeaseBackend {
 public:
  Result<std::optional<LeaseRecord>> get() override {
    if (unreachable) return Error{"connection refused"};
    return record;
  }
  Result<LeaseRecord> create(const LeaseRecord& r) override {
    if (unreachable) return Error{"connection refused"};
    if (!create_refusal.empty()) return Error{create_refusal};
    if (record) return Error{"leases \"troupe\" already exists"};
    record = r;
    record->resource_version = std::to_string(++version);
    return *record;
  }
  Result<LeaseRecord> update(const LeaseRecord& r) override {
    if (unreachable) return Error{"connection refused"};
    if (!record || r.resource_version != record->resource_version) return Error{"conflict"};
    record = r;
    record->resource_version = std::to_string(++version);
    return *record;
  }
  std::optional<LeaseRecord> record;
  int version = 0;
  bool unreachable = false;
  std::string create_refusal;  // the API server refuses to create the Lease
};

ElectionSettings settings(const std::string& id) { return {id, 15000ms, 10000ms, 2000ms}; }

std::function<std::string()> stamp() {
  auto n = std::make_shared<int>(0);
  return [n] { return "2026-11-22T00:00:" + std::to_string(10 + (*n)++) + ".000000Z"; };
}

const ElectionClock::time_point t0{};

}  // namespace

TEST_CASE("settings are validated as client-go does") {
  struct Case { ElectionSettings s; bool ok; };
  std::vector<Case> cases = {
      {{"a", 15000ms, 10000ms, 2000ms}, true},
      {{"", 15000ms, 10000ms, 2000ms}, false},
      {{"a", 10000ms, 10000ms, 2000ms}, false},
      {{"a", 15000ms, 2400ms, 2000ms}, false},
      {{"a", 15000ms, 2500ms, 2000ms}, true},
  };
  for (const auto& c : cases) CHECK(validate(c.s).ok() == c.ok);
}

TEST_CASE("the first candidate creates the lease and leads; the second waits") {
  MemoryLease lease;
  LeaderElector a(settings("a"), lease, stamp());
  LeaderElector b(settings("b"), lease, stamp());
  CHECK(a.step(t0));
  CHECK(lease.record->holder_identity == "a");
  CHECK(lease.record->lease_transitions == 0);
  CHECK_FALSE(b.step(t0 + 1s));
  CHECK(b.observed_holder() == "a");
  CHECK(a.step(t0 + 2s));  // renews
  CHECK_FALSE(b.step(t0 + 3s));
}

TEST_CASE("a lease not renewed for lease_duration (as seen locally) is taken over") {
  MemoryLease lease;
  LeaderElector a(settings("a"), lease, stamp());
  LeaderElector b(settings("b"), lease, stamp());
  REQUIRE(a.step(t0));
  CHECK_FALSE(b.step(t0 + 1s));   // b first sees the record at t0+1s
  CHECK_FALSE(b.step(t0 + 15s));  // 14 s since b saw it change: not yet
  CHECK(b.step(t0 + 16s));        // 15 s: expired
  CHECK(lease.record->holder_identity == "b");
  CHECK(lease.record->lease_transitions == 1);
}

TEST_CASE("a leader that cannot renew within the renew deadline stops leading") {
  MemoryLease lease;
  LeaderElector a(settings("a"), lease, stamp());
  REQUIRE(a.step(t0));
  lease.unreachable = true;
  CHECK(a.step(t0 + 2s));  // still within the deadline
  CHECK(a.step(t0 + 9s));
  CHECK_FALSE(a.step(t0 + 10s));
  CHECK_FALSE(a.leading());
  lease.unreachable = false;
  CHECK(a.step(t0 + 11s));  // the lease still names us: reacquire
}

TEST_CASE("losing a write race is not leadership") {
  MemoryLease lease;
  LeaderElector a(settings("a"), lease, stamp());
  REQUIRE(a.step(t0));
  // Someone else bumps the record between our read and write: simulated by
  // changing the version so our update conflicts.
  struct Racy : MemoryLease {
    MemoryLease* inner;
    Result<std::optional<LeaseRecord>> get() override { return inner->get(); }
    Result<LeaseRecord> create(const LeaseRecord& r) override { return inner->create(r); }
    Result<LeaseRecord> update(const LeaseRecord&) override { return Error{"conflict"}; }
  } racy;
  racy.inner = &lease;
  LeaderElector b(settings("b"), racy, stamp());
  CHECK_FALSE(b.step(t0 + 30s));
}

TEST_CASE("a candidate that cannot read or write the lease says why, in client-go's words") {
  MemoryLease lease;
  LeaderElector a(settings("a"), lease, stamp());
  lease.unreachable = true;
  CHECK_FALSE(a.step(t0));
  CHECK(a.last_error() == "error retrieving resource lock: connection refused");
  lease.unreachable = false;
  lease.create_refusal = "namespaces \"koordinator-system\" not found";
  CHECK_FALSE(a.step(t0 + 2s));
  CHECK(a.last_error() ==
        "error initially creating leader election record: namespaces \"koordinator-system\" not found");
  lease.create_refusal.clear();
  CHECK(a.step(t0 + 4s));
  CHECK(a.last_error().empty());
  struct Conflicting : MemoryLease {
    MemoryLease* inner;
    Result<std::optional<LeaseRecord>> get() override { return inner->get(); }
    Result<LeaseRecord> update(const LeaseRecord&) override { return Error{"the object has been modified"}; }
  } conflicting;
  conflicting.inner = &lease;
  LeaderElector b(settings("b"), conflicting, stamp());
  CHECK_FALSE(b.step(t0 + 60s));  // b sees a's lease: held, no error
  CHECK(b.last_error().empty());
  CHECK_FALSE(b.step(t0 + 80s));  // not renewed for 20 s as b sees it: b tries to take it
  CHECK(b.last_error() == "failed to update lock: the object has been modified");
}

TEST_CASE("a leader that stops releases the lease and a standby takes it at its next retry") {
  MemoryLease lease;
  LeaderElector a(settings("a"), lease, stamp());
  LeaderElector b(settings("b"), lease, stamp());
  REQUIRE(a.step(t0));
  CHECK_FALSE(b.step(t0 + 1s));
  CHECK(a.release());
  CHECK_FALSE(a.leading());
  CHECK(lease.record->holder_identity.empty());
  CHECK(lease.record->lease_duration_seconds == 1);
  CHECK(lease.record->lease_transitions == 0);
  CHECK(b.step(t0 + 2s));  // not 15 s: a free lease is taken at once
  CHECK(lease.record->holder_identity == "b");
  CHECK(lease.record->lease_transitions == 1);
  SECTION("a follower has nothing to release") {
    const int version = lease.version;
    CHECK(a.release());
    CHECK(lease.version == version);
  }
  SECTION("a release that cannot be written says so") {
    lease.unreachable = true;
    CHECK_FALSE(b.release());
    CHECK_FALSE(b.leading());
  }
}
