#include "sim/object_rules.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <set>

#include "model/json.hpp"
#include "sim/crd_defaults.hpp"
#include "sim/pod_resource_defaults.hpp"
#include "sim/pod_scheduling_gates.hpp"
#include "sim/pod_validation.hpp"
#include "sim/stored_object.hpp"
#include "sim/yaml_json.hpp"

namespace troupe::sim {

namespace {

using Alloc = rapidjson::Document::AllocatorType;

std::mt19937_64& rng() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return engine;
}

const rapidjson::Value* member(const rapidjson::Value& object, std::string_view key) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(rapidjson::StringRef(key.data(), key.size()));
  return it == object.MemberEnd() ? nullptr : &it->value;
}

void remove_member(rapidjson::Value& object, const char* key) {
  if (object.IsObject()) object.RemoveMember(key);
}

void copy_member(const rapidjson::Value& from, rapidjson::Value& to, const char* key, Alloc& alloc) {
  remove_member(to, key);
  const rapidjson::Value* value = member(from, key);
  if (value) to.AddMember(rapidjson::Value(key, alloc), rapidjson::Value(*value, alloc), alloc);
}

bool is_alnum_lower(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

std::string quote_json(std::string_view s) {
  rapidjson::Value v(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  return to_json(v);
}

std::optional<StatusCause> check_string_map(const rapidjson::Value& meta, const char* key) {
  const rapidjson::Value* map = member(meta, key);
  if (!map || map->IsNull()) return std::nullopt;
  std::string field = std::string("metadata.") + key;
  if (!map->IsObject()) return invalid_field(field, to_json(*map), "must be a map of strings");
  for (const auto& m : map->GetObject()) {
    if (!m.value.IsString())
      return invalid_field(field + "[" + m.name.GetString() + "]", to_json(m.value), "must be a string");
  }
  return std::nullopt;
}

bool has_containers(const rapidjson::Value& doc) {
  const rapidjson::Value* spec = member(doc, "spec");
  const rapidjson::Value* containers = spec ? member(*spec, "containers") : nullptr;
  return containers && containers->IsArray() && !containers->Empty();
}

}  // namespace

std::optional<std::string> parse_request_json(std::string_view body, rapidjson::Document& doc) {
  if (auto offset = json_too_deep_at(body))
    return "error at offset " + std::to_string(*offset) + ": nested deeper than " + std::to_string(kMaxJsonDepth) +
           " levels";
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError()) return "error at offset " + std::to_string(doc.GetErrorOffset());
  return std::nullopt;
}

std::optional<ApiError> refuse_dry_run(const std::map<std::string, std::string>& query,
                                       const rapidjson::Value* delete_options) {
  bool asked = query.count("dryRun") > 0;
  if (delete_options && delete_options->IsObject()) {
    auto it = delete_options->FindMember("dryRun");
    asked = asked || (it != delete_options->MemberEnd() && it->value.IsArray() && !it->value.Empty());
  }
  if (!asked) return std::nullopt;
  return bad_request("dryRun is not supported by this server; nothing was changed");
}

ApiResult<rapidjson::Document> parse_body_object(const std::string& body, std::string_view content_type) {
  if (content_type.find("yaml") != std::string_view::npos) {
    auto docs = yaml_to_json_documents(body);
    if (!docs.ok()) return bad_request(docs.message());
    if (docs->size() != 1 || !(*docs)[0].IsObject()) return bad_request("the request body must be one YAML object");
    return std::move((*docs)[0]);
  }
  rapidjson::Document doc;
  if (auto error = parse_request_json(body, doc)) return bad_request("the request body is not valid JSON: " + *error);
  if (!doc.IsObject()) return bad_request("the request body must be a JSON object");
  return doc;
}

