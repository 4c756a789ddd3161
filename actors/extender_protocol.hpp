#pragma once
// The server side of kube-scheduler's extender protocol
// (k8s.io/kube-scheduler/extender/v1), as troupe's extender endpoint speaks
// it: decode ExtenderArgs / ExtenderBindingArgs, encode ExtenderFilterResult,
// HostPriorityList and ExtenderBindingResult. The extender/v1 types have no
// JSON tags, so the keys are the Go field names ("Pod", "NodeNames",
// "FailedNodes", "Host", "PodUID", ...): they are written exactly so and read
// case-insensitively, as Go's decoder does.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/json.hpp"
#include "model/pod.hpp"
#include "model/result.hpp"

namespace troupe::actors {

/// MaxExtenderPriority of extender/v1: extenders score 0..10.
inline constexpr int64_t kExtenderScoreMax = 10;

struct ExtenderArgs {
  std::shared_ptr<const Pod> pod;
  /// The candidate nodes, in request order.
  std::vector<std::string> node_names;
  /// With nodeCacheCapable=false the scheduler sends whole Node objects: they
  /// are echoed back for the nodes that pass (by name).
  std::map<std::string, std::string> node_json;
  bool sent_nodes = false;  // "nodes" (not "nodenames") was used
};

/// Decodes ExtenderArgs; errors name the field.
Result<ExtenderArgs> parse_extender_args(std::string_view body);

struct ExtenderFilterVerdict {
  std::vector<std::string> passed;
  std::map<std::string, std::string> failed;
  std::map<std::string, std::string> failed_unresolvable;
  std::string error;
};

/// ExtenderFilterResult: "NodeNames", and "Nodes" too when the request sent Node objects.
std::string extender_filter_result_json(const ExtenderArgs& args, const ExtenderFilterVerdict& verdict);

/// HostPriorityList: [{"Host": ..., "Score": ...}].
std::string host_priority_list_json(const std::vector<std::pair<std::string, int64_t>>& scores);

struct ExtenderBindingArgs {
  std::string pod_name;
  std::string pod_namespace;
  std::string pod_uid;
  std::string node;
};

Result<ExtenderBindingArgs> parse_extender_binding_args(std::string_view body);

/// ExtenderBindingResult {"Error": ...} ("" = success; Go writes the empty string too).
std::string extender_binding_result_json(const std::string& error);

}  // namespace troupe::actors
