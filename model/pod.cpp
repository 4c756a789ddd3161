#include "model/pod.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kPodKind{"v1", "Pod"};

template <class Io, class T>
void resource_requirements_fields(Io& io, T& x) {
  io.field("requests", x.requests);
  io.field("limits", x.limits);
}

template <class Io, class T>
void container_fields(Io& io, T& x) {
  io.required("name", x.name);
  io.check("name", !x.name.empty(), "Required value");
  io.field("image", x.image);
  io.object("resources", x.resources);
  io.array("ports", x.ports);
  io.field("restartPolicy", x.restart_policy);
}

std::string string_member(const rapidjson::Value& object, const char* key) {
  auto m = object.FindMember(key);
  if (m == object.MemberEnd() || !m->value.IsString()) return {};
  return std::string(m->value.GetString(), m->value.GetStringLength());
}

bool bool_member(const rapidjson::Value& object, const char* key) {
  auto m = object.FindMember(key);
  return m != object.MemberEnd() && m->value.IsBool() && m->value.GetBool();
}

// A gcePersistentDisk, awsElasticBlockStore, iscsi or rbd volume (what
// VolumeRestrictions compares; the API server validates the rest).
void read_inline_disk(const rapidjson::Value& volume, std::vector<PodInlineDisk>& disks) {
  using Kind = PodInlineDisk::Kind;
  struct Source {
    const char* field;
    Kind kind;
    const char* id;
  };
  static constexpr Source kSources[] = {{"gcePersistentDisk", Kind::gce_persistent_disk, "pdName"},
                                        {"awsElasticBlockStore", Kind::aws_elastic_block_store, "volumeID"},
                                        {"iscsi", Kind::iscsi, "iqn"},
                                        {"rbd", Kind::rbd, "image"}};
  for (const Source& source : kSources) {
    auto m = volume.FindMember(source.field);
    if (m == volume.MemberEnd() || !m->value.IsObject()) continue;
    PodInlineDisk disk{source.kind, string_member(m->value, source.id), {}, bool_member(m->value, "readOnly")};
    if (source.kind == Kind::rbd) {
      std::string pool = string_member(m->value, "pool");
      disk.id = (pool.empty() ? std::string("rbd") : pool) + "/" + disk.id;
      auto monitors = m->value.FindMember("monitors");
      if (monitors != m->value.MemberEnd() && monitors->value.IsArray())
        for (const auto& monitor : monitors->value.GetArray())
          if (monitor.IsString()) disk.monitors.emplace_back(monitor.GetString(), monitor.GetStringLength());
    }
    disks.push_back(std::move(disk));
    return;
  }
}

// A persistentVolumeClaim or ephemeral volume's claim (the API server
// validates volumes; one without a name or claim name is skipped here).
void read_volume_claim(const rapidjson::Value& volume, std::vector<PodVolumeClaim>& claims) {
  auto name = volume.FindMember("name");
  if (name == volume.MemberEnd() || !name->value.IsString()) return;
  PodVolumeClaim claim;
  claim.volume.assign(name->value.GetString(), name->value.GetStringLength());
  auto pvc = volume.FindMember("persistentVolumeClaim");
  if (pvc != volume.MemberEnd() && pvc->value.IsObject()) {
    auto claim_name = pvc->value.FindMember("claimName");
    if (claim_name == pvc->value.MemberEnd() || !claim_name->value.IsString()) return;
    claim.claim_name.assign(claim_name->value.GetString(), claim_name->value.GetStringLength());
    claims.push_back(std::move(claim));
    return;
  }
  auto ephemeral = volume.FindMember("ephemeral");
  if (ephemeral != volume.MemberEnd() && ephemeral->value.IsObject()) {
    claim.ephemeral = true;
    claims.push_back(std::move(claim));
  }
}

