#pragma once
// EventWriter: records Kubernetes Events about objects ("Scheduled",
// "FailedScheduling", "LeaderElection"). Like kube-scheduler it writes
// events.k8s.io/v1 when the server serves that group and falls back to core/v1
// otherwise; the server is asked once (GET /apis/events.k8s.io/v1) and asked
// again only if that probe got no clear answer.
//
// Thread-safe and blocking. Series aggregation (PATCHing a repeated event's
// count) is not done: each call creates one Event.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "watch/api_client.hpp"

namespace troupe::watch {

struct ObjectReference {
  std::string kind;         // "Pod"
  std::string ns;           // "" for cluster objects (the event then goes to "default")
  std::string name;
  std::string uid;
  std::string api_version;  // "v1"
  std::string resource_version;
};

struct EventSpec {
  ObjectReference regarding;
  std::string type = "Normal";  // or "Warning"
  std::string reason;           // "Scheduled", "FailedScheduling"
  std::string action;           // "Binding", "Scheduling"
  std::string note;             // cut to 1024 bytes like kube-scheduler
};

class EventWriter {
 public:
  enum class Api { unknown, events_v1, core_v1 };

  /// `reporting_controller` is the scheduler (profile) name; `reporting_instance`
  /// identifies this replica ("<controller>-<hostname>").
  EventWriter(std::shared_ptr<ApiClient> api, std::string reporting_controller, std::string reporting_instance);

  ApiResult create(const EventSpec& event, const CancelToken* cancel = nullptr);

  /// Which API the writer uses (probing first if it does not know yet).
  Api api(const CancelToken* cancel = nullptr);

  /// The body create() would POST, and where; exposed for tests.
  std::string body_for(const EventSpec& event, Api api, const std::string& event_name) const;
  static std::string collection_path(Api api, const std::string& ns);

 private:
  std::string next_name(const std::string& regarding_name);

  std::shared_ptr<ApiClient> api_;
  std::string controller_;
  std::string instance_;
  std::mutex mutex_;
  Api api_kind_ = Api::unknown;
  std::atomic<std::int64_t> last_nanos_{0};
};

/// Cuts `note` to at most 1024 bytes ("... " marks the cut) without splitting a UTF-8 character.
std::string truncate_note(const std::string& note);

}  // namespace troupe::watch
