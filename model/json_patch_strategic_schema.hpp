#pragma once
// The patch strategies of the built-in kinds' fields (the `patchStrategy` and
// `patchMergeKey` struct tags of k8s.io/api), keyed by dotted field path.
// A list's elements share the list's path: "spec.containers.env" is the env
// list of any container. Internal to the strategic merge patch.

#include <string>
#include <string_view>
#include <unordered_map>

namespace troupe::strategic_patch_detail {

struct FieldRule {
  enum class Strategy {
    merge_by_key,     // list of objects merged by `merge_key`
    merge_primitive,  // list of scalars merged as a set (finalizers)
    replace_object,   // object replaced whole instead of merged
  };
  Strategy strategy = Strategy::merge_by_key;
  std::string merge_key;
};

class PatchSchema {
 public:
  /// The rule for the field at `path`, or nullptr for the default (objects
  /// merge, lists are replaced).
  const FieldRule* find(const std::string& path) const {
    auto rule = rules_.find(path);
    return rule == rules_.end() ? nullptr : &rule->second;
  }
  void merge_by(const std::string& path, std::string key) {
    rules_[path] = {FieldRule::Strategy::merge_by_key, std::move(key)};
  }
  void merge_primitives(const std::string& path) { rules_[path] = {FieldRule::Strategy::merge_primitive, {}}; }
  void replace_object(const std::string& path) { rules_[path] = {FieldRule::Strategy::replace_object, {}}; }

 private:
  std::unordered_map<std::string, FieldRule> rules_;
};

/// The schema of a built-in kind ("Pod", "Node", "Deployment", ...), or nullptr
/// for kinds without one (custom resources).
const PatchSchema* schema_for_kind(std::string_view kind);

}  // namespace troupe::strategic_patch_detail
