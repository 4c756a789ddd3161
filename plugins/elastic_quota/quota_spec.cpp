#include "plugins/elastic_quota/quota_spec.hpp"

#include <algorithm>
#include <cstdint>

#include "model/json.hpp"
#include "model/quantity.hpp"
#include "model/resource_names.hpp"

namespace troupe::plugins::elastic_quota {

namespace {

int64_t amount_of(const std::string& name, const Quantity& quantity) {
  return name == "cpu" ? quantity.milli_value() : quantity.value();
}

bool all_zero(const ResourceAmounts& amounts) {
  return std::all_of(amounts.begin(), amounts.end(), [](const auto& entry) { return entry.second == 0; });
}

/// An annotation holding a ResourceList; empty when absent or unreadable
/// (Koordinator falls back to its default then).
ResourceAmounts resource_list_annotation(const ObjectMeta& meta, const char* key) {
  const std::string* text = meta.annotation(key);
  if (text == nullptr) return {};
  auto doc = parse_json(*text);
  if (!doc || !(*doc)->IsObject()) return {};
  ResourceAmounts out;
  for (auto it = (*doc)->MemberBegin(); it != (*doc)->MemberEnd(); ++it) {
    if (!it->value.IsString() && !it->value.IsNumber()) return {};
    auto quantity = Quantity::parse(it->value.IsString() ? std::string(it->value.GetString()) : to_json(it->value));
    if (!quantity) return {};
    const std::string name = it->name.GetString();
    out[name] = amount_of(name, *quantity);
  }
  return out;
}

/// Annotation namespaces: a JSON list of strings; nothing when unreadable.
std::vector<std::string> namespaces_annotation(const ObjectMeta& meta) {
  const std::string* text = meta.annotation(kAnnotationQuotaNamespaces);
  if (text == nullptr || text->empty()) return {};
  auto doc = parse_json(*text);
  if (!doc || !(*doc)->IsArray()) return {};
  std::vector<std::string> out;
  for (const auto& item : (*doc)->GetArray()) {
    if (!item.IsString()) return {};
    out.emplace_back(item.GetString());
  }
  return out;
}

bool label_is(const ObjectMeta& meta, const char* key, const char* value) {
  const std::string* label = meta.label(key);
  return label != nullptr && *label == value;
}

}  // namespace

ResourceAmounts amounts_of(const ResourceList& list) {
  ResourceAmounts out;
  for (const auto& [name, quantity] : list) out[std::string(name)] = amount_of(std::string(name), quantity);
  return out;
}

ResourceAmounts amounts_of(const ResourceVector& requests) {
  ResourceAmounts out;
  if (requests.milli_cpu != 0) out["cpu"] = requests.milli_cpu;
  if (requests.memory != 0) out["memory"] = requests.memory;
  if (requests.ephemeral_storage != 0) out["ephemeral-storage"] = requests.ephemeral_storage;
  for (const auto& [name, amount] : requests.scalars)
    if (amount != 0) out[std::string(name)] = amount;
  return out;
}

ResourceList to_resource_list(const ResourceAmounts& amounts) {
  ResourceList out;
  for (const auto& [name, amount] : amounts) {
    if (name == "cpu") {
      out.emplace(name, Quantity::from_milli(amount, Quantity::Format::decimal_si));
    } else {
      const auto format = name == "memory" ? Quantity::Format::binary_si : Quantity::Format::decimal_si;
      out.emplace(name, Quantity::from_value(amount, format));
    }
  }
  return out;
}

std::string print_amounts(const ResourceAmounts& amounts) {
  if (amounts.empty()) return "<empty>";
  std::string out;
  for (const auto& [name, quantity] : to_resource_list(amounts)) {
    if (!out.empty()) out += ',';
    out += std::string(name) + ":" + quantity.to_string();
  }
  return out;
}

void add_to(ResourceAmounts& into, const ResourceAmounts& delta) {
  // Saturating: maxes near the int64 limit (the default quota's) are summed up the tree.
  for (const auto& [name, amount] : delta) {
    auto& sum = into[name];
    if (__builtin_add_overflow(sum, amount, &sum)) sum = amount > 0 ? INT64_MAX : INT64_MIN;
  }
}

void subtract_from(ResourceAmounts& from, const ResourceAmounts& delta) {
  for (const auto& [name, amount] : delta) {
    auto& left = from[name];
    left = std::max<int64_t>(left - amount, 0);
  }
}

bool operator==(const QuotaSpec& a, const QuotaSpec& b) {
  return a.name == b.name && a.namespace_name == b.namespace_name && a.parent == b.parent &&
         a.is_parent == b.is_parent && a.allow_lent_resource == b.allow_lent_resource && a.min == b.min &&
         a.max == b.max && a.shared_weight == b.shared_weight && a.namespaces == b.namespaces;
}

QuotaSpec quota_spec_of(const ElasticQuota& quota) {
  QuotaSpec spec;
  spec.name = quota.meta.name;
  spec.namespace_name = quota.meta.namespace_name;
  const std::string* parent = quota.meta.label(kLabelQuotaParent);
  if (parent != nullptr && !parent->empty()) spec.parent = *parent;
  if (spec.name == kRootQuotaName) spec.parent.clear();  // the root has none (GetParentQuotaName)
  spec.is_parent = label_is(quota.meta, kLabelQuotaIsParent, "true");
  spec.allow_lent_resource = !label_is(quota.meta, kLabelAllowLentResource, "false");
  spec.min = amounts_of(quota.spec.min);
  spec.max = amounts_of(quota.spec.max);
  spec.shared_weight = resource_list_annotation(quota.meta, kAnnotationSharedWeight);
  if (all_zero(spec.shared_weight)) spec.shared_weight = spec.max;
  spec.namespaces = namespaces_annotation(quota.meta);
  return spec;
}

bool is_non_preemptible(const ObjectMeta& pod_meta) { return label_is(pod_meta, kLabelPreemptible, "false"); }

}  // namespace troupe::plugins::elastic_quota
