#include "actors/unreadable_objects.hpp"

#include "model/json.hpp"

namespace troupe::actors {

namespace {

std::string object_key(const std::string& kind, const std::string& name) { return kind + "/" + name; }

ObjectWarningPtr make_warning(const watch::ObjectReference& regarding, const std::string& profile,
                              const std::string& problem) {
  auto warning = std::make_shared<ObjectWarning>();
  warning->regarding = regarding;  // with its resourceVersion: the version that could not be read
  warning->profile = profile;
  warning->reason = "Invalid";
  warning->message = "troupe cannot read this " + regarding.kind + " and ignores this version of it: " + problem;
  return warning;
}

}  // namespace

watch::ObjectReference reference_to(const rapidjson::Value& object, const char* kind, const char* api_version) {
  watch::ObjectReference regarding;
  regarding.kind = kind;
  regarding.api_version = api_version;
  regarding.name = get_string(object, "metadata", "name");
  regarding.uid = get_string(object, "metadata", "uid");
  regarding.resource_version = get_string(object, "metadata", "resourceVersion");
  return regarding;
}

std::string UnreadableReports::problem_key(const std::string& problem) {
  // The decoder's messages read "<field path>: <what is wrong>".
  const std::string path = problem.substr(0, problem.find(": "));
  std::string key;
  key.reserve(path.size());
  bool in_index = false;
  for (char c : path) {
    if (c == '[') {
      in_index = true;
      key += "[]";
    } else if (c == ']') {
      in_index = false;
    } else if (!in_index) {
      key += c;
    }
  }
  return key;
}

UnreadableReports::Verdict UnreadableReports::unreadable(const watch::ObjectReference& regarding,
                                                         const std::string& problem, bool leading,
                                                         Clock::time_point now) {
  Report& report = reports_[object_key(regarding.kind, regarding.name)];
  const std::string key = problem_key(problem);
  const bool said = report.said_at != Clock::time_point{} && report.problem_key == key &&
                    (report.current || now - report.said_at < kSayAgainAfter);
  report.current = true;
  Verdict verdict;
  if (!said) {
    verdict.log = true;
    report.problem_key = key;
    report.event = make_warning(regarding, profile_, problem);
    report.recorded = false;
    report.said_at = now;
  }
  if (leading && !report.recorded && !profile_.empty()) {
    report.recorded = true;
    verdict.event = report.event;
  }
  return verdict;
}

void UnreadableReports::readable(const std::string& kind, const std::string& name) {
  if (reports_.empty()) return;
  auto it = reports_.find(object_key(kind, name));
  if (it != reports_.end()) it->second.current = false;
}

void UnreadableReports::deleted(const std::string& kind, const std::string& name) {
  if (!reports_.empty()) reports_.erase(object_key(kind, name));
}

std::vector<ObjectWarningPtr> UnreadableReports::take_held_back() {
  std::vector<ObjectWarningPtr> out;
  if (profile_.empty()) return out;
  for (auto& [key, report] : reports_) {
    if (!report.current || report.recorded) continue;
    report.recorded = true;
    out.push_back(report.event);
  }
  return out;
}

}  // namespace troupe::actors
