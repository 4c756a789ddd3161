#pragma once
// EventWriter: records Kubernetes Events about objects ("Scheduled",
// "FailedScheduling", "LeaderElection"). Like kube-scheduler it writes
// events.k8s.io/v1 when the server serves that group and falls back to core/v1
// otherwise; the server is asked once (GET /apis/events.k8s.io/v1) and asked
// again only if that probe got no clear answer.
//
// Thread-safe and blocking. record() aggregates repeats as client-go's
// recorders do (EventSeriesCache): the first occurrence is POSTed, a repeat
// PATCHes the Event it belongs to — events.k8s.io/v1 `series {count,
// lastObservedTime}` for the same (action, reason, regarding); core/v1
// `count`/`lastTimestamp` for the same (type, reason, involvedObject,
// message) — and re-creates it if it is gone (404). Unlike the events
// recorder, which PATCHes only the second occurrence and then refreshes a
// series every 30 minutes, every repeat is PATCHed, so the count on the
// server is always current. create() always makes a new Event.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "watch/api_client.hpp"
#include "watch/event_series.hpp"

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
  /// `series_finish_after`: a series idle this long is finished (client-go's 6 minutes).
  EventWriter(std::shared_ptr<ApiClient> api, std::string reporting_controller, std::string reporting_instance,
              EventSeriesCache::Clock::duration series_finish_after = std::chrono::minutes(6));

  /// A new Event for this occurrence, whatever came before.
  ApiResult create(const EventSpec& event, const CancelToken* cancel = nullptr);
  /// This occurrence, folded into the series of an identical recent event.
  ApiResult record(const EventSpec& event, const CancelToken* cancel = nullptr);

  /// Which API the writer uses (probing first if it does not know yet).
  Api api(const CancelToken* cancel = nullptr);

  /// The body create() would POST, and where; exposed for tests. `count` > 1
  /// re-creates a series that was lost (series / count set).
  std::string body_for(const EventSpec& event, Api api, const std::string& event_name, int32_t count = 1) const;
  static std::string collection_path(Api api, const std::string& ns);
  /// The strategic merge patch record() sends for the `count`th occurrence.
  static std::string series_patch(const EventSpec& event, Api api, int32_t count,
                                  std::chrono::system_clock::time_point now);
  /// What makes two events one series (see the top of this file).
  std::string series_key(const EventSpec& event, Api api) const;

 private:
  std::string next_name(const std::string& regarding_name);

  std::shared_ptr<ApiClient> api_;
  std::string controller_;
  std::string instance_;
  std::mutex mutex_;  // guards api_kind_ and series_
  Api api_kind_ = Api::unknown;
  EventSeriesCache series_;
  std::atomic<std::int64_t> last_nanos_{0};
};

/// Cuts `note` to at most 1024 bytes ("... " marks the cut) without splitting a UTF-8 character.
std::string truncate_note(const std::string& note);

}  // namespace troupe::watch
