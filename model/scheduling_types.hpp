#pragma once
// The pod-spec and node-spec pieces placement decisions read: taints and
// tolerations, node affinity (NodeSelectorTerm with matchExpressions and
// matchFields), pod (anti-)affinity terms, and container ports.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/json_enum.hpp"
#include "model/json_fields.hpp"
#include "model/label_selector.hpp"
#include "model/timestamp.hpp"

namespace troupe {

/// `all` is the empty effect, allowed on tolerations only ("every effect").
enum class TaintEffect { all, no_schedule, prefer_no_schedule, no_execute };
/// An empty operator means Equal.
enum class TolerationOperator { equal, exists };
enum class Protocol { tcp, udp, sctp };
/// topologySpreadConstraints[].whenUnsatisfiable.
enum class UnsatisfiableAction { do_not_schedule, schedule_anyway };
/// topologySpreadConstraints[].nodeAffinityPolicy / nodeTaintsPolicy.
enum class NodeInclusionPolicy { honor, ignore };

template <>
struct JsonEnum<TaintEffect> {
  static constexpr std::pair<TaintEffect, std::string_view> names[] = {
      {TaintEffect::all, ""},
      {TaintEffect::no_schedule, "NoSchedule"},
      {TaintEffect::prefer_no_schedule, "PreferNoSchedule"},
      {TaintEffect::no_execute, "NoExecute"}};
};
template <>
struct JsonEnum<TolerationOperator> {
  static constexpr std::pair<TolerationOperator, std::string_view> names[] = {
      {TolerationOperator::equal, "Equal"}, {TolerationOperator::exists, "Exists"}, {TolerationOperator::equal, ""}};
};
template <>
struct JsonEnum<UnsatisfiableAction> {
  static constexpr std::pair<UnsatisfiableAction, std::string_view> names[] = {
      {UnsatisfiableAction::do_not_schedule, "DoNotSchedule"},
      {UnsatisfiableAction::schedule_anyway, "ScheduleAnyway"}};
};
template <>
struct JsonEnum<NodeInclusionPolicy> {
  static constexpr std::pair<NodeInclusionPolicy, std::string_view> names[] = {
      {NodeInclusionPolicy::honor, "Honor"}, {NodeInclusionPolicy::ignore, "Ignore"}};
};
template <>
struct JsonEnum<Protocol> {
  static constexpr std::pair<Protocol, std::string_view> names[] = {
      {Protocol::tcp, "TCP"}, {Protocol::udp, "UDP"}, {Protocol::sctp, "SCTP"}};
};

struct Taint {
  std::string key;
  std::string value;
  TaintEffect effect = TaintEffect::no_schedule;
  std::optional<Timestamp> time_added;
};

struct Toleration {
  std::string key;  // empty with Exists: tolerates every key
  TolerationOperator op = TolerationOperator::equal;
  std::string value;
  TaintEffect effect = TaintEffect::all;
  std::optional<int64_t> toleration_seconds;

  /// v1.Toleration.ToleratesTaint: effect and key match when set, then
  /// Exists matches any value and Equal needs the same value.
  bool tolerates(const Taint& taint) const;
};

/// Requirements are ANDed; matchFields only ever names metadata.name.
struct NodeSelectorTerm {
  std::vector<LabelRequirement> match_expressions;
  std::vector<LabelRequirement> match_fields;
};

/// Terms are ORed. An empty list matches no node.
struct NodeSelector {
  std::vector<NodeSelectorTerm> terms;
};

struct PreferredSchedulingTerm {
  int32_t weight = 0;
  NodeSelectorTerm preference;
};

struct NodeAffinity {
  /// requiredDuringSchedulingIgnoredDuringExecution; nullopt = no requirement.
  std::optional<NodeSelector> required;
  /// preferredDuringSchedulingIgnoredDuringExecution.
  std::vector<PreferredSchedulingTerm> preferred;
};

struct PodAffinityTerm {
  /// nullopt (nil) selects no pods; an empty selector selects all.
  std::optional<LabelSelector> label_selector;
  std::vector<std::string> namespaces;
  /// nullopt with no `namespaces` means the pod's own namespace.
  std::optional<LabelSelector> namespace_selector;
  std::string topology_key;
  std::vector<std::string> match_label_keys;
  std::vector<std::string> mismatch_label_keys;
};

struct WeightedPodAffinityTerm {
  int32_t weight = 0;
  PodAffinityTerm term;
};

/// Used for both podAffinity and podAntiAffinity.
struct PodAffinity {
  std::vector<PodAffinityTerm> required;
  std::vector<WeightedPodAffinityTerm> preferred;
};

struct Affinity {
  std::optional<NodeAffinity> node_affinity;
  std::optional<PodAffinity> pod_affinity;
  std::optional<PodAffinity> pod_anti_affinity;
};

/// spec.topologySpreadConstraints[]: how evenly matching pods spread over
/// the values of a node label.
struct TopologySpreadConstraint {
  int32_t max_skew = 0;
  std::string topology_key;
  UnsatisfiableAction when_unsatisfiable = UnsatisfiableAction::do_not_schedule;
  /// nullopt (nil) matches no pod, so the constraint counts nothing.
  std::optional<LabelSelector> label_selector;
  std::optional<int32_t> min_domains;
  NodeInclusionPolicy node_affinity_policy = NodeInclusionPolicy::honor;
  NodeInclusionPolicy node_taints_policy = NodeInclusionPolicy::ignore;
  std::vector<std::string> match_label_keys;
};

/// spec.schedulingGates[]: while a pod carries any, no scheduler may place it
/// (the SchedulingGates plugin keeps it out of the queue, the API server
/// refuses its Binding). Gates can only be removed after creation.
struct PodSchedulingGate {
  std::string name;
};

struct ContainerPort {
  std::string name;
  int32_t container_port = 0;
  int32_t host_port = 0;  // 0: no host port
  std::string host_ip;
  Protocol protocol = Protocol::tcp;
};

TROUPE_DECLARE_JSON_FIELDS(Taint)
TROUPE_DECLARE_JSON_FIELDS(Toleration)
TROUPE_DECLARE_JSON_FIELDS(NodeSelectorTerm)
TROUPE_DECLARE_JSON_FIELDS(NodeSelector)
TROUPE_DECLARE_JSON_FIELDS(PreferredSchedulingTerm)
TROUPE_DECLARE_JSON_FIELDS(NodeAffinity)
TROUPE_DECLARE_JSON_FIELDS(PodAffinityTerm)
TROUPE_DECLARE_JSON_FIELDS(WeightedPodAffinityTerm)
TROUPE_DECLARE_JSON_FIELDS(PodAffinity)
TROUPE_DECLARE_JSON_FIELDS(Affinity)
TROUPE_DECLARE_JSON_FIELDS(TopologySpreadConstraint)
TROUPE_DECLARE_JSON_FIELDS(PodSchedulingGate)
TROUPE_DECLARE_JSON_FIELDS(ContainerPort)

}  // namespace troupe
