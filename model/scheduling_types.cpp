#include "model/scheduling_types.hpp"

#include "model/json_reader.hpp"
#include "model/json_writer.hpp"

namespace troupe {

namespace {

template <class Io, class T>
void taint_fields(Io& io, T& x) {
  io.required("key", x.key);
  io.check("key", !x.key.empty(), "Required value");
  io.field("value", x.value);
  io.required("effect", x.effect);
  io.check("effect", x.effect != TaintEffect::all, "Required value");
  io.field("timeAdded", x.time_added);
}

template <class Io, class T>
void toleration_fields(Io& io, T& x) {
  io.field("key", x.key);
  io.field("operator", x.op);
  io.field("value", x.value);
  io.field("effect", x.effect);
  io.field("tolerationSeconds", x.toleration_seconds);
}

template <class Io, class T>
void node_selector_term_fields(Io& io, T& x) {
  io.field("matchExpressions", x.match_expressions);
  io.field("matchFields", x.match_fields);
}

template <class Io, class T>
void node_selector_fields(Io& io, T& x) {
  io.array("nodeSelectorTerms", x.terms);
}

template <class Io, class T>
void preferred_scheduling_term_fields(Io& io, T& x) {
  io.required("weight", x.weight);
  io.object("preference", x.preference);
}

template <class Io, class T>
void node_affinity_fields(Io& io, T& x) {
  io.optional_object("requiredDuringSchedulingIgnoredDuringExecution", x.required);
  io.array("preferredDuringSchedulingIgnoredDuringExecution", x.preferred);
}

template <class Io, class T>
void pod_affinity_term_fields(Io& io, T& x) {
  io.field("labelSelector", x.label_selector);
  io.field("namespaces", x.namespaces);
  io.field("namespaceSelector", x.namespace_selector);
  io.required("topologyKey", x.topology_key);
  io.check("topologyKey", !x.topology_key.empty(), "Required value: can not be empty");
  io.field("matchLabelKeys", x.match_label_keys);
  io.field("mismatchLabelKeys", x.mismatch_label_keys);
}

template <class Io, class T>
void weighted_pod_affinity_term_fields(Io& io, T& x) {
  io.required("weight", x.weight);
  io.object("podAffinityTerm", x.term);
}

template <class Io, class T>
void pod_affinity_fields(Io& io, T& x) {
  io.array("requiredDuringSchedulingIgnoredDuringExecution", x.required);
  io.array("preferredDuringSchedulingIgnoredDuringExecution", x.preferred);
}

template <class Io, class T>
void affinity_fields(Io& io, T& x) {
  io.optional_object("nodeAffinity", x.node_affinity);
  io.optional_object("podAffinity", x.pod_affinity);
  io.optional_object("podAntiAffinity", x.pod_anti_affinity);
}

template <class Io, class T>
void topology_spread_constraint_fields(Io& io, T& x) {
  io.required("maxSkew", x.max_skew);
  io.check("maxSkew", x.max_skew > 0, "Invalid value: must be greater than zero");
  io.required("topologyKey", x.topology_key);
  io.check("topologyKey", !x.topology_key.empty(), "Required value: can not be empty");
  io.required("whenUnsatisfiable", x.when_unsatisfiable);
  io.field("labelSelector", x.label_selector);
  io.field("minDomains", x.min_domains);
  io.check("minDomains", !x.min_domains || *x.min_domains > 0, "Invalid value: must be greater than zero");
  io.check("minDomains", !x.min_domains || x.when_unsatisfiable == UnsatisfiableAction::do_not_schedule,
           "Invalid value: can only use minDomains if whenUnsatisfiable=DoNotSchedule");
  io.field("nodeAffinityPolicy", x.node_affinity_policy, NodeInclusionPolicy::honor);
  io.field("nodeTaintsPolicy", x.node_taints_policy, NodeInclusionPolicy::ignore);
  io.field("matchLabelKeys", x.match_label_keys);
}

template <class Io, class T>
void scheduling_gate_fields(Io& io, T& x) {
  io.required("name", x.name);
  io.check("name", !x.name.empty(), "Required value");
}

template <class Io, class T>
void container_port_fields(Io& io, T& x) {
  io.field("name", x.name);
  io.required("containerPort", x.container_port);
  io.field("hostPort", x.host_port);
  io.field("hostIP", x.host_ip);
  io.field("protocol", x.protocol, Protocol::tcp);
}

}  // namespace

TROUPE_JSON_FIELDS(Taint, taint_fields)
TROUPE_JSON_FIELDS(Toleration, toleration_fields)
TROUPE_JSON_FIELDS(NodeSelectorTerm, node_selector_term_fields)
TROUPE_JSON_FIELDS(NodeSelector, node_selector_fields)
TROUPE_JSON_FIELDS(PreferredSchedulingTerm, preferred_scheduling_term_fields)
TROUPE_JSON_FIELDS(NodeAffinity, node_affinity_fields)
TROUPE_JSON_FIELDS(PodAffinityTerm, pod_affinity_term_fields)
TROUPE_JSON_FIELDS(WeightedPodAffinityTerm, weighted_pod_affinity_term_fields)
TROUPE_JSON_FIELDS(PodAffinity, pod_affinity_fields)
TROUPE_JSON_FIELDS(Affinity, affinity_fields)
TROUPE_JSON_FIELDS(TopologySpreadConstraint, topology_spread_constraint_fields)
TROUPE_JSON_FIELDS(PodSchedulingGate, scheduling_gate_fields)
TROUPE_JSON_FIELDS(ContainerPort, container_port_fields)

bool Toleration::tolerates(const Taint& taint) const {
  if (effect != TaintEffect::all && effect != taint.effect) return false;
  if (!key.empty() && key != taint.key) return false;
  switch (op) {
    case TolerationOperator::exists: return true;
    case TolerationOperator::equal: return value == taint.value;
  }
  return false;
}

}  // namespace troupe
