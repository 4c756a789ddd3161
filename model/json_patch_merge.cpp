// application/merge-patch+json: RFC 7386 section 2, applied in place.
//
//   MergePatch(Target, Patch):
//     if Patch is an Object:
//       if Target is not an Object: Target = {}
//       for each Name/Value in Patch:
//         if Value is null: remove Name from Target
//         else: Target[Name] = MergePatch(Target[Name], Value)
//       return Target
//     else: return Patch
//
// At the top level the API server needs an object back (a Kubernetes object
// cannot become an array or a string), so a non-object patch is an error there
// rather than a replacement.

#include "model/json_patch.hpp"
#include "model/json_patch_internal.hpp"

namespace troupe {
namespace {

using json_patch_detail::key_ref;
using json_patch_detail::max_depth;
using json_patch_detail::name_of;

Status merge(rapidjson::Value& target, const rapidjson::Value& patch, JsonAllocator& allocator, int depth) {
  if (depth > max_depth) return Error{"the merge patch is nested more than 1000 levels deep"};
  if (!patch.IsObject()) {
    target.CopyFrom(patch, allocator);
    return Status::success();
  }
  if (!target.IsObject()) target.SetObject();
  for (const auto& member : patch.GetObject()) {
    std::string_view name = name_of(member.name);
    if (member.value.IsNull()) {
      json_patch_detail::erase_members(target, name);
      continue;
    }
    auto existing = target.FindMember(key_ref(name));
    if (existing != target.MemberEnd()) {
      if (Status merged = merge(existing->value, member.value, allocator, depth + 1); !merged.ok()) return merged;
      continue;
    }
    // Merging into null (not copying) drops the nulls of a nested object, as
    // the RFC's recursion does.
    rapidjson::Value added;
    if (Status merged = merge(added, member.value, allocator, depth + 1); !merged.ok()) return merged;
    json_patch_detail::set_member(target, name, added, allocator);
  }
  return Status::success();
}

}  // namespace

Status apply_merge_patch(rapidjson::Value& target, const rapidjson::Value& patch, JsonAllocator& allocator) {
  if (!patch.IsObject())
    return Error{std::string("a merge patch must be a JSON object, not ") + json_patch_detail::type_name(patch)};
  return merge(target, patch, allocator, 0);
}

}  // namespace troupe
