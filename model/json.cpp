#include "model/json.hpp"

#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace troupe {

namespace {

// A document together with the pool allocator it uses; the shared_ptr handed
// out points at the document but owns the pair.
struct PooledDocument {
  explicit PooledDocument(size_t chunk_bytes) : pool(chunk_bytes), document(&pool) {}
  rapidjson::MemoryPoolAllocator<> pool;
  rapidjson::Document document;
};

}  // namespace

std::optional<size_t> json_too_deep_at(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return std::nullopt;
}

std::shared_ptr<rapidjson::Document> make_document(size_t chunk_bytes) {
  auto pooled = std::make_shared<PooledDocument>(chunk_bytes);
  return std::shared_ptr<rapidjson::Document>(pooled, &pooled->document);
}

Result<std::shared_ptr<rapidjson::Document>> parse_json(std::string_view text) {
  if (auto offset = json_too_deep_at(text)) {
    return Error{"invalid JSON at offset " + std::to_string(*offset) + ": nesting deeper than " +
                 std::to_string(kMaxJsonDepth) + " levels"};
  }
  // The DOM of compact JSON takes about twice its text size (2.6 KB for a
  // 1.3 KB pod), so one chunk usually holds it whole.
  auto doc = make_document(2 * text.size() + 512);
  constexpr unsigned kFlags = rapidjson::kParseValidateEncodingFlag | rapidjson::kParseFullPrecisionFlag;
  doc->Parse<kFlags>(text.data(), text.size());
  if (doc->HasParseError()) {
    return Error{"invalid JSON at offset " + std::to_string(doc->GetErrorOffset()) + ": " +
                 rapidjson::GetParseError_En(doc->GetParseError())};
  }
  return doc;
}

std::string to_json(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::shared_ptr<rapidjson::Document> copy_document(const rapidjson::Value& value) {
  auto doc = make_document();
  doc->CopyFrom(value, doc->GetAllocator());
  return doc;
}

const char* json_type_name(const rapidjson::Value& value) {
  switch (value.GetType()) {
    case rapidjson::kNullType: return "null";
    case rapidjson::kFalseType:
    case rapidjson::kTrueType: return "boolean";
    case rapidjson::kObjectType: return "object";
    case rapidjson::kArrayType: return "array";
    case rapidjson::kStringType: return "string";
    case rapidjson::kNumberType: return "number";
  }
  return "unknown";
}

bool json_equal(const rapidjson::Value& a, const rapidjson::Value& b) {
  // RapidJSON's operator== already looks object members up by name and
  // compares mixed integer/double numbers by value.
  return a == b;
}

}  // namespace troupe
