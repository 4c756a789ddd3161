#include "sim/resource_registry.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace troupe::sim {

namespace {

const std::vector<std::string> kAllVerbs = {"create", "delete", "deletecollection", "get",
                                            "list",   "patch",  "update",           "watch"};

SubresourceInfo status_of(const std::string& kind) { return {"status", kind, "", "", {"get", "patch", "update"}}; }

ResourceInfo core(std::string plural, std::string singular, std::string kind, bool namespaced,
                  std::vector<std::string> short_names) {
  ResourceInfo r;
  r.version = "v1";
  r.plural = std::move(plural);
  r.singular = std::move(singular);
  r.kind = std::move(kind);
  r.namespaced = namespaced;
  r.short_names = std::move(short_names);
  r.verbs = kAllVerbs;
  return r;
}

ResourceInfo in_group(std::string group, std::string version, ResourceInfo r) {
  r.group = std::move(group);
  r.version = std::move(version);
  return r;
}

// Custom resources behave like apiextensions-apiserver's customresource
// strategy: no strategic merge patch, PUT needs a resourceVersion, DELETE
// returns the object, and a status subresource means status is dropped on create.
ResourceInfo custom(std::string group, std::string version, std::string plural, std::string singular,
                    std::string kind, bool namespaced, std::vector<std::string> short_names, bool with_status) {
  ResourceInfo r = in_group(std::move(group), std::move(version),
                            core(std::move(plural), std::move(singular), std::move(kind), namespaced,
                                 std::move(short_names)));
  r.builtin = false;
  r.unconditional_update = false;
  r.delete_returns_object = true;
  if (with_status) {
    r.subresources.push_back(status_of(r.kind));
    r.resets_status_on_create = true;
  }
  return r;
}

std::vector<ResourceInfo> standard_resources() {
  std::vector<ResourceInfo> rs;

  ResourceInfo namespaces = core("namespaces", "namespace", "Namespace", false, {"ns"});
  namespaces.delete_returns_object = true;
  rs.push_back(namespaces);

  ResourceInfo nodes = core("nodes", "node", "Node", false, {"no"});
  nodes.subresources.push_back(status_of("Node"));
  rs.push_back(nodes);

  ResourceInfo pods = core("pods", "pod", "Pod", true, {"po"});
  pods.subresources.push_back({"binding", "Binding", "", "v1", {"create"}});
  pods.subresources.push_back({"eviction", "Eviction", "policy", "v1", {"create"}});
  pods.subresources.push_back(status_of("Pod"));
  pods.subresources.push_back({"resize", "Pod", "", "", {"get", "patch", "update"}});
  pods.delete_returns_object = true;
  pods.resets_status_on_create = true;
  rs.push_back(pods);

  ResourceInfo bindings = core("bindings", "binding", "Binding", true, {});
  bindings.verbs = {"create"};
  rs.push_back(bindings);

  ResourceInfo events = core("events", "event", "Event", true, {"ev"});
  events.create_on_update = true;
  rs.push_back(events);

  rs.push_back(core("configmaps", "configmap", "ConfigMap", true, {"cm"}));

  // Volume scheduling's claims, volumes and storage classes.
  ResourceInfo claims = core("persistentvolumeclaims", "persistentvolumeclaim", "PersistentVolumeClaim", true, {"pvc"});
  claims.subresources.push_back(status_of("PersistentVolumeClaim"));
  rs.push_back(claims);
  ResourceInfo volumes = core("persistentvolumes", "persistentvolume", "PersistentVolume", false, {"pv"});
  volumes.subresources.push_back(status_of("PersistentVolume"));
  rs.push_back(volumes);
  rs.push_back(in_group("storage.k8s.io", "v1", core("storageclasses", "storageclass", "StorageClass", false, {"sc"})));
  rs.push_back(in_group("storage.k8s.io", "v1", core("csinodes", "csinode", "CSINode", false, {})));
  rs.push_back(in_group("storage.k8s.io", "v1", core("csidrivers", "csidriver", "CSIDriver", false, {})));
  rs.push_back(in_group("storage.k8s.io", "v1",
                        core("csistoragecapacities", "csistoragecapacity", "CSIStorageCapacity", true, {})));

  ResourceInfo services = core("services", "service", "Service", true, {"svc"});
  services.subresources.push_back(status_of("Service"));
  rs.push_back(services);

  ResourceInfo controllers = core("replicationcontrollers", "replicationcontroller", "ReplicationController", true, {"rc"});
  controllers.subresources.push_back(status_of("ReplicationController"));
  rs.push_back(controllers);

  ResourceInfo new_events = in_group("events.k8s.io", "v1", core("events", "event", "Event", true, {"ev"}));
  new_events.create_on_update = true;
  new_events.schema = ResourceInfo::Schema::events_v1;  // one set of events behind both APIs (event_conversion.hpp)
  rs.push_back(new_events);

  ResourceInfo leases = in_group("coordination.k8s.io", "v1", core("leases", "lease", "Lease", true, {}));
  leases.create_on_update = true;
  rs.push_back(leases);

  ResourceInfo pdbs = in_group("policy", "v1",
                               core("poddisruptionbudgets", "poddisruptionbudget", "PodDisruptionBudget", true, {"pdb"}));
  pdbs.subresources.push_back(status_of("PodDisruptionBudget"));
  rs.push_back(pdbs);

  ResourceInfo replicasets = in_group("apps", "v1", core("replicasets", "replicaset", "ReplicaSet", true, {"rs"}));
  replicasets.subresources.push_back(status_of("ReplicaSet"));
  rs.push_back(replicasets);

  ResourceInfo statefulsets = in_group("apps", "v1", core("statefulsets", "statefulset", "StatefulSet", true, {"sts"}));
  statefulsets.subresources.push_back(status_of("StatefulSet"));
  rs.push_back(statefulsets);

  const std::string koord = "scheduling.koordinator.sh";
  rs.push_back(custom(koord, "v1alpha1", "devices", "device", "Device", false, {}, false));
  rs.push_back(custom(koord, "v1alpha1", "reservations", "reservation", "Reservation", false, {"reserv"}, true));
  rs.push_back(custom(koord, "v1alpha1", "podmigrationjobs", "podmigrationjob", "PodMigrationJob", false, {"pmj"}, true));

  const std::string topology = "topology.node.k8s.io";
  rs.push_back(custom(topology, "v1alpha2", "noderesourcetopologies", "noderesourcetopology", "NodeResourceTopology",
                      false, {"node-res-topo"}, false));
  rs.push_back(custom(topology, "v1alpha1", "noderesourcetopologies", "noderesourcetopology", "NodeResourceTopology",
                      false, {"node-res-topo"}, false));

  const std::string sigs = "scheduling.sigs.k8s.io";
  // As the scheduler-plugins CRD: status is a subresource (Coscheduling writes it).
  rs.push_back(custom(sigs, "v1alpha1", "podgroups", "podgroup", "PodGroup", true, {"pg"}, true));
  rs.push_back(custom(sigs, "v1alpha1", "elasticquotas", "elasticquota", "ElasticQuota", true, {"eq", "eqs"}, false));

  rs.push_back(custom("slo.koordinator.sh", "v1alpha1", "nodemetrics", "nodemetric", "NodeMetric", false, {}, true));
  return rs;
}

}  // namespace

