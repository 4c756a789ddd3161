// Patch strategies of the built-in kinds, transcribed from the struct tags of
// k8s.io/api (core/v1, apps/v1, batch/v1, policy/v1, ...). Only fields with a
// `patchStrategy` need an entry: everything else follows the defaults
// (objects merge key by key, lists are replaced whole).

#include "model/json_patch_strategic_schema.hpp"

#include <map>

namespace troupe::strategic_patch_detail {
namespace {

void add_object_meta(PatchSchema& schema, const std::string& prefix) {
  schema.merge_by(prefix + "metadata.ownerReferences", "uid");
  schema.merge_primitives(prefix + "metadata.finalizers");
}

void add_container(PatchSchema& schema, const std::string& container) {
  schema.merge_by(container + ".env", "name");
  schema.merge_by(container + ".ports", "containerPort");
  schema.merge_by(container + ".volumeMounts", "mountPath");
  schema.merge_by(container + ".volumeDevices", "devicePath");
}

/// core/v1 PodSpec at `spec` ("spec" for a Pod, "spec.template.spec" for a
/// Deployment, ...).
void add_pod_spec(PatchSchema& schema, const std::string& spec) {
  for (const char* list : {".containers", ".initContainers", ".ephemeralContainers"}) {
    schema.merge_by(spec + list, "name");
    add_container(schema, spec + list);
  }
  schema.merge_by(spec + ".volumes", "name");
  schema.merge_by(spec + ".imagePullSecrets", "name");
  schema.merge_by(spec + ".hostAliases", "ip");
  schema.merge_by(spec + ".topologySpreadConstraints", "topologyKey");
  schema.merge_by(spec + ".schedulingGates", "name");
  schema.merge_by(spec + ".resourceClaims", "name");
}

/// A pod template at `template` ("spec.template"): its own metadata and spec.
void add_pod_template(PatchSchema& schema, const std::string& template_path) {
  add_object_meta(schema, template_path + ".");
  add_pod_spec(schema, template_path + ".spec");
}

PatchSchema metadata_only() {
  PatchSchema schema;
  add_object_meta(schema, "");
  return schema;
}

PatchSchema with_conditions() {
  PatchSchema schema = metadata_only();
  schema.merge_by("status.conditions", "type");
  return schema;
}

PatchSchema pod() {
  PatchSchema schema = with_conditions();
  add_pod_spec(schema, "spec");
  schema.merge_by("status.podIPs", "ip");
  schema.merge_by("status.hostIPs", "ip");
  schema.merge_by("status.resourceClaimStatuses", "name");
  return schema;
}

PatchSchema node() {
  PatchSchema schema = with_conditions();
  schema.merge_primitives("spec.podCIDRs");
  schema.merge_by("status.addresses", "type");
  return schema;
}

PatchSchema workload(const std::string& template_path) {
  PatchSchema schema = with_conditions();
  add_pod_template(schema, template_path);
  return schema;
}

PatchSchema pod_template() {
  PatchSchema schema = metadata_only();
  add_pod_template(schema, "template");
  return schema;
}

PatchSchema service() {
  PatchSchema schema = with_conditions();
  schema.merge_by("spec.ports", "port");
  return schema;
}

PatchSchema pod_disruption_budget() {
  PatchSchema schema = with_conditions();
  schema.replace_object("spec.selector");
  return schema;
}

const std::map<std::string, PatchSchema, std::less<>>& all_schemas() {
  static const std::map<std::string, PatchSchema, std::less<>> schemas = [] {
    std::map<std::string, PatchSchema, std::less<>> kinds;
    kinds["Pod"] = pod();
    kinds["Node"] = node();
    kinds["Namespace"] = with_conditions();
    kinds["Service"] = service();
    kinds["PodDisruptionBudget"] = pod_disruption_budget();
    kinds["PodTemplate"] = pod_template();
    for (const char* kind : {"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "ReplicationController"})
      kinds[kind] = workload("spec.template");
    kinds["CronJob"] = workload("spec.jobTemplate.spec.template");
    for (const char* kind : {"Event", "ConfigMap", "Secret", "Endpoints", "Lease", "Binding", "PriorityClass",
                             "ResourceQuota", "LimitRange", "PersistentVolume", "StorageClass"})
      kinds[kind] = metadata_only();
    kinds["PersistentVolumeClaim"] = with_conditions();
    kinds["ServiceAccount"] = metadata_only();
    kinds["ServiceAccount"].merge_by("secrets", "name");
    kinds["CSINode"] = metadata_only();
    kinds["CSINode"].merge_by("spec.drivers", "name");
    return kinds;
  }();
  return schemas;
}

}  // namespace

const PatchSchema* schema_for_kind(std::string_view kind) {
  const auto& schemas = all_schemas();
  auto schema = schemas.find(kind);
  return schema == schemas.end() ? nullptr : &schema->second;
}

}  // namespace troupe::strategic_patch_detail
