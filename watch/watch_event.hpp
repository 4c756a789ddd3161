#pragma once
// One line of a watch stream decoded: {"type":"ADDED","object":{...}}
// (k8s-protocol.md §2.3). The object becomes a document of its own that
// consumers share as shared_ptr<const Document>.

#include <memory>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "model/result.hpp"

namespace troupe::watch {

/// What reflector consumers see. BOOKMARK and ERROR never reach them.
enum class EventType { added, modified, deleted };
const char* to_string(EventType type);

using ObjectPtr = std::shared_ptr<const rapidjson::Document>;

struct WatchEvent {
  enum class Kind { added, modified, deleted, bookmark, error };
  Kind kind = Kind::error;
  std::shared_ptr<rapidjson::Document> object;  // the event's object (a Status for ERROR)
};

/// Errors name what was wrong: "watch event: unknown type \"FOO\"".
Result<WatchEvent> parse_watch_event(std::string_view line);

/// The fields of a Status object (ERROR events, error bodies).
struct StatusInfo {
  int code = 0;
  std::string reason;
  std::string message;
};
StatusInfo status_info(const rapidjson::Value& status);

/// 410, or reason Expired / Gone (servers before 1.18 said Gone).
bool is_expired(const StatusInfo& status);

/// metadata.resourceVersion, "" if absent.
std::string resource_version_of(const rapidjson::Value& object);

}  // namespace troupe::watch
