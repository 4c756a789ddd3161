// Bounded random-input test of the three patch algorithms: seeded, so every
// run sees the same 20000 target/patch pairs (pod-shaped documents full of
// merge keys and directives, random JSON patch operations, and byte-mangled
// patch text). It asserts that nothing crashes (run it under ASan/UBSan with
// -DTROUPE_SANITIZE=ON), that failures carry a message, and a few properties
// that hold for every input:
//   - merge patch is idempotent (RFC 7386);
//   - a strategic merge patch never leaves a directive in the object;
//   - after a successful JSON patch "add" of v at p, "test" of v at p succeeds.

#include <catch2/catch.hpp>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "model/json_patch.hpp"

namespace {

using rapidjson::Value;
using Allocator = rapidjson::Document::AllocatorType;

/// Keys likely at a given path, so that random documents reach the schema's
/// merge lists ("spec.containers.env") and directives often.
const std::map<std::string, std::vector<std::string>>& likely_keys() {
  static const std::map<std::string, std::vector<std::string>> keys = {
      {"", {"metadata", "spec", "status", "kind", "series"}},
      {"metadata", {"labels", "finalizers", "ownerReferences", "name", "annotations"}},
      {"spec", {"containers", "initContainers", "volumes", "tolerations", "nodeName", "nodeSelector", "podCIDRs",
                "taints", "selector", "template"}},
      {"spec.template", {"spec", "metadata"}},
      {"spec.containers", {"name", "image", "env", "ports", "volumeMounts", "args"}},
      {"spec.initContainers", {"name", "image", "env", "ports"}},
      {"spec.containers.env", {"name", "value", "valueFrom"}},
      {"spec.containers.ports", {"containerPort", "name", "protocol"}},
      {"spec.volumes", {"name", "emptyDir", "hostPath", "$retainKeys"}},
      {"status", {"conditions", "addresses", "phase", "nominatedNodeName"}},
      {"status.conditions", {"type", "status", "reason", "message", "lastProbeTime"}},
      {"metadata.ownerReferences", {"uid", "name", "controller"}},
  };
  return keys;
}

const std::vector<std::string>& any_keys() {
  static const std::vector<std::string> keys = {
      "a", "b", "name", "type", "uid", "containerPort", "mountPath", "value", "x/y", "~t", "",
      "$patch", "$retainKeys", "$setElementOrder/containers", "$setElementOrder/conditions", "$setElementOrder",
      "$deleteFromPrimitiveList/finalizers", "$deleteFromPrimitiveList/podCIDRs", "$deleteFromPrimitiveList",
      "$setElementOrder/finalizers", "finalizers", "conditions", "containers", "env"};
  return keys;
}

const std::vector<std::string>& any_strings() {
  static const std::vector<std::string> strings = {"replace", "delete", "merge", "a", "b", "c", "Ready",
                                                   "PodScheduled", "", "x/y", "name", "type", "containers"};
  return strings;
}

const char* const merge_keys[] = {"name", "type", "uid", "containerPort", "mountPath"};

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <class T>
  const T& one_of(const std::vector<T>& items) { return items[static_cast<std::size_t>(below(static_cast<int>(items.size())))]; }

  /// A random JSON value for the field at `path` (dotted, lists keep their
  /// path), at most `depth` levels deep.
  void value(Value& out, Allocator& a, const std::string& path, int depth) {
    if (depth <= 0) return scalar(out, a);
    int kind = below(10);
    if (kind < 4) return object(out, a, path, depth);
    if (kind < 6) return list(out, a, path, depth);
    scalar(out, a);
  }

  void object(Value& out, Allocator& a, const std::string& path, int depth) {
    out.SetObject();
    int members = depth <= 0 ? 0 : below(5);
    for (int i = 0; i < members; ++i) {
      std::string key = pick_key(path);
      // Unique keys: RapidJSON's == (used to compare results) is not even
      // reflexive on objects that repeat a key.
      if (out.HasMember(key.c_str())) continue;
      Value child;
      std::string child_path = key.empty() || key[0] == '$' ? path : (path.empty() ? key : path + "." + key);
      if (!key.empty() && key[0] == '$') directive_value(child, a, key, depth);
      else value(child, a, child_path, depth - 1);
      out.AddMember(Value(key.c_str(), a), child, a);
    }
  }

  void list(Value& out, Allocator& a, const std::string& path, int depth) {
    out.SetArray();
    int items = depth <= 0 ? 0 : below(5);
    bool of_objects = chance(0.7);
    const char* key = merge_keys[below(5)];
    for (int i = 0; i < items; ++i) {
      Value item;
      if (of_objects && chance(0.95)) {
        object(item, a, path, depth - 1);
        if (chance(0.85)) keyed(item, a, key);
        if (directives_ && chance(0.1) && !item.HasMember("$patch")) item.AddMember("$patch", Value(one_of(any_strings()).c_str(), a), a);
      } else {
        scalar(item, a);
      }
      out.PushBack(item, a);
    }
  }

