#pragma once
// The scheduling queue: kube-scheduler's three queues, owned by the QUEUE actor.
//
//   activeQ            pods ready to be tried, ordered by the QueueSort plugin
//                      (priority, then time of arrival)
//   backoffQ           pods that failed and wait out their backoff
//                      (initial * 2^(attempts-1), capped at max)
//   unschedulablePods  pods no node could take; a cluster event that one of
//                      the plugins that rejected them cares about moves them
//                      back, and so does a periodic flush after `max_unschedulable_age`
//   gated              pods a PreEnqueue plugin holds back (scheduling gates);
//                      only an update of the pod itself that PreEnqueue lets
//                      through releases them, never an event or the flush
//
// Gang rounds: a pod may belong to a group (Coscheduling's gang group). When
// activeQ's first pod has a group, the pops that follow hand out the group's
// other pending members (from activeQ, backoffQ or unschedulablePods, never a
// gated one), each once, in order of arrival, before any other pod: the round
// that Koordinator's Coscheduling runs for a gang group (NextPod), so a
// gang's members are tried back to back and a gang retries as a whole rather
// than member by member as their backoffs expire. A member's failure ends the
// round (in Strict mode it has just sent the waiting members back).
//
// Pure data structure: the actor supplies the clock, so tests drive time.

#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace troupe::actors {

using QueueClock = std::chrono::steady_clock;

struct QueueSettings {
  std::chrono::milliseconds initial_backoff{1000};
  std::chrono::milliseconds max_backoff{10000};
  std::chrono::milliseconds max_unschedulable_age{std::chrono::minutes(5)};
};

template <class Payload>
class SchedulingQueue {
 public:
  struct Entry {
    std::string key;                    // "namespace/name"
    Payload payload;
    QueueClock::time_point added;       // first time the pod was queued (QueueSort tie-break)
    /// When the pod was first queued with no gate (a gated pod's wait does not
    /// count towards its scheduling latency, as upstream's InitialAttemptTimestamp).
    std::optional<QueueClock::time_point> ready_since;
    bool gated = false;                 // the last add/update said a PreEnqueue plugin holds it back
    QueueClock::time_point last_failure;
    int attempts = 0;                   // failed scheduling attempts so far
    std::set<std::string> rejected_by;  // plugins that made the last attempt fail
    uint64_t popped_at_cycle = 0;       // move-request cycle when last popped
    bool updated_in_flight = false;     // the pod changed while it was being tried
    uint64_t sequence = 0;              // order of first arrival (the last tie-break)
    std::string group;                  // the gang group it is tried with; empty: none
  };
  /// QueueSort: true when `a` should be tried before `b`.
  using Less = std::function<bool(const Entry& a, const Entry& b)>;
  /// Whether a cluster event may help this pod (rejected by `entry.rejected_by`).
  using EventFilter = std::function<bool(const Entry& entry)>;
  /// The group a payload's pod is tried with (see "Gang rounds"); empty: none.
  using GroupOf = std::function<std::string(const Payload& payload)>;

  enum class Where { none, active, backoff, unschedulable, gated, in_flight };

  SchedulingQueue(Less less, QueueSettings settings, GroupOf group_of = nullptr)
      : less_(std::move(less)), settings_(settings), group_of_(std::move(group_of)), active_(ActiveOrder{this}) {}
  // activeQ's order points back at this queue: it must not be copied or moved.
  SchedulingQueue(const SchedulingQueue&) = delete;
  SchedulingQueue& operator=(const SchedulingQueue&) = delete;

  /// Replaces each payload `revise` returns a new one for (nullopt: keep
  /// it), then reads the entry's group again: a gang whose group became known
  /// after its pods were queued. Where each pod is stays as it was (the group
  /// takes no part in the order).
  template <class Revise>
  void revise_payloads(Revise revise) {
    for (auto& [key, entry] : entries_) {
      std::optional<Payload> revised = revise(std::as_const(entry.payload));
      if (revised) set_payload(entry, std::move(*revised));
    }
  }

  /// A new pending pod; `gated` when a PreEnqueue plugin holds it back.
  /// Re-adding a known key updates it instead.
  void add(const std::string& key, Payload payload, QueueClock::time_point now, bool gated = false) {
    if (entries_.count(key) > 0) {
      update(key, std::move(payload), now, gated);
      return;
    }
    Entry& entry = entries_[key];
    entry.key = key;
    entry.payload = std::move(payload);
    entry.added = now;
    entry.sequence = next_sequence_++;
    entry.gated = gated;
    entry.group = group_of_ ? group_of_(entry.payload) : std::string();
    join_group(entry);
    if (gated) {
      to_gated(entry);
    } else {
      entry.ready_since = now;
      to_active(entry);
    }
  }

