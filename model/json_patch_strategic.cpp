// application/strategic-merge-patch+json, as the API server applies it
// (apimachinery pkg/util/strategicpatch/patch.go, StrategicMergeMapPatch):
//
// - objects merge key by key; null deletes; `$patch: replace` replaces the
//   object, `$patch: delete` empties it;
// - `$retainKeys: [...]` drops the object's other keys;
// - lists with a merge key (see json_patch_strategic_schema.cpp) merge element
//   by element; `{$patch: delete, <key>: v}` removes an element, an element
//   `{$patch: replace}` replaces the list; lists of scalars with the merge
//   strategy (finalizers) merge as sets, and `$deleteFromPrimitiveList/<list>`
//   removes values from them; all other lists are replaced;
// - merged lists are ordered as upstream orders them: patch items in patch
//   order, interleaved with the server-only items by their original position
//   (new items come first), then `$setElementOrder/<list>` imposes its order.
//
// Where upstream would panic or produce garbage (null list items, a deletion
// list for a missing list, directives inside values that replace), this keeps
// to the evident intent or reports an error; directives never reach the result.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "model/json_patch.hpp"
#include "model/json_patch_internal.hpp"
#include "model/json_patch_strategic_schema.hpp"

namespace troupe {
namespace {

using json_patch_detail::key_ref;
using json_patch_detail::max_depth;
using json_patch_detail::name_of;
using json_patch_detail::short_json;
using strategic_patch_detail::FieldRule;
using strategic_patch_detail::PatchSchema;
using rapidjson::Value;

constexpr std::string_view directive_marker = "$patch";
constexpr std::string_view retain_keys_directive = "$retainKeys";
constexpr std::string_view set_element_order_prefix = "$setElementOrder";
constexpr std::string_view delete_from_primitive_list_prefix = "$deleteFromPrimitiveList";

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool is_directive_key(std::string_view name) {
  return name == directive_marker || name == retain_keys_directive || starts_with(name, set_element_order_prefix) ||
         starts_with(name, delete_from_primitive_list_prefix);
}

/// "$setElementOrder/containers" -> "containers"; empty when malformed.
std::string_view directive_target(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() + 1 || name[prefix.size()] != '/') return {};
  return name.substr(prefix.size() + 1);
}

std::string child_path(const std::string& path, std::string_view name) {
  return path.empty() ? std::string(name) : path + "." + std::string(name);
}

/// Where an error happened, for messages: the dotted field path.
std::string at(const std::string& path) { return path.empty() ? "the object" : path; }

bool is_merge_list(const FieldRule* rule) {
  return rule != nullptr && (rule->strategy == FieldRule::Strategy::merge_by_key ||
                             rule->strategy == FieldRule::Strategy::merge_primitive);
}

/// How list elements compare for ordering: by their merge key, or as a whole.
const Value* identity_of(const Value& item, std::string_view merge_key) {
  if (merge_key.empty()) return &item;
  if (!item.IsObject()) return nullptr;
  auto key = item.FindMember(key_ref(merge_key));
  return key == item.MemberEnd() ? nullptr : &key->value;
}

template <class Identities>
long index_of(const Identities& identities, const Value* identity) {
  if (identity == nullptr) return -1;
  for (std::size_t i = 0; i < identities.size(); ++i) {
    const Value& candidate = identities[i];
    if (candidate == *identity) return static_cast<long>(i);
  }
  return -1;
}

/// A list's element identities, copied so they survive the list being merged.
class ServerOrder {
 public:
  ServerOrder(const Value* list, std::string_view merge_key) {
    if (list == nullptr || !list->IsArray()) return;
    for (const auto& item : list->GetArray()) {
      const Value* identity = identity_of(item, merge_key);
      identities_.emplace_back();
      if (identity != nullptr) identities_.back().CopyFrom(*identity, scratch_);
    }
  }
  long index_of(const Value* identity) const { return troupe::index_of(identities_, identity); }

 private:
  rapidjson::MemoryPoolAllocator<> scratch_;
  std::vector<Value> identities_;
};

/// The identities a list is to be ordered by (the patch list, or a
/// $setElementOrder list), pointing into the patch.
class PatchOrder {
 public:
  void add(const Value* identity) { identities_.push_back(identity); }
  long index_of(const Value* identity) const {
    if (identity == nullptr) return -1;
    for (std::size_t i = 0; i < identities_.size(); ++i) {
      if (identities_[i] != nullptr && *identities_[i] == *identity) return static_cast<long>(i);
    }
    return -1;
  }

