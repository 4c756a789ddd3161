#pragma once
// The two entry points every kind shares: decode a whole object document into
// its typed view (keeping the document as `raw`), and encode a view back.
// Kind-specific files wrap these as decode_pod / encode(const Pod&) etc.

#include <memory>
#include <string>

#include "model/json.hpp"
#include "model/json_reader.hpp"
#include "model/json_writer.hpp"
#include "model/result.hpp"

namespace troupe {

/// Identifies a kind in errors and in documents built from scratch.
struct KindInfo {
  const char* api_version;  // "v1", "scheduling.koordinator.sh/v1alpha1"
  const char* kind;         // "Pod"
};

/// Decodes `doc` with json_fields(JsonReader&, T&) into `initial` (for
/// defaults a decoder needs before reading) and sets `raw`. The
/// document must be an object; a `kind` member, when present, must name
/// `info.kind` (list items from the API server carry none); metadata must
/// have a name or a generateName.
template <class T>
Result<T> decode_object(const JsonPtr& doc, KindInfo info, T initial = T{}) {
  if (!doc) return Error{std::string(info.kind) + ": no document"};
  if (!doc->IsObject()) {
    return Error{std::string(info.kind) + ": Invalid value: " + json_type_name(*doc) + ": must be an object"};
  }
  auto kind = doc->FindMember("kind");
  if (kind != doc->MemberEnd() && kind->value.IsString() && kind->value.GetStringLength() > 0 &&
      std::string(kind->value.GetString()) != info.kind) {
    return Error{"kind: Invalid value: \"" + std::string(kind->value.GetString()) + "\": must be " + info.kind};
  }
  T out = std::move(initial);
  JsonReader reader(*doc);
  json_fields(reader, out);
  if (!reader.ok()) return Error{reader.error()};
  if (out.meta.name.empty() && out.meta.generate_name.empty()) {
    return Error{"metadata.name: Required value: name or generateName is required"};
  }
  out.raw = doc;
  return out;
}

/// Parses then decodes; handy for tests and for the embedded API server.
template <class T>
Result<T> decode_object_text(std::string_view text, KindInfo info) {
  auto doc = parse_json(text);
  if (!doc) return doc.error();
  return decode_object<T>(JsonPtr(std::move(*doc)), info);
}

/// A new document: a copy of `x.raw` with the view's fields written over it,
/// or, for a view built in code (no raw), {"apiVersion", "kind", ...fields}.
template <class T>
std::shared_ptr<JsonDocument> encode_document(const T& x, KindInfo info) {
  auto doc = make_document();
  if (x.raw) {
    doc->CopyFrom(*x.raw, doc->GetAllocator());
  } else {
    doc->SetObject();
    doc->AddMember("apiVersion", rapidjson::StringRef(info.api_version), doc->GetAllocator());
    doc->AddMember("kind", rapidjson::StringRef(info.kind), doc->GetAllocator());
  }
  JsonWriter writer(*doc, doc->GetAllocator());
  json_fields(writer, x);
  return doc;
}

}  // namespace troupe
