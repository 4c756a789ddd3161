#include "plugins/elastic_quota/quota_summary.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace troupe::plugins::elastic_quota {

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void write_string(Writer& w, const std::string& s) { w.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size())); }

void write_amounts(Writer& w, const char* key, const ResourceAmounts& amounts) {
  w.Key(key);
  w.StartObject();
  for (const auto& [name, quantity] : to_resource_list(amounts)) {
    w.Key(std::string(name).c_str());
    write_string(w, quantity.to_string());
  }
  w.EndObject();
}

bool write_summary(Writer& w, QuotaBook& book, const std::string& name) {
  const QuotaSpec* spec = book.spec_of(name);
  auto usage = book.usage(name);
  if (spec == nullptr || !usage) return false;
  w.StartObject();
  w.Key("name");
  write_string(w, name);
  w.Key("parentName");
  write_string(w, spec->parent);
  w.Key("isParent");
  w.Bool(spec->is_parent);
  w.Key("allowLentResource");
  w.Bool(spec->allow_lent_resource);
  write_amounts(w, "max", spec->max);
  write_amounts(w, "min", spec->min);
  write_amounts(w, "sharedWeight", spec->shared_weight);
  write_amounts(w, "used", usage->used);
  write_amounts(w, "request", usage->request);
  write_amounts(w, "runtime", usage->runtime);
  if (!usage->unreachable_parent.empty()) {
    w.Key("unreachableParent");  // troupe's: why the runtime is empty
    write_string(w, usage->unreachable_parent);
  }
  w.EndObject();
  return true;
}

}  // namespace

std::optional<std::string> quota_summary_json(QuotaBook& book, const std::string& name) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  if (!write_summary(w, book, name)) return std::nullopt;
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string quota_summaries_json(QuotaBook& book) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  for (const std::string& name : book.quota_names()) {
    w.Key(name.c_str());
    write_summary(w, book, name);
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace troupe::plugins::elastic_quota
