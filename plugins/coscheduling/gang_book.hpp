#pragma once
// GangBook: what the scheduler knows of every gang, as Koordinator's gang
// cache keeps it (coscheduling/core/gang.go): the members that exist (pending
// or bound), the members bound, the members reserved and waiting at Permit,
// and whether the gang was once satisfied. Pure data: the SCHEDULING CYCLE
// actor owns one, feeds it the INFORMER's membership reports and its own
// Permit results, and acts on its answers (actors/cycle_actor.cpp).
//
// A gang's rules (min members, mode, match policy, group) are its PodGroup
// object's when it has one, else those of the first member seen, as
// Koordinator initialises a gang once from its first pod. A gang whose pods
// name it by the PodGroup label alone cannot be tried until its PodGroup comes.

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "plugins/coscheduling/gang_spec.hpp"

namespace troupe::plugins::coscheduling {

class GangBook {
 public:
  /// A pod of the gang exists (pending, or bound when `bound`): the INFORMER's
  /// report, the only way in. Idempotent. `pod_key` ("ns/name", the uid when
  /// empty) is how the gang debug service names it.
  void add_member(const std::string& uid, const GangSpec& spec, bool bound, const std::string& pod_key = "");
  /// A pod names gang `gang_id` but its own gang annotations do not read
  /// (no min-available, say): as Koordinator's setChild it is a member all the
  /// same, under the rules the gang has, or gets from its first readable
  /// member (until then it is not counted).
  void add_unreadable_member(const std::string& uid, const std::string& gang_id, bool bound,
                             const std::string& pod_key = "");
  /// The pod is gone (deleted or finished): no longer a member, nor waiting.
  void remove_member(const std::string& uid);
  /// The pod was bound (by this scheduler's binding cycle, or found bound).
  /// As in Koordinator, a gang group with a bound member counts as satisfied
  /// once (only then: being allowed at Permit is not enough): after a restart
  /// the bound pods are listed, and once-satisfied lets the remaining members
  /// go on alone.
  void mark_bound(const std::string& uid);

  /// A PodGroup object's rules for its gang (or why they cannot be read).
  void set_pod_group(const std::string& gang_id, Result<GangSpec> rules);
  void remove_pod_group(const std::string& gang_id);
  /// The rules the gang goes by now; null for a gang with no member.
  const GangSpec* rules(const std::string& gang_id) const;

  /// PreFilter: nullopt when the pod may be tried, else why not (a gang of
  /// its group has fewer members than its minimum).
  std::optional<std::string> pre_filter(const GangSpec& spec, const std::string& pod_key) const;

  struct PermitDecision {
    bool allowed = false;                // false: the pod waits (unless gone)
    bool gone = false;                   // the pod is no longer a member of the gang (deleted, relabelled)
    std::vector<std::string> released;   // other waiting pods of the group allowed with it
  };
  /// Permit for a reserved pod: it waits unless, counting it, every gang of
  /// its group is valid; then the whole group's waiting pods go on to bind
  /// (satisfied once when the first is bound, mark_bound). Only members the
  /// INFORMER reported count: a pod deleted while its attempt ran is `gone`
  /// and neither waits nor binds.
  PermitDecision permit(const GangSpec& spec, const std::string& uid);

  /// Koordinator's schedule cycles, one per gang group (GangGroupInfo;
  /// gang_schedule_cycle.cpp), for Strict gangs: each member is tried once
  /// per cycle; once a failure of the group ended the cycle
  /// (end_schedule_cycles), its other members are turned away at PreFilter
  /// ("gang scheduleCycle not valid", without rejecting the group again:
  /// `skip_reject`) until every member not bound has been tried in it, and
  /// then a new cycle begins. `nominated`: the pod has a nominated node (it
  /// goes on, as upstream).
  struct CycleCheck {
    std::optional<std::string> rejection;
    bool skip_reject = false;
  };
  CycleCheck enter_schedule_cycle(const GangSpec& spec, const std::string& uid, const std::string& pod_key,
                                  bool nominated);
  /// A member's failure rejected the group: the group's cycle is over.
  void end_schedule_cycles(const GangSpec& spec);

