#pragma once
// The result of a plugin call, as kube-scheduler's framework.Status: a code,
// the reasons a person reads (FitError counts them per node), and the plugin
// that spoke. A default-constructed status is success and allocates nothing,
// so the hot Filter/Score path only builds strings when a node fails.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace troupe::plugins {

enum class Code {
  success,
  error,                            // internal error: the cycle fails, the pod is retried
  unschedulable,                    // this node cannot take the pod now; preemption may help
  unschedulable_and_unresolvable,   // preemption cannot help on this node
  wait,                             // Permit: hold the pod
  skip,                             // PreFilter/PreScore: skip this plugin's Filter/Score; Bind: not mine
  pending,                          // waiting on something outside the scheduler
};

/// "Success", "Unschedulable", ... as kube-scheduler labels metrics.
std::string_view to_string(Code code);

struct PluginStatus {
  Code code = Code::success;
  std::vector<std::string> reasons;
  std::string plugin;  // the plugin that returned this status (set by the Framework)

  PluginStatus() = default;
  explicit PluginStatus(Code c) : code(c) {}
  PluginStatus(Code c, std::string reason) : code(c) { reasons.push_back(std::move(reason)); }
  PluginStatus(Code c, std::vector<std::string> rs) : code(c), reasons(std::move(rs)) {}

  static PluginStatus unschedulable(std::string reason) { return {Code::unschedulable, std::move(reason)}; }
  static PluginStatus unresolvable(std::string reason) {
    return {Code::unschedulable_and_unresolvable, std::move(reason)};
  }
  static PluginStatus internal_error(std::string reason) { return {Code::error, std::move(reason)}; }

  bool ok() const { return code == Code::success; }
  bool is_skip() const { return code == Code::skip; }
  bool is_rejection() const {
    return code == Code::unschedulable || code == Code::unschedulable_and_unresolvable;
  }
  /// The reasons joined with ", " (kube-scheduler's Status.Message()).
  std::string message() const;
};

}  // namespace troupe::plugins
