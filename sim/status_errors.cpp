#include "sim/status_errors.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "sim/resource_registry.hpp"

namespace troupe::sim {

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void write_causes(Writer& w, const std::vector<StatusCause>& causes) {
  w.Key("causes");
  w.StartArray();
  for (const auto& c : causes) {
    w.StartObject();
    if (!c.reason.empty()) w.Key("reason"), w.String(c.reason);
    if (!c.message.empty()) w.Key("message"), w.String(c.message);
    if (!c.field.empty()) w.Key("field"), w.String(c.field);
    w.EndObject();
  }
  w.EndArray();
}

ApiError make(int code, std::string reason, std::string message) {
  ApiError e;
  e.code = code;
  e.reason = std::move(reason);
  e.message = std::move(message);
  return e;
}

std::string quoted(const std::string& s) {
  // Go's %q for the plain names Kubernetes uses: escape backslashes and quotes.
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string ApiError::to_json() const {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("kind"), w.String("Status");
  w.Key("apiVersion"), w.String("v1");
  w.Key("metadata"), w.StartObject(), w.EndObject();
  w.Key("status"), w.String("Failure");
  w.Key("message"), w.String(message);
  if (!reason.empty()) w.Key("reason"), w.String(reason);
  bool has_details = !details_name.empty() || !details_group.empty() || !details_kind.empty() || !causes.empty() ||
                     retry_after_seconds > 0;
  if (has_details) {
    w.Key("details");
    w.StartObject();
    if (!details_name.empty()) w.Key("name"), w.String(details_name);
    if (!details_group.empty()) w.Key("group"), w.String(details_group);
    if (!details_kind.empty()) w.Key("kind"), w.String(details_kind);
    if (!causes.empty()) write_causes(w, causes);
    if (retry_after_seconds > 0) w.Key("retryAfterSeconds"), w.Int(retry_after_seconds);
    w.EndObject();
  }
  w.Key("code"), w.Int(code);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

ApiError not_found(const ResourceInfo& resource, const std::string& name) {
  ApiError e = make(404, "NotFound", resource.qualified_plural() + " " + quoted(name) + " not found");
  e.details_name = name;
  e.details_group = resource.group;
  e.details_kind = resource.plural;
  return e;
}

ApiError path_not_found() { return make(404, "NotFound", "the server could not find the requested resource"); }

ApiError already_exists(const ResourceInfo& resource, const std::string& name) {
  ApiError e = make(409, "AlreadyExists", resource.qualified_plural() + " " + quoted(name) + " already exists");
  e.details_name = name;
  e.details_group = resource.group;
  e.details_kind = resource.plural;
  return e;
}

ApiError conflict(const std::string& what, const std::string& group, const std::string& name, const std::string& why) {
  std::string qualified = group.empty() ? what : what + "." + group;
  ApiError e = make(409, "Conflict", "Operation cannot be fulfilled on " + qualified + " " + quoted(name) + ": " + why);
  e.details_name = name;
  e.details_group = group;
  e.details_kind = what;
  return e;
}

ApiError optimistic_lock_conflict(const ResourceInfo& resource, const std::string& name) {
  return conflict(resource.plural, resource.group, name,
                  "the object has been modified; please apply your changes to the latest version and try again");
}

StatusCause required_field(const std::string& field, const std::string& detail) {
  return {"FieldValueRequired", detail.empty() ? "Required value" : "Required value: " + detail, field};
}

StatusCause invalid_field(const std::string& field, const std::string& value_json, const std::string& detail) {
  return {"FieldValueInvalid", "Invalid value: " + value_json + ": " + detail, field};
}

StatusCause duplicate_field(const std::string& field, const std::string& value_json) {
  return {"FieldValueDuplicate", "Duplicate value: " + value_json, field};
}

StatusCause forbidden_field(const std::string& field, const std::string& detail) {
  return {"FieldValueForbidden", "Forbidden: " + detail, field};
}

ApiError invalid(const ResourceInfo& resource, const std::string& name, std::vector<StatusCause> causes) {
  // Message as field.ErrorList.ToAggregate(): one error alone, several in [a, b].
  std::vector<std::string> parts;
  for (const auto& c : causes) parts.push_back(c.field.empty() ? c.message : c.field + ": " + c.message);
  std::string joined;
  if (parts.size() == 1) {
    joined = parts[0];
  } else {
    joined = "[";
    for (size_t i = 0; i < parts.size(); ++i) joined += (i ? ", " : "") + parts[i];
    joined += "]";
  }
  std::string kind = resource.group.empty() ? resource.kind : resource.kind + "." + resource.group;
  ApiError e = make(422, "Invalid", kind + " " + quoted(name) + " is invalid: " + joined);
  e.details_name = name;
  e.details_group = resource.group;
  e.details_kind = resource.kind;
  e.causes = std::move(causes);
  return e;
}

ApiError bad_request(std::string message) { return make(400, "BadRequest", std::move(message)); }

ApiError method_not_allowed(const std::string& verb, const std::string& kind) {
  return make(405, "MethodNotAllowed", verb + " is not supported on resources of kind " + quoted(kind));
}

ApiError unsupported_media_type(const std::string& accepted) {
  return make(415, "UnsupportedMediaType",
              "the body of the request was in an unknown format - accepted media types include: " + accepted);
}

ApiError too_many_requests(std::string message, std::vector<StatusCause> causes, int retry_after_seconds) {
  ApiError e = make(429, "TooManyRequests", std::move(message));
  e.causes = std::move(causes);
  e.retry_after_seconds = retry_after_seconds;
  return e;
}

ApiError expired(std::string message) { return make(410, "Expired", std::move(message)); }

ApiError unauthorized() { return make(401, "Unauthorized", "Unauthorized"); }

ApiError forbidden(const ResourceInfo& resource, const std::string& name, const std::string& why) {
  ApiError e = make(403, "Forbidden", resource.qualified_plural() + " " + quoted(name) + " is forbidden: " + why);
  e.details_name = name;
  e.details_group = resource.group;
  e.details_kind = resource.plural;
  return e;
}

ApiError request_entity_too_large(size_t limit) {
  return make(413, "RequestEntityTooLarge",
              "Request entity too large: limit is " + std::to_string(limit) + " bytes");
}

ApiError internal_error(const std::string& what) { return make(500, "InternalError", "Internal error occurred: " + what); }

ApiError timeout_error(std::string message) { return make(504, "Timeout", "Timeout: " + message); }

ApiError too_large_resource_version(uint64_t wanted, uint64_t current) {
  ApiError e = timeout_error("Too large resource version: " + std::to_string(wanted) +
                             ", current: " + std::to_string(current));
  e.causes.push_back({"ResourceVersionTooLarge", "Too large resource version", ""});
  e.retry_after_seconds = 1;
  return e;
}

std::string success_status(int code) {
  return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":)" + std::to_string(code) + "}";
}

std::string deleted_status(const ResourceInfo& resource, const std::string& name, const std::string& uid) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("kind"), w.String("Status");
  w.Key("apiVersion"), w.String("v1");
  w.Key("metadata"), w.StartObject(), w.EndObject();
  w.Key("status"), w.String("Success");
  w.Key("details");
  w.StartObject();
  w.Key("name"), w.String(name);
  if (!resource.group.empty()) w.Key("group"), w.String(resource.group);
  w.Key("kind"), w.String(resource.plural);
  if (!uid.empty()) w.Key("uid"), w.String(uid);
  w.EndObject();
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace troupe::sim