  /// Whether a member's failure (no node, timeout, unreserve) rejects the
  /// other waiting pods of its group: Strict mode, unless the once-satisfied
  /// policy lets a gang that was satisfied once go on member by member.
  bool failure_rejects_group(const GangSpec& spec) const;
  /// The waiting pods of the spec's group, which stop waiting (to be rejected).
  std::vector<std::string> take_waiting_of_group(const GangSpec& spec);
  /// The pod no longer waits (allowed, rejected or gone). True if it was waiting.
  bool stop_waiting(const std::string& uid);
  /// An allowed member's binding cycle failed: it no longer counts as on its
  /// way to bind (see `binding` below).
  void binding_failed(const std::string& uid);

  /// Whether the pod waits at Permit now.
  bool is_waiting(const std::string& uid) const { return waiting_gang_.count(uid) > 0; }
  /// Gang groups with at least one pod waiting (scheduler_waiting_gang_group_number).
  size_t waiting_groups() const;
  /// The gang's counts (read by the tests); nullopt for an unknown gang.
  struct Counts {
    size_t children = 0, bound = 0, waiting = 0;
    bool once_satisfied = false;
  };
  std::optional<Counts> counts(const std::string& gang_id) const;

  /// What Coscheduling's debug service shows of a gang (Koordinator's
  /// GangSummary): its rules now, whether they are known, and its members by
  /// pod key, sorted: every child, those neither bound nor waiting
  /// (pending), those waiting at Permit, those bound.
  struct Summary {
    GangSpec rules;
    bool from_pod_group = false;  // named by the PodGroup label, or a PodGroup object of its name exists
    bool initialised = false;     // false: a PodGroup-named gang whose PodGroup is absent or unreadable
    std::vector<std::string> children, pending, waiting, bound;
    bool once_satisfied = false;
  };
  /// nullopt for a gang with no member.
  std::optional<Summary> summary(const std::string& gang_id) const;
  /// Every gang with a member, sorted.
  std::vector<std::string> gang_ids() const;

 private:
  struct Gang {
    GangSpec spec;  // the first member's
    std::set<std::string> children, bound, waiting;
    /// Allowed at Permit, not bound yet: with `waiting`, Koordinator's
    /// WaitingForBindChildren, which the match policies count (a member that
    /// reaches Permit while its siblings' Bindings are in flight sees them).
    std::set<std::string> binding;
    bool once_satisfied = false;
  };
  /// A gang group's schedule cycle (Koordinator's GangGroupInfo).
  struct GroupCycle {
    int cycle = 1;
    bool valid = true;
    std::map<std::string, int> member_cycles;  // uid -> the last cycle the member was tried in (bound: none)
  };
  /// trySetScheduleCycleValid: the members of the group not bound (at most
  /// its gangs' total-numbers) were all tried in this cycle: the next begins.
  void try_begin_next_cycle(GroupCycle& group, const GangSpec& rules) const;
  /// The member no longer takes turns (bound or gone).
  void forget_member_cycle(const std::string& uid);
  const Gang* find(const std::string& gang_id) const;
  const GangSpec& rules_of(const Gang& gang) const;
  /// Why a gang named by its PodGroup cannot be tried yet (no or a bad PodGroup).
  std::optional<std::string> pod_group_problem(const Gang& gang, const std::string& pod_key) const;
  bool valid_for_permit(const Gang& gang) const;

  std::map<std::string, Gang> gangs_;                      // by gang id
  std::map<std::string, std::string> member_gang_;         // uid → gang id
  std::map<std::string, std::string> waiting_gang_;        // waiting uid → gang id
  std::map<std::string, Result<GangSpec>> pod_groups_;     // by gang id
  std::map<std::string, std::string> pod_keys_;            // member uid → "ns/name"
  std::map<std::string, GroupCycle> group_cycles_;         // by group id
  /// Unreadable members of gangs with no readable member yet: gang id → uid → (bound, pod key).
  std::map<std::string, std::map<std::string, std::pair<bool, std::string>>> unread_members_;
};

}  // namespace troupe::plugins::coscheduling
