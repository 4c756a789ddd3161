#include "plugins/scheduling_hint/scheduling_hint.hpp"

#include <algorithm>

#include "config/yaml_fields.hpp"
#include "model/json.hpp"
#include "model/json_reader.hpp"
#include "plugins/common/args.hpp"

namespace troupe::plugins::scheduling_hint {

namespace {

constexpr const char* kMaxHintNodes = "maxHintNodes";

/// The hint's data in the cycle: the preferred nodes as the annotation lists them.
struct HintState final : StateData {
  std::vector<std::string> preferred_node_names;
};

/// The annotation that holds the pod's hint: the new key when set and not
/// empty, else the deprecated one (Koordinator's GetSchedulingHint).
const std::string* hint_annotation(const ObjectMeta& pod_meta, const char** key) {
  for (const char* candidate : {kAnnotationSchedulingHint, kDeprecatedAnnotationSchedulingHint}) {
    const std::string* value = pod_meta.annotation(candidate);
    if (value != nullptr && !value->empty()) {
      *key = candidate;
      return value;
    }
  }
  return nullptr;
}

}  // namespace

Result<SchedulingHint> decode_scheduling_hint(std::string_view text) {
  auto doc = parse_json(text);
  if (!doc) return Error{doc.message()};
  SchedulingHint hint;
  if ((*doc)->IsNull()) return hint;  // Go's json.Unmarshal of null: the zero hint
  if (!(*doc)->IsObject()) return Error{JsonReader::expected("an object", **doc)};
  JsonReader reader(**doc);
  reader.field("nodeNames", hint.node_names);
  reader.field("preferredNodeNames", hint.preferred_node_names);
  // extensions: any object, by plugin name; only the names are read here.
  reader.check("extensions", !(*doc)->HasMember("extensions") || (**doc)["extensions"].IsObject() ||
                                 (**doc)["extensions"].IsNull(),
               "must be an object");
  if (!reader.ok()) return Error{reader.error()};
  if ((*doc)->HasMember("extensions") && (**doc)["extensions"].IsObject())
    for (const auto& member : (**doc)["extensions"].GetObject()) hint.extensions.emplace_back(member.name.GetString());
  return hint;
}

Result<std::optional<SchedulingHint>> scheduling_hint_of(const ObjectMeta& pod_meta) {
  const char* key = nullptr;
  const std::string* value = hint_annotation(pod_meta, &key);
  if (value == nullptr) return std::optional<SchedulingHint>{};
  auto hint = decode_scheduling_hint(*value);
  if (!hint) return Error{std::string("invalid annotation ") + key + ": " + hint.message()};
  return std::optional<SchedulingHint>(std::move(*hint));
}

bool hint_extends(const ObjectMeta& pod_meta, std::string_view plugin) {
  auto hint = scheduling_hint_of(pod_meta);
  if (!hint || !*hint) return false;
  const auto& names = (*hint)->extensions;
  return std::find(names.begin(), names.end(), plugin) != names.end();
}

SchedulingHintArgs SchedulingHintArgs::from_yaml(const YAML::Node& args) {
  SchedulingHintArgs out;
  if (config::is_absent(args)) return out;
  config::reject_unknown_fields(args, "", {kMaxHintNodes});
  if (config::is_absent(args[kMaxHintNodes])) return out;
  out.max_hint_nodes = config::read_int(args[kMaxHintNodes], kMaxHintNodes);
  // Koordinator's ValidateSchedulingHintArgs refuses 0 as well.
  if (out.max_hint_nodes <= 0)
    throw config::FieldError(kMaxHintNodes,
                             "Invalid value: " + std::to_string(out.max_hint_nodes) + ": must be a positive value");
  return out;
}

std::vector<std::string> nodes_to_prefer(const std::vector<std::string>& preferred, int64_t max_hint_nodes,
                                         const std::optional<std::set<std::string>>& allowed) {
  const size_t kept = std::min(preferred.size(), static_cast<size_t>(std::max<int64_t>(max_hint_nodes, 0)));
  std::vector<std::string> out;
  for (size_t i = 0; i < kept; ++i) {
    const std::string& name = preferred[i];
    if (allowed && allowed->count(name) == 0) continue;
    if (std::find(out.begin(), out.end(), name) != out.end()) continue;  // listed twice: tried once
    out.push_back(name);
  }
  return out;
}

Result<std::shared_ptr<const Plugin>> SchedulingHintPlugin::make(const YAML::Node& args) {
  return build_plugin<SchedulingHintArgs, SchedulingHintPlugin>(args, SchedulingHintArgs::from_yaml);
}

const SchedulingHintPlugin* SchedulingHintPlugin::of(const Framework& framework) {
  return framework.find_plugin<SchedulingHintPlugin>();
}

PluginStatus SchedulingHintPlugin::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult& result) const {
  // No hint of an earlier attempt survives; a shared empty one: no allocation per pod.
  static const auto kNoHint = std::make_shared<const HintState>();
  state.write<HintState>(state_slot(), kNoHint);
  auto hint = scheduling_hint_of(pod.meta());
  if (!hint) return PluginStatus::internal_error(hint.message());
  if (!*hint) return {};
  if (!(*hint)->node_names.empty())
    result.node_names.emplace((*hint)->node_names.begin(), (*hint)->node_names.end());
  HintState kept;
  kept.preferred_node_names = std::move((*hint)->preferred_node_names);
  state.write<HintState>(state_slot(), std::move(kept));
  return {};
}

std::vector<std::string> SchedulingHintPlugin::preferred_nodes(const CycleState& state) const {
  const auto* hint = state.read<HintState>(state_slot());
  if (hint == nullptr || hint->preferred_node_names.empty()) return {};
  return nodes_to_prefer(hint->preferred_node_names, args_.max_hint_nodes, state.node_names);
}

}  // namespace troupe::plugins::scheduling_hint
