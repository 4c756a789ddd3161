#include "watch/extender_client.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "watch/json_util.hpp"
#include "watch/kube_config.hpp"

namespace troupe::watch {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// Go's encoding/json matches keys case-insensitively; so do we.
const rapidjson::Value* member(const rapidjson::Value& object, std::string_view key) {
  if (!object.IsObject()) return nullptr;
  for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it)
    if (iequals(std::string_view(it->name.GetString(), it->name.GetStringLength()), key)) return &it->value;
  return nullptr;
}

bool is_null_or_absent(const rapidjson::Value* v) { return v == nullptr || v->IsNull(); }

Result<std::map<std::string, std::string>> string_map(const rapidjson::Value* v, const char* field) {
  std::map<std::string, std::string> out;
  if (is_null_or_absent(v)) return out;
  if (!v->IsObject()) return Error{std::string(field) + ": expected an object of node name to reason"};
  for (auto it = v->MemberBegin(); it != v->MemberEnd(); ++it) {
    if (!it->value.IsString())
      return Error{std::string(field) + "[" + it->name.GetString() + "]: expected a string"};
    out[it->name.GetString()] = it->value.GetString();
  }
  return out;
}

Result<std::vector<std::string>> passing_names(const rapidjson::Value& root, bool node_cache_capable) {
  std::vector<std::string> names;
  const rapidjson::Value* node_names = member(root, "NodeNames");
  if (node_cache_capable && !is_null_or_absent(node_names)) {
    if (!node_names->IsArray()) return Error{"NodeNames: expected an array of node names"};
    for (const auto& n : node_names->GetArray()) {
      if (!n.IsString()) return Error{"NodeNames: expected an array of node names"};
      names.emplace_back(n.GetString());
    }
    return names;
  }
  const rapidjson::Value* nodes = member(root, "Nodes");
  if (is_null_or_absent(nodes)) return names;
  const rapidjson::Value* items = member(*nodes, "items");
  if (is_null_or_absent(items)) return names;
  if (!items->IsArray()) return Error{"Nodes.items: expected an array of nodes"};
  for (const auto& node : items->GetArray()) {
    std::string name = string_at(node, {"metadata", "name"});
    if (name.empty()) return Error{"Nodes.items: a node without metadata.name"};
    names.push_back(std::move(name));
  }
  return names;
}

Result<int64_t> pdb_violations(const rapidjson::Value& victims, const std::string& at) {
  const rapidjson::Value* count = member(victims, "NumPDBViolations");
  if (is_null_or_absent(count)) return int64_t{0};
  if (!count->IsInt64()) return Error{at + ".NumPDBViolations: expected an integer"};
  return count->GetInt64();
}

Result<MetaVictims> meta_victims(const rapidjson::Value& victims, const std::string& at) {
  MetaVictims out;
  if (victims.IsNull()) return out;  // no victims: the caller decides what that means
  if (!victims.IsObject()) return Error{at + ": expected an object"};
  auto count = pdb_violations(victims, at);
  if (!count) return Error{count.message()};
  out.num_pdb_violations = *count;
  const rapidjson::Value* pods = member(victims, "Pods");
  if (is_null_or_absent(pods)) return out;
  if (!pods->IsArray()) return Error{at + ".Pods: expected an array"};
  for (rapidjson::SizeType i = 0; i < pods->Size(); ++i) {
    const rapidjson::Value* uid = member((*pods)[i], "UID");
    if (uid == nullptr || !uid->IsString())
      return Error{at + ".Pods[" + std::to_string(i) + "].UID: expected a string"};
    out.pod_uids.emplace_back(uid->GetString(), uid->GetStringLength());
  }
  return out;
}

std::string victims_json(const PreemptionVictims& victims, bool meta) {
  std::string out = "{\"Pods\":[";
  const auto& pods = meta ? victims.pod_uids : victims.pod_jsons;
  for (size_t i = 0; i < pods.size(); ++i) {
    if (i) out += ",";
    out += meta ? "{\"UID\":" + json_quote(pods[i]) + "}" : pods[i];
  }
  out += "],\"NumPDBViolations\":" + std::to_string(victims.num_pdb_violations) + "}";
  return out;
}

}  // namespace

