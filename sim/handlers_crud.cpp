// Request dispatch and the plain verbs: get, list, create, update (PUT),
// patch, delete and deletecollection, with kube-apiserver's preconditions,
// status-subresource rules and error bodies.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "model/json_patch.hpp"
#include "sim/api_handler.hpp"
#include "sim/base64.hpp"
#include "sim/object_rules.hpp"
#include "sim/pod_resize.hpp"
#include "sim/server_side_table.hpp"

namespace troupe::sim {

namespace {

constexpr int kGenerateNameAttempts = 8;

// kube-apiserver's words for a continue token older than what it keeps (410 Expired).
constexpr const char* kContinueExpired =
    "The provided continue parameter is too old to display a consistent list result. You can start a new list "
    "without the continue parameter.";

const char* kBuiltinPatchTypes =
    "application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, "
    "application/apply-patch+yaml";
const char* kCustomPatchTypes = "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";

enum class PatchType { merge, json, strategic };

std::string media_type(const std::string& content_type) {
  std::string out;
  for (char c : content_type) {
    if (c == ';') break;
    if (c != ' ' && c != '\t') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

ApiError patch_failed(const std::string& message) {
  ApiError e;
  e.code = 422;
  e.reason = "Invalid";
  e.message = message;
  return e;
}

std::string name_mismatch(const std::string& object_name, const std::string& url_name) {
  return "the name of the object (" + object_name + ") does not match the name on the URL (" + url_name + ")";
}

const char* kNamespaceMismatch = "the namespace of the provided object does not match the namespace sent on the request";

// Continue tokens: base64 of {"rv":N,"start":"<last key>"}.
std::string encode_continue(uint64_t rv, const std::string& last_key) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("rv"), w.Uint64(rv);
  w.Key("start"), w.String(last_key);
  w.EndObject();
  return base64_encode({buffer.GetString(), buffer.GetSize()});
}

struct ContinueToken {
  uint64_t rv = 0;
  std::string start;
};

std::optional<ContinueToken> decode_continue(const std::string& token) {
  auto raw = base64_decode(token);
  if (!raw) return std::nullopt;
  rapidjson::Document d;
  d.Parse(raw->c_str(), raw->size());
  if (d.HasParseError() || !d.IsObject()) return std::nullopt;
  auto rv = d.FindMember("rv");
  auto start = d.FindMember("start");
  if (rv == d.MemberEnd() || !rv->value.IsUint64() || start == d.MemberEnd() || !start->value.IsString())
    return std::nullopt;
  return ContinueToken{rv->value.GetUint64(), start->value.GetString()};
}

/// The object a PUT or PATCH leaves, from what it wrote (`doc`, rewritten in
/// place) and the object before, by the part written; or why it is refused.
std::optional<ApiError> prepare_write(const ResourceInfo& r, ApiHandler::WritePart part, const rapidjson::Value& old,
                                      rapidjson::Document& doc) {
  switch (part) {
    case ApiHandler::WritePart::status:
      prepare_for_status_update(r, old, doc);
      return r.builtin ? validate_update(r, old, doc) : std::nullopt;
    case ApiHandler::WritePart::resize:
      if (auto refused = prepare_for_resize(r, old, doc)) return refused;
      prepare_for_update(r, old, doc);
      return std::nullopt;
    case ApiHandler::WritePart::object: break;
  }
  prepare_for_update(r, old, doc);
  return validate_update(r, old, doc);
}

// keep when nothing changed (no new resourceVersion, like etcd3's
// GuaranteedUpdate); remove when the last finalizer of a deleted object went.
ApiResult<Change> finish_change(const rapidjson::Value& old, Change change) {
  if (same_object(old, change.doc)) {
    change.action = Change::Action::keep;
    return change;
  }
  auto meta = old.FindMember("metadata");
  bool deleting = meta != old.MemberEnd() && meta->value.IsObject() && meta->value.HasMember("deletionTimestamp") &&
                  !meta->value["deletionTimestamp"].IsNull();
  change.action = deleting && !has_finalizers(change.doc) ? Change::Action::remove : Change::Action::replace;
  return change;
}

ApiResult<rapidjson::Document> parse_current(const ObjectPtr& current) {
  rapidjson::Document doc;
  doc.Parse(current->json.data(), current->json.size());
  if (doc.HasParseError() || !doc.IsObject()) return internal_error("stored object is not valid JSON");
  return doc;
}

/// 409 for a write whose uid (in the body, or a DeleteOptions precondition) is not the object's.
ApiError uid_precondition_failed(const ResourceInfo& r, const std::string& name, const std::string& wanted,
                                 const StoredObject& current) {
  return conflict(r.plural, r.group, name,
                  "Precondition failed: UID in precondition: " + wanted + ", UID in object meta: " + current.uid);
}

/// The DeleteOptions preconditions (uid, resourceVersion) `current` does not meet: 409.
std::optional<ApiError> failed_delete_precondition(const ResourceInfo& r, const std::string& name,
                                                   const StoredObject& current, const rapidjson::Value* options) {
  if (options == nullptr || !options->IsObject()) return std::nullopt;
  const std::string want_uid = string_at(*options, "preconditions", "uid");
  const std::string want_rv = string_at(*options, "preconditions", "resourceVersion");
  if (!want_uid.empty() && want_uid != current.uid) return uid_precondition_failed(r, name, want_uid, current);
  const std::string rv = std::to_string(current.resource_version);
  if (!want_rv.empty() && want_rv != rv)
    return conflict(r.plural, r.group, name,
                    "Precondition failed: ResourceVersion in precondition: " + want_rv +
                        ", ResourceVersion in object meta: " + rv);
  return std::nullopt;
}

/// Reads a DELETE's DeleteOptions body, if it has one, into `options`.
std::optional<ApiError> read_delete_options(const ApiRequest& request, rapidjson::Document& options) {
  if (request.body.empty()) return std::nullopt;
  if (parse_request_json(request.body, options) || !options.IsObject())
    return bad_request("the body of a DELETE must be a DeleteOptions JSON object");
  return refuse_dry_run(request.query, &options);
}

}  // namespace

ApiResponse error_response(const ApiError& error) {
  ApiResponse r;
  r.status = error.code;
  r.body = error.to_json();
  r.retry_after_seconds = error.retry_after_seconds;
  return r;
}

ApiResponse ApiHandler::object_response(const ResourceInfo& r, const ObjectPtr& object, int status) const {
  ApiResponse response;
  response.status = status;
  response.body = object_json_as(r, *object);
  return response;
}

ApiResponse ApiHandler::handle(const ApiRequest& request) {
  ParsedPath path = parse_path(request.path);
  if (path.kind == RouteKind::not_found) return error_response(path_not_found());
  if (path.kind != RouteKind::resource) return discovery(path, request);
  return resource_request(path, request);
}

ApiResponse ApiHandler::resource_request(const ParsedPath& path, const ApiRequest& request) {
  const ResourceInfo* found = registry_.find(path.group, path.version, path.plural);
  if (!found) return error_response(path_not_found());
  const ResourceInfo& r = *found;
  if (!path.ns.empty() && !r.namespaced) return error_response(path_not_found());
  if (r.namespaced && path.ns.empty() && !path.name.empty()) return error_response(path_not_found());
  const std::string& method = request.method;
  auto not_allowed = [&] { return error_response(method_not_allowed(method, r.kind)); };

  bool watching = path.watch_prefix;
  if (auto it = request.query.find("watch"); it != request.query.end() && !watching) {
    auto value = parse_go_bool(it->second);
    if (!value) return error_response(bad_request("invalid value for watch: \"" + it->second + "\""));
    watching = *value;
  }
  if (path.watch_prefix && method != "GET") return not_allowed();
  if (method != "GET" && method != "HEAD") {
    if (auto refused = refuse_dry_run(request.query)) return error_response(*refused);
  }

  if (!path.subresource.empty()) {
    const SubresourceInfo* sub = r.find_subresource(path.subresource);
    if (!sub || watching) return error_response(path_not_found());
    if (sub->name == "status" || sub->name == "resize") {
      const WritePart part = sub->name == "status" ? WritePart::status : WritePart::resize;
      if (method == "GET") return get(r, path, request);
      if (method == "PUT") return update(r, path, request, part);
      if (method == "PATCH") return patch(r, path, request, part);
      return not_allowed();
    }
    if (method != "POST") return not_allowed();
    if (sub->name == "binding") return bind(path, request, false);
    if (sub->name == "eviction") return evict(path, request);
    return error_response(path_not_found());
  }
  if (r.plural == "bindings" && r.group.empty()) {
    if (method == "POST" && path.name.empty() && !path.ns.empty()) return bind(path, request, true);
    return not_allowed();
  }
  if (path.name.empty()) {
    if (method == "GET" || method == "HEAD") return watching ? watch(r, path, request) : list(r, path, request);
    if (method == "POST") return r.namespaced && path.ns.empty() ? not_allowed() : create(r, path, request);
    // Across namespaces a namespaced resource is only listed and watched (kube-apiserver's installer).
    if (method == "DELETE") return r.namespaced && path.ns.empty() ? not_allowed() : remove_collection(r, path, request);
    return not_allowed();
  }
  if (method == "GET" || method == "HEAD") return watching ? watch(r, path, request) : get(r, path, request);
  if (method == "PUT") return update(r, path, request, WritePart::object);
  if (method == "PATCH") return patch(r, path, request, WritePart::object);
  if (method == "DELETE") return remove(r, path, request);
  return not_allowed();
}

ApiResponse ApiHandler::get(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request) {
  auto table = table_request(request.accept, request.query);
  if (!table.ok()) return error_response(table.error());
  ObjectPtr object = store_.get(r, path.ns, path.name);
  if (!object) return error_response(not_found(r, path.name));
  if (!table.value()) return object_response(r, object, 200);
  ApiResponse response;
  response.body = table_json(r, *table.value(), {object}, TableListMeta{object->resource_version, ""},
                             timestamp_now());
  return response;
}

ApiResult<ObjectFilter> request_filter(const ResourceInfo& r, const std::string& ns, const ApiRequest& request) {
  ObjectFilter filter;
  filter.ns = ns;
  if (auto it = request.query.find("labelSelector"); it != request.query.end() && !it->second.empty()) {
    auto parsed = parse_label_selector(it->second);
    if (!parsed.ok()) return bad_request(parsed.message());
    filter.labels = std::move(parsed.value());
  }
  if (auto it = request.query.find("fieldSelector"); it != request.query.end() && !it->second.empty()) {
    auto parsed = parse_field_selector(it->second, r.kind);
    if (!parsed.ok()) return bad_request(parsed.message());
    filter.fields = std::move(parsed.value());
  }
  return filter;
}

namespace {

/// A list's resourceVersion and resourceVersionMatch (ValidateListOptions and
/// the watch cache's semantics): with Exact, the snapshot at that version
/// (returned); otherwise the current state, which must be at least as new
/// (else 504, as a cache that cannot catch up); "0" or none: any, the current.
ApiResult<std::optional<uint64_t>> list_resource_version(const std::map<std::string, std::string>& query, bool continuing,
                                                        uint64_t current) {
  auto param = [&](const char* key) {
    auto it = query.find(key);
    return it == query.end() ? std::string() : it->second;
  };
  const std::string rv = param("resourceVersion");
  const std::string match = param("resourceVersionMatch");
  if (!match.empty() && match != "Exact" && match != "NotOlderThan")
    return bad_request("resourceVersionMatch: Unsupported value: \"" + match +
                       "\": supported values: \"Exact\", \"NotOlderThan\", \"\"");
  if (!match.empty() && rv.empty()) return bad_request("resourceVersionMatch is forbidden unless resourceVersion is provided");
  if (!match.empty() && continuing) return bad_request("resourceVersionMatch is forbidden when continue is provided");
  if (match == "Exact" && rv == "0")
    return bad_request("resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"");
  if (rv.empty() || rv == "0") return std::optional<uint64_t>();
  if (continuing) return bad_request("specifying resource version is not allowed when using continue");
  auto value = parse_non_negative_int(rv);
  if (!value) return bad_request("invalid resource version: \"" + rv + "\"");
  const auto wanted = static_cast<uint64_t>(*value);
  if (wanted > current) return too_large_resource_version(wanted, current);
  if (match == "Exact") return std::optional<uint64_t>(wanted);
  return std::optional<uint64_t>();
}

}  // namespace

ApiResponse ApiHandler::list(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request) {
  auto filter = request_filter(r, path.ns, request);
  if (!filter.ok()) return error_response(filter.error());
  auto table = table_request(request.accept, request.query);
  if (!table.ok()) return error_response(table.error());
  size_t limit = 0;
  if (auto it = request.query.find("limit"); it != request.query.end() && !it->second.empty()) {
    auto value = parse_non_negative_int(it->second);
    if (!value) return error_response(bad_request("invalid value for limit: \"" + it->second + "\""));
    limit = static_cast<size_t>(*value);
  }
  std::optional<ContinueToken> token;
  if (auto it = request.query.find("continue"); it != request.query.end() && !it->second.empty()) {
    token = decode_continue(it->second);
    if (!token) return error_response(bad_request("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"));
  }
  auto at = list_resource_version(request.query, token.has_value(), store_.resource_version());
  if (!at.ok()) return error_response(at.error());
  // Later pages are read as of the first page's resourceVersion, as etcd serves them: one snapshot,
  // which a watch from that resourceVersion then continues.
  if (token) at = std::optional<uint64_t>(token->rv);
  auto page = store_.list(r, filter.value(), limit, token ? token->start : "", at.value());
  if (page.expired) {
    if (token) return error_response(expired(kContinueExpired));
    return error_response(expired("too old resource version: " + std::to_string(*at.value()) + " (" +
                                  std::to_string(store_.oldest_resumable(r)) + ")"));
  }
  const uint64_t rv = page.resource_version;
  const std::string continue_token = page.last_key.empty() ? "" : encode_continue(rv, page.last_key);
  if (table.value()) {
    ApiResponse response;
    response.body = table_json(r, *table.value(), page.items, TableListMeta{rv, continue_token}, timestamp_now());
    return response;
  }

  std::string body;
  size_t size = 256;
  for (const auto& o : page.items) size += o->json.size() + 1;
  body.reserve(size);
  body += R"({"kind":")" + r.list_kind() + R"(","apiVersion":")" + r.api_version() +
          R"(","metadata":{"resourceVersion":")" + std::to_string(rv) + "\"";
  if (!continue_token.empty()) body += R"(,"continue":")" + continue_token + "\"";
  body += R"(},"items":[)";
  for (size_t i = 0; i < page.items.size(); ++i) {
    if (i) body += ',';
    if (r.storage_version) {
      body += page.items[i]->json;
    } else {
      body += object_json_as(r, *page.items[i]);
    }
  }
  body += "]}";
  ApiResponse response;
  response.body = std::move(body);
  return response;
}

ApiResult<ObjectPtr> ApiHandler::create_object(const ResourceInfo& r, const std::string& url_ns,
                                               rapidjson::Document& doc, bool keep_status) {
  if (auto e = check_and_fill_type(r, doc)) return *e;
  to_stored_schema(r, doc);
  auto& alloc = doc.GetAllocator();
  rapidjson::Value& meta = metadata_of(doc);
  std::string ns;
  if (r.namespaced) {
    std::string body_ns = string_at(meta, "namespace");
    if (!url_ns.empty() && !body_ns.empty() && body_ns != url_ns) return bad_request(kNamespaceMismatch);
    ns = !url_ns.empty() ? url_ns : (!body_ns.empty() ? body_ns : "default");
    set_string(meta, "namespace", ns, alloc);
  } else {
    meta.RemoveMember("namespace");
  }
  std::string generate_name = string_at(meta, "generateName");
  bool generated = string_at(meta, "name").empty() && !generate_name.empty();
  for (int attempt = 0; attempt < kGenerateNameAttempts; ++attempt) {
    if (generated) set_string(metadata_of(doc), "name", generate_name + random_name_suffix(), alloc);
    if (auto e = validate_object(r, doc)) return *e;
    if (r.namespaced) {
      const ResourceInfo& namespaces = *registry_.find("", "v1", "namespaces");
      if (!store_.get(namespaces, "", ns)) return not_found(namespaces, ns);
    }
    prepare_for_create(r, doc, keep_status);
    auto created = store_.create(r, doc);
    if (created.ok() || !generated || created.error().reason != "AlreadyExists") return created;
  }
  return already_exists(r, string_at(metadata_of(doc), "name"));
}

ApiResponse ApiHandler::create(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request) {
  auto doc = parse_body_object(request.body, request.content_type);
  if (!doc.ok()) return error_response(doc.error());
  auto created = create_object(r, path.ns, doc.value(), false);
  if (!created.ok()) return error_response(created.error());
  return object_response(r, created.value(), 201);
}

ApiResponse ApiHandler::update(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request,
                               WritePart part) {
  const bool subresource = part != WritePart::object;
  auto parsed = parse_body_object(request.body, request.content_type);
  if (!parsed.ok()) return error_response(parsed.error());
  rapidjson::Document& body = parsed.value();
  if (auto e = check_and_fill_type(r, body)) return error_response(*e);
  to_stored_schema(r, body);
  rapidjson::Value& meta = metadata_of(body);
  std::string body_name = string_at(meta, "name");
  if (body_name != path.name) return error_response(bad_request(name_mismatch(body_name, path.name)));
  if (r.namespaced) {
    std::string body_ns = string_at(meta, "namespace");
    if (!body_ns.empty() && body_ns != path.ns) return error_response(bad_request(kNamespaceMismatch));
    set_string(meta, "namespace", path.ns, body.GetAllocator());
  } else {
    meta.RemoveMember("namespace");
  }
  std::string body_rv = string_at(meta, "resourceVersion");
  const ResourceInfo& namespaces = *registry_.find("", "v1", "namespaces");

  auto result = store_.modify(r, path.ns, path.name, [&](const ObjectPtr& current) -> ApiResult<Change> {
    Change change;
    change.doc.CopyFrom(body, change.doc.GetAllocator());
    if (!current) {
      if (subresource || !r.create_on_update) return not_found(r, path.name);
      if (auto e = validate_object(r, change.doc)) return *e;
      if (r.namespaced && !store_.get(namespaces, "", path.ns)) return not_found(namespaces, path.ns);
      prepare_for_create(r, change.doc, false);
      change.action = Change::Action::create;
      return change;
    }
    if (!body_rv.empty() && body_rv != std::to_string(current->resource_version))
      return optimistic_lock_conflict(r, path.name);
    // A uid in the body is a precondition (kube-apiserver's defaultUpdatedObjectInfo).
    const std::string body_uid = string_at(meta, "uid");
    if (!body_uid.empty() && body_uid != current->uid) return uid_precondition_failed(r, path.name, body_uid, *current);
    if (body_rv.empty() && !r.unconditional_update && !subresource)
      return invalid(r, path.name, {invalid_field("metadata.resourceVersion", "0x0", "must be specified for an update")});
    auto old = parse_current(current);
    if (!old.ok()) return old.error();
    if (auto e = prepare_write(r, part, old.value(), change.doc)) return *e;
    return finish_change(old.value(), std::move(change));
  });
  if (!result.ok()) return error_response(result.error());
  return object_response(r, result.value().object, result.value().action == Change::Action::create ? 201 : 200);
}

ApiResponse ApiHandler::patch(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request,
                              WritePart part) {
  std::string type = media_type(request.content_type);
  PatchType patch_type;
  if (type == "application/merge-patch+json") {
    patch_type = PatchType::merge;
  } else if (type == "application/json-patch+json") {
    patch_type = PatchType::json;
  } else if (type == "application/strategic-merge-patch+json" && r.builtin) {
    patch_type = PatchType::strategic;
  } else if (type == "application/apply-patch+yaml") {
    return error_response(unsupported_media_type(
        "application/json-patch+json, application/merge-patch+json" +
        std::string(r.builtin ? ", application/strategic-merge-patch+json" : "") +
        " (server-side apply is not supported by this server)"));
  } else {
    return error_response(unsupported_media_type(r.builtin ? kBuiltinPatchTypes : kCustomPatchTypes));
  }
  rapidjson::Document patch_doc;
  if (auto error = parse_request_json(request.body, patch_doc))
    return error_response(bad_request("the patch is not valid JSON: " + *error));
  if (patch_type == PatchType::json && !patch_doc.IsArray())
    return error_response(bad_request("a JSON patch must be an array of operations"));
  if (patch_type != PatchType::json && !patch_doc.IsObject())
    return error_response(bad_request("a merge patch must be a JSON object"));

  auto result = store_.modify(r, path.ns, path.name, [&](const ObjectPtr& current) -> ApiResult<Change> {
    if (!current) return not_found(r, path.name);
    auto old = parse_current(current);
    if (!old.ok()) return old.error();
    Change change;
    change.doc.CopyFrom(old.value(), change.doc.GetAllocator());
    to_served_schema(r, change.doc);  // the patch is written against what this API shows
    auto& alloc = change.doc.GetAllocator();
    Status applied = patch_type == PatchType::merge  ? apply_merge_patch(change.doc, patch_doc, alloc)
                     : patch_type == PatchType::json ? apply_json_patch(change.doc, patch_doc, alloc)
                                                     : apply_strategic_merge_patch(change.doc, patch_doc, r.kind, alloc);
    if (!applied.ok()) return patch_failed(applied.message());
    if (!change.doc.IsObject()) return patch_failed("the patched object is not a JSON object");
    std::string patched_rv = string_at(change.doc, "metadata", "resourceVersion");
    if (!patched_rv.empty() && patched_rv != std::to_string(current->resource_version))
      return optimistic_lock_conflict(r, path.name);
    std::string patched_name = string_at(change.doc, "metadata", "name");
    if (patched_name != path.name) return bad_request(name_mismatch(patched_name, path.name));
    // A uid the patch sets is a precondition too, on the main resource and on status alike.
    const std::string patched_uid = string_at(change.doc, "metadata", "uid");
    if (!patched_uid.empty() && patched_uid != current->uid)
      return uid_precondition_failed(r, path.name, patched_uid, *current);
    if (string_at(change.doc, "metadata", "namespace") != path.ns) return bad_request(kNamespaceMismatch);
    if (auto e = check_and_fill_type(r, change.doc)) return *e;
    to_stored_schema(r, change.doc);
    if (auto e = prepare_write(r, part, old.value(), change.doc)) return *e;
    return finish_change(old.value(), std::move(change));
  });
  if (!result.ok()) return error_response(result.error());
  return object_response(r, result.value().object, 200);
}

ApiResult<WriteResult> ApiHandler::delete_object(const ResourceInfo& r, const std::string& ns,
                                                 const std::string& name, const rapidjson::Value* options) {
  return store_.modify(r, ns, name, [&](const ObjectPtr& current) -> ApiResult<Change> {
    if (!current) return not_found(r, name);
    if (auto failed = failed_delete_precondition(r, name, *current, options)) return *failed;
    auto doc = parse_current(current);
    if (!doc.ok()) return doc.error();
    Change change;
    change.doc = std::move(doc.value());
    if (has_finalizers(change.doc)) {
      // Finalizers hold the object: mark it deleted, remove it when the last goes.
      if (current->being_deleted) return change; // keep
      rapidjson::Value& meta = metadata_of(change.doc);
      set_string(meta, "deletionTimestamp", now_rfc3339(), change.doc.GetAllocator());
      meta.RemoveMember("deletionGracePeriodSeconds");
      meta.AddMember("deletionGracePeriodSeconds", 0, change.doc.GetAllocator());
      change.action = Change::Action::replace;
      return change;
    }
    change.action = Change::Action::remove;
    return change;
  });
}

ApiResponse ApiHandler::remove(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request) {
  rapidjson::Document options;
  if (auto bad = read_delete_options(request, options)) return error_response(*bad);
  bool is_namespace = r.kind == "Namespace" && r.group.empty();
  if (is_namespace) {
    if (path.name == "default" || path.name == "kube-system" || path.name == "kube-public")
      return error_response(forbidden(r, path.name, "this namespace may not be deleted"));
    ObjectPtr current = store_.get(r, "", path.name);
    if (!current) return error_response(not_found(r, path.name));
    // Its preconditions first: a refused delete must leave what it holds.
    if (auto failed = failed_delete_precondition(r, path.name, *current, options.IsObject() ? &options : nullptr))
      return error_response(*failed);
    // The namespace controller's job, done at once: delete what the namespace holds.
    std::vector<bool> done(registry_.storage_count(), false);
    for (const auto& res : registry_.resources()) {
      if (!res.namespaced || done[res.storage]) continue;
      done[res.storage] = true;
      ObjectFilter in_ns;
      in_ns.ns = path.name;
      for (const auto& o : store_.list(res, in_ns).items) (void)delete_object(res, o->ns, o->name, nullptr);
    }
  }
  auto result = delete_object(r, path.ns, path.name, options.IsObject() ? &options : nullptr);
  if (!result.ok()) return error_response(result.error());
  const WriteResult& w = result.value();
  // Finalizers pending: 200 with the object, 202 only when the client asked
  // for cascading deletion with orphanDependents false (kube-apiserver's delete.go).
  if (w.action != Change::Action::remove) {
    auto orphan = options.IsObject() ? options.FindMember("orphanDependents") : options.MemberEnd();
    const bool accepted = options.IsObject() && orphan != options.MemberEnd() && orphan->value.IsFalse();
    return object_response(r, w.object, accepted ? 202 : 200);
  }
  if (r.delete_returns_object) return object_response(r, w.object, 200);
  ApiResponse response;
  response.body = deleted_status(r, path.name, w.object->uid);
  return response;
}

ApiResponse ApiHandler::remove_collection(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request) {
  if (r.kind == "Namespace" && r.group.empty()) return error_response(method_not_allowed("deletecollection", r.kind));
  rapidjson::Document options;
  if (auto bad = read_delete_options(request, options)) return error_response(*bad);
  auto filter = request_filter(r, path.ns, request);
  if (!filter.ok()) return error_response(filter.error());
  auto page = store_.list(r, filter.value());
  std::string items;
  for (const auto& o : page.items) {
    auto deleted = delete_object(r, o->ns, o->name, nullptr);
    if (!deleted.ok()) continue; // deleted meanwhile
    if (!items.empty()) items += ',';
    items += object_json_as(r, *deleted.value().object);
  }
  ApiResponse response;
  response.body = R"({"kind":")" + r.list_kind() + R"(","apiVersion":")" + r.api_version() +
                  R"(","metadata":{"resourceVersion":")" + std::to_string(store_.resource_version()) +
                  R"("},"items":[)" + items + "]}";
  return response;
}

