#pragma once
// The table of resources the embedded API server serves: for each one its
// group, version, plural/singular names, kind, scope, short names, verbs and
// subresources, and the few per-kind behaviours of the real registry
// strategies that clients can observe (create-on-update, unconditional
// update, strategic merge patch support, status handling).

#include <string>
#include <string_view>
#include <vector>

namespace troupe::sim {

struct SubresourceInfo {
  std::string name;               // "status", "binding", "eviction"
  std::string kind;               // kind served under it: "Pod", "Binding", "Eviction"
  std::string group, version;     // of that kind, for discovery (empty = the parent's)
  std::vector<std::string> verbs; // "get", "patch", "update", "create"
};

struct ResourceInfo {
  std::string group;    // "" for the core group
  std::string version;  // "v1"
  std::string plural;   // "pods"
  std::string singular; // "pod"
  std::string kind;     // "Pod"
  bool namespaced = true;
  std::vector<std::string> short_names;
  std::vector<std::string> verbs;
  std::vector<SubresourceInfo> subresources;
  bool builtin = true;              // false for custom resources: no strategic merge patch, CRD error texts
  bool create_on_update = false;    // PUT of a missing object creates it (events, leases)
  bool unconditional_update = true; // PUT without metadata.resourceVersion allowed (not for custom resources)
  bool delete_returns_object = false; // DELETE answers with the object instead of a Success Status
  bool resets_status_on_create = false; // pods start Pending; custom resources with a status subresource drop it
  /// Index of the storage this resource shares with its other versions
  /// (noderesourcetopologies v1alpha1 and v1alpha2 are one set of objects).
  size_t storage = 0;
  /// True for the version objects are stored in (the first one declared); the
  /// others are served by rewriting apiVersion (their schemas are compatible)
  /// or, with a `schema`, by converting the object.
  bool storage_version = true;
  /// The storage version's apiVersion: what an object written through any
  /// version is stored with (filled in by the registry).
  std::string stored_api_version;
  /// How objects of this resource differ from the stored ones. events_v1:
  /// core/v1 Events seen through events.k8s.io/v1, stored with them.
  enum class Schema { stored, events_v1 };
  Schema schema = Schema::stored;
  /// The group whose storage holds these objects: "" (core) for events_v1, else its own.
  const std::string& storage_group() const;

  /// "v1" for the core group, "group/version" otherwise.
  std::string api_version() const;
  /// The name used in error messages: "pods", "devices.scheduling.koordinator.sh".
  std::string qualified_plural() const;
  std::string list_kind() const { return kind + "List"; }
  bool has_status_subresource() const { return find_subresource("status") != nullptr; }
  const SubresourceInfo* find_subresource(std::string_view name) const;
};

struct GroupVersions {
  std::string group;
  std::vector<std::string> versions; // preferred first
};

class ResourceRegistry {
 public:
  /// Everything troupe serves: core, events.k8s.io, coordination.k8s.io,
  /// policy, apps, and the Koordinator / scheduler-plugins / NRT CRD groups.
  static const ResourceRegistry& standard();

  explicit ResourceRegistry(std::vector<ResourceInfo> resources);

  const ResourceInfo* find(std::string_view group, std::string_view version, std::string_view plural) const;
  /// By the apiVersion and kind written in an object (for --load).
  const ResourceInfo* find_by_kind(std::string_view api_version, std::string_view kind) const;
  bool serves_group_version(std::string_view group, std::string_view version) const;

  const std::vector<ResourceInfo>& resources() const { return resources_; }
  /// Named groups (not the core group) in the order they were declared.
  const std::vector<GroupVersions>& groups() const { return groups_; }
  /// Number of distinct storages (see ResourceInfo::storage).
  size_t storage_count() const { return storage_count_; }

 private:
  std::vector<ResourceInfo> resources_;
  std::vector<GroupVersions> groups_;
  size_t storage_count_ = 0;
};

}  // namespace troupe::sim