  void scalar(Value& out, Allocator& a) {
    switch (below(6)) {
      case 0: out.SetNull(); break;
      case 1: out.SetBool(chance(0.5)); break;
      case 2: out.SetInt(below(5)); break;
      case 3: out.SetDouble(below(5) + 0.5); break;
      default: out.SetString(one_of(any_strings()).c_str(), a); break;
    }
  }

  /// Gives an object a merge key from a small set, so list items match.
  void keyed(Value& item, Allocator& a, const char* key) {
    Value v;
    if (chance(0.8)) v.SetString(one_of(any_strings()).c_str(), a);
    else v.SetInt(below(3));
    auto existing = item.FindMember(key);
    if (existing != item.MemberEnd()) existing->value = v;
    else item.AddMember(Value(key, a), v, a);
  }

  void directive_value(Value& out, Allocator& a, const std::string& key, int depth) {
    if (chance(0.15)) return value(out, a, "", depth - 1);  // malformed on purpose
    if (key == "$patch") {
      out.SetString(one_of(any_strings()).c_str(), a);
    } else if (key.rfind("$setElementOrder", 0) == 0) {
      out.SetArray();
      int items = below(4);
      for (int i = 0; i < items; ++i) {
        Value item(rapidjson::kObjectType);
        keyed(item, a, merge_keys[below(5)]);
        if (chance(0.3)) item.SetString(one_of(any_strings()).c_str(), a);
        out.PushBack(item, a);
      }
    } else {
      out.SetArray();
      int items = below(4);
      for (int i = 0; i < items; ++i) out.PushBack(Value(one_of(any_strings()).c_str(), a), a);
    }
  }

  std::string pick_key(const std::string& path) {
    auto likely = likely_keys().find(path);
    while (true) {
      std::string key = likely != likely_keys().end() && chance(0.75) ? one_of(likely->second) : one_of(any_keys());
      if (directives_ || key.empty() || key[0] != '$') return key;
    }
  }

  /// Stored objects hold no directives; patches do.
  void set_directives(bool allowed) { directives_ = allowed; }

  /// Replaces, inserts or deletes a few bytes.
  std::string mangle(std::string text) {
    static const std::string alphabet = "{}[],:\"\\0123456789.-+eEtrufalsn $/~ab";
    int edits = 1 + below(4);
    for (int i = 0; i < edits && !text.empty(); ++i) {
      std::size_t at = static_cast<std::size_t>(below(static_cast<int>(text.size())));
      char c = alphabet[static_cast<std::size_t>(below(static_cast<int>(alphabet.size())))];
      switch (below(3)) {
        case 0: text[at] = c; break;
        case 1: text.insert(at, 1, c); break;
        default: text.erase(at, 1); break;
      }
    }
    return text;
  }

 private:
  std::mt19937 rng_;
  bool directives_ = true;
};

std::string to_json(const Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return buffer.GetString();
}

bool has_directive(const Value& value) {
  if (value.IsObject()) {
    for (const auto& member : value.GetObject()) {
      std::string name(member.name.GetString(), member.name.GetStringLength());
      if (name == "$patch" || name == "$retainKeys" || name.rfind("$setElementOrder", 0) == 0 ||
          name.rfind("$deleteFromPrimitiveList", 0) == 0)
        return true;
      if (has_directive(member.value)) return true;
    }
  } else if (value.IsArray()) {
    for (const auto& item : value.GetArray()) {
      if (has_directive(item)) return true;
    }
  }
  return false;
}

/// Every JSON pointer of `value`, with ~ and / escaped.
void pointers(const Value& value, const std::string& prefix, std::vector<std::string>& out) {
  out.push_back(prefix);
  if (value.IsObject()) {
    for (const auto& member : value.GetObject()) {
      std::string token;
      for (char c : std::string(member.name.GetString(), member.name.GetStringLength())) {
        if (c == '~') token += "~0";
        else if (c == '/') token += "~1";
        else token += c;
      }
      pointers(member.value, prefix + "/" + token, out);
    }
  } else if (value.IsArray()) {
    for (rapidjson::SizeType i = 0; i < value.Size(); ++i) pointers(value[i], prefix + "/" + std::to_string(i), out);
  }
}

struct Outcomes {
  int ok = 0;
  int failed = 0;
  int unparseable = 0;
  void record(const troupe::Status& status) {
    if (status.ok()) {
      ++ok;
      return;
    }
    ++failed;
    if (status.message().empty()) FAIL("a failed patch must say why");
  }
};

uint32_t seed() {
  const char* text = std::getenv("TROUPE_FUZZ_SEED");
  return text != nullptr ? static_cast<uint32_t>(std::strtoul(text, nullptr, 10)) : 20240611u;
}

constexpr int rounds = 5000;  // four patches per round: 20000 in all

}  // namespace

