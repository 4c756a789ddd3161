#include "watch/lease_client.hpp"

#include "watch/json_body.hpp"
#include "watch/json_util.hpp"
#include "watch/object_writes.hpp"

namespace troupe::watch {

namespace {

std::map<std::string, std::string> string_map_at(const rapidjson::Value& doc, std::initializer_list<const char*> path) {
  std::map<std::string, std::string> out;
  const rapidjson::Value* map = find_path(doc, path);
  if (map == nullptr || !map->IsObject()) return out;
  for (const auto& m : map->GetObject())
    if (m.value.IsString()) out.emplace(m.name.GetString(), m.value.GetString());
  return out;
}

LeaseResult decode(ApiResult result) {
  LeaseResult out;
  if (result.ok) {
    auto parsed = parse_document(result.body);
    if (!parsed || !(*parsed)->IsObject()) {
      result.ok = false;
      result.reason = "InvalidResponse";
      result.message = "lease response: " + (parsed ? std::string("not a JSON object") : parsed.message());
    } else {
      const rapidjson::Document& doc = **parsed;
      LeaseRecord lease;
      lease.ns = string_at(doc, {"metadata", "namespace"});
      lease.name = string_at(doc, {"metadata", "name"});
      lease.resource_version = string_at(doc, {"metadata", "resourceVersion"});
      lease.holder_identity = string_at(doc, {"spec", "holderIdentity"});
      lease.lease_duration_seconds = static_cast<int>(int_at(doc, {"spec", "leaseDurationSeconds"}).value_or(0));
      lease.acquire_time = string_at(doc, {"spec", "acquireTime"});
      lease.renew_time = string_at(doc, {"spec", "renewTime"});
      lease.lease_transitions = static_cast<int>(int_at(doc, {"spec", "leaseTransitions"}).value_or(0));
      lease.labels = string_map_at(doc, {"metadata", "labels"});
      lease.annotations = string_map_at(doc, {"metadata", "annotations"});
      lease.preferred_holder = string_at(doc, {"spec", "preferredHolder"});
      lease.strategy = string_at(doc, {"spec", "strategy"});
      out.lease = std::move(lease);
    }
  }
  out.api = std::move(result);
  return out;
}

HttpRequest lease_request(const char* method, std::string target, std::string body,
                          std::chrono::milliseconds timeout) {
  HttpRequest request;
  request.method = method;
  request.target = std::move(target);
  request.body = std::move(body);
  if (!request.body.empty()) request.content_type = "application/json";
  request.timeout = timeout;
  return request;
}

}  // namespace

std::string lease_path(const std::string& ns, const std::string& name) {
  return object_path("/apis/coordination.k8s.io/v1", "leases", ns, name);
}

std::string lease_body(const LeaseRecord& lease) {
  JsonBody body;
  body.begin_object().string("apiVersion", "coordination.k8s.io/v1").string("kind", "Lease");
  body.begin_object("metadata").string("name", lease.name).string("namespace", lease.ns);
  body.string_if("resourceVersion", lease.resource_version);
  if (!lease.labels.empty()) body.string_map("labels", lease.labels);
  if (!lease.annotations.empty()) body.string_map("annotations", lease.annotations);
  body.end_object();
  body.begin_object("spec");
  body.string("holderIdentity", lease.holder_identity);
  body.integer("leaseDurationSeconds", lease.lease_duration_seconds);
  body.string_if("acquireTime", lease.acquire_time).string_if("renewTime", lease.renew_time);
  body.integer("leaseTransitions", lease.lease_transitions);
  body.string_if("preferredHolder", lease.preferred_holder).string_if("strategy", lease.strategy);
  body.end_object().end_object();
  return body.str();
}

LeaseResult get_lease(ApiClient& api, const std::string& ns, const std::string& name,
                      std::chrono::milliseconds timeout, const CancelToken* cancel) {
  return decode(api.call(lease_request("GET", lease_path(ns, name), "", timeout), RetryPolicy::once(), cancel));
}

LeaseResult create_lease(ApiClient& api, const LeaseRecord& lease, std::chrono::milliseconds timeout,
                         const CancelToken* cancel) {
  LeaseRecord fresh = lease;
  fresh.resource_version.clear();  // a create must not carry one
  return decode(api.call(lease_request("POST", object_path("/apis/coordination.k8s.io/v1", "leases", lease.ns, ""),
                                       lease_body(fresh), timeout),
                         RetryPolicy::once(), cancel));
}

LeaseResult update_lease(ApiClient& api, const LeaseRecord& lease, std::chrono::milliseconds timeout,
                         const CancelToken* cancel) {
  return decode(api.call(lease_request("PUT", lease_path(lease.ns, lease.name), lease_body(lease), timeout),
                         RetryPolicy::once(), cancel));
}

}  // namespace troupe::watch
