#pragma once
// Coscheduling's debug service, in Koordinator's shape
// (/apis/v1/plugins/Coscheduling/gang/<ns>/<name> and .../gangs; core/gang.go
// GangSummary): what the scheduler knows of a gang — its rules, its members
// by state. Pure: the SCHEDULING CYCLE actor answers with it from its GangBook.
//
//   {"name": "ns/g", "waitTime": <ns>, "mode": "Strict", "gangMatchPolicy":
//    "once-satisfied", "minRequiredNumber": 3, "totalChildrenNum": 3,
//    "gangGroup": ["ns/g"], "children": {"ns/p0": {}, ...}, "pendingChildren":
//    {...}, "waitingForBindChildren": {...}, "boundChildren": {...} (Go's
//    sets as encoding/json writes them: objects keyed by pod, sorted),
//    "onceResourceSatisfied": false, "gangFrom": "GangFromPodAnnotation" |
//    "GangFromPodGroupCrd", "hasGangInit": true}
//
// Koordinator's createTime and gangGroupInfo are not kept by troupe and not
// shown. waitingForBindChildren holds the pods waiting at Permit; a pod let
// through and not bound yet is pending here (Koordinator keeps it waiting
// until bound).

#include <optional>
#include <string>

#include "plugins/coscheduling/gang_book.hpp"

namespace troupe::plugins::coscheduling {

/// One gang's summary; nullopt for a gang with no member.
std::optional<std::string> gang_summary_json(const GangBook& book, const std::string& gang_id);

/// Every gang's, as an object keyed by gang id.
std::string gang_summaries_json(const GangBook& book);

}  // namespace troupe::plugins::coscheduling