std::string extender_args_json(std::string_view pod_json, const std::vector<std::string>& node_jsons,
                               const std::vector<std::string>& node_names, bool node_cache_capable) {
  std::string out = "{\"Pod\":";
  out += pod_json;
  if (node_cache_capable) {
    out += ",\"Nodes\":null,\"NodeNames\":[";
    for (size_t i = 0; i < node_names.size(); ++i) out += (i ? "," : "") + json_quote(node_names[i]);
    out += "]}";
    return out;
  }
  out += ",\"Nodes\":{\"metadata\":{},\"items\":[";
  for (size_t i = 0; i < node_jsons.size(); ++i) {
    if (i) out += ",";
    out += node_jsons[i];
  }
  out += "]},\"NodeNames\":null}";
  return out;
}

Result<ExtenderFilterResult> parse_extender_filter_result(std::string_view body, bool node_cache_capable,
                                                          const std::vector<std::string>& candidates) {
  auto doc = parse_document(body);
  if (!doc) return Error{"ExtenderFilterResult: " + doc.message()};
  const rapidjson::Value& root = **doc;
  if (!root.IsObject()) return Error{"ExtenderFilterResult: expected a JSON object"};
  if (const auto* error = member(root, "Error"); !is_null_or_absent(error)) {
    if (!error->IsString()) return Error{"ExtenderFilterResult.Error: expected a string"};
    if (error->GetStringLength() > 0) return Error{error->GetString()};
  }
  ExtenderFilterResult result;
  auto names = passing_names(root, node_cache_capable);
  if (!names) return Error{"ExtenderFilterResult." + names.message()};
  const std::set<std::string> known(candidates.begin(), candidates.end());
  for (const auto& name : *names)
    if (known.count(name) == 0)
      return Error{"extender claims a filtered node \"" + name + "\" which is not found in the input node list"};
  result.node_names = std::move(names).value();
  auto failed = string_map(member(root, "FailedNodes"), "ExtenderFilterResult.FailedNodes");
  if (!failed) return Error{failed.message()};
  result.failed = std::move(failed).value();
  auto unresolvable =
      string_map(member(root, "FailedAndUnresolvableNodes"), "ExtenderFilterResult.FailedAndUnresolvableNodes");
  if (!unresolvable) return Error{unresolvable.message()};
  result.failed_unresolvable = std::move(unresolvable).value();
  return result;
}

Result<std::vector<HostPriority>> parse_host_priority_list(std::string_view body) {
  auto doc = parse_document(body);
  if (!doc) return Error{"HostPriorityList: " + doc.message()};
  const rapidjson::Value& root = **doc;
  std::vector<HostPriority> out;
  if (root.IsNull()) return out;
  if (!root.IsArray()) return Error{"HostPriorityList: expected a JSON array"};
  for (rapidjson::SizeType i = 0; i < root.Size(); ++i) {
    const std::string at = "HostPriorityList[" + std::to_string(i) + "]";
    const rapidjson::Value* host = member(root[i], "Host");
    const rapidjson::Value* score = member(root[i], "Score");
    if (host == nullptr || !host->IsString()) return Error{at + ".Host: expected a string"};
    if (score == nullptr || !score->IsInt64()) return Error{at + ".Score: expected an integer"};
    out.push_back({host->GetString(), score->GetInt64()});
  }
  return out;
}

std::string extender_binding_args_json(const ExtenderBindingArgs& args) {
  return "{\"PodName\":" + json_quote(args.pod_name) + ",\"PodNamespace\":" + json_quote(args.pod_namespace) +
         ",\"PodUID\":" + json_quote(args.pod_uid) + ",\"Node\":" + json_quote(args.node) + "}";
}

Status parse_extender_binding_result(std::string_view body) {
  auto doc = parse_document(body);
  if (!doc) return Error{"ExtenderBindingResult: " + doc.message()};
  const rapidjson::Value* error = member(**doc, "Error");
  if (is_null_or_absent(error)) return Status::success();
  if (!error->IsString()) return Error{"ExtenderBindingResult.Error: expected a string"};
  if (error->GetStringLength() > 0) return Error{error->GetString()};
  return Status::success();
}

std::string extender_preemption_args_json(std::string_view pod_json,
                                          const std::map<std::string, PreemptionVictims>& victims,
                                          bool node_cache_capable) {
  std::string map = "{";
  for (const auto& [node, node_victims] : victims) {
    if (map.size() > 1) map += ",";
    map += json_quote(node) + ":" + victims_json(node_victims, node_cache_capable);
  }
  map += "}";
  std::string out = "{\"Pod\":";
  out += pod_json;
  out += node_cache_capable ? ",\"NodeNameToVictims\":null,\"NodeNameToMetaVictims\":" + map + "}"
                            : ",\"NodeNameToVictims\":" + map + ",\"NodeNameToMetaVictims\":null}";
  return out;
}

