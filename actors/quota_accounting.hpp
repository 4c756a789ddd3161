#pragma once
// The scheduling cycle's side of ElasticQuota: it keeps the QuotaBook
// (plugins/elastic_quota/quota_book.hpp) true to what the informer reports
// (quotas, nodes, pending and bound pods) and to what the cycle itself does
// (a pod reserved on a node uses its quota from Reserve on; Unreserve gives
// it back), and hands the ElasticQuota plugin the pod's QuotaView before
// PreFilter. One per cycle, used only when a profile runs ElasticQuota
// (CycleDeps::quotas).

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "model/node.hpp"
#include "plugins/elastic_quota/elastic_quota_plugin.hpp"
#include "plugins/elastic_quota/overuse_revoke.hpp"
#include "plugins/elastic_quota/quota_book.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/framework.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::actors {

using QuotaSpecPtr = std::shared_ptr<const plugins::elastic_quota::QuotaSpec>;
/// Every quota's figures by name, as the book has them now.
using QuotaFigures = std::map<std::string, plugins::elastic_quota::QuotaUsage>;
using QuotaFiguresPtr = std::shared_ptr<const QuotaFigures>;
using PodInfoPtr = std::shared_ptr<const plugins::PodInfo>;
using PodInfoListPtr = std::shared_ptr<const std::vector<PodInfoPtr>>;

class QuotaAccounting {
 public:
  using Clock = plugins::elastic_quota::OveruseMonitor::Clock;

  void upsert_quota(const plugins::elastic_quota::QuotaSpec& spec) { book_.upsert_quota(spec); }
  void remove_quota(const std::string& name) { book_.remove_quota(name); }

  void upsert_node(const Node& node);
  void remove_node(const std::string& name) { book_.remove_node(name); }

  /// A pod of one of our profiles waits to be placed: its request counts.
  /// One this scheduler has reserved keeps using its quota.
  void pod_pending(const PodInfoPtr& pod);
  /// A pod is bound (anyone's): it uses its quota.
  void pod_placed(const PodInfoPtr& pod);
  void pod_gone(const std::string& uid) { book_.remove_pod(uid); }
  /// Reserve (true) or Unreserve (false) of the pod under attempt.
  void reserved(const std::string& uid, bool on_node) { book_.set_reserved(uid, on_node); }

  /// Before PreFilter: the pod's quota and its figures, for the profile's
  /// ElasticQuota (nothing when the profile does not run it).
  void share_view(const plugins::Framework& framework, plugins::CycleState& state, const plugins::PodInfo& pod);

  /// ElasticQuotaArgs monitorAllQuotas: the placed pods to evict now, of the
  /// quotas over their runtime for longer than `delay` (not the system,
  /// default or root quota, as Koordinator).
  PodInfoListPtr revocations(Clock::time_point now, Clock::duration delay);
  /// Every quota's figures (the quota status actor writes them back).
  QuotaFiguresPtr figures();
  /// The debug service: one quota's summary, or every quota's for "".
  std::optional<std::string> summary_json(const std::string& name);

 private:
  plugins::elastic_quota::QuotaBook book_;
  std::map<std::string, plugins::elastic_quota::OveruseMonitor> monitors_;  // by quota name
};

}  // namespace troupe::actors