 private:
  std::vector<const Value*> identities_;
};

/// upstream normalizeElementOrder + mergeSortedSlice: items named by `order`
/// sorted into that order, the others kept in their order, and the two
/// interleaved by their position in the server's list.
void reorder(Value& list, const PatchOrder& order, const ServerOrder& server, std::string_view merge_key,
             JsonAllocator& allocator) {
  struct Entry {
    std::size_t position;
    long order_index;
    long server_index;
  };
  std::vector<Value> items;
  items.reserve(list.Size());
  for (auto& item : list.GetArray()) items.emplace_back(std::move(item));
  std::vector<Entry> in_order, server_only;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Value* identity = identity_of(items[i], merge_key);
    Entry entry{i, order.index_of(identity), server.index_of(identity)};
    (entry.order_index >= 0 ? in_order : server_only).push_back(entry);
  }
  std::stable_sort(in_order.begin(), in_order.end(),
                   [](const Entry& a, const Entry& b) { return a.order_index < b.order_index; });
  list.Clear();
  std::size_t left = 0, right = 0;
  while (left < server_only.size() || right < in_order.size()) {
    bool take_left = right == in_order.size() ||
                     (left < server_only.size() && server_only[left].server_index >= 0 &&
                      in_order[right].server_index >= 0 &&
                      server_only[left].server_index < in_order[right].server_index);
    const Entry& entry = take_left ? server_only[left++] : in_order[right++];
    list.PushBack(items[entry.position], allocator);
  }
}

bool contains(const Value& list, const Value& value) {
  for (const auto& item : list.GetArray()) {
    if (item == value) return true;
  }
  return false;
}

/// Keeps the items of `list` for which `keep` holds, in order.
template <class Predicate>
void filter_list(Value& list, Predicate keep) {
  auto out = list.Begin();
  for (auto item = list.Begin(); item != list.End(); ++item) {
    if (keep(*item)) {
      if (out != item) out->Swap(*item);
      ++out;
    }
  }
  while (list.End() != out) list.PopBack();
}

/// All items of a list to merge must be of one JSON type, and not lists.
enum class ItemKind { none, object, scalar_string, scalar_number, scalar_bool, scalar_null };

ItemKind kind_of(const Value& item) {
  if (item.IsObject()) return ItemKind::object;
  if (item.IsString()) return ItemKind::scalar_string;
  if (item.IsNumber()) return ItemKind::scalar_number;
  if (item.IsBool()) return ItemKind::scalar_bool;
  return ItemKind::scalar_null;
}

Result<ItemKind> common_item_kind(const Value& original, const Value& patch, const std::string& path) {
  ItemKind kind = ItemKind::none;
  for (const Value* list : {&original, &patch}) {
    for (const auto& item : list->GetArray()) {
      if (item.IsArray()) return Error{at(path) + ": lists of lists are not supported"};
      ItemKind item_kind = kind_of(item);
      if (kind != ItemKind::none && item_kind != kind)
        return Error{at(path) + ": list element types are not identical: " + short_json(patch)};
      kind = item_kind;
    }
  }
  return kind;
}

class StrategicMerger {
 public:
  StrategicMerger(const PatchSchema& schema, JsonAllocator& allocator) : schema_(schema), allocator_(allocator) {}

  Status merge_object(Value& original, const Value& patch, const std::string& path, int depth) {
    if (depth > max_depth) return too_deep();
    if (!original.IsObject()) original.SetObject();
    auto marker = patch.FindMember(key_ref(directive_marker));
    if (marker == patch.MemberEnd()) return merge_fields(original, patch, path, depth);
    std::string_view directive = marker->value.IsString() ? name_of(marker->value) : std::string_view();
    if (directive == "replace") {
      original.SetObject();
      return merge_fields(original, patch, path, depth);
    }
    if (directive == "delete") {
      original.SetObject();
      return Status::success();
    }
    return Error{at(path) + ": unknown patch type " + short_json(marker->value) + " in map: " + short_json(patch)};
  }

 private:
  static Status too_deep() { return Error{"the strategic merge patch is nested more than 1000 levels deep"}; }

