#include "watch/json_util.hpp"

#include <algorithm>

#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace troupe::watch {

namespace {

// A document together with the pool it allocates from; shared_ptr's aliasing
// constructor hands out the document while the pair stays one allocation.
struct PooledDocument {
  explicit PooledDocument(std::size_t chunk) : pool(chunk), document(&pool) {}
  rapidjson::MemoryPoolAllocator<> pool;
  rapidjson::Document document;
};

// Pool bytes a parsed value needs, roughly: its text (strings are copied)
// plus room for the 16-byte value nodes.
std::size_t pool_bytes_for_text(std::size_t text_bytes) { return std::max<std::size_t>(1024, text_bytes + text_bytes / 2); }

}  // namespace

std::shared_ptr<rapidjson::Document> make_document(std::size_t initial_pool_bytes) {
  auto pooled = std::make_shared<PooledDocument>(std::max<std::size_t>(256, initial_pool_bytes));
  return std::shared_ptr<rapidjson::Document>(pooled, &pooled->document);
}

std::shared_ptr<rapidjson::Document> copy_document(const rapidjson::Value& value) {
  auto doc = make_document(4096);
  doc->CopyFrom(value, doc->GetAllocator());
  return doc;
}

namespace {

// A document over another document's pool: `owner` keeps the pool alive,
// `document` allocates from it and owns nothing (with a MemoryPoolAllocator,
// values never free their memory: the pool frees it all at once).
struct AdoptedDocument {
  explicit AdoptedDocument(std::shared_ptr<rapidjson::Document> from)
      : owner(std::move(from)), document(&owner->GetAllocator()) {}
  std::shared_ptr<rapidjson::Document> owner;
  rapidjson::Document document;
};

}  // namespace

std::shared_ptr<rapidjson::Document> adopt_value(const std::shared_ptr<rapidjson::Document>& owner,
                                                 rapidjson::Value& value) {
  auto adopted = std::make_shared<AdoptedDocument>(owner);
  static_cast<rapidjson::Value&>(adopted->document).Swap(value);
  return std::shared_ptr<rapidjson::Document>(adopted, &adopted->document);
}

Result<std::shared_ptr<rapidjson::Document>> parse_document(std::string_view text) {
  auto doc = make_document(pool_bytes_for_text(text.size()));
  // Iterative parsing: a hostile or broken server cannot overflow the stack
  // with deep nesting.
  doc->Parse<rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (doc->HasParseError())
    return Error{"invalid JSON at offset " + std::to_string(doc->GetErrorOffset()) + ": " +
                 rapidjson::GetParseError_En(doc->GetParseError())};
  return doc;
}

const rapidjson::Value* find_path(const rapidjson::Value& root, std::initializer_list<const char*> keys) {
  const rapidjson::Value* at = &root;
  for (const char* key : keys) {
    if (!at->IsObject()) return nullptr;
    const auto member = at->FindMember(key);
    if (member == at->MemberEnd()) return nullptr;
    at = &member->value;
  }
  return at;
}

std::string string_at(const rapidjson::Value& root, std::initializer_list<const char*> keys) {
  const rapidjson::Value* v = find_path(root, keys);
  return v != nullptr && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

std::optional<std::int64_t> int_at(const rapidjson::Value& root, std::initializer_list<const char*> keys) {
  const rapidjson::Value* v = find_path(root, keys);
  if (v == nullptr || !v->IsInt64()) return std::nullopt;
  return v->GetInt64();
}

std::string to_json(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string json_quote(std::string_view text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace troupe::watch
