#include "plugins/coscheduling/gang_summary.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace troupe::plugins::coscheduling {

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void write_strings(Writer& w, const char* key, const std::vector<std::string>& values) {
  w.Key(key);
  w.StartArray();
  for (const auto& v : values) w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
  w.EndArray();
}

/// A Go sets.Set[string], as encoding/json writes it: {"ns/pod":{}, ...}.
void write_set(Writer& w, const char* key, const std::vector<std::string>& values) {
  w.Key(key);
  w.StartObject();
  for (const auto& v : values) {
    w.Key(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
    w.StartObject();
    w.EndObject();
  }
  w.EndObject();
}

void write_summary(Writer& w, const std::string& id, const GangBook::Summary& s) {
  w.StartObject();
  w.Key("name");
  w.String(id.c_str(), static_cast<rapidjson::SizeType>(id.size()));
  w.Key("waitTime");  // a Go time.Duration: nanoseconds
  w.Int64(std::chrono::duration_cast<std::chrono::nanoseconds>(s.rules.wait_time).count());
  w.Key("mode");
  w.String(to_string(s.rules.mode));
  w.Key("gangMatchPolicy");
  w.String(to_string(s.rules.match_policy));
  w.Key("minRequiredNumber");
  w.Int(s.rules.min_member);
  w.Key("totalChildrenNum");
  w.Int(s.rules.total_number);
  write_strings(w, "gangGroup", s.rules.group);
  write_set(w, "children", s.children);
  write_set(w, "pendingChildren", s.pending);
  write_set(w, "waitingForBindChildren", s.waiting);
  write_set(w, "boundChildren", s.bound);
  w.Key("onceResourceSatisfied");
  w.Bool(s.once_satisfied);
  w.Key("gangFrom");
  w.String(s.from_pod_group ? "GangFromPodGroupCrd" : "GangFromPodAnnotation");
  w.Key("hasGangInit");
  w.Bool(s.initialised);
  w.EndObject();
}

}  // namespace

std::optional<std::string> gang_summary_json(const GangBook& book, const std::string& gang_id) {
  auto summary = book.summary(gang_id);
  if (!summary) return std::nullopt;
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  write_summary(w, gang_id, *summary);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string gang_summaries_json(const GangBook& book) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  for (const auto& id : book.gang_ids()) {
    auto summary = book.summary(id);
    if (!summary) continue;
    w.Key(id.c_str(), static_cast<rapidjson::SizeType>(id.size()));
    write_summary(w, id, *summary);
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace troupe::plugins::coscheduling
