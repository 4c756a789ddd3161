// application/json-patch+json: RFC 6902 operations over RFC 6901 JSON
// pointers, applied in order; the first failing operation stops the patch.
//
// Bounds the API server also enforces (so no patch can exhaust memory or the
// stack): at most 10000 operations, a budget of copied JSON nodes (copy can
// double a document per operation), and the nesting limit of
// json_patch_internal.hpp.

#include <string>
#include <string_view>
#include <vector>

#include "model/json_patch.hpp"
#include "model/json_patch_internal.hpp"

namespace troupe {
namespace {

using json_patch_detail::key_ref;
using json_patch_detail::max_depth;
using json_patch_detail::name_of;
using json_patch_detail::type_name;

constexpr rapidjson::SizeType max_operations = 10000;
constexpr std::size_t max_copied_nodes = 1u << 20;

using Pointer = std::vector<std::string>;

/// RFC 6901: "" is the whole document; otherwise "/" separated tokens in which
/// "~1" means '/' and "~0" means '~'.
Result<Pointer> parse_pointer(std::string_view text) {
  Pointer tokens;
  if (text.empty()) return tokens;
  if (text.front() != '/') return Error{"a JSON pointer must be empty or start with '/'"};
  std::string token;
  for (std::size_t i = 1; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '/') {
      tokens.push_back(std::move(token));
      token.clear();
    } else if (text[i] == '~') {
      char next = i + 1 < text.size() ? text[i + 1] : '\0';
      if (next != '0' && next != '1') return Error{"'~' must be followed by '0' or '1' in a JSON pointer"};
      token += next == '0' ? '~' : '/';
      ++i;
    } else {
      token += text[i];
    }
  }
  return tokens;
}

/// An array index token: "0" or digits without a leading zero.
bool parse_index(const std::string& token, rapidjson::SizeType& index) {
  if (token.empty() || token.size() > 9) return false;
  if (token.size() > 1 && token.front() == '0') return false;
  rapidjson::SizeType value = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<rapidjson::SizeType>(c - '0');
  }
  index = value;
  return true;
}

/// The value at the first `count` tokens of `pointer`, or an error naming the
/// token that could not be followed.
Result<rapidjson::Value*> resolve(rapidjson::Value& root, const Pointer& pointer, std::size_t count) {
  rapidjson::Value* current = &root;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string& token = pointer[i];
    if (current->IsObject()) {
      auto member = current->FindMember(key_ref(token));
      if (member == current->MemberEnd()) return Error{"member \"" + token + "\" does not exist"};
      current = &member->value;
    } else if (current->IsArray()) {
      rapidjson::SizeType index = 0;
      if (!parse_index(token, index)) return Error{"\"" + token + "\" is not an array index"};
      if (index >= current->Size())
        return Error{"index " + token + " is out of range (the array has " + std::to_string(current->Size()) + " items)"};
      current = &(*current)[index];
    } else {
      return Error{std::string("cannot look up \"") + token + "\" in a " + type_name(*current)};
    }
  }
  return current;
}

void insert_at(rapidjson::Value& array, rapidjson::SizeType index, rapidjson::Value& value, JsonAllocator& allocator) {
  array.PushBack(value, allocator);
  for (rapidjson::SizeType i = array.Size() - 1; i > index; --i) array[i].Swap(array[i - 1]);
}

Status add(rapidjson::Value& root, const Pointer& path, rapidjson::Value& value, JsonAllocator& allocator) {
  if (path.empty()) {
    root = value;
    return Status::success();
  }
  Result<rapidjson::Value*> parent = resolve(root, path, path.size() - 1);
  if (!parent) return parent.error();
  rapidjson::Value& container = **parent;
  const std::string& last = path.back();
  if (container.IsObject()) {
    json_patch_detail::set_member(container, last, value, allocator);
    return Status::success();
  }
  if (!container.IsArray()) return Error{std::string("cannot add a member to a ") + type_name(container)};
  if (last == "-") {
    container.PushBack(value, allocator);
    return Status::success();
  }
  rapidjson::SizeType index = 0;
  if (!parse_index(last, index)) return Error{"\"" + last + "\" is not an array index"};
  if (index > container.Size())
    return Error{"index " + last + " is out of range (the array has " + std::to_string(container.Size()) + " items)"};
  insert_at(container, index, value, allocator);
  return Status::success();
}

