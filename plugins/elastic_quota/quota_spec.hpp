#pragma once
// What ElasticQuota reads of a quota group and of a pod (Koordinator's
// apis/extension/elastic_quota.go): the tree a quota sits in, how it shares,
// and which quota a pod is charged to. Amounts are integers per resource
// name, as Koordinator's runtime calculation keeps them: cpu in millicores,
// everything else in whole units.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/elastic_quota.hpp"
#include "model/object_meta.hpp"
#include "model/resources.hpp"
#include "plugins/framework/resource_vector.hpp"

namespace troupe::plugins::elastic_quota {

inline constexpr const char* kRootQuotaName = "koordinator-root-quota";
inline constexpr const char* kSystemQuotaName = "koordinator-system-quota";
inline constexpr const char* kDefaultQuotaName = "koordinator-default-quota";

inline constexpr const char* kLabelQuotaName = "quota.scheduling.koordinator.sh/name";
inline constexpr const char* kLabelQuotaParent = "quota.scheduling.koordinator.sh/parent";
inline constexpr const char* kLabelQuotaIsParent = "quota.scheduling.koordinator.sh/is-parent";
inline constexpr const char* kLabelAllowLentResource = "quota.scheduling.koordinator.sh/allow-lent-resource";
inline constexpr const char* kLabelPreemptible = "quota.scheduling.koordinator.sh/preemptible";
inline constexpr const char* kAnnotationSharedWeight = "quota.scheduling.koordinator.sh/shared-weight";
inline constexpr const char* kAnnotationQuotaNamespaces = "quota.scheduling.koordinator.sh/namespaces";

/// Resource name -> amount (cpu in millicores, others in whole units).
using ResourceAmounts = std::map<std::string, int64_t>;

/// A ResourceList as amounts (Koordinator's getQuantityValue).
ResourceAmounts amounts_of(const ResourceList& list);
/// A pod's requests as amounts: the resources it requests, zero ones left out.
ResourceAmounts amounts_of(const ResourceVector& requests);
/// Back to quantities, as Koordinator's createQuantity writes them: cpu in
/// decimal milli-units, memory binary, the rest decimal.
ResourceList to_resource_list(const ResourceAmounts& amounts);
/// "cpu:2,memory:4Gi", sorted by name; "<empty>" for none (Koordinator's printResourceList).
std::string print_amounts(const ResourceAmounts& amounts);

void add_to(ResourceAmounts& into, const ResourceAmounts& delta);
/// Subtracts, never below zero (quotav1.SubtractWithNonNegativeResult).
void subtract_from(ResourceAmounts& from, const ResourceAmounts& delta);

/// One quota group as the runtime calculation sees it.
struct QuotaSpec {
  std::string name;
  std::string namespace_name;
  std::string parent = kRootQuotaName;  // label parent; the root when unset
  bool is_parent = false;               // label is-parent == "true"
  bool allow_lent_resource = true;      // label allow-lent-resource != "false"
  ResourceAmounts min;
  ResourceAmounts max;
  /// Annotation shared-weight (a ResourceList); max when absent, unreadable or zero.
  ResourceAmounts shared_weight;
  /// Annotation namespaces (a JSON list): the namespaces whose pods it takes.
  std::vector<std::string> namespaces;

  friend bool operator==(const QuotaSpec& a, const QuotaSpec& b);
};

QuotaSpec quota_spec_of(const ElasticQuota& quota);

/// Whether a pod may not be preempted for its quota (label preemptible == "false"):
/// it must then fit in the quota's min.
bool is_non_preemptible(const ObjectMeta& pod_meta);

}  // namespace troupe::plugins::elastic_quota