// Reads the volume kinds the descheduler and volume scheduling care about
// without modelling volumes: they stay untouched in raw.
void read_volume_summary(JsonReader& io, PodSpec& spec) {
  auto volumes = io.current().FindMember("volumes");
  if (volumes == io.current().MemberEnd() || volumes->value.IsNull()) return;
  if (!volumes->value.IsArray()) {
    io.fail("volumes", JsonReader::expected("an array", volumes->value));
    return;
  }
  for (const auto& volume : volumes->value.GetArray()) {
    if (!volume.IsObject()) continue;
    auto has = [&volume](const char* key) {
      auto m = volume.FindMember(key);
      return m != volume.MemberEnd() && !m->value.IsNull();
    };
    spec.has_local_storage = spec.has_local_storage || has("emptyDir") || has("hostPath");
    spec.has_pvc = spec.has_pvc || has("persistentVolumeClaim");
    read_volume_claim(volume, spec.volume_claims);
    read_inline_disk(volume, spec.inline_disks);
  }
}

/// spec.resourceClaims names at least one claim (dynamic resource allocation).
bool names_resource_claims(JsonReader& io) {
  auto claims = io.current().FindMember("resourceClaims");
  return claims != io.current().MemberEnd() && claims->value.IsArray() && !claims->value.Empty();
}

template <class Io, class T>
void pod_spec_fields(Io& io, T& x) {
  io.field("schedulerName", x.scheduler_name);
  io.field("nodeName", x.node_name);
  io.field("priority", x.priority);
  io.field("priorityClassName", x.priority_class_name);
  io.field("preemptionPolicy", x.preemption_policy);
  io.array("initContainers", x.init_containers);
  io.array("containers", x.containers);
  io.field("overhead", x.overhead);
  io.optional_object("resources", x.resources);
  io.field("nodeSelector", x.node_selector);
  io.optional_object("affinity", x.affinity);
  io.array("tolerations", x.tolerations);
  io.array("topologySpreadConstraints", x.topology_spread_constraints);
  io.array("schedulingGates", x.scheduling_gates);
  if constexpr (Io::reading) {
    read_volume_summary(io, x);
    x.has_resource_claims = names_resource_claims(io);
  }
}

template <class Io, class T>
void container_status_fields(Io& io, T& x) {
  io.field("name", x.name);
  io.field("allocatedResources", x.allocated_resources);
  io.optional_object("resources", x.resources);
}

template <class Io, class T>
void pod_status_fields(Io& io, T& x) {
  io.field("phase", x.phase);
  io.array("conditions", x.conditions);
  io.array("initContainerStatuses", x.init_container_statuses);
  io.array("containerStatuses", x.container_statuses);
  io.field("nominatedNodeName", x.nominated_node_name);
  io.field("qosClass", x.qos_class);
  io.field("startTime", x.start_time);
}

template <class Io, class T>
void pod_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.object("spec", x.spec);
  io.object("status", x.status);
}

template <class Io, class T>
void pod_template_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.object("spec", x.spec);
}

}  // namespace

TROUPE_JSON_FIELDS(ResourceRequirements, resource_requirements_fields)
TROUPE_JSON_FIELDS(Container, container_fields)
TROUPE_JSON_FIELDS(PodSpec, pod_spec_fields)
TROUPE_JSON_FIELDS(ContainerStatus, container_status_fields)
TROUPE_JSON_FIELDS(PodStatus, pod_status_fields)
TROUPE_JSON_FIELDS(Pod, pod_fields)
TROUPE_JSON_FIELDS(PodTemplate, pod_template_fields)

Result<Pod> decode_pod(JsonPtr doc) { return decode_object<Pod>(doc, kPodKind); }

Result<Pod> decode_pod_json(std::string_view text) { return decode_object_text<Pod>(text, kPodKind); }

bool pod_finished(const Pod& pod) { return pod.status.phase == "Succeeded" || pod.status.phase == "Failed"; }

bool owned_by_daemon_set(const Pod& pod) {
  for (const OwnerReference& owner : pod.meta.owner_references)
    if (owner.kind == "DaemonSet") return true;
  return false;
}

std::shared_ptr<JsonDocument> to_document(const Pod& pod) { return encode_document(pod, kPodKind); }

std::string encode(const Pod& pod) { return to_json(*to_document(pod)); }

}  // namespace troupe
