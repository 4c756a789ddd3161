#include "model/json_writer.hpp"

namespace troupe {

namespace {

const char* operator_name(LabelRequirement::Op op) {
  switch (op) {
    case LabelRequirement::Op::in:
    case LabelRequirement::Op::equals: return "In";
    case LabelRequirement::Op::not_in:
    case LabelRequirement::Op::not_equals: return "NotIn";
    case LabelRequirement::Op::exists: return "Exists";
    case LabelRequirement::Op::does_not_exist: return "DoesNotExist";
    case LabelRequirement::Op::gt: return "Gt";
    case LabelRequirement::Op::lt: return "Lt";
  }
  return "In";
}


}  // namespace

JsonWriter::JsonWriter(rapidjson::Value& root, JsonAllocator& allocator) : current_(&root), allocator_(allocator) {}

void JsonWriter::micro_time(const char* key, const std::optional<Timestamp>& value) {
  rapidjson::Value* existing = member(key);
  if (existing != nullptr && unchanged(*existing, value)) return;
  if (!value) {
    if (existing != nullptr) erase(key);
    return;
  }
  std::string text = format_micro_timestamp(*value);
  set(key, rapidjson::Value(text.c_str(), static_cast<rapidjson::SizeType>(text.size()), allocator_));
}

rapidjson::Value* JsonWriter::member(const char* key) {
  if (!current_->IsObject()) return nullptr;
  auto found = current_->FindMember(key);
  if (found == current_->MemberEnd() || found->value.IsNull()) return nullptr;
  return &found->value;
}

void JsonWriter::set(const char* key, rapidjson::Value value) {
  if (!current_->IsObject()) current_->SetObject();
  auto found = current_->FindMember(key);
  if (found != current_->MemberEnd()) {
    found->value = std::move(value);
    return;
  }
  current_->AddMember(rapidjson::Value(key, allocator_), std::move(value), allocator_);
}

void JsonWriter::erase(const char* key) {
  if (!current_->IsObject()) return;
  auto found = current_->FindMember(key);
  // EraseMember keeps the order of the remaining members (RemoveMember would not).
  if (found != current_->MemberEnd()) current_->EraseMember(found);
}

void JsonWriter::erase_if_not_empty(const char* key) {
  rapidjson::Value* existing = member(key);
  if (existing == nullptr) return;
  const bool empty_container =
      (existing->IsArray() && existing->Empty()) || (existing->IsObject() && existing->ObjectEmpty());
  if (!empty_container) erase(key);
}

rapidjson::Value& JsonWriter::ensure_object(const char* key) {
  if (!current_->IsObject()) current_->SetObject();
  auto found = current_->FindMember(key);
  if (found != current_->MemberEnd()) {
    if (!found->value.IsObject()) found->value.SetObject();
    return found->value;
  }
  current_->AddMember(rapidjson::Value(key, allocator_), rapidjson::Value(rapidjson::kObjectType), allocator_);
  return (current_->MemberEnd() - 1)->value;
}

rapidjson::Value* JsonWriter::prepare_array(const char* key, size_t size) {
  if (size == 0) {
    erase_if_not_empty(key);
    return nullptr;
  }
  if (!current_->IsObject()) current_->SetObject();
  auto found = current_->FindMember(key);
  rapidjson::Value* arr = nullptr;
  if (found != current_->MemberEnd()) {
    arr = &found->value;
    if (!arr->IsArray()) arr->SetArray();
  } else {
    current_->AddMember(rapidjson::Value(key, allocator_), rapidjson::Value(rapidjson::kArrayType), allocator_);
    arr = &(current_->MemberEnd() - 1)->value;
  }
  while (arr->Size() > size) arr->PopBack();
  while (arr->Size() < size) arr->PushBack(rapidjson::Value(rapidjson::kObjectType), allocator_);
  for (auto& item : arr->GetArray())
    if (!item.IsObject()) item.SetObject();
  return arr;
}

rapidjson::Value JsonWriter::encode_leaf(const std::string& value) {
  return rapidjson::Value(value.c_str(), static_cast<rapidjson::SizeType>(value.size()), allocator_);
}

rapidjson::Value JsonWriter::encode_leaf(bool value) { return rapidjson::Value(value); }

rapidjson::Value JsonWriter::encode_leaf(int32_t value) { return rapidjson::Value(value); }

rapidjson::Value JsonWriter::encode_leaf(int64_t value) { return rapidjson::Value(value); }

rapidjson::Value JsonWriter::encode_leaf(const Quantity& value) { return encode_leaf(value.to_string()); }

rapidjson::Value JsonWriter::encode_leaf(const ResourceList& value) {
  rapidjson::Value obj(rapidjson::kObjectType);
  for (const auto& [name, quantity] : value) obj.AddMember(encode_leaf(name), encode_leaf(quantity), allocator_);
  return obj;
}

rapidjson::Value JsonWriter::encode_leaf(const Timestamp& value) { return encode_leaf(format_timestamp(value)); }

rapidjson::Value JsonWriter::encode_leaf(const std::chrono::nanoseconds& value) {
  return encode_leaf(format_go_duration(value));
}

rapidjson::Value JsonWriter::encode_leaf(const IntOrString& value) {
  return value.is_string ? encode_leaf(value.string_value) : rapidjson::Value(value.int_value);
}

rapidjson::Value JsonWriter::encode_requirements(const std::vector<LabelRequirement>& value) {
  rapidjson::Value arr(rapidjson::kArrayType);
  for (const auto& requirement : value) {
    rapidjson::Value item(rapidjson::kObjectType);
    item.AddMember("key", encode_leaf(requirement.key), allocator_);
    item.AddMember("operator", rapidjson::StringRef(operator_name(requirement.op)), allocator_);
    if (!requirement.values.empty()) {
      rapidjson::Value values(rapidjson::kArrayType);
      for (const auto& v : requirement.values) values.PushBack(encode_leaf(v), allocator_);
      item.AddMember("values", std::move(values), allocator_);
    }
    arr.PushBack(std::move(item), allocator_);
  }
  return arr;
}

rapidjson::Value JsonWriter::encode_leaf(const LabelSelector& value) {
  rapidjson::Value obj(rapidjson::kObjectType);
  if (value.matches_nothing()) return obj;
  rapidjson::Value labels(rapidjson::kObjectType);
  std::vector<LabelRequirement> expressions;
  for (const auto& requirement : value.requirements()) {
    if (requirement.op == LabelRequirement::Op::equals && requirement.values.size() == 1) {
      labels.AddMember(encode_leaf(requirement.key), encode_leaf(requirement.values.front()), allocator_);
    } else {
      expressions.push_back(requirement);
    }
  }
  if (!labels.ObjectEmpty()) obj.AddMember("matchLabels", std::move(labels), allocator_);
  if (!expressions.empty()) obj.AddMember("matchExpressions", encode_requirements(expressions), allocator_);
  return obj;
}

bool JsonWriter::same_selector(const rapidjson::Value& existing, const std::optional<LabelSelector>& value) {
  if (!value || value->matches_nothing()) return false;
  Result<LabelSelector> decoded = decode_label_selector(existing, "");
  return decoded.ok() && decoded->requirements() == value->requirements();
}

bool JsonWriter::same_requirements(const rapidjson::Value& existing, const std::vector<LabelRequirement>& value) {
  Result<std::vector<LabelRequirement>> decoded = decode_requirements(existing, "");
  return decoded.ok() && *decoded == value;
}

}  // namespace troupe