std::optional<ApiError> check_and_fill_type(const ResourceInfo& r, rapidjson::Document& doc) {
  auto& alloc = doc.GetAllocator();
  std::string api_version = string_at(doc, "apiVersion");
  std::string kind = string_at(doc, "kind");
  std::string want_version = r.api_version();
  if (!r.builtin) {
    // apiextensions-apiserver validates type meta as a field error (422).
    if (!kind.empty() && kind != r.kind) {
      return invalid(r, string_at(doc, "metadata", "name"),
                     {invalid_field("kind", quote_json(kind), "must be " + r.kind)});
    }
    if (!api_version.empty() && api_version.rfind(r.group + "/", 0) != 0) {
      return invalid(r, string_at(doc, "metadata", "name"),
                     {invalid_field("apiVersion", quote_json(api_version), "must be " + want_version)});
    }
  } else {
    if (!api_version.empty() && api_version != want_version) {
      return bad_request("the API version in the data (" + api_version +
                         ") does not match the expected API version (" + want_version + ")");
    }
    if (!kind.empty() && kind != r.kind) {
      return bad_request(kind + " in version \"" + r.version + "\" cannot be handled as a " + r.kind +
                         ": the kind in the data (" + kind + ") does not match the expected kind (" + r.kind + ")");
    }
  }
  if (api_version.empty() || kind.empty()) {
    // Put apiVersion and kind first, where every Kubernetes client writes them.
    rapidjson::Value ordered(rapidjson::kObjectType);
    ordered.AddMember("apiVersion", rapidjson::Value(want_version.c_str(), alloc), alloc);
    ordered.AddMember("kind", rapidjson::Value(r.kind.c_str(), alloc), alloc);
    for (auto& m : doc.GetObject()) {
      std::string_view key(m.name.GetString(), m.name.GetStringLength());
      if (key != "apiVersion" && key != "kind") ordered.AddMember(m.name, m.value, alloc);
    }
    static_cast<rapidjson::Value&>(doc) = std::move(ordered);
    return std::nullopt;
  }
  set_string(doc, "apiVersion", want_version, alloc);
  return std::nullopt;
}

namespace {

// object[key], replaced by an empty value of `type` when missing or of another type.
rapidjson::Value& member_of_type(rapidjson::Value& object, const char* key, rapidjson::Type type, Alloc& alloc) {
  auto it = object.FindMember(key);
  if (it == object.MemberEnd() || it->value.GetType() != type) {
    if (it != object.MemberEnd()) object.RemoveMember(it);
    object.AddMember(rapidjson::Value(key, alloc), rapidjson::Value(type), alloc);
    it = object.FindMember(key);
  }
  return it->value;
}

}  // namespace

rapidjson::Value& metadata_of(rapidjson::Document& doc) {
  return member_of_type(doc, "metadata", rapidjson::kObjectType, doc.GetAllocator());
}

rapidjson::Value& conditions_of(rapidjson::Document& doc) {
  auto& alloc = doc.GetAllocator();
  rapidjson::Value& status = member_of_type(doc, "status", rapidjson::kObjectType, alloc);
  return member_of_type(status, "conditions", rapidjson::kArrayType, alloc);
}

std::string string_at(const rapidjson::Value& object, std::string_view a, std::string_view b, std::string_view c) {
  const rapidjson::Value* v = member(object, a);
  if (v && !b.empty()) v = member(*v, b);
  if (v && !c.empty()) v = member(*v, c);
  if (!v || !v->IsString()) return {};
  return {v->GetString(), v->GetStringLength()};
}

void prepare_for_create(const ResourceInfo& r, rapidjson::Document& doc, bool keep_status) {
  auto& alloc = doc.GetAllocator();
  rapidjson::Value& meta = metadata_of(doc);
  set_string(meta, "uid", new_uid(), alloc);
  set_string(meta, "creationTimestamp", now_rfc3339(), alloc);
  remove_member(meta, "generation");
  meta.AddMember("generation", 1, alloc);
  remove_member(meta, "deletionTimestamp");
  remove_member(meta, "deletionGracePeriodSeconds");
  remove_member(meta, "resourceVersion");
  remove_member(meta, "selfLink");

  if (r.kind == "Pod" && r.group.empty()) {
    auto spec = doc.FindMember("spec");
    if (spec != doc.MemberEnd() && spec->value.IsObject() && string_at(spec->value, "schedulerName").empty())
      set_string(spec->value, "schedulerName", "default-scheduler", alloc);
  }
  if (r.resets_status_on_create && !keep_status) {
    remove_member(doc, "status");
    if (r.kind == "Pod" && r.group.empty()) {
      rapidjson::Value status(rapidjson::kObjectType);
      status.AddMember("phase", "Pending", alloc);
      doc.AddMember("status", std::move(status), alloc);
    }
  }
  if (r.kind == "Pod" && r.group.empty()) {
    mark_scheduling_gated(doc);
    default_requests_from_limits(doc);
  }
  apply_crd_defaults(r, doc);
  // The API server's default binding mode (storage/v1 SetDefaults_StorageClass).
  if (r.kind == "StorageClass" && string_at(doc, "volumeBindingMode").empty())
    set_string(doc, "volumeBindingMode", "Immediate", alloc);
  if (r.kind == "Namespace" && r.group.empty() && string_at(doc, "status", "phase").empty()) {
    remove_member(doc, "status");
    rapidjson::Value status(rapidjson::kObjectType);
    status.AddMember("phase", "Active", alloc);
    doc.AddMember("status", std::move(status), alloc);
  }
}

