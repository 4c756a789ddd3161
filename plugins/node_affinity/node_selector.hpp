#pragma once
// Node selector matching as v1 component-helpers nodeaffinity: terms are
// ORed, requirements within a term ANDed; a term with no requirements
// matches nothing; matchFields may only say metadata.name In/NotIn (anything
// else makes the term match nothing, as a parse error does upstream).

#include <string>

#include <yaml-cpp/yaml.h>

#include "model/node.hpp"
#include "model/pod.hpp"
#include "model/scheduling_types.hpp"

namespace troupe::plugins {

inline constexpr const char* kNodeNameField = "metadata.name";

bool term_matches(const NodeSelectorTerm& term, const Node& node);
/// True when any term matches (an empty selector matches no node).
bool selector_matches(const NodeSelector& selector, const Node& node);
/// As selector_matches on a node known by these labels alone: how a
/// PersistentVolume's node affinity is checked (component-helpers'
/// volume.CheckNodeAffinity passes no fields, so matchFields requirements
/// are not checked; a term with none of either still matches nothing).
bool selector_matches_labels(const NodeSelector& selector, const Labels& labels);
/// `pod.spec.nodeSelector`: every label present with the same value.
bool node_selector_labels_match(const std::map<std::string, std::string>& selector, const Node& node);
/// The pod's spec.affinity.nodeAffinity.requiredDuringScheduling..., or null.
const NodeSelector* required_node_affinity(const PodSpec& spec);
/// spec.nodeSelector and the required node affinity both match the node
/// (upstream's GetRequiredNodeAffinity(pod).Match(node)).
bool required_node_selection_matches(const PodSpec& spec, const Node& node);

/// Decodes a NodeSelectorTerm from YAML ({matchExpressions, matchFields}) with
/// kube-scheduler's validation; throws config::FieldError naming the field.
NodeSelectorTerm read_node_selector_term(const YAML::Node& node, const std::string& path);

}  // namespace troupe::plugins