  /// The pod object changed. A pod waiting as unschedulable gets another try
  /// (its spec may now fit), and so does a gated pod that is gated no more;
  /// a pod in flight keeps its slot and is updated.
  void update(const std::string& key, Payload payload, QueueClock::time_point now, bool gated = false) {
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      add(key, std::move(payload), now, gated);
      return;
    }
    Entry& entry = it->second;
    Where where = where_.at(key);
    entry.gated = gated;
    if (!gated && !entry.ready_since) entry.ready_since = now;
    if (gated && where != Where::in_flight) {
      // The API server only lets gates be removed, so this is a defence:
      // whatever now holds the pod back wins over its place in line (a pod
      // in flight is parked when its attempt fails).
      detach(entry);
      set_payload(entry, std::move(payload));
      to_gated(entry);
      return;
    }
    // The attempt under way judges the old spec: if it fails, the new one gets its own try.
    if (where == Where::in_flight) entry.updated_in_flight = true;
    if (where == Where::active) active_.erase(&entry);
    set_payload(entry, std::move(payload));
    if (where == Where::active) active_.insert(&entry);
    if (where == Where::unschedulable || where == Where::gated) requeue(entry, now);
  }

  /// The pod is gone (deleted or bound by someone else).
  void remove(const std::string& key) {
    auto it = entries_.find(key);
    if (it == entries_.end()) return;
    detach(it->second);
    leave_group(it->second);
    where_.erase(key);
    entries_.erase(it);
  }

  /// Moves expired backoffs to activeQ and pops the first pod, which is then
  /// "in flight" until `done`, `failed` or `remove` is called for it.
  /// While a gang round lasts, its next member comes first.
  std::optional<Entry> pop(QueueClock::time_point now) {
    flush_backoff(now);
    if (Entry* member = next_of_round()) return take(*member);
    if (active_.empty()) return std::nullopt;
    Entry& entry = entries_.at((*active_.begin())->key);
    // Its siblings may still be on their way (the informer queues them one
    // by one): the round takes those that are pending at each pop.
    if (!entry.group.empty()) round_ = Round{entry.group, {}};
    return take(entry);
  }

  /// The group whose round is under way; empty when none is.
  std::string round_group() const { return round_ ? round_->group : std::string(); }

  /// The in-flight pod was placed: forget it.
  void done(const std::string& key) { remove(key); }

  /// The in-flight pod could not be placed. If a cluster event arrived or the
  /// pod itself changed while it was being tried, it goes to backoffQ (that may
  /// have helped); else it
  /// waits in unschedulablePods for an event that names one of `rejected_by`.
  /// `error` = an internal error rather than a fit failure: always backoff.
  void failed(const std::string& key, std::set<std::string> rejected_by, bool error,
              QueueClock::time_point now) {
    auto it = entries_.find(key);
    if (it == entries_.end()) return;
    Entry& entry = it->second;
    if (round_ && round_->attempted.count(key) > 0) round_.reset();
    detach(entry);
    entry.attempts += 1;
    entry.last_failure = now;
    entry.rejected_by = std::move(rejected_by);
    if (entry.gated) {
      to_gated(entry);
    } else if (error || entry.popped_at_cycle < move_request_cycle_ || entry.updated_in_flight) {
      to_backoff(entry);
    } else {
      where_[key] = Where::unschedulable;
      unschedulable_.insert(key);
    }
  }

  /// A cluster event (node added, pod deleted, ...): moves the unschedulable
  /// pods it may help back to activeQ, or to backoffQ while backing off.
  size_t on_cluster_event(const EventFilter& may_help, QueueClock::time_point now) {
    ++move_request_cycle_;
    std::vector<std::string> moved;
    for (const auto& key : unschedulable_)
      if (!may_help || may_help(entries_.at(key))) moved.push_back(key);
    for (const auto& key : moved) requeue(entries_.at(key), now);
    return moved.size();
  }

  /// Periodic flush: backoffs that expired, and pods unschedulable for longer
  /// than `max_unschedulable_age` (kube-scheduler's 5-minute safety net).
  void flush(QueueClock::time_point now) {
    flush_backoff(now);
    std::vector<std::string> stale;
    for (const auto& key : unschedulable_)
      if (now - entries_.at(key).last_failure >= settings_.max_unschedulable_age) stale.push_back(key);
    for (const auto& key : stale) requeue(entries_.at(key), now);
  }

  /// When the next backoff expires (for the actor's timer), if any.
  std::optional<QueueClock::time_point> next_backoff_expiry() const {
    if (backoff_.empty()) return std::nullopt;
    return backoff_.begin()->first;
  }

  std::chrono::milliseconds backoff_duration(int attempts) const {
    auto d = settings_.initial_backoff;
    for (int i = 1; i < attempts && d < settings_.max_backoff; ++i) d *= 2;
    return std::min(d, settings_.max_backoff);
  }

  Where where(const std::string& key) const {
    auto it = where_.find(key);
    return it == where_.end() ? Where::none : it->second;
  }
  const Entry* find(const std::string& key) const {
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : &it->second;
  }
  size_t active_size() const { return active_.size(); }
  size_t backoff_size() const { return backoff_.size(); }
  size_t unschedulable_size() const { return unschedulable_.size(); }
  /// Calls `visit(entry)` for every pod in unschedulablePods.
  template <class Visit>
  void for_each_unschedulable(Visit&& visit) const {
    for (const auto& key : unschedulable_) visit(entries_.at(key));
  }
  size_t gated_size() const { return gated_.size(); }
  size_t size() const { return entries_.size(); }

 private:
  struct ActiveOrder {
    const SchedulingQueue* queue;
    bool operator()(const Entry* a, const Entry* b) const {
      if (queue->less_(*a, *b)) return true;
      if (queue->less_(*b, *a)) return false;
      // A total order keeps the set consistent; pods the QueueSort cannot
      // tell apart (same priority, queued within one clock tick) keep their
      // order of arrival.
      return a->sequence < b->sequence;
    }
  };

  void to_active(Entry& entry) {
    where_[entry.key] = Where::active;
    active_.insert(&entry);
  }

  void to_backoff(Entry& entry) {
    where_[entry.key] = Where::backoff;
    backoff_.emplace(entry.last_failure + backoff_duration(entry.attempts), entry.key);
  }

  void to_gated(Entry& entry) {
    where_[entry.key] = Where::gated;
    gated_.insert(entry.key);
  }

  // Out of unschedulablePods or the gated pods: to backoffQ while the pod's
  // backoff lasts, else to activeQ.
  void requeue(Entry& entry, QueueClock::time_point now) {
    detach(entry);
    bool backing_off = entry.attempts > 0 && now < entry.last_failure + backoff_duration(entry.attempts);
    if (backing_off) {
      to_backoff(entry);
    } else {
      to_active(entry);
    }
  }

  void flush_backoff(QueueClock::time_point now) {
    while (!backoff_.empty() && backoff_.begin()->first <= now) {
      Entry& entry = entries_.at(backoff_.begin()->second);
      backoff_.erase(backoff_.begin());
      to_active(entry);
    }
  }

  // Takes the entry out of whichever queue holds it.
  void detach(Entry& entry) {
    switch (where_.at(entry.key)) {
      case Where::active: active_.erase(&entry); break;
      case Where::unschedulable: unschedulable_.erase(entry.key); break;
      case Where::gated: gated_.erase(entry.key); break;
      case Where::backoff:
        for (auto it = backoff_.begin(); it != backoff_.end(); ++it)
          if (it->second == entry.key) {
            backoff_.erase(it);
            break;
          }
        break;
      case Where::in_flight:
      case Where::none: break;
    }
  }

  // Gang rounds ------------------------------------------------------------

  struct Round {
    std::string group;
    std::set<std::string> attempted;  // members handed out in this round
  };

  void set_payload(Entry& entry, Payload payload) {
    entry.payload = std::move(payload);
    std::string group = group_of_ ? group_of_(entry.payload) : std::string();
    if (group == entry.group) return;
    leave_group(entry);
    entry.group = std::move(group);
    join_group(entry);
  }

  void join_group(const Entry& entry) {
    if (!entry.group.empty()) groups_[entry.group].emplace(entry.sequence, entry.key);
  }

  void leave_group(const Entry& entry) {
    auto it = groups_.find(entry.group);
    if (it == groups_.end()) return;
    it->second.erase({entry.sequence, entry.key});
    if (it->second.empty()) groups_.erase(it);
  }

  // The round's next member: the first to arrive of the group's members that
  // wait in activeQ, backoffQ or unschedulablePods and were not handed out in
  // this round. Ends the round when there is none.
  Entry* next_of_round() {
    if (!round_) return nullptr;
    auto group = groups_.find(round_->group);
    if (group != groups_.end()) {
      for (const auto& [sequence, key] : group->second) {
        Where w = where_.at(key);
        bool pending = w == Where::active || w == Where::backoff || w == Where::unschedulable;
        if (pending && round_->attempted.count(key) == 0) return &entries_.at(key);
      }
    }
    round_.reset();
    return nullptr;
  }

  // Hands the entry out: in flight until done, failed or removed.
  Entry& take(Entry& entry) {
    detach(entry);
    where_[entry.key] = Where::in_flight;
    entry.popped_at_cycle = move_request_cycle_;
    entry.updated_in_flight = false;
    if (round_) round_->attempted.insert(entry.key);
    return entry;
  }

  Less less_;
  QueueSettings settings_;
  GroupOf group_of_;
  std::unordered_map<std::string, Entry> entries_;  // node-stable: the sets below point into it
  std::unordered_map<std::string, Where> where_;
  std::set<const Entry*, ActiveOrder> active_;
  std::multiset<std::pair<QueueClock::time_point, std::string>> backoff_;
  std::set<std::string> unschedulable_;
  std::set<std::string> gated_;
  std::unordered_map<std::string, std::set<std::pair<uint64_t, std::string>>> groups_;  // group → (sequence, key)
  std::optional<Round> round_;
  uint64_t move_request_cycle_ = 0;
  uint64_t next_sequence_ = 0;
};

}  // namespace troupe::actors
