#pragma once
// core/v1 Events and events.k8s.io/v1 Events are one set of objects in
// kube-apiserver, seen through two schemas: whatever is written through one
// API is read through the other. troupe apiserver stores them as core/v1
// Events and converts events.k8s.io/v1 ones on the way in and out
// (pkg/apis/events/v1/conversion.go): regarding ↔ involvedObject,
// note ↔ message, reportingController ↔ reportingComponent,
// deprecatedSource ↔ source, deprecatedFirstTimestamp ↔ firstTimestamp,
// deprecatedLastTimestamp ↔ lastTimestamp, deprecatedCount ↔ count; the
// rest (eventTime, series, action, reason, type, related,
// reportingInstance, metadata) is shared.

#include <rapidjson/document.h>

namespace troupe::sim {

/// A core/v1 Event as an events.k8s.io/v1 Event (apiVersion included).
void core_event_to_events_v1(rapidjson::Document& event);
/// An events.k8s.io/v1 Event as a core/v1 Event (apiVersion included).
void events_v1_to_core_event(rapidjson::Document& event);

}  // namespace troupe::sim
