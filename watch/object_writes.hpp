#pragma once
// Generic reads and writes of any API object by path: create, patch (merge,
// strategic merge, JSON patch), and read-modify-write updates that retry on
// 409 Conflict by reading the object again (api-conventions: GET, re-apply,
// retry). Used for CRDs (reservations/status, …) and by the pod writers.
//
// All functions are thread-safe and blocking; see ApiClient.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include <rapidjson/document.h>

#include "watch/api_client.hpp"

namespace troupe::watch {

enum class PatchType { merge, strategic_merge, json_patch };
const char* content_type_of(PatchType type);

/// GET `path` (retried on 429/5xx/lost connections).
ApiResult get_object(ApiClient& api, const std::string& path, const CancelToken* cancel = nullptr);

/// POST `body` to a collection path.
ApiResult create_object(ApiClient& api, const std::string& collection_path, const std::string& body,
                        const CancelToken* cancel = nullptr);

/// Preconditions make a DELETE fail with 409 if the object was replaced
/// (uid) or changed (resourceVersion) since it was read.
struct DeletePreconditions {
  std::string uid;
  std::string resource_version;
};

/// DELETE `path` with DeleteOptions (preconditions, grace period when set).
/// A 404 comes back as it is: callers decide whether "already gone" is done.
ApiResult delete_object(ApiClient& api, const std::string& path, const DeletePreconditions& preconditions = {},
                        std::optional<std::int64_t> grace_period_seconds = std::nullopt,
                        const CancelToken* cancel = nullptr);

/// PATCH `path` (an object or a subresource such as ".../status"). A patch
/// without metadata.resourceVersion has no precondition, so a 409 (the
/// server's own optimistic-lock race) is simply resent; pass
/// resend_on_conflict = false for a patch that carries one.
ApiResult patch_object(ApiClient& api, const std::string& path, const std::string& body, PatchType type,
                       const CancelToken* cancel = nullptr, bool resend_on_conflict = true);

/// nullopt deletes the key.
using StringUpdates = std::map<std::string, std::optional<std::string>>;

/// Merge patch {"metadata":{"annotations":{...},"labels":{...}}} on any object,
/// built-in or CRD. Empty maps are left out.
ApiResult merge_patch_metadata(ApiClient& api, const std::string& path, const StringUpdates& annotations,
                               const StringUpdates& labels = {}, const CancelToken* cancel = nullptr);

/// Changes a freshly read object in place. Return false to write nothing
/// (the result is then the successful GET).
using Mutation = std::function<bool(rapidjson::Document& object)>;

/// GET `path`, apply `mutate`, PUT the object to `path` + "/status" with the
/// resourceVersion it was read at; on 409 read again and repeat (up to
/// `max_conflicts` times).
ApiResult update_status(ApiClient& api, const std::string& path, const Mutation& mutate, int max_conflicts = 5,
                        const CancelToken* cancel = nullptr);

/// The same, PUT to `path` itself.
ApiResult update_object(ApiClient& api, const std::string& path, const Mutation& mutate, int max_conflicts = 5,
                        const CancelToken* cancel = nullptr);

/// "/api/v1/namespaces/{ns}/pods/{name}" style paths with escaped segments:
/// object_path("/api/v1", "pods", "default", "web-0").
std::string object_path(const std::string& group_version_root, const std::string& resource, const std::string& ns,
                        const std::string& name);

}  // namespace troupe::watch
