#pragma once
// QuotaBook: the cluster's quota groups and what their pods ask for and use,
// kept by the scheduling cycle (actors/cycle_actor.cpp) from the informer's
// ElasticQuotas, nodes and pods, and from its own Reserve and Unreserve.
// From them it works out each quota's runtime quota as Koordinator's
// GroupQuotaManager does:
//   - the root's children share the cluster's allocatable, less what the
//     system and default quotas use; a parent's children share its runtime;
//   - a quota's request is what its pods ask for (pending or placed), a
//     parent's the sum of its children's, each capped at its max;
//   - runtime_quota.hpp splits each resource among siblings by min, request
//     and shared weight.
// The system and default quotas are outside the tree: their runtime is their max.
// Plain data, no I/O: table-tested in test/plugins/elastic_quota/.

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "plugins/elastic_quota/quota_spec.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::elastic_quota {

/// What the book keeps of a pod.
struct QuotaPod {
  std::string namespace_name;
  std::string quota_label;  // label quota.scheduling.koordinator.sh/name, "" without
  bool non_preemptible = false;
  ResourceAmounts request;
  bool placed = false;  // bound to a node (the informer says so)
  std::shared_ptr<const PodInfo> info;  // the pod itself (the overuse revoke picks among them); may be null
};

/// One quota as PreFilter checks it.
struct QuotaUsage {
  std::string name;
  ResourceAmounts min;
  ResourceAmounts max;
  ResourceAmounts runtime;  // only the resources its max names
  ResourceAmounts used;     // its pods' and its children's, placed
  ResourceAmounts request;  // capped at max for its parent, not here
  ResourceAmounts non_preemptible_used;
  /// Set when the quota cannot be reached from the root: the parent its
  /// chain stops at (missing, or part of a loop). Its runtime is then empty.
  std::string unreachable_parent;
  struct Parent {
    std::string name;
    ResourceAmounts used;
    ResourceAmounts runtime;
    ResourceAmounts max;
  };
  /// Its ancestors below the root, nearest first.
  std::vector<Parent> parents;
};

class QuotaBook {
 public:
  QuotaBook() { set_builtin_max({}, {}); }
  /// The system and default quotas' max when no ElasticQuota object of that
  /// name says otherwise (ElasticQuotaArgs systemQuotaGroupMax, defaultQuotaGroupMax).
  void set_builtin_max(ResourceAmounts system_max, ResourceAmounts default_max);
  /// ElasticQuotaArgs enableMinQuotaScale: children's mins that exceed their
  /// parent's total are scaled down to fit.
  void set_min_quota_scale(bool enabled);

  void upsert_quota(QuotaSpec spec);
  void remove_quota(const std::string& name);

  void upsert_node(const std::string& name, ResourceAmounts allocatable);
  void remove_node(const std::string& name);

  void upsert_pod(const std::string& uid, QuotaPod pod);
  void remove_pod(const std::string& uid);
  /// Reserve (true) and Unreserve (false) of a pod the book knows; others
  /// are ignored. A pod uses its quota while placed or reserved: an
  /// Unreserve after the informer saw the pod bound takes nothing back.
  void set_reserved(const std::string& uid, bool reserved);

  /// The quota a pod is charged to (Koordinator's GetQuotaName): the one its
  /// label names if it exists, else the quota named like its namespace in
  /// that namespace, else one whose namespaces annotation lists it, else the
  /// default quota.
  std::string quota_of(const std::string& namespace_name, const std::string& quota_label) const;

  /// A quota's figures; nullopt for a quota the book does not know.
  std::optional<QuotaUsage> usage(const std::string& quota);
  /// The placed (or reserved) pods charged to a quota, those the book holds the PodInfo of.
  std::vector<std::shared_ptr<const PodInfo>> placed_pods(const std::string& quota) const;
  /// A quota's spec (the system and default ones included); nullptr when unknown.
  const QuotaSpec* spec_of(const std::string& name) const;
  /// Every quota the book knows, the system and default ones included, by name.
  std::vector<std::string> quota_names() const;
  const ResourceAmounts& cluster_total() const { return total_; }

 private:
  struct Sums {
    ResourceAmounts request;
    ResourceAmounts used;
    ResourceAmounts non_preemptible_used;
  };
  struct PodEntry {
    QuotaPod pod;
    std::string quota;      // where it is charged
    bool reserved = false;  // by this scheduler's cycle, until bound or unreserved
    bool uses() const { return pod.placed || reserved; }
  };
  struct Figures {
    ResourceAmounts request;  // own pods' and children's capped requests
    ResourceAmounts runtime;
    bool reachable = false;
  };

  /// Adds (+1) or takes back (-1) a pod's request and, placed, its use.
  void charge(const PodEntry& entry, int sign);
  void charge_used(const PodEntry& entry, int sign);
  /// A quota's pods' figure (`Sums::used` or `::non_preemptible_used`) and,
  /// in the tree the root reaches, its children's.
  ResourceAmounts subtree_sum(const std::string& name, ResourceAmounts Sums::*figure) const;
  void recharge_all();
  bool is_builtin(const std::string& name) const;
  void refresh();
  void sum_subtree(const std::string& name);
  void share_among_children(const std::string& parent, const ResourceAmounts& total);

  std::map<std::string, QuotaSpec> quotas_;
  QuotaSpec system_;
  QuotaSpec default_;
  bool scale_min_ = true;
  std::map<std::string, ResourceAmounts> nodes_;
  ResourceAmounts total_;
  std::unordered_map<std::string, PodEntry> pods_;
  std::map<std::string, Sums> sums_;

  bool stale_ = true;  // the runtimes (not the use) must be worked out again
  std::map<std::string, std::vector<std::string>> children_;
  std::map<std::string, Figures> figures_;
  std::vector<std::string> resource_keys_;
};

}  // namespace troupe::plugins::elastic_quota