  Status merge_fields(Value& original, const Value& patch, const std::string& path, int depth) {
    if (Status retained = apply_retain_keys(original, patch, path); !retained.ok()) return retained;
    std::vector<std::string_view> ordered_lists;
    if (Status ordered = apply_set_element_orders(original, patch, path, depth, ordered_lists); !ordered.ok())
      return ordered;
    for (const auto& member : patch.GetObject()) {
      std::string_view name = name_of(member.name);
      if (is_directive_key(name)) continue;
      if (std::find(ordered_lists.begin(), ordered_lists.end(), name) != ordered_lists.end()) continue;
      if (Status merged = merge_field(original, name, member.value, child_path(path, name), depth); !merged.ok())
        return merged;
    }
    return apply_deletion_lists(original, patch, path);
  }

  Status merge_field(Value& original, std::string_view name, const Value& patch_value, const std::string& path,
                     int depth) {
    if (patch_value.IsNull()) {
      json_patch_detail::erase_members(original, name);
      return Status::success();
    }
    const FieldRule* rule = schema_.find(path);
    auto existing = original.FindMember(key_ref(name));
    if (existing == original.MemberEnd() || existing->value.IsNull()) {
      Value fresh;
      if (Status made = fresh_value(fresh, patch_value, rule, path, depth + 1); !made.ok()) return made;
      json_patch_detail::set_member(original, name, fresh, allocator_);
      return Status::success();
    }
    Value& current = existing->value;
    bool replace_object = rule != nullptr && rule->strategy == FieldRule::Strategy::replace_object;
    if (current.IsObject() && patch_value.IsObject() && !replace_object)
      return merge_object(current, patch_value, path, depth + 1);
    if (current.IsArray() && patch_value.IsArray() && is_merge_list(rule))
      return merge_list(current, patch_value, *rule, path, depth + 1);
    return clean_copy(current, patch_value, depth + 1);
  }

  /// The value for a field the original lacks: the patch value merged into
  /// nothing, so that its directives take effect and never get stored.
  Status fresh_value(Value& out, const Value& patch_value, const FieldRule* rule, const std::string& path, int depth) {
    bool replace_object = rule != nullptr && rule->strategy == FieldRule::Strategy::replace_object;
    if (patch_value.IsObject() && !replace_object) return merge_object(out, patch_value, path, depth);
    if (patch_value.IsArray() && is_merge_list(rule)) {
      out.SetArray();
      return merge_list(out, patch_value, *rule, path, depth);
    }
    return clean_copy(out, patch_value, depth);
  }

  /// A deep copy without directive keys, for values that replace.
  Status clean_copy(Value& out, const Value& in, int depth) {
    if (depth > max_depth) return too_deep();
    if (in.IsObject()) {
      out.SetObject();
      for (const auto& member : in.GetObject()) {
        if (is_directive_key(name_of(member.name))) continue;
        Value copy;
        if (Status copied = clean_copy(copy, member.value, depth + 1); !copied.ok()) return copied;
        Value key(member.name, allocator_);
        out.AddMember(key, copy, allocator_);
      }
    } else if (in.IsArray()) {
      out.SetArray();
      out.Reserve(in.Size(), allocator_);
      for (const auto& item : in.GetArray()) {
        Value copy;
        if (Status copied = clean_copy(copy, item, depth + 1); !copied.ok()) return copied;
        out.PushBack(copy, allocator_);
      }
    } else {
      out.CopyFrom(in, allocator_);
    }
    return Status::success();
  }

  Status apply_retain_keys(Value& original, const Value& patch, const std::string& path) {
    auto directive = patch.FindMember(key_ref(retain_keys_directive));
    if (directive == patch.MemberEnd()) return Status::success();
    if (!directive->value.IsArray()) return Error{at(path) + ": invalid patch format of retainKeys"};
    const Value& retained = directive->value;
    auto is_retained = [&](const Value& name) { return contains(retained, name); };
    for (const auto& member : patch.GetObject()) {
      if (member.value.IsNull() || is_directive_key(name_of(member.name))) continue;
      if (!is_retained(member.name))
        return Error{at(path) + ": invalid patch format of retainKeys: \"" + std::string(name_of(member.name)) +
                     "\" is in the patch but not in $retainKeys"};
    }
    for (auto member = original.MemberBegin(); member != original.MemberEnd();) {
      member = is_retained(member->name) ? member + 1 : original.EraseMember(member);
    }
    return Status::success();
  }