void prepare_for_update(const ResourceInfo& r, const rapidjson::Value& old, rapidjson::Document& doc) {
  auto& alloc = doc.GetAllocator();
  rapidjson::Value& meta = metadata_of(doc);
  const rapidjson::Value* old_meta = member(old, "metadata");
  static const rapidjson::Value empty(rapidjson::kObjectType);
  const rapidjson::Value& om = old_meta ? *old_meta : empty;
  // A uid the body names is kept for validate_update to compare (it is
  // immutable: a write naming another uid is refused); none means the old one.
  if (string_at(meta, "uid").empty()) copy_member(om, meta, "uid", alloc);
  for (const char* key : {"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds"})
    copy_member(om, meta, key, alloc);
  remove_member(meta, "selfLink");
  if (r.has_status_subresource()) copy_member(old, doc, "status", alloc);
  apply_crd_defaults(r, doc);

  // generation counts spec changes (everything but metadata and status).
  int64_t generation = 1;
  if (const rapidjson::Value* g = member(om, "generation"); g && g->IsInt64()) generation = g->GetInt64();
  bool spec_changed = false;
  for (const auto& m : doc.GetObject()) {
    std::string_view key(m.name.GetString(), m.name.GetStringLength());
    if (key == "metadata" || key == "status") continue;
    const rapidjson::Value* before = member(old, key);
    if (!before || *before != m.value) spec_changed = true;
  }
  for (const auto& m : old.GetObject()) {
    std::string_view key(m.name.GetString(), m.name.GetStringLength());
    if (key != "metadata" && key != "status" && !member(doc, key)) spec_changed = true;
  }
  remove_member(meta, "generation");
  meta.AddMember("generation", generation + (spec_changed ? 1 : 0), alloc);
}

void prepare_for_status_update(const ResourceInfo& r, const rapidjson::Value& old, rapidjson::Document& doc) {
  auto& alloc = doc.GetAllocator();
  rapidjson::Value status(rapidjson::kNullType);
  if (const rapidjson::Value* written = member(doc, "status")) status.CopyFrom(*written, alloc);
  if (!r.builtin) {
    doc.CopyFrom(old, alloc);
  } else {
    for (auto m = doc.MemberBegin(); m != doc.MemberEnd();) {
      std::string_view key(m->name.GetString(), m->name.GetStringLength());
      m = key == "metadata" ? m + 1 : doc.EraseMember(m);
    }
    for (const auto& m : old.GetObject()) {
      std::string_view key(m.name.GetString(), m.name.GetStringLength());
      if (key != "metadata" && key != "status") doc.AddMember(rapidjson::Value(m.name, alloc), rapidjson::Value(m.value, alloc), alloc);
    }
    if (r.kind == "Pod" && r.group.empty()) {
      rapidjson::Value& meta = metadata_of(doc);
      remove_member(meta, "ownerReferences");
      if (const rapidjson::Value* om = member(old, "metadata")) copy_member(*om, meta, "ownerReferences", alloc);
    }
    prepare_for_update(r, old, doc);
  }
  remove_member(doc, "status");
  if (!status.IsNull()) doc.AddMember("status", std::move(status), alloc);
}

namespace {

/// What is wrong with the object on its own, one cause per field.
std::vector<StatusCause> object_causes(const ResourceInfo& r, const rapidjson::Value& doc) {
  std::vector<StatusCause> causes;
  const rapidjson::Value* meta = member(doc, "metadata");
  std::string name = meta ? string_at(*meta, "name") : "";
  bool namespace_kind = r.kind == "Namespace" && r.group.empty();
  if (name.empty()) {
    causes.push_back(required_field("metadata.name", "name or generateName is required"));
  } else if (namespace_kind ? !is_dns_label(name) : !is_dns_subdomain(name)) {
    causes.push_back(invalid_field(
        "metadata.name", quote_json(name),
        namespace_kind ? "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
                         "must start and end with an alphanumeric character"
                       : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
                         "'.', and must start and end with an alphanumeric character"));
  }
  if (meta) {
    for (const char* key : {"labels", "annotations"})
      if (auto cause = check_string_map(*meta, key)) causes.push_back(*cause);
  }
  if (r.kind == "Pod" && r.group.empty()) {
    if (!has_containers(doc)) causes.push_back(required_field("spec.containers"));
    for (auto& cause : check_scheduling_gates(doc)) causes.push_back(std::move(cause));
    for (auto& cause : check_pod_containers(doc)) causes.push_back(std::move(cause));
  }
  return causes;
}

std::set<std::string> finalizers_of(const rapidjson::Value& doc) {
  std::set<std::string> out;
  if (!doc.IsObject()) return out;
  auto meta = doc.FindMember("metadata");
  if (meta == doc.MemberEnd() || !meta->value.IsObject()) return out;
  auto list = meta->value.FindMember("finalizers");
  if (list == meta->value.MemberEnd() || !list->value.IsArray()) return out;
  for (const auto& f : list->value.GetArray())
    if (f.IsString()) out.insert(f.GetString());
  return out;
}

/// ValidateNoNewFinalizers: an object being deleted may lose finalizers, not gain them.
std::optional<StatusCause> check_no_new_finalizers(const rapidjson::Value& old, const rapidjson::Value& doc) {
  if (string_at(old, "metadata", "deletionTimestamp").empty()) return std::nullopt;
  const std::set<std::string> before = finalizers_of(old);
  std::string extra;
  for (const std::string& f : finalizers_of(doc))
    if (before.count(f) == 0) extra += (extra.empty() ? "" : ", ") + quote_json(f);
  if (extra.empty()) return std::nullopt;
  return forbidden_field("metadata.finalizers",
                         "no new finalizers can be added if the object is being deleted, found new finalizers "
                         "[]string{" + extra + "}");
}

std::optional<ApiError> invalid_if_any(const ResourceInfo& r, const rapidjson::Value& doc,
                                       std::vector<StatusCause> causes) {
  if (causes.empty()) return std::nullopt;
  return invalid(r, string_at(doc, "metadata", "name"), std::move(causes));
}

}  // namespace

