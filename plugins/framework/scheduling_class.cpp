#include "plugins/framework/scheduling_class.hpp"

#include <functional>
#include <map>
#include <string>
#include <utility>

#include "plugins/framework/keys_read_by_name.hpp"
#include "plugins/framework/workload_selectors.hpp"

namespace troupe::plugins {

namespace {

/// The owner references a Filter or Score reads, without uids: a DaemonSet's
/// (LoadAwareScheduling lets its pods pass), and the controller reference
/// (the first owner marked controller) when it is a ReplicationController,
/// ReplicaSet or StatefulSet, whose selector default spreading looks up by
/// name (WorkloadSelectors::default_selector). Another controller (a Job, a
/// training operator's job) is read by nothing, so the pods of one template
/// under many Jobs share a class. Reservations match owners by uid, but a
/// node holding reservations is never cached (class_labels.hpp says why that
/// is enough).
std::vector<OwnerReference> owners_read(const Pod& pod) {
  const OwnerReference* controller = pod.meta.controller_ref();
  const bool spread_by_controller = controller != nullptr && controller_kind(*controller).has_value();
  std::vector<OwnerReference> out;
  for (const OwnerReference& owner : pod.meta.owner_references) {
    if (owner.kind != "DaemonSet" && !(&owner == controller && spread_by_controller)) continue;
    out.push_back(OwnerReference{owner.api_version, owner.kind, owner.name, "", owner.controller, std::nullopt});
  }
  return out;
}

/// The annotations some Filter or Score may read (keys_read_by_name.hpp):
/// not an indexed Job's completion index, nor any other that only tells one
/// pod of a workload from the next.
std::map<std::string, std::string> annotations_read(const Pod& pod) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : pod.meta.annotations)
    if (key_read_by_name(key)) out.emplace(key, value);
  return out;
}

/// The pod with every field that names or dates this one pod cleared.
Pod class_view(const Pod& pod) {
  Pod view;
  view.meta.name = "class";  // encoders require a name; every pod gets the same
  view.meta.namespace_name = pod.meta.namespace_name;
  view.meta.annotations = annotations_read(pod);
  view.meta.owner_references = owners_read(pod);
  view.meta.deletion_timestamp = pod.meta.deletion_timestamp;
  view.spec = pod.spec;
  view.spec.node_name.clear();
  view.status.phase = pod.status.phase;
  view.status.nominated_node_name = pod.status.nominated_node_name;
  view.status.qos_class = pod.status.qos_class;
  return view;
}

// The claims of its volumes, which the model keeps out of the encoded spec
// (volume plugins read them): pods with other claims are of other classes.
std::string claims_of(const Pod& pod) {
  std::string out;
  for (const PodVolumeClaim& claim : pod.spec.volume_claims)
    out += (claim.ephemeral ? "\nephemeral " : "\nclaim ") + claim.claim_of(pod.meta.name);
  return out;
}

// Its in-tree disks, also kept out of the encoded spec (VolumeRestrictions
// compares them with the node's pods').
std::string inline_disks_of(const Pod& pod) {
  std::string out;
  for (const PodInlineDisk& disk : pod.spec.inline_disks) {
    out += "\ndisk " + std::to_string(static_cast<int>(disk.kind)) + " " + disk.id + (disk.read_only ? " ro" : " rw");
    for (const std::string& monitor : disk.monitors) out += " " + monitor;
  }
  return out;
}

std::string all_labels(const Pod& pod) {
  std::string out;
  for (const auto& [key, value] : pod.meta.labels) out += "\nlabel " + key + "=" + value;
  return out;
}

uint64_t content_hash_of(uint64_t key_hash, const std::string& labels) {
  return key_hash ^ (std::hash<std::string>{}(labels) * 0xbf58476d1ce4e5b9ULL);
}

// The version is mixed in so the cache's seen-once ring tells the classes apart too.
uint64_t version_mix(uint64_t inputs_version) { return inputs_version * 0x9e3779b97f4a7c15ULL; }

}  // namespace

std::shared_ptr<const SchedulingClass> scheduling_class_of(const Pod& pod, uint64_t inputs_version) {
  return scheduling_class_of(pod, inputs_version, inputs_version);
}

std::shared_ptr<const SchedulingClass> scheduling_class_of(const Pod& pod, uint64_t inputs_version,
                                                           uint64_t filter_inputs_version) {
  auto out = std::make_shared<SchedulingClass>();
  out->key = std::make_shared<const std::string>(encode(class_view(pod)) + claims_of(pod) + inline_disks_of(pod));
  out->key_hash = std::hash<std::string>{}(*out->key);
  out->labels = all_labels(pod);
  out->content_hash = content_hash_of(out->key_hash, out->labels);
  out->inputs_version = inputs_version;
  out->filter_inputs_version = filter_inputs_version;
  out->hash = out->content_hash ^ version_mix(inputs_version);
  return out;
}

std::shared_ptr<const SchedulingClass> with_inputs_version(std::shared_ptr<const SchedulingClass> base,
                                                           uint64_t inputs_version) {
  return with_inputs_version(std::move(base), inputs_version, inputs_version);
}

std::shared_ptr<const SchedulingClass> with_inputs_version(std::shared_ptr<const SchedulingClass> base,
                                                           uint64_t inputs_version, uint64_t filter_inputs_version) {
  if (!base) return base;
  if (base->inputs_version == inputs_version && base->filter_inputs_version == filter_inputs_version) return base;
  auto out = std::make_shared<SchedulingClass>(*base);
  out->inputs_version = inputs_version;
  out->filter_inputs_version = filter_inputs_version;
  out->hash = base->content_hash ^ version_mix(inputs_version);
  return out;
}

std::shared_ptr<const SchedulingClass> with_labels(std::shared_ptr<const SchedulingClass> base, std::string labels) {
  if (!base || base->labels == labels) return base;
  auto out = std::make_shared<SchedulingClass>(*base);
  out->labels = std::move(labels);
  out->content_hash = content_hash_of(out->key_hash, out->labels);
  out->hash = out->content_hash ^ version_mix(out->inputs_version);
  return out;
}

}  // namespace troupe::plugins