  Status apply_set_element_orders(Value& original, const Value& patch, const std::string& path, int depth,
                                  std::vector<std::string_view>& ordered_lists) {
    for (const auto& member : patch.GetObject()) {
      std::string_view name = name_of(member.name);
      if (!starts_with(name, set_element_order_prefix)) continue;
      std::string_view list_name = directive_target(name, set_element_order_prefix);
      if (list_name.empty() || !member.value.IsArray())
        return Error{at(path) + ": invalid patch format of setElementOrder list: " + std::string(name)};
      if (Status ordered = merge_ordered_list(original, patch, list_name, member.value, path, depth); !ordered.ok())
        return ordered;
      ordered_lists.push_back(list_name);
    }
    return Status::success();
  }

  /// One `$setElementOrder/<list>`: merge the list (if the patch has it), then
  /// impose the directive's order.
  Status merge_ordered_list(Value& original, const Value& patch, std::string_view list_name, const Value& order_list,
                            const std::string& path, int depth) {
    std::string list_path = child_path(path, list_name);
    const FieldRule* rule = schema_.find(list_path);
    auto patch_list = patch.FindMember(key_ref(list_name));
    bool in_patch = patch_list != patch.MemberEnd();
    if (in_patch && !patch_list->value.IsArray())
      return Error{list_path + ": must be a list, not " + json_patch_detail::type_name(patch_list->value)};
    auto existing = original.FindMember(key_ref(list_name));
    bool in_original = existing != original.MemberEnd() && existing->value.IsArray();
    if (!in_original && !in_patch) return Status::success();

    std::string merge_key =
        rule != nullptr && rule->strategy == FieldRule::Strategy::merge_by_key ? rule->merge_key : std::string();
    ServerOrder server(in_original ? &existing->value : nullptr, merge_key);
    if (in_patch) {
      if (Status merged = merge_field(original, list_name, patch_list->value, list_path, depth); !merged.ok())
        return merged;
    }
    Value& list = original.FindMember(key_ref(list_name))->value;
    if (!list.IsArray()) return Status::success();
    PatchOrder order;
    for (const auto& item : order_list.GetArray()) {
      if (merge_key.empty()) {
        order.add(&item);
        continue;
      }
      const Value* identity = identity_of(item, merge_key);
      if (identity == nullptr)
        return Error{list_path + ": $setElementOrder item " + short_json(item) + " does not contain the merge key \"" +
                     merge_key + "\""};
      order.add(identity);
    }
    // Objects without a merge key have no identity to order by.
    if (merge_key.empty() && std::any_of(list.Begin(), list.End(), [](const Value& v) { return v.IsObject(); }))
      return Status::success();
    reorder(list, order, server, merge_key, allocator_);
    return Status::success();
  }

  Status apply_deletion_lists(Value& original, const Value& patch, const std::string& path) {
    for (const auto& member : patch.GetObject()) {
      std::string_view name = name_of(member.name);
      if (!starts_with(name, delete_from_primitive_list_prefix)) continue;
      std::string_view list_name = directive_target(name, delete_from_primitive_list_prefix);
      if (list_name.empty() || !member.value.IsArray())
        return Error{at(path) + ": invalid patch format of primitive list: " + std::string(name)};
      auto existing = original.FindMember(key_ref(list_name));
      if (existing == original.MemberEnd() || !existing->value.IsArray()) continue;
      const Value& doomed = member.value;
      filter_list(existing->value, [&](const Value& item) { return !contains(doomed, item); });
    }
    return Status::success();
  }

  Status merge_list(Value& original, const Value& patch, const FieldRule& rule, const std::string& path, int depth) {
    if (depth > max_depth) return too_deep();
    if (original.Empty() && patch.Empty()) return Status::success();
    Result<ItemKind> kind = common_item_kind(original, patch, path);
    if (!kind) return kind.error();
    if (*kind != ItemKind::object) {
      merge_scalar_list(original, patch);
      return Status::success();
    }
    if (rule.strategy != FieldRule::Strategy::merge_by_key)
      return Error{at(path) + ": cannot merge lists of objects without a merge key"};
    return merge_object_list(original, patch, rule.merge_key, path, depth);
  }

