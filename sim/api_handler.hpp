#pragma once
// The API server's request handling: discovery, CRUD, list/watch and the
// subresources, over an ObjectStore. Implemented in handlers_*.cpp.

#include <mutex>
#include <string>

#include <rapidjson/document.h>

#include "sim/api_types.hpp"
#include "sim/object_store.hpp"
#include "sim/router.hpp"
#include "sim/status_errors.hpp"

namespace troupe::sim {

class ApiHandler {
 public:
  explicit ApiHandler(ObjectStore& store);

  /// Creates the namespaces every cluster has (default, kube-system,
  /// kube-public, kube-node-lease).
  void create_system_namespaces();
  /// "127.0.0.1:PORT", shown in /api's serverAddressByClientCIDRs.
  void set_server_address(std::string address);
  std::string server_address() const;

  ApiResponse handle(const ApiRequest& request);

  /// Creates an object given in full (apiVersion and kind name its
  /// resource), keeping its status, creating its namespace if missing: what
  /// --load and the sample cluster use.
  ApiResult<ObjectPtr> create_loaded_object(rapidjson::Document& doc);

  ObjectStore& store() { return store_; }

  /// What a PUT or PATCH writes: the object, its /status, or a pod's /resize.
  enum class WritePart { object, status, resize };

 private:
  // Discovery (handlers_discovery.cpp).
  ApiResponse discovery(const ParsedPath& path, const ApiRequest& request);
  std::string resource_list_json(const std::string& group, const std::string& version) const;
  std::string api_group_json(const GroupVersions& group) const;

  // Resources (handlers_crud.cpp).
  ApiResponse resource_request(const ParsedPath& path, const ApiRequest& request);
  ApiResponse get(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request);
  ApiResponse list(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request);
  ApiResponse create(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request);
  ApiResponse update(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request, WritePart part);
  ApiResponse patch(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request, WritePart part);
  ApiResponse remove(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request);
  ApiResponse remove_collection(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request);

  // Watch (handlers_watch.cpp).
  ApiResponse watch(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request);

  // Subresources (handlers_subresources.cpp).
  ApiResponse bind(const ParsedPath& path, const ApiRequest& request, bool legacy);
  ApiResponse evict(const ParsedPath& path, const ApiRequest& request);

  // Shared steps.
  ApiResult<ObjectPtr> create_object(const ResourceInfo& r, const std::string& url_ns, rapidjson::Document& doc,
                                     bool keep_status);
  /// Deletes one object honouring DeleteOptions preconditions and finalizers.
  ApiResult<WriteResult> delete_object(const ResourceInfo& r, const std::string& ns, const std::string& name,
                                       const rapidjson::Value* options);
  ApiResponse object_response(const ResourceInfo& r, const ObjectPtr& object, int status) const;

  ObjectStore& store_;
  const ResourceRegistry& registry_;
  mutable std::mutex address_mutex_;  // the server learns its port once its threads already serve
  std::string server_address_ = "127.0.0.1:0";
  std::string version_json_;
  std::string api_versions_json_;
  std::string group_list_json_;
  std::mutex eviction_mutex_; // evictions decide on PDB budgets one at a time
};

/// The labelSelector/fieldSelector query parameters as a filter over `ns` (400 when malformed).
ApiResult<ObjectFilter> request_filter(const ResourceInfo& r, const std::string& ns, const ApiRequest& request);

/// An ApiResponse carrying an error's Status body.
ApiResponse error_response(const ApiError& error);

}  // namespace troupe::sim
