// Discovery: /version, /api, /apis, /apis/{group}, /api/v1 and
// /apis/{group}/{version} (APIResourceList), health checks, and the OpenAPI
// paths that deliberately answer 404 (kubectl wants protobuf OpenAPI or none).
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "sim/api_handler.hpp"

namespace troupe::sim {

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void write_strings(Writer& w, const std::vector<std::string>& values) {
  w.StartArray();
  for (const auto& v : values) w.String(v);
  w.EndArray();
}

void write_group_version(Writer& w, const std::string& group, const std::string& version) {
  w.StartObject();
  w.Key("groupVersion"), w.String(group + "/" + version);
  w.Key("version"), w.String(version);
  w.EndObject();
}

void write_group(Writer& w, const GroupVersions& g) {
  w.Key("name"), w.String(g.group);
  w.Key("versions");
  w.StartArray();
  for (const auto& v : g.versions) write_group_version(w, g.group, v);
  w.EndArray();
  w.Key("preferredVersion");
  write_group_version(w, g.group, g.versions.front());
}

std::string text(const rapidjson::StringBuffer& b) { return {b.GetString(), b.GetSize()}; }

ApiResponse json_ok(std::string body) {
  ApiResponse r;
  r.body = std::move(body);
  return r;
}

}  // namespace

std::string ApiHandler::resource_list_json(const std::string& group, const std::string& version) const {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("kind"), w.String("APIResourceList");
  w.Key("apiVersion"), w.String("v1");
  w.Key("groupVersion"), w.String(group.empty() ? version : group + "/" + version);
  w.Key("resources");
  w.StartArray();
  for (const auto& r : registry_.resources()) {
    if (r.group != group || r.version != version) continue;
    w.StartObject();
    w.Key("name"), w.String(r.plural);
    w.Key("singularName"), w.String(r.plural == "bindings" ? "" : r.singular);
    w.Key("namespaced"), w.Bool(r.namespaced);
    w.Key("kind"), w.String(r.kind);
    w.Key("verbs"), write_strings(w, r.verbs);
    if (!r.short_names.empty()) w.Key("shortNames"), write_strings(w, r.short_names);
    if (r.kind == "Pod" || r.kind == "ReplicaSet") w.Key("categories"), write_strings(w, {"all"});
    w.EndObject();
    for (const auto& s : r.subresources) {
      w.StartObject();
      w.Key("name"), w.String(r.plural + "/" + s.name);
      w.Key("singularName"), w.String("");
      w.Key("namespaced"), w.Bool(r.namespaced);
      if (!s.group.empty()) w.Key("group"), w.String(s.group);
      if (!s.version.empty() && !s.group.empty()) w.Key("version"), w.String(s.version);
      w.Key("kind"), w.String(s.kind);
      w.Key("verbs"), write_strings(w, s.verbs);
      w.EndObject();
    }
  }
  w.EndArray();
  w.EndObject();
  return text(buffer);
}

std::string ApiHandler::api_group_json(const GroupVersions& group) const {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("kind"), w.String("APIGroup");
  w.Key("apiVersion"), w.String("v1");
  write_group(w, group);
  w.EndObject();
  return text(buffer);
}

ApiResponse ApiHandler::discovery(const ParsedPath& path, const ApiRequest& request) {
  if (request.method != "GET" && request.method != "HEAD") {
    if (path.kind == RouteKind::health || path.kind == RouteKind::version || path.kind == RouteKind::openapi)
      return error_response(path_not_found());
    return error_response(method_not_allowed(request.method, "APIResourceList"));
  }
  switch (path.kind) {
    case RouteKind::health: {
      ApiResponse r;
      r.content_type = "text/plain; charset=utf-8";
      r.body = "ok";
      return r;
    }
    case RouteKind::version: return json_ok(version_json_);
    case RouteKind::openapi: return error_response(path_not_found());
    case RouteKind::api_versions: {
      rapidjson::StringBuffer buffer;
      Writer w(buffer);
      w.StartObject();
      w.Key("kind"), w.String("APIVersions");
      w.Key("versions"), write_strings(w, {"v1"});
      w.Key("serverAddressByClientCIDRs");
      w.StartArray();
      w.StartObject();
      w.Key("clientCIDR"), w.String("0.0.0.0/0");
      const std::string address = server_address();
      w.Key("serverAddress"), w.String(address.c_str(), static_cast<rapidjson::SizeType>(address.size()));
      w.EndObject();
      w.EndArray();
      w.EndObject();
      return json_ok(text(buffer));
    }
    case RouteKind::api_group_list: return json_ok(group_list_json_);
    case RouteKind::api_group:
      for (const auto& g : registry_.groups())
        if (g.group == path.group) return json_ok(api_group_json(g));
      return error_response(path_not_found());
    case RouteKind::resource_list:
      if (!registry_.serves_group_version(path.group, path.version)) return error_response(path_not_found());
      return json_ok(resource_list_json(path.group, path.version));
    default: return error_response(path_not_found());
  }
}

ApiHandler::ApiHandler(ObjectStore& store) : store_(store), registry_(store.registry()) {
  version_json_ =
      R"({"major":"1","minor":"30","gitVersion":"v1.30.0-troupe","gitCommit":"","gitTreeState":"clean",)"
      R"("buildDate":"2024-01-01T00:00:00Z","goVersion":"","compiler":"troupe","platform":"linux/amd64"})";
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("kind"), w.String("APIGroupList");
  w.Key("apiVersion"), w.String("v1");
  w.Key("groups");
  w.StartArray();
  for (const auto& g : registry_.groups()) {
    w.StartObject();
    write_group(w, g);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  group_list_json_ = text(buffer);
}

void ApiHandler::set_server_address(std::string address) {
  std::lock_guard<std::mutex> lock(address_mutex_);
  server_address_ = std::move(address);
}

std::string ApiHandler::server_address() const {
  std::lock_guard<std::mutex> lock(address_mutex_);
  return server_address_;
}

}  // namespace troupe::sim