std::string ResourceInfo::api_version() const { return group.empty() ? version : group + "/" + version; }

const std::string& ResourceInfo::storage_group() const {
  static const std::string kCore;
  return schema == Schema::events_v1 ? kCore : group;
}

std::string ResourceInfo::qualified_plural() const { return group.empty() ? plural : plural + "." + group; }

const SubresourceInfo* ResourceInfo::find_subresource(std::string_view name) const {
  for (const auto& s : subresources)
    if (s.name == name) return &s;
  return nullptr;
}

const ResourceRegistry& ResourceRegistry::standard() {
  static const ResourceRegistry registry(standard_resources());
  return registry;
}

ResourceRegistry::ResourceRegistry(std::vector<ResourceInfo> resources) : resources_(std::move(resources)) {
  // Versions of one group+plural share a storage; group versions are listed in
  // declaration order, which is also the preferred order.
  std::map<std::pair<std::string, std::string>, size_t> storage_of;
  std::vector<std::string> stored_api_versions;
  for (auto& r : resources_) {
    auto [it, inserted] = storage_of.try_emplace({r.storage_group(), r.plural}, storage_of.size());
    r.storage = it->second;
    r.storage_version = inserted;
    if (inserted) stored_api_versions.push_back(r.api_version());
    r.stored_api_version = stored_api_versions[r.storage];
    if (r.group.empty()) continue;
    auto g = std::find_if(groups_.begin(), groups_.end(), [&](const GroupVersions& x) { return x.group == r.group; });
    if (g == groups_.end()) {
      groups_.push_back({r.group, {r.version}});
    } else if (std::find(g->versions.begin(), g->versions.end(), r.version) == g->versions.end()) {
      g->versions.push_back(r.version);
    }
  }
  storage_count_ = storage_of.size();
}

const ResourceInfo* ResourceRegistry::find(std::string_view group, std::string_view version,
                                           std::string_view plural) const {
  for (const auto& r : resources_)
    if (r.plural == plural && r.version == version && r.group == group) return &r;
  return nullptr;
}

const ResourceInfo* ResourceRegistry::find_by_kind(std::string_view api_version, std::string_view kind) const {
  for (const auto& r : resources_)
    if (r.kind == kind && r.api_version() == api_version && r.plural != "bindings") return &r;
  return nullptr;
}

bool ResourceRegistry::serves_group_version(std::string_view group, std::string_view version) const {
  for (const auto& r : resources_)
    if (r.group == group && r.version == version) return true;
  return false;
}

}  // namespace troupe::sim
