#pragma once
// What the INFORMER says about the objects it follows but cannot read (a
// Node, Device, NodeResourceTopology, NodeMetric or Reservation that does
// not decode; the MIGRATION actor likewise for PodMigrationJobs):
// one log line and one Warning event (reason Invalid) per object and
// problem, so that `kubectl describe` shows why troupe does not use it.
//
// A problem is the failing field's path without list indices: a NodeMetric's
// bad figure moves between entries and changes value with every report, and
// is still one problem. An event waits until this replica leads (a standby
// reads everything before it leads). An object that flips between readable
// and unreadable is said again at most every kSayAgainAfter.

#include <chrono>
#include <string>
#include <unordered_map>
#include <vector>

#include <rapidjson/document.h>

#include "actors/messages.hpp"

namespace troupe::actors {

/// What an event about `object` (a raw API object of `kind`) regards: its
/// name, uid and the resourceVersion that could not be read.
watch::ObjectReference reference_to(const rapidjson::Value& object, const char* kind, const char* api_version);

class UnreadableReports {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr Clock::duration kSayAgainAfter = std::chrono::minutes(10);

  /// What to do about one unreadable version.
  struct Verdict {
    bool log = false;       // a new problem: log it
    ObjectWarningPtr event;  // an event to record now (nullptr: none)
  };

  /// `profile` reports the events (their reportingController).
  explicit UnreadableReports(std::string profile = "") : profile_(std::move(profile)) {}

  /// A version of `regarding` (kind, apiVersion, name, uid, resourceVersion)
  /// that does not decode, with the decoder's message.
  Verdict unreadable(const watch::ObjectReference& regarding, const std::string& problem, bool leading,
                     Clock::time_point now);
  /// A version of it that decodes.
  void readable(const std::string& kind, const std::string& name);
  /// It was deleted: forgotten.
  void deleted(const std::string& kind, const std::string& name);
  /// No object has been unreadable (the common case: nothing to look up).
  bool empty() const { return reports_.empty(); }
  /// This replica leads now: the events held back for objects still unreadable.
  std::vector<ObjectWarningPtr> take_held_back();

  /// "Invalid value ... at spec.devices[3].minor" -> "spec.devices[].minor".
  static std::string problem_key(const std::string& problem);

 private:
  struct Report {
    std::string problem_key;
    ObjectWarningPtr event;  // for the problem last said
    bool current = false;    // the last version seen does not decode
    bool recorded = false;   // `event` was handed out
    Clock::time_point said_at{};
  };
  std::string profile_;
  std::unordered_map<std::string, Report> reports_;  // by "Kind/name"
};

}  // namespace troupe::actors