/// Removes the value at `path`, handing it to `removed`.
Status remove(rapidjson::Value& root, const Pointer& path, rapidjson::Value& removed) {
  if (path.empty()) return Error{"cannot remove the whole document"};
  Result<rapidjson::Value*> parent = resolve(root, path, path.size() - 1);
  if (!parent) return parent.error();
  rapidjson::Value& container = **parent;
  const std::string& last = path.back();
  if (container.IsObject()) {
    auto member = container.FindMember(key_ref(last));
    if (member == container.MemberEnd()) return Error{"member \"" + last + "\" does not exist"};
    removed.Swap(member->value);
    container.EraseMember(member);
    return Status::success();
  }
  if (!container.IsArray()) return Error{std::string("cannot remove from a ") + type_name(container)};
  rapidjson::SizeType index = 0;
  if (!parse_index(last, index)) return Error{"\"" + last + "\" is not an array index"};
  if (index >= container.Size())
    return Error{"index " + last + " is out of range (the array has " + std::to_string(container.Size()) + " items)"};
  removed.Swap(container[index]);
  container.Erase(container.Begin() + index);
  return Status::success();
}

std::size_t count_nodes(const rapidjson::Value& value) {
  std::size_t nodes = 1;
  if (value.IsObject()) {
    for (const auto& member : value.GetObject()) nodes += count_nodes(member.value);
  } else if (value.IsArray()) {
    for (const auto& element : value.GetArray()) nodes += count_nodes(element);
  }
  return nodes;
}

/// One operation, decoded: its pointers parsed and its value located.
struct Operation {
  std::string op;
  std::string path_text;
  Pointer path;
  Pointer from;
  const rapidjson::Value* value = nullptr;
};

Result<std::string> string_member(const rapidjson::Value& object, const char* name) {
  auto member = object.FindMember(name);
  if (member == object.MemberEnd()) return Error{std::string("missing \"") + name + "\""};
  if (!member->value.IsString())
    return Error{std::string("\"") + name + "\" must be a string, not " + type_name(member->value)};
  return std::string(name_of(member->value));
}

Result<Operation> decode_operation(const rapidjson::Value& json) {
  if (!json.IsObject()) return Error{std::string("an operation must be an object, not ") + type_name(json)};
  Operation operation;
  Result<std::string> op = string_member(json, "op");
  if (!op) return op.error();
  operation.op = *op;
  if (operation.op != "add" && operation.op != "remove" && operation.op != "replace" && operation.op != "move" &&
      operation.op != "copy" && operation.op != "test")
    return Error{"unknown op \"" + operation.op + "\" (expected add, remove, replace, move, copy or test)"};
  Result<std::string> path = string_member(json, "path");
  if (!path) return path.error();
  operation.path_text = *path;
  Result<Pointer> pointer = parse_pointer(*path);
  if (!pointer) return Error{"invalid \"path\" \"" + *path + "\": " + pointer.message()};
  operation.path = std::move(*pointer);
  if (operation.op == "add" || operation.op == "replace" || operation.op == "test") {
    auto value = json.FindMember("value");
    if (value == json.MemberEnd()) return Error{"missing \"value\""};
    operation.value = &value->value;
  }
  if (operation.op == "move" || operation.op == "copy") {
    Result<std::string> from = string_member(json, "from");
    if (!from) return from.error();
    Result<Pointer> from_pointer = parse_pointer(*from);
    if (!from_pointer) return Error{"invalid \"from\" \"" + *from + "\": " + from_pointer.message()};
    operation.from = std::move(*from_pointer);
  }
  return operation;
}

bool is_proper_prefix(const Pointer& prefix, const Pointer& path) {
  if (prefix.size() >= path.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (prefix[i] != path[i]) return false;
  }
  return true;
}

class Applier {
 public:
  Applier(rapidjson::Value& root, JsonAllocator& allocator) : root_(root), allocator_(allocator) {}

