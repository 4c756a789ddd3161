#pragma once
// Pod as the scheduler sees it: a typed view of what placement, preemption
// and descheduling read, over the whole original object (`raw`), so that
// encode() gives back every field this struct does not model.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/condition.hpp"
#include "model/json.hpp"
#include "model/json_enum.hpp"
#include "model/json_fields.hpp"
#include "model/object_meta.hpp"
#include "model/resources.hpp"
#include "model/result.hpp"
#include "model/scheduling_types.hpp"

namespace troupe {

/// Absent means PreemptLowerPriority (the API server's default).
enum class PreemptionPolicy { preempt_lower_priority, never };

template <>
struct JsonEnum<PreemptionPolicy> {
  static constexpr std::pair<PreemptionPolicy, std::string_view> names[] = {
      {PreemptionPolicy::preempt_lower_priority, "PreemptLowerPriority"}, {PreemptionPolicy::never, "Never"}};
};

struct ResourceRequirements {
  ResourceList requests;
  ResourceList limits;
};

struct Container {
  std::string name;
  std::string image;
  ResourceRequirements resources;
  std::vector<ContainerPort> ports;
  /// Init containers only: "Always" makes a restartable init container (sidecar).
  std::optional<std::string> restart_policy;

  bool is_restartable() const { return restart_policy && *restart_policy == "Always"; }
};

/// A pod volume backed by a PersistentVolumeClaim: a persistentVolumeClaim
/// volume names its claim; an ephemeral volume's claim is `<pod>-<volume>`.
struct PodVolumeClaim {
  std::string volume;      // the volume's name in the pod
  std::string claim_name;  // persistentVolumeClaim.claimName; empty for an ephemeral volume
  bool ephemeral = false;

  /// The claim's name in the pod's namespace.
  std::string claim_of(const std::string& pod_name) const { return ephemeral ? pod_name + "-" + volume : claim_name; }
  bool operator==(const PodVolumeClaim& o) const {
    return volume == o.volume && claim_name == o.claim_name && ephemeral == o.ephemeral;
  }
};

/// An in-tree disk volume that one node may mount for one writer only
/// (kube-scheduler's VolumeRestrictions reads these four kinds): a
/// gcePersistentDisk (`id` its pdName), awsElasticBlockStore (volumeID),
/// iscsi (iqn) or rbd (pool "/" image, the pool "rbd" when not given, as the
/// API server defaults it; `monitors` its Ceph monitors).
struct PodInlineDisk {
  enum class Kind { gce_persistent_disk, aws_elastic_block_store, iscsi, rbd };
  Kind kind = Kind::gce_persistent_disk;
  std::string id;
  std::vector<std::string> monitors;
  bool read_only = false;

  bool operator==(const PodInlineDisk& o) const {
    return kind == o.kind && id == o.id && monitors == o.monitors && read_only == o.read_only;
  }
};

struct PodSpec {
  std::string scheduler_name;
  std::string node_name;
  std::optional<int32_t> priority;
  std::string priority_class_name;
  PreemptionPolicy preemption_policy = PreemptionPolicy::preempt_lower_priority;
  std::vector<Container> init_containers;
  std::vector<Container> containers;
  ResourceList overhead;
  /// Pod-level resources (spec.resources, PodLevelResources feature).
  std::optional<ResourceRequirements> resources;
  std::map<std::string, std::string> node_selector;
  std::optional<Affinity> affinity;
  std::vector<Toleration> tolerations;
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
  std::vector<PodSchedulingGate> scheduling_gates;
  /// Summaries of spec.volumes (read only; volumes themselves stay in raw):
  /// an emptyDir or hostPath volume, and a persistentVolumeClaim volume, as
  /// the descheduler's IsPodWithLocalStorage / IsPodWithPVC test them.
  bool has_local_storage = false;
  bool has_pvc = false;
  /// The claims of its persistentVolumeClaim and ephemeral volumes, in order
  /// (what volume scheduling reads).
  std::vector<PodVolumeClaim> volume_claims;
  /// Its gcePersistentDisk, awsElasticBlockStore, iscsi and rbd volumes.
  std::vector<PodInlineDisk> inline_disks;
  /// spec.resourceClaims names a claim (read only): dynamic resource
  /// allocation, which troupe does not implement, so such a pod is refused.
  bool has_resource_claims = false;
};

/// What the kubelet reports of a container's resources (in-place pod
/// resize): what it admitted (allocatedResources) and what the container
/// runs with (resources). Absent until the kubelet reports them.
struct ContainerStatus {
  std::string name;
  std::optional<ResourceList> allocated_resources;
  std::optional<ResourceRequirements> resources;
};

struct PodStatus {
  std::string phase;  // Pending, Running, Succeeded, Failed, Unknown
  std::vector<Condition> conditions;
  std::vector<ContainerStatus> init_container_statuses;
  std::vector<ContainerStatus> container_statuses;
  std::string nominated_node_name;
  std::string qos_class;  // as reported; see pod_requests.hpp for computing it
  std::optional<Timestamp> start_time;
};

struct Pod {
  ObjectMeta meta;
  PodSpec spec;
  PodStatus status;
  JsonPtr raw;
};

/// A pod template (Reservation.spec.template and similar).
struct PodTemplate {
  ObjectMeta meta;
  PodSpec spec;
};

/// Errors name the field: "spec.containers[0].resources.requests.cpu: invalid quantity ...".
/// Phase Succeeded or Failed: the pod holds nothing any more.
bool pod_finished(const Pod& pod);
/// Some owner reference is of kind DaemonSet.
bool owned_by_daemon_set(const Pod& pod);

Result<Pod> decode_pod(JsonPtr doc);
/// parse_json + decode_pod.
Result<Pod> decode_pod_json(std::string_view text);
/// `raw` with the view's fields written over it (see json_writer.hpp).
std::shared_ptr<JsonDocument> to_document(const Pod& pod);
std::string encode(const Pod& pod);

TROUPE_DECLARE_JSON_FIELDS(ResourceRequirements)
TROUPE_DECLARE_JSON_FIELDS(Container)
TROUPE_DECLARE_JSON_FIELDS(PodSpec)
TROUPE_DECLARE_JSON_FIELDS(ContainerStatus)
TROUPE_DECLARE_JSON_FIELDS(PodStatus)
TROUPE_DECLARE_JSON_FIELDS(Pod)
TROUPE_DECLARE_JSON_FIELDS(PodTemplate)

}  // namespace troupe