  /// A set union keeping the first occurrence of each value.
  void merge_scalar_list(Value& original, const Value& patch) {
    ServerOrder server(&original, "");
    Value merged(rapidjson::kArrayType);
    const Value& original_items = original;
    for (const Value* list : {&original_items, &patch}) {
      for (const auto& item : list->GetArray()) {
        if (contains(merged, item)) continue;
        Value copy(item, allocator_);
        merged.PushBack(copy, allocator_);
      }
    }
    original = merged;
    PatchOrder order;
    for (const auto& item : patch.GetArray()) order.add(&item);
    reorder(original, order, server, "", allocator_);
  }

  Status merge_object_list(Value& original, const Value& patch, const std::string& merge_key, const std::string& path,
                           int depth) {
    std::vector<const Value*> regular;
    bool replace = false;
    for (const auto& item : patch.GetArray()) {
      auto marker = item.FindMember(key_ref(directive_marker));
      if (marker == item.MemberEnd()) {
        regular.push_back(&item);
        continue;
      }
      std::string_view directive = marker->value.IsString() ? name_of(marker->value) : std::string_view();
      if (directive == "delete") {
        const Value* doomed = identity_of(item, merge_key);
        if (doomed == nullptr) return missing_merge_key(item, merge_key, path);
        filter_list(original, [&](const Value& existing) {
          const Value* identity = identity_of(existing, merge_key);
          return identity == nullptr || !(*identity == *doomed);
        });
      } else if (directive == "replace") {
        replace = true;
      } else if (directive == "merge") {
        return Error{at(path) + ": merging lists cannot yet be specified in the patch"};
      } else {
        return Error{at(path) + ": unknown patch type " + short_json(marker->value) + " in map: " + short_json(item)};
      }
    }
    if (replace) return replace_list(original, regular, depth);

    for (const auto& item : original.GetArray()) {
      if (identity_of(item, merge_key) == nullptr) return missing_merge_key(item, merge_key, path);
    }
    ServerOrder server(&original, merge_key);
    PatchOrder order;
    for (const Value* item : regular) {
      const Value* identity = identity_of(*item, merge_key);
      if (identity == nullptr) return missing_merge_key(*item, merge_key, path);
      order.add(identity);
      if (Status merged = merge_list_item(original, *item, *identity, merge_key, path, depth); !merged.ok())
        return merged;
    }
    reorder(original, order, server, merge_key, allocator_);
    return Status::success();
  }

  /// Merges one patch item into the original item with the same merge key
  /// value, or appends it.
  Status merge_list_item(Value& original, const Value& item, const Value& identity, const std::string& merge_key,
                         const std::string& path, int depth) {
    for (auto& existing : original.GetArray()) {
      const Value* existing_identity = identity_of(existing, merge_key);
      if (existing_identity != nullptr && *existing_identity == identity)
        return merge_object(existing, item, path, depth + 1);
    }
    Value fresh(rapidjson::kObjectType);
    if (Status made = merge_object(fresh, item, path, depth + 1); !made.ok()) return made;
    original.PushBack(fresh, allocator_);
    return Status::success();
  }

  Status replace_list(Value& original, const std::vector<const Value*>& items, int depth) {
    Value replacement(rapidjson::kArrayType);
    for (const Value* item : items) {
      Value copy;
      if (Status copied = clean_copy(copy, *item, depth + 1); !copied.ok()) return copied;
      replacement.PushBack(copy, allocator_);
    }
    original = replacement;
    return Status::success();
  }

  static Status missing_merge_key(const Value& item, const std::string& merge_key, const std::string& path) {
    return Error{at(path) + ": list item " + short_json(item) + " does not contain declared merge key: " + merge_key};
  }

  const PatchSchema& schema_;
  JsonAllocator& allocator_;
};

}  // namespace

bool supports_strategic_merge_patch(std::string_view kind) {
  return strategic_patch_detail::schema_for_kind(kind) != nullptr;
}

Status apply_strategic_merge_patch(rapidjson::Value& target, const rapidjson::Value& patch, std::string_view kind,
                                   JsonAllocator& allocator) {
  const PatchSchema* schema = strategic_patch_detail::schema_for_kind(kind);
  if (schema == nullptr)
    return Error{"strategic merge patch is not supported for kind \"" + std::string(kind) +
                 "\"; use application/merge-patch+json or application/json-patch+json"};
  if (!patch.IsObject())
    return Error{std::string("a strategic merge patch must be a JSON object, not ") +
                 json_patch_detail::type_name(patch)};
  if (!target.IsObject()) target.SetObject();
  return StrategicMerger(*schema, allocator).merge_object(target, patch, "", 0);
}

}  // namespace troupe
