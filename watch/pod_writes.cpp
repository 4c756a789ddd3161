#include "watch/pod_writes.hpp"

#include <spdlog/spdlog.h>

#include "watch/json_body.hpp"
#include "watch/json_util.hpp"
#include "watch/object_writes.hpp"
#include "watch/time_format.hpp"

namespace troupe::watch {

namespace {

HttpRequest json_request(const char* method, std::string target, std::string body) {
  HttpRequest request;
  request.method = method;
  request.target = std::move(target);
  request.body = std::move(body);
  request.content_type = "application/json";
  return request;
}

std::string binding_body(const BindRequest& request) {
  JsonBody body;
  body.begin_object().string("apiVersion", "v1").string("kind", "Binding");
  body.begin_object("metadata").string("name", request.name).string("namespace", request.ns);
  body.string_if("uid", request.uid);
  if (!request.annotations.empty()) body.string_map("annotations", request.annotations);
  body.end_object();
  body.begin_object("target").string("apiVersion", "v1").string("kind", "Node").string("name", request.node);
  body.end_object().end_object();
  return body.str();
}

/// The object in `body` carries metadata.deletionTimestamp.
bool is_being_deleted(const std::string& body) {
  auto doc = parse_document(body);
  if (!doc) return false;
  const rapidjson::Value* stamp = find_path(**doc, {"metadata", "deletionTimestamp"});
  return stamp && !stamp->IsNull();
}

}  // namespace

std::string pod_path(const std::string& ns, const std::string& name) {
  return object_path("/api/v1", "pods", ns, name);
}

ApiResult bind_pod(ApiClient& api, const BindRequest& request, const CancelToken* cancel) {
  const std::string target = pod_path(request.ns, request.name) + "/binding";
  RetryPolicy policy;
  policy.retry_conflict = false;
  ApiResult result = api.call(json_request("POST", target, binding_body(request)), policy, cancel);
  // The API server's message for a pod already bound (pkg/registry/core/pod/storage).
  const std::string bound_here = "is already assigned to node \"" + request.node + "\"";
  if (result.code == 409 && result.attempts > 1 && result.message.find(bound_here) != std::string::npos) {
    spdlog::info("api-client binding {}/{} to {}: an earlier attempt went through unanswered", request.ns,
                 request.name, request.node);
    result.ok = true;
  }
  return result;
}

ApiResult annotate_pod_before_binding(ApiClient& api, const std::string& ns, const std::string& name,
                                      const std::string& uid, const std::map<std::string, std::string>& annotations,
                                      const CancelToken* cancel) {
  if (annotations.empty()) {
    ApiResult nothing;
    nothing.ok = true;
    return nothing;
  }
  JsonBody body;
  body.begin_object().begin_object("metadata").string_if("uid", uid).string_map("annotations", annotations);
  body.end_object().end_object();
  ApiResult result = patch_object(api, pod_path(ns, name), body.str(), PatchType::merge, cancel);
  if (result.ok && is_being_deleted(result.body)) {
    result.ok = false;
    result.message = "pod is being deleted";
  }
  return result;
}

ApiResult patch_pod_status(ApiClient& api, const std::string& ns, const std::string& name,
                           const std::optional<PodCondition>& condition,
                           const std::optional<std::string>& nominated_node_name, const CancelToken* cancel) {
  if (!condition && !nominated_node_name) {
    ApiResult nothing;
    nothing.reason = "BadRequest";
    nothing.message = "patch_pod_status " + ns + "/" + name + ": neither a condition nor a nominated node given";
    return nothing;
  }
  JsonBody body;
  body.begin_object().begin_object("status");
  if (condition) {
    body.begin_array("conditions").begin_object();
    body.string("type", condition->type).string("status", condition->status);
    body.string_if("reason", condition->reason).string_if("message", condition->message);
    body.null("lastProbeTime").string("lastTransitionTime", format_time(condition->last_transition_time));
    body.end_object().end_array();
  }
  if (nominated_node_name) {
    if (nominated_node_name->empty()) {
      body.null("nominatedNodeName");
    } else {
      body.string("nominatedNodeName", *nominated_node_name);
    }
  }
  body.end_object().end_object();
  return patch_object(api, pod_path(ns, name) + "/status", body.str(), PatchType::strategic_merge, cancel);
}

namespace {

std::string condition_patch(const PodCondition& condition, const std::string& uid, const std::string& resource_version) {
  JsonBody body;
  body.begin_object().begin_object("metadata").string_if("uid", uid).string_if("resourceVersion", resource_version);
  body.end_object().begin_object("status").begin_array("conditions").begin_object();
  body.string("type", condition.type).string("status", condition.status);
  body.string_if("reason", condition.reason).string_if("message", condition.message);
  body.null("lastProbeTime").string("lastTransitionTime", format_time(condition.last_transition_time));
  body.end_object().end_array().end_object().end_object();
  return body.str();
}

/// Whether a freshly read pod still wants `condition`: the same pod, unbound,
/// not being deleted, and not carrying it already.
bool still_wants(const rapidjson::Value& pod, const std::string& uid, const PodCondition& condition) {
  if (string_at(pod, {"metadata", "uid"}) != uid || !string_at(pod, {"spec", "nodeName"}).empty()) return false;
  const rapidjson::Value* stamp = find_path(pod, {"metadata", "deletionTimestamp"});
  if (stamp && !stamp->IsNull()) return false;
  const rapidjson::Value* conditions = find_path(pod, {"status", "conditions"});
  if (!conditions || !conditions->IsArray()) return true;
  for (const auto& c : conditions->GetArray())
    if (string_at(c, {"type"}) == condition.type)
      return string_at(c, {"status"}) != condition.status || string_at(c, {"reason"}) != condition.reason ||
             string_at(c, {"message"}) != condition.message;
  return true;
}

}  // namespace

ConditionReport report_unschedulable(ApiClient& api, const UnschedulablePod& pod, const PodCondition& condition,
                                     const CancelToken* cancel) {
  const std::string path = pod_path(pod.ns, pod.name);
  std::string version = pod.resource_version;
  constexpr int kMaxConflicts = 3;
  ConditionReport out;
  for (int conflicts = 0;; ++conflicts) {
    out.result = patch_object(api, path + "/status", condition_patch(condition, pod.uid, version),
                              PatchType::strategic_merge, cancel, /*resend_on_conflict=*/false);
    if (out.result.code != 409 || conflicts >= kMaxConflicts) {
      out.written = out.result.ok;
      return out;
    }
    // Changed since the attempt read it (often by this scheduler's own last
    // report, which the queue's copy never sees): look again.
    ApiResult read = get_object(api, path, cancel);
    if (!read.ok) {
      out.result = read;
      if (read.code == 404) out.result.ok = true;  // gone: nothing to report
      return out;
    }
    auto fresh = parse_document(read.body);
    if (!fresh) {
      out.result = read;
      out.result.ok = false;
      out.result.message = "GET " + path + ": " + fresh.message();
      return out;
    }
    if (!still_wants(**fresh, pod.uid, condition)) {
      out.result = read;
      return out;
    }
    version = string_at(**fresh, {"metadata", "resourceVersion"});
  }
}

ApiResult evict_pod(ApiClient& api, const std::string& ns, const std::string& name,
                    std::optional<std::int64_t> grace_period_seconds, const CancelToken* cancel) {
  JsonBody body;
  body.begin_object().string("apiVersion", "policy/v1").string("kind", "Eviction");
  body.begin_object("metadata").string("name", name).string("namespace", ns).end_object();
  if (grace_period_seconds) body.begin_object("deleteOptions").integer("gracePeriodSeconds", *grace_period_seconds).end_object();
  body.end_object();
  RetryPolicy policy;
  policy.retry_throttled_without_retry_after = false;
  return api.call(json_request("POST", pod_path(ns, name) + "/eviction", body.str()), policy, cancel);
}

ApiResult delete_pod(ApiClient& api, const std::string& ns, const std::string& name,
                     const DeletePreconditions& preconditions, std::optional<std::int64_t> grace_period_seconds,
                     const CancelToken* cancel) {
  return delete_object(api, pod_path(ns, name), preconditions, grace_period_seconds, cancel);
}

}  // namespace troupe::watch