void ApiHandler::create_system_namespaces() {
  const ResourceInfo& namespaces = *registry_.find("", "v1", "namespaces");
  for (const char* name : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
    if (store_.get(namespaces, "", name)) continue;
    rapidjson::Document doc;
    doc.Parse((std::string(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")") + name + "\"}}").c_str());
    (void)create_object(namespaces, "", doc, false);
  }
}

ApiResult<ObjectPtr> ApiHandler::create_loaded_object(rapidjson::Document& doc) {
  if (!doc.IsObject()) return bad_request("an object must be a JSON/YAML mapping");
  std::string api_version = string_at(doc, "apiVersion");
  std::string kind = string_at(doc, "kind");
  const ResourceInfo* r = registry_.find_by_kind(api_version, kind);
  if (!r) return bad_request("no served resource has apiVersion \"" + api_version + "\" and kind \"" + kind + "\"");
  std::string ns;
  if (r->namespaced) {
    ns = string_at(doc, "metadata", "namespace");
    if (ns.empty()) ns = "default";
    const ResourceInfo& namespaces = *registry_.find("", "v1", "namespaces");
    if (!store_.get(namespaces, "", ns)) {
      rapidjson::Document ns_doc;
      ns_doc.Parse(R"({"apiVersion":"v1","kind":"Namespace","metadata":{}})");
      set_string(ns_doc["metadata"], "name", ns, ns_doc.GetAllocator());
      auto made = create_object(namespaces, "", ns_doc, false);
      if (!made.ok() && made.error().reason != "AlreadyExists") return made.error();
    }
  }
  return create_object(*r, ns, doc, true);
}

}  // namespace troupe::sim
