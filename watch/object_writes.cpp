#include "watch/object_writes.hpp"

#include <spdlog/spdlog.h>

#include "watch/json_body.hpp"
#include "watch/json_util.hpp"
#include "watch/query.hpp"

namespace troupe::watch {

namespace {

HttpRequest make_request(const char* method, const std::string& target, std::string body = "",
                         std::string content_type = "") {
  HttpRequest request;
  request.method = method;
  request.target = target;
  request.body = std::move(body);
  request.content_type = std::move(content_type);
  return request;
}

ApiResult invalid_response(ApiResult from, const std::string& why) {
  from.ok = false;
  from.reason = "InvalidResponse";
  from.message = why;
  return from;
}

ApiResult read_modify_write(ApiClient& api, const std::string& read_path, const std::string& write_path,
                            const Mutation& mutate, int max_conflicts, const CancelToken* cancel) {
  for (int conflicts = 0;; ++conflicts) {
    ApiResult read = get_object(api, read_path, cancel);
    if (!read.ok) return read;
    auto parsed = parse_document(read.body);
    if (!parsed || !(*parsed)->IsObject())
      return invalid_response(read, "GET " + read_path + ": " + (parsed ? "not a JSON object" : parsed.message()));
    rapidjson::Document& object = **parsed;
    if (!mutate(object)) return read;
    ApiResult written = api.call(make_request("PUT", write_path, to_json(object), "application/json"), RetryPolicy{},
                                 cancel);
    if (written.code != 409 || conflicts >= max_conflicts) return written;
    spdlog::info("api-client {}; reading {} again", describe(written, "PUT", write_path), read_path);
  }
}

}  // namespace

const char* content_type_of(PatchType type) {
  switch (type) {
    case PatchType::merge: return "application/merge-patch+json";
    case PatchType::strategic_merge: return "application/strategic-merge-patch+json";
    case PatchType::json_patch: return "application/json-patch+json";
  }
  return "application/merge-patch+json";
}

std::string object_path(const std::string& group_version_root, const std::string& resource, const std::string& ns,
                        const std::string& name) {
  std::string path = group_version_root;
  if (!ns.empty()) path += "/namespaces/" + url_escape(ns);
  path += "/" + resource;
  if (!name.empty()) path += "/" + url_escape(name);
  return path;
}

ApiResult get_object(ApiClient& api, const std::string& path, const CancelToken* cancel) {
  return api.call(make_request("GET", path), RetryPolicy{}, cancel);
}

ApiResult create_object(ApiClient& api, const std::string& collection_path, const std::string& body,
                        const CancelToken* cancel) {
  return api.call(make_request("POST", collection_path, body, "application/json"), RetryPolicy{}, cancel);
}

ApiResult delete_object(ApiClient& api, const std::string& path, const DeletePreconditions& preconditions,
                        std::optional<std::int64_t> grace_period_seconds, const CancelToken* cancel) {
  JsonBody body;
  body.begin_object().string("apiVersion", "v1").string("kind", "DeleteOptions");
  if (!preconditions.uid.empty() || !preconditions.resource_version.empty()) {
    body.begin_object("preconditions");
    body.string_if("uid", preconditions.uid).string_if("resourceVersion", preconditions.resource_version);
    body.end_object();
  }
  if (grace_period_seconds) body.integer("gracePeriodSeconds", *grace_period_seconds);
  body.end_object();
  return api.call(make_request("DELETE", path, body.str(), "application/json"), RetryPolicy{}, cancel);
}

ApiResult patch_object(ApiClient& api, const std::string& path, const std::string& body, PatchType type,
                       const CancelToken* cancel, bool resend_on_conflict) {
  RetryPolicy policy;
  policy.retry_conflict = resend_on_conflict;
  return api.call(make_request("PATCH", path, body, content_type_of(type)), policy, cancel);
}

ApiResult merge_patch_metadata(ApiClient& api, const std::string& path, const StringUpdates& annotations,
                               const StringUpdates& labels, const CancelToken* cancel) {
  JsonBody body;
  body.begin_object().begin_object("metadata");
  if (!annotations.empty()) body.string_map("annotations", annotations);
  if (!labels.empty()) body.string_map("labels", labels);
  body.end_object().end_object();
  return patch_object(api, path, body.str(), PatchType::merge, cancel);
}

ApiResult update_status(ApiClient& api, const std::string& path, const Mutation& mutate, int max_conflicts,
                        const CancelToken* cancel) {
  return read_modify_write(api, path, path + "/status", mutate, max_conflicts, cancel);
}

ApiResult update_object(ApiClient& api, const std::string& path, const Mutation& mutate, int max_conflicts,
                        const CancelToken* cancel) {
  return read_modify_write(api, path, path, mutate, max_conflicts, cancel);
}

}  // namespace troupe::watch