  Status apply(const Operation& operation) {
    if (operation.op == "add") return add_copy_of(*operation.value, operation.path);
    if (operation.op == "remove") {
      rapidjson::Value removed;
      return remove(root_, operation.path, removed);
    }
    if (operation.op == "replace") return replace(operation);
    if (operation.op == "move") return move(operation);
    if (operation.op == "copy") return copy(operation);
    return test(operation);
  }

 private:
  Status check_depth(const rapidjson::Value& value, const Pointer& path) const {
    int budget = max_depth - static_cast<int>(path.size());
    if (budget < 0 || json_patch_detail::depth_of(value, budget) > budget)
      return Error{"the result would be nested more than 1000 levels deep"};
    return Status::success();
  }

  Status add_copy_of(const rapidjson::Value& source, const Pointer& path) {
    if (Status depth = check_depth(source, path); !depth.ok()) return depth;
    rapidjson::Value copy(source, allocator_);
    return add(root_, path, copy, allocator_);
  }

  Status replace(const Operation& operation) {
    Result<rapidjson::Value*> target = resolve(root_, operation.path, operation.path.size());
    if (!target) return target.error();
    if (Status depth = check_depth(*operation.value, operation.path); !depth.ok()) return depth;
    (*target)->CopyFrom(*operation.value, allocator_);
    return Status::success();
  }

  Status move(const Operation& operation) {
    if (is_proper_prefix(operation.from, operation.path))
      return Error{"cannot move a value into one of its own children"};
    Result<rapidjson::Value*> source = resolve(root_, operation.from, operation.from.size());
    if (!source) return Error{"\"from\": " + source.message()};
    if (operation.from == operation.path) return Status::success();
    if (operation.path.size() > operation.from.size()) {
      if (Status depth = check_depth(**source, operation.path); !depth.ok()) return depth;
    }
    rapidjson::Value moved;
    if (Status removed = remove(root_, operation.from, moved); !removed.ok()) return removed;
    return add(root_, operation.path, moved, allocator_);
  }

  Status copy(const Operation& operation) {
    Result<rapidjson::Value*> source = resolve(root_, operation.from, operation.from.size());
    if (!source) return Error{"\"from\": " + source.message()};
    if (Status depth = check_depth(**source, operation.path); !depth.ok()) return depth;
    copied_nodes_ += count_nodes(**source);
    if (copied_nodes_ > max_copied_nodes)
      return Error{"the copy operations would copy more than " + std::to_string(max_copied_nodes) + " JSON values"};
    rapidjson::Value copy(**source, allocator_);
    return add(root_, operation.path, copy, allocator_);
  }

  Status test(const Operation& operation) {
    Result<rapidjson::Value*> target = resolve(root_, operation.path, operation.path.size());
    if (!target) return target.error();
    if (**target == *operation.value) return Status::success();
    return Error{"test failed: the value is " + json_patch_detail::short_json(**target) + ", not " +
                 json_patch_detail::short_json(*operation.value)};
  }

  rapidjson::Value& root_;
  JsonAllocator& allocator_;
  std::size_t copied_nodes_ = 0;
};

}  // namespace

Status apply_json_patch(rapidjson::Value& target, const rapidjson::Value& patch, JsonAllocator& allocator) {
  if (!patch.IsArray())
    return Error{std::string("a JSON patch must be an array of operations, not ") + type_name(patch)};
  if (patch.Size() > max_operations)
    return Error{"the allowed maximum operations in a JSON patch is " + std::to_string(max_operations) + ", got " +
                 std::to_string(patch.Size())};
  Applier applier(target, allocator);
  for (rapidjson::SizeType i = 0; i < patch.Size(); ++i) {
    std::string where = "JSON patch operation " + std::to_string(i);
    Result<Operation> operation = decode_operation(patch[i]);
    if (!operation) return Error{where + ": " + operation.message()};
    where += " (" + operation->op + " \"" + operation->path_text + "\")";
    if (Status applied = applier.apply(*operation); !applied.ok()) return Error{where + ": " + applied.message()};
  }
  return Status::success();
}

}  // namespace troupe
