#include "actors/extender_protocol.hpp"

#include <strings.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace troupe::actors {

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void write_string_map(Writer& w, const char* key, const std::map<std::string, std::string>& m) {
  w.Key(key);
  w.StartObject();
  for (const auto& [k, v] : m) {
    w.Key(k.c_str(), static_cast<rapidjson::SizeType>(k.size()));
    w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
  }
  w.EndObject();
}

// Go's encoding/json matches keys exactly first, then case-insensitively:
// kube-scheduler sends the Go field names ("Pod", "NodeNames"), other
// clients often lower-case them.
rapidjson::Value::ConstMemberIterator find_member(const rapidjson::Value& object, const char* key) {
  auto exact = object.FindMember(key);
  if (exact != object.MemberEnd()) return exact;
  for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it)
    if (strcasecmp(it->name.GetString(), key) == 0) return it;
  return object.MemberEnd();
}

Result<std::string> node_name_of(const rapidjson::Value& node, size_t index) {
  const rapidjson::Value* name = find_path(node, "metadata", "name");
  if (name == nullptr || !name->IsString() || name->GetStringLength() == 0)
    return Error{"Nodes.items[" + std::to_string(index) + "].metadata.name: Required value"};
  return std::string(name->GetString(), name->GetStringLength());
}

}  // namespace

Result<ExtenderArgs> parse_extender_args(std::string_view body) {
  auto doc = parse_json(body);
  if (!doc) return Error{"ExtenderArgs: " + doc.message()};
  const rapidjson::Value& root = **doc;
  if (!root.IsObject()) return Error{std::string("ExtenderArgs: expected an object, got ") + json_type_name(root)};
  ExtenderArgs args;
  auto pod_it = find_member(root, "Pod");
  if (pod_it == root.MemberEnd() || !pod_it->value.IsObject()) return Error{"Pod: Required value"};
  auto pod = decode_pod_json(to_json(pod_it->value));
  if (!pod) return Error{"Pod: " + pod.message()};
  args.pod = std::make_shared<const Pod>(std::move(*pod));

  auto nodes_it = find_member(root, "Nodes");
  if (nodes_it != root.MemberEnd() && !nodes_it->value.IsNull()) {
    const rapidjson::Value* items = find_path(nodes_it->value, "items");
    if (items == nullptr || !items->IsArray()) return Error{"Nodes.items: expected a list"};
    args.sent_nodes = true;
    for (rapidjson::SizeType i = 0; i < items->Size(); ++i) {
      auto name = node_name_of((*items)[i], i);
      if (!name) return Error{name.message()};
      args.node_names.push_back(*name);
      args.node_json[*name] = to_json((*items)[i]);
    }
    return args;
  }
  auto names_it = find_member(root, "NodeNames");
  if (names_it == root.MemberEnd() || names_it->value.IsNull()) return Error{"Nodes or NodeNames: Required value"};
  if (!names_it->value.IsArray()) return Error{"NodeNames: expected a list of strings"};
  for (rapidjson::SizeType i = 0; i < names_it->value.Size(); ++i) {
    const auto& v = names_it->value[i];
    if (!v.IsString()) return Error{"NodeNames[" + std::to_string(i) + "]: expected a string"};
    args.node_names.emplace_back(v.GetString(), v.GetStringLength());
  }
  return args;
}

std::string extender_filter_result_json(const ExtenderArgs& args, const ExtenderFilterVerdict& verdict) {
  // Both lists, as the gpushare extender answers: kube-scheduler reads
  // "nodenames" when the extender is nodeCacheCapable and "nodes" otherwise.
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  if (args.sent_nodes) {
    w.Key("Nodes");
    w.StartObject();
    w.Key("metadata");
    w.StartObject();
    w.EndObject();
    w.Key("items");
    w.StartArray();
    for (const auto& name : verdict.passed) {
      const std::string& raw = args.node_json.at(name);
      w.RawValue(raw.c_str(), raw.size(), rapidjson::kObjectType);
    }
    w.EndArray();
    w.EndObject();
  }
  w.Key("NodeNames");
  w.StartArray();
  for (const auto& name : verdict.passed) w.String(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
  w.EndArray();
  write_string_map(w, "FailedNodes", verdict.failed);
  write_string_map(w, "FailedAndUnresolvableNodes", verdict.failed_unresolvable);
  if (!verdict.error.empty()) {
    w.Key("Error");
    w.String(verdict.error.c_str(), static_cast<rapidjson::SizeType>(verdict.error.size()));
  }
  w.EndObject();
  return buffer.GetString();
}

std::string host_priority_list_json(const std::vector<std::pair<std::string, int64_t>>& scores) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartArray();
  for (const auto& [host, score] : scores) {
    w.StartObject();
    w.Key("Host");
    w.String(host.c_str(), static_cast<rapidjson::SizeType>(host.size()));
    w.Key("Score");
    w.Int64(score);
    w.EndObject();
  }
  w.EndArray();
  return buffer.GetString();
}

Result<ExtenderBindingArgs> parse_extender_binding_args(std::string_view body) {
  auto doc = parse_json(body);
  if (!doc) return Error{"ExtenderBindingArgs: " + doc.message()};
  const rapidjson::Value& root = **doc;
  if (!root.IsObject())
    return Error{std::string("ExtenderBindingArgs: expected an object, got ") + json_type_name(root)};
  ExtenderBindingArgs args;
  struct Field {
    const char* key;
    std::string* out;
    bool required;
  };
  for (const Field& f : {Field{"PodName", &args.pod_name, true}, Field{"PodNamespace", &args.pod_namespace, true},
                         Field{"PodUID", &args.pod_uid, false}, Field{"Node", &args.node, true}}) {
    auto it = find_member(root, f.key);
    if (it == root.MemberEnd() || it->value.IsNull()) {
      if (f.required) return Error{std::string(f.key) + ": Required value"};
      continue;
    }
    if (!it->value.IsString()) return Error{std::string(f.key) + ": expected a string"};
    *f.out = std::string(it->value.GetString(), it->value.GetStringLength());
    if (f.required && f.out->empty()) return Error{std::string(f.key) + ": Required value"};
  }
  return args;
}

std::string extender_binding_result_json(const std::string& error) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("Error");
  w.String(error.c_str(), static_cast<rapidjson::SizeType>(error.size()));
  w.EndObject();
  return buffer.GetString();
}

}  // namespace troupe::actors
