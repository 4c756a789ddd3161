#pragma once
// What the API server does to objects on their way in, as kube-apiserver's
// registry strategies do: body decoding, apiVersion/kind checks, metadata the
// server owns (uid, creationTimestamp, generation, resourceVersion), defaults,
// and the validation a real server performs that the scheduler relies on.
// Validation is deliberately conservative: names, label maps, a Pod's
// containers; not every field of every kind.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "model/json_edit.hpp"
#include "sim/resource_registry.hpp"
#include "sim/status_errors.hpp"

namespace troupe::sim {

/// Parses a request body as JSON into `doc`; returns why it could not, as
/// "error at offset N". Nesting deeper than the scheduler reads
/// (kMaxJsonDepth) is refused before parsing: no body can exhaust the stack.
std::optional<std::string> parse_request_json(std::string_view body, rapidjson::Document& doc);

/// 400 when a write asks for a server-side dry run (`?dryRun=` or a
/// DeleteOptions' `dryRun`): this server has none, and refusing is better
/// than carrying out the write the client only meant to try.
std::optional<ApiError> refuse_dry_run(const std::map<std::string, std::string>& query,
                                       const rapidjson::Value* delete_options = nullptr);

/// Parses a request body as a JSON object; YAML when `content_type` says so.
ApiResult<rapidjson::Document> parse_body_object(const std::string& body, std::string_view content_type);

/// 400 (built-in kinds) or 422 (custom resources) when the object's
/// apiVersion/kind name another resource; empty ones are filled in.
std::optional<ApiError> check_and_fill_type(const ResourceInfo& r, rapidjson::Document& doc);

/// Returns metadata (created as {} when missing or not an object).
rapidjson::Value& metadata_of(rapidjson::Document& doc);
/// Returns status.conditions (created as [] when missing or not an array,
/// and status as {} likewise).
rapidjson::Value& conditions_of(rapidjson::Document& doc);
std::string string_at(const rapidjson::Value& object, std::string_view a, std::string_view b = {},
                      std::string_view c = {});
using troupe::set_string;  // model/json_edit.hpp

/// Fills uid, creationTimestamp and generation; clears deletion fields; applies
/// the kind's create defaults (a Pod's schedulerName and Pending status, a
/// Namespace's Active phase) and, unless `keep_status`, the status reset of
/// resources whose status is owned by a subresource.
void prepare_for_create(const ResourceInfo& r, rapidjson::Document& doc, bool keep_status);

/// Copies what the server owns from `old` into `doc` (uid, creationTimestamp,
/// deletion fields, generation, bumped when the spec changed) and, for
/// resources with a status subresource, keeps the old status.
void prepare_for_update(const ResourceInfo& r, const rapidjson::Value& old, rapidjson::Document& doc);

/// A write through /status (`doc`: the object as written): a custom
/// resource changes only its status (the CRD status strategy); a built-in
/// kind (podStatusStrategy, nodeStatusStrategy, ...) keeps the metadata it
/// writes (labels, annotations, finalizers) and its status, while its spec
/// and every other field stay as they were, and a Pod's ownerReferences.
void prepare_for_status_update(const ResourceInfo& r, const rapidjson::Value& old, rapidjson::Document& doc);

/// Name format, string-valued labels/annotations, and kind rules (a Pod needs
/// containers). `name` is the object's name for the message.
std::optional<ApiError> validate_object(const ResourceInfo& r, const rapidjson::Value& doc);
/// validate_object, and what may change in an update (a Pod's scheduling
/// gates can only be removed): every cause in one error.
std::optional<ApiError> validate_update(const ResourceInfo& r, const rapidjson::Value& old, const rapidjson::Value& doc);

/// DNS-1123 subdomain (most names) / label (namespaces).
bool is_dns_subdomain(std::string_view name);
bool is_dns_label(std::string_view name);

/// "2024-05-01T12:00:00Z"
std::string now_rfc3339();
/// A random RFC 4122 version 4 UUID.
std::string new_uid();
/// Five characters from the alphabet names are generated with.
std::string random_name_suffix();

/// Whether two objects are equal ignoring metadata.resourceVersion.
bool same_object(const rapidjson::Value& a, const rapidjson::Value& b);

/// Whether metadata.finalizers is a non-empty array.
bool has_finalizers(const rapidjson::Value& doc);

}  // namespace troupe::sim