Result<std::map<std::string, MetaVictims>> parse_extender_preemption_result(std::string_view body) {
  auto doc = parse_document(body);
  if (!doc) return Error{"ExtenderPreemptionResult: " + doc.message()};
  const rapidjson::Value& root = **doc;
  std::map<std::string, MetaVictims> out;
  if (root.IsNull()) return out;  // Go decodes null to an empty result: no node kept
  if (!root.IsObject()) return Error{"ExtenderPreemptionResult: expected a JSON object"};
  const rapidjson::Value* nodes = member(root, "NodeNameToMetaVictims");
  if (is_null_or_absent(nodes)) return out;
  if (!nodes->IsObject()) return Error{"ExtenderPreemptionResult.NodeNameToMetaVictims: expected an object"};
  for (auto it = nodes->MemberBegin(); it != nodes->MemberEnd(); ++it) {
    std::string node(it->name.GetString(), it->name.GetStringLength());
    auto victims = meta_victims(it->value, "ExtenderPreemptionResult.NodeNameToMetaVictims[" + node + "]");
    if (!victims) return Error{victims.message()};
    out[node] = std::move(victims).value();
  }
  return out;
}

Result<std::shared_ptr<ExtenderClient>> ExtenderClient::create(const ExtenderEndpoint& endpoint) {
  ClusterConfig cluster;
  cluster.server = endpoint.url_prefix;
  cluster.ca_pem = endpoint.ca_pem;
  cluster.client_cert_pem = endpoint.cert_pem;
  cluster.client_key_pem = endpoint.key_pem;
  cluster.insecure_skip_tls_verify = endpoint.insecure;
  cluster.tls_server_name = endpoint.server_name;
  cluster.source = "extender " + endpoint.url_prefix;
  HttpClientOptions options;
  options.max_connections = 8;
  if (endpoint.timeout.count() > 0) options.request_timeout = endpoint.timeout;
  options.user_agent = "troupe-extender-client";
  auto http = HttpClient::create(cluster, options);
  if (!http) return Error{"extender " + endpoint.url_prefix + ": " + http.message()};
  return std::shared_ptr<ExtenderClient>(new ExtenderClient(endpoint, std::move(http).value()));
}

Result<std::string> ExtenderClient::send(const std::string& verb, const std::string& body, const CancelToken* cancel) {
  HttpRequest request;
  request.method = "POST";
  request.target = "/" + verb;
  request.body = body;
  request.content_type = "application/json";
  request.timeout = endpoint_.timeout;
  HttpResponse response = http_->request(request, cancel);
  const std::string url = http_->server() + "/" + verb;
  if (response.status == 0) return Error{"failed " + verb + " with extender at URL " + url + ": " + response.error};
  if (response.status != 200)
    return Error{"failed " + verb + " with extender at URL " + url + ", code " + std::to_string(response.status)};
  return std::move(response.body);
}

Result<ExtenderFilterResult> ExtenderClient::filter(const std::string& verb, const std::string& args_json,
                                                    bool node_cache_capable,
                                                    const std::vector<std::string>& candidates,
                                                    const CancelToken* cancel) {
  auto body = send(verb, args_json, cancel);
  if (!body) return Error{body.message()};
  return parse_extender_filter_result(*body, node_cache_capable, candidates);
}

Result<std::vector<HostPriority>> ExtenderClient::prioritize(const std::string& verb, const std::string& args_json,
                                                             const CancelToken* cancel) {
  auto body = send(verb, args_json, cancel);
  if (!body) return Error{body.message()};
  return parse_host_priority_list(*body);
}

Status ExtenderClient::bind(const std::string& verb, const ExtenderBindingArgs& args, const CancelToken* cancel) {
  auto body = send(verb, extender_binding_args_json(args), cancel);
  if (!body) return Error{body.message()};
  return parse_extender_binding_result(*body);
}

Result<std::map<std::string, MetaVictims>> ExtenderClient::preempt(const std::string& verb, const std::string& args_json,
                                                                   const CancelToken* cancel) {
  auto body = send(verb, args_json, cancel);
  if (!body) return Error{body.message()};
  return parse_extender_preemption_result(*body);
}

}  // namespace troupe::watch