TEST_CASE("patch fuzz: random documents and patches never crash", "[json_patch][fuzz]") {
  Generator gen(seed());
  const char* kinds[] = {"Pod", "Node", "Deployment", "Event"};
  Outcomes merge, strategic, json, mangled;
  for (int round = 0; round < rounds; ++round) {
    rapidjson::Document original;
    gen.set_directives(false);
    gen.object(original, original.GetAllocator(), "", 5);
    gen.set_directives(true);
    rapidjson::Document patch;
    if (gen.chance(0.9)) gen.object(patch, patch.GetAllocator(), "", 5);
    else gen.value(patch, patch.GetAllocator(), "", 3);

    // Merge patch, applied twice: the second application must change nothing.
    {
      rapidjson::Document target;
      target.CopyFrom(original, target.GetAllocator());
      troupe::Status status = troupe::apply_merge_patch(target, patch, target.GetAllocator());
      merge.record(status);
      if (status.ok()) {
        rapidjson::Document once;
        once.CopyFrom(target, once.GetAllocator());
        REQUIRE(troupe::apply_merge_patch(target, patch, target.GetAllocator()).ok());
        // Compared as JSON values: member order may differ when the patch
        // names a member twice.
        if (!(target == once)) FAIL("merge patch not idempotent: patch " << to_json(patch) << " once " << to_json(once) << " twice " << to_json(target));
      }
    }

    // Strategic merge patch: directives act, they are never stored.
    {
      rapidjson::Document target;
      target.CopyFrom(original, target.GetAllocator());
      const char* kind = kinds[gen.below(4)];
      troupe::Status status = troupe::apply_strategic_merge_patch(target, patch, kind, target.GetAllocator());
      strategic.record(status);
      if (status.ok() && has_directive(target))
        FAIL("directive left in " << to_json(target) << " by patch " << to_json(patch));
    }

    // JSON patch: operations on existing, new and garbage pointers, plus an
    // add/test pair that must agree.
    {
      rapidjson::Document target;
      target.CopyFrom(original, target.GetAllocator());
      std::vector<std::string> paths;
      pointers(target, "", paths);
      rapidjson::Document ops(rapidjson::kArrayType);
      auto& a = ops.GetAllocator();
      static const std::vector<std::string> op_names = {"add", "remove", "replace", "move", "copy", "test", "nope"};
      static const std::vector<std::string> suffixes = {"", "/-", "/0", "/new", "/~1x", "/01", "/~2", "x"};
      int count = gen.below(6);
      for (int i = 0; i < count; ++i) {
        Value op(rapidjson::kObjectType);
        if (gen.chance(0.95)) op.AddMember("op", Value(gen.one_of(op_names).c_str(), a), a);
        std::string path = gen.one_of(paths) + (gen.chance(0.4) ? gen.one_of(suffixes) : "");
        if (gen.chance(0.95)) op.AddMember("path", Value(path.c_str(), a), a);
        if (gen.chance(0.6)) op.AddMember("from", Value(gen.one_of(paths).c_str(), a), a);
        if (gen.chance(0.8)) {
          Value v;
          gen.value(v, a, "", 2);
          op.AddMember("value", v, a);
        }
        ops.PushBack(op, a);
      }
      json.record(troupe::apply_json_patch(target, ops, target.GetAllocator()));

      if (target.IsObject()) {
        std::string key = "/k" + std::to_string(gen.below(3));
        rapidjson::Document pair;
        std::string v = "{\"n\":" + std::to_string(round) + ",\"l\":[1,{\"a\":null}]}";
        std::string text = R"([{"op":"add","path":")" + key + R"(","value":)" + v + R"(},{"op":"test","path":")" + key +
                           R"(","value":)" + v + "}]";
        pair.Parse(text.c_str());
        REQUIRE_FALSE(pair.HasParseError());
        troupe::Status status = troupe::apply_json_patch(target, pair, target.GetAllocator());
        if (!status.ok()) FAIL("add then test failed: " << status.message());
      }
    }

    // Mangled patch text: whatever still parses is applied as every type.
    {
      std::string text = gen.mangle(to_json(patch));
      rapidjson::Document mangled_patch;
      mangled_patch.Parse(text.c_str());
      if (mangled_patch.HasParseError()) {
        ++mangled.unparseable;
      } else {
        rapidjson::Document target;
        target.CopyFrom(original, target.GetAllocator());
        switch (round % 3) {
          case 0: mangled.record(troupe::apply_merge_patch(target, mangled_patch, target.GetAllocator())); break;
          case 1: mangled.record(troupe::apply_json_patch(target, mangled_patch, target.GetAllocator())); break;
          default:
            mangled.record(troupe::apply_strategic_merge_patch(target, mangled_patch, "Pod", target.GetAllocator()));
        }
      }
    }
  }
  INFO("merge ok/failed " << merge.ok << "/" << merge.failed << ", strategic " << strategic.ok << "/"
                          << strategic.failed << ", json " << json.ok << "/" << json.failed << ", mangled "
                          << mangled.ok << "/" << mangled.failed << " (" << mangled.unparseable << " unparseable)");
  // The generator must reach both outcomes of every algorithm, or the test
  // proves little.
  CHECK(merge.ok > rounds / 2);
  CHECK(merge.failed > 0);
  CHECK(strategic.ok > rounds / 10);
  CHECK(strategic.failed > rounds / 10);
  CHECK(json.ok > rounds / 10);
  CHECK(json.failed > rounds / 10);
  CHECK(mangled.ok + mangled.failed > rounds / 10);
  CHECK(mangled.unparseable > rounds / 10);
}
