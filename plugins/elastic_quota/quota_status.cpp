#include "plugins/elastic_quota/quota_status.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "model/json.hpp"
#include "model/quantity.hpp"

namespace troupe::plugins::elastic_quota {

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

ResourceAmounts without_zeros(const ResourceAmounts& amounts) {
  ResourceAmounts out;
  for (const auto& [name, value] : amounts)
    if (value != 0) out[name] = value;
  return out;
}

/// The annotation's amounts; nullopt when it cannot be read (it is then rewritten).
std::optional<ResourceAmounts> annotation_amounts(const ObjectMeta& meta, const char* key) {
  const std::string* text = meta.annotation(key);
  if (text == nullptr || text->empty()) return ResourceAmounts{};
  auto doc = parse_json(*text);
  if (!doc || !(*doc)->IsObject()) return std::nullopt;
  ResourceList list;
  for (auto it = (*doc)->MemberBegin(); it != (*doc)->MemberEnd(); ++it) {
    if (!it->value.IsString()) return std::nullopt;
    auto quantity = Quantity::parse(it->value.GetString());
    if (!quantity) return std::nullopt;
    list.emplace(ResourceName(std::string(it->name.GetString())), *quantity);
  }
  return amounts_of(list);
}

bool differs(const std::optional<ResourceAmounts>& held, const ResourceAmounts& wanted) {
  return !held || without_zeros(*held) != without_zeros(wanted);
}

void write_quantities(Writer& w, const ResourceList& list) {
  w.StartObject();
  for (const auto& [name, quantity] : list) {
    w.Key(std::string(name).c_str());
    const std::string text = quantity.to_string();
    w.String(text.c_str(), static_cast<rapidjson::SizeType>(text.size()));
  }
  w.EndObject();
}

void write_list(Writer& w, const ResourceAmounts& amounts) { write_quantities(w, to_resource_list(amounts)); }

void write_string_map(Writer& w, const char* key, const std::vector<std::pair<std::string, std::string>>& entries) {
  w.Key(key);
  w.StartObject();
  for (const auto& [k, v] : entries) {
    w.Key(k.c_str());
    w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
  }
  w.EndObject();
}

/// {"apiVersion":..., "kind":"ElasticQuota", "metadata":{name, namespace, labels, annotations}, "spec":{"max":...}}
std::string quota_object_json(const std::string& name, const std::string& ns,
                              const std::vector<std::pair<std::string, std::string>>& labels, const ResourceList* max) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("apiVersion");
  w.String("scheduling.sigs.k8s.io/v1alpha1");
  w.Key("kind");
  w.String("ElasticQuota");
  w.Key("metadata");
  w.StartObject();
  w.Key("name");
  w.String(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
  w.Key("namespace");
  w.String(ns.c_str(), static_cast<rapidjson::SizeType>(ns.size()));
  if (!labels.empty()) write_string_map(w, "labels", labels);
  if (max != nullptr) {
    rapidjson::StringBuffer runtime;
    Writer r(runtime);
    write_quantities(r, *max);
    write_string_map(w, "annotations", {{kAnnotationRuntime, std::string(runtime.GetString(), runtime.GetSize())}});
  }
  w.EndObject();
  if (max != nullptr) {
    w.Key("spec");
    w.StartObject();
    w.Key("max");
    write_quantities(w, *max);
    w.EndObject();
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

std::vector<BuiltinQuotaObject> builtin_quota_objects(const std::string& ns, const ResourceList& system_max,
                                                      const ResourceList& default_max) {
  return {
      {kSystemQuotaName, quota_object_json(kSystemQuotaName, ns, {}, &system_max)},
      {kDefaultQuotaName, quota_object_json(kDefaultQuotaName, ns, {}, &default_max)},
      {kRootQuotaName, quota_object_json(kRootQuotaName, ns,
                                         {{kLabelQuotaIsParent, "true"},
                                          {kLabelAllowLentResource, "false"},
                                          {kLabelQuotaParent, ""}},
                                         nullptr)},
  };
}

std::string resource_list_json(const ResourceAmounts& amounts) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  write_list(w, amounts);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::optional<std::string> quota_status_patch(const ElasticQuota& current, const QuotaUsage& figures) {
  const std::pair<const char*, const ResourceAmounts*> annotations[] = {
      {kAnnotationNonPreemptibleUsed, &figures.non_preemptible_used},
      {kAnnotationRequest, &figures.request},
      {kAnnotationRuntime, &figures.runtime},
  };
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  bool any = false;
  for (const auto& [key, wanted] : annotations) {
    if (!differs(annotation_amounts(current.meta, key), *wanted)) continue;
    if (!any) {
      w.Key("metadata");
      w.StartObject();
      w.Key("annotations");
      w.StartObject();
      any = true;
    }
    w.Key(key);
    const std::string json = resource_list_json(*wanted);
    w.String(json.c_str(), static_cast<rapidjson::SizeType>(json.size()));
  }
  if (any) {
    w.EndObject();
    w.EndObject();
  }
  if (differs(amounts_of(current.status.used), figures.used)) {
    w.Key("status");
    w.StartObject();
    w.Key("used");
    write_list(w, figures.used);
    w.EndObject();
    any = true;
  }
  w.EndObject();
  if (!any) return std::nullopt;
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace troupe::plugins::elastic_quota
