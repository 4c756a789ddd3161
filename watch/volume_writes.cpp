#include "watch/volume_writes.hpp"

#include "watch/json_body.hpp"
#include "watch/json_util.hpp"
#include "watch/object_writes.hpp"

namespace troupe::watch {

ApiResult bind_volume_to_claim(ApiClient& api, const std::string& volume, const std::string& volume_resource_version,
                               bool prebound, const ClaimIdentity& claim) {
  JsonBody body;
  body.begin_object().begin_object("metadata").string("resourceVersion", volume_resource_version);
  if (!prebound) body.begin_object("annotations").string("pv.kubernetes.io/bound-by-controller", "yes").end_object();
  body.end_object();
  body.begin_object("spec").begin_object("claimRef");
  body.string("kind", "PersistentVolumeClaim").string("apiVersion", "v1");
  body.string("namespace", claim.namespace_name).string("name", claim.name).string("uid", claim.uid);
  body.string_if("resourceVersion", claim.resource_version);
  body.end_object().end_object().end_object();
  return patch_object(api, "/api/v1/persistentvolumes/" + volume, body.str(), PatchType::merge, nullptr, false);
}

ApiResult select_node_for_claim(ApiClient& api, const ClaimIdentity& claim, const std::string& node) {
  JsonBody body;
  body.begin_object().begin_object("metadata").string("resourceVersion", claim.resource_version);
  body.begin_object("annotations").string("volume.kubernetes.io/selected-node", node).end_object();
  body.end_object().end_object();
  const std::string path =
      "/api/v1/namespaces/" + claim.namespace_name + "/persistentvolumeclaims/" + claim.name;
  return patch_object(api, path, body.str(), PatchType::merge, nullptr, false);
}

std::string written_resource_version(const ApiResult& result) {
  if (!result.ok) return "";
  auto doc = parse_document(result.body);
  if (!doc) return "";
  return string_at(**doc, {"metadata", "resourceVersion"});
}

}  // namespace troupe::watch
