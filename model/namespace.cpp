#include "model/namespace.hpp"

#include "model/json_codec.hpp"

namespace troupe {

namespace {

constexpr KindInfo kNamespaceKind{"v1", "Namespace"};

template <class Io, class T>
void namespace_fields(Io& io, T& x) {
  io.object("metadata", x.meta);
  io.nested("status", [&] { io.field("phase", x.phase); });
}

}  // namespace

TROUPE_JSON_FIELDS(Namespace, namespace_fields)

Result<Namespace> decode_namespace(JsonPtr doc) { return decode_object<Namespace>(doc, kNamespaceKind); }

Result<Namespace> decode_namespace_json(std::string_view text) {
  return decode_object_text<Namespace>(text, kNamespaceKind);
}

std::shared_ptr<JsonDocument> to_document(const Namespace& ns) { return encode_document(ns, kNamespaceKind); }

std::string encode(const Namespace& ns) { return to_json(*to_document(ns)); }

}  // namespace troupe