std::optional<ApiError> validate_object(const ResourceInfo& r, const rapidjson::Value& doc) {
  return invalid_if_any(r, doc, object_causes(r, doc));
}

std::optional<ApiError> validate_update(const ResourceInfo& r, const rapidjson::Value& old, const rapidjson::Value& doc) {
  std::vector<StatusCause> causes = object_causes(r, doc);
  // kube-apiserver's ValidateObjectMetaUpdate: a patch or PUT naming another
  // object's uid (the pod was re-created under the same name) changes nothing.
  const std::string uid = string_at(doc, "metadata", "uid");
  if (uid != string_at(old, "metadata", "uid"))
    causes.push_back(invalid_field("metadata.uid", quote_json(uid), "field is immutable"));
  if (r.kind == "Pod" && r.group.empty())
    for (auto& cause : check_scheduling_gates_update(old, doc)) causes.push_back(std::move(cause));
  if (auto cause = check_no_new_finalizers(old, doc)) causes.push_back(std::move(*cause));
  return invalid_if_any(r, doc, std::move(causes));
}

bool is_dns_label(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  for (char c : name)
    if (!is_alnum_lower(c) && c != '-') return false;
  return is_alnum_lower(name.front()) && is_alnum_lower(name.back());
}

bool is_dns_subdomain(std::string_view name) {
  if (name.empty() || name.size() > 253) return false;
  size_t start = 0;
  while (start <= name.size()) {
    size_t dot = name.find('.', start);
    auto label = name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty()) return false;
    for (char c : label)
      if (!is_alnum_lower(c) && c != '-') return false;
    if (!is_alnum_lower(label.front()) || !is_alnum_lower(label.back())) return false;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return true;
}

std::string now_rfc3339() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string new_uid() {
  uint64_t hi = rng()();
  uint64_t lo = rng()();
  hi = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL; // version 4
  lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL; // RFC 4122 variant
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xffff),
                static_cast<unsigned>(lo >> 48), static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return buffer;
}

std::string random_name_suffix() {
  // k8s.io/apimachinery/pkg/util/rand: no vowels, no confusable characters.
  static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  std::string out;
  for (int i = 0; i < 5; ++i) out += alphabet[rng()() % (sizeof alphabet - 1)];
  return out;
}

bool same_object(const rapidjson::Value& a, const rapidjson::Value& b) {
  if (!a.IsObject() || !b.IsObject() || a.MemberCount() != b.MemberCount()) return false;
  for (const auto& m : a.GetObject()) {
    auto other = b.FindMember(m.name);
    if (other == b.MemberEnd()) return false;
    if (std::string_view(m.name.GetString(), m.name.GetStringLength()) != "metadata") {
      if (m.value != other->value) return false;
      continue;
    }
    if (!m.value.IsObject() || !other->value.IsObject()) return m.value == other->value;
    size_t count_a = 0, count_b = 0;
    for (const auto& x : m.value.GetObject()) {
      if (std::string_view(x.name.GetString()) == "resourceVersion") continue;
      ++count_a;
      auto y = other->value.FindMember(x.name);
      if (y == other->value.MemberEnd() || x.value != y->value) return false;
    }
    for (const auto& y : other->value.GetObject())
      if (std::string_view(y.name.GetString()) != "resourceVersion") ++count_b;
    if (count_a != count_b) return false;
  }
  return true;
}

bool has_finalizers(const rapidjson::Value& doc) {
  const rapidjson::Value* meta = member(doc, "metadata");
  const rapidjson::Value* finalizers = meta ? member(*meta, "finalizers") : nullptr;
  return finalizers && finalizers->IsArray() && !finalizers->Empty();
}

}  // namespace troupe::sim
