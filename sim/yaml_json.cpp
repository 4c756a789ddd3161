#include "sim/yaml_json.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <regex>

#include <yaml-cpp/yaml.h>

namespace troupe::sim {

namespace {

using Alloc = rapidjson::Document::AllocatorType;

bool matches(const std::string& text, const std::regex& re) { return std::regex_match(text, re); }

// YAML 1.2 core schema resolution of a plain (unquoted) scalar.
rapidjson::Value plain_scalar(const std::string& s, Alloc& alloc) {
  static const std::regex null_re("~|null|Null|NULL|");
  static const std::regex true_re("true|True|TRUE");
  static const std::regex false_re("false|False|FALSE");
  static const std::regex int_re("[-+]?[0-9]+");
  static const std::regex oct_re("0o[0-7]+");
  static const std::regex hex_re("0x[0-9a-fA-F]+");
  static const std::regex float_re("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  if (matches(s, null_re)) return rapidjson::Value(rapidjson::kNullType);
  if (matches(s, true_re)) return rapidjson::Value(true);
  if (matches(s, false_re)) return rapidjson::Value(false);
  if (matches(s, int_re) || matches(s, oct_re) || matches(s, hex_re)) {
    errno = 0;
    int base = matches(s, int_re) ? 10 : (s[1] == 'o' ? 8 : 16);
    const char* digits = base == 10 ? s.c_str() : s.c_str() + 2;
    long long v = std::strtoll(digits, nullptr, base);
    if (errno == 0) return rapidjson::Value(static_cast<int64_t>(v));
    return rapidjson::Value(s.c_str(), alloc); // too large: keep the text
  }
  if (matches(s, float_re)) {
    double d = std::strtod(s.c_str(), nullptr);
    if (std::isfinite(d)) return rapidjson::Value(d);
  }
  // Anything else, .inf and .nan included (JSON has neither), stays text.
  return rapidjson::Value(s.c_str(), static_cast<rapidjson::SizeType>(s.size()), alloc);
}

// What a conversion may produce, in nodes plus scalar bytes: aliases expand
// to copies, so a few hundred bytes of nested aliases ("billion laughs")
// would otherwise become gigabytes. Twice the text leaves room for honest reuse.
size_t expansion_budget(const std::string& text) { return 2 * text.size() + 100'000; }

rapidjson::Value convert(const YAML::Node& node, Alloc& alloc, int depth, size_t& budget) {
  if (depth > 200) throw YAML::Exception(node.Mark(), "document nested too deeply");
  const size_t cost = 1 + (node.IsScalar() ? node.Scalar().size() : 0);
  if (cost > budget) throw YAML::Exception(node.Mark(), "document too large once its aliases are expanded");
  budget -= cost;
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return rapidjson::Value(rapidjson::kNullType);
    case YAML::NodeType::Scalar: {
      const std::string& s = node.Scalar();
      if (node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str")
        return rapidjson::Value(s.c_str(), static_cast<rapidjson::SizeType>(s.size()), alloc);
      return plain_scalar(s, alloc);
    }
    case YAML::NodeType::Sequence: {
      rapidjson::Value array(rapidjson::kArrayType);
      for (const auto& item : node) array.PushBack(convert(item, alloc, depth + 1, budget), alloc);
      return array;
    }
    case YAML::NodeType::Map: {
      rapidjson::Value object(rapidjson::kObjectType);
      for (const auto& kv : node) {
        if (!kv.first.IsScalar()) convert(kv.first, alloc, depth + 1, budget);  // a complex key pays for its size too
        std::string key = kv.first.IsScalar() ? kv.first.Scalar() : YAML::Dump(kv.first);
        rapidjson::Value name(key.c_str(), static_cast<rapidjson::SizeType>(key.size()), alloc);
        auto existing = object.FindMember(name);
        if (existing != object.MemberEnd()) {
          existing->value = convert(kv.second, alloc, depth + 1, budget);
        } else {
          object.AddMember(name, convert(kv.second, alloc, depth + 1, budget), alloc);
        }
      }
      return object;
    }
  }
  return rapidjson::Value(rapidjson::kNullType);
}

}  // namespace

Result<std::vector<rapidjson::Document>> yaml_to_json_documents(const std::string& text) {
  std::vector<rapidjson::Document> out;
  size_t budget = expansion_budget(text);
  try {
    for (const auto& node : YAML::LoadAll(text)) {
      if (node.IsNull()) continue;
      rapidjson::Document doc;
      rapidjson::Value value = convert(node, doc.GetAllocator(), 0, budget);
      static_cast<rapidjson::Value&>(doc) = std::move(value);
      out.push_back(std::move(doc));
    }
  } catch (const YAML::Exception& e) {
    return Error{"invalid YAML at line " + std::to_string(e.mark.line + 1) + ", column " +
                 std::to_string(e.mark.column + 1) + ": " + e.msg};
  }
  return out;
}

}  // namespace troupe::sim
