// The cells kube-apiserver prints for `kubectl get` (pkg/printers/internalversion
// printers_test.go TestPrintPod / TestPrintNodeStatus / TestPrintEvent, and
// apimachinery's duration_test.go), table-driven.

#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include "sim/human_duration.hpp"
#include "sim/table_printers.hpp"

using namespace troupe;
using namespace troupe::sim;
using namespace std::chrono_literals;

namespace {

const Timestamp kNow = *parse_timestamp("2026-06-01T12:00:00Z");

rapidjson::Document parse(const std::string& text) {
  rapidjson::Document d;
  d.Parse(text.c_str(), text.size());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

std::string cell(const PrintedRow& row, size_t i) {
  REQUIRE(i < row.cells.size());
  if (const auto* text = std::get_if<std::string>(&row.cells[i])) return *text;
  if (const auto* number = std::get_if<int64_t>(&row.cells[i])) return std::to_string(*number);
  return "null";
}

PrintedRow print(const char* group, const char* kind, const std::string& object) {
  const TablePrinter& printer = printer_for(group, kind);
  PrintedRow row = printer.print(parse(object), kNow);
  CHECK(row.cells.size() == printer.columns.size());
  return row;
}

}  // namespace

TEST_CASE("human_duration: two units at most, coarser as ages grow", "[table]") {
  const std::vector<std::pair<std::chrono::microseconds, std::string>> cases = {
      {-3s, "<invalid>"}, {-1s, "0s"},      {0s, "0s"},        {59s, "59s"},     {119s, "119s"},
      {120s, "2m"},       {125s, "2m5s"},   {599s, "9m59s"},   {600s, "10m"},    {10799s, "179m"},
      {3h, "3h"},         {3h + 5min, "3h5m"}, {8h, "8h"},     {47h, "47h"},     {48h, "2d"},
      {50h, "2d2h"},      {8 * 24h, "8d"},  {729 * 24h, "729d"}, {730 * 24h, "2y"}, {731 * 24h, "2y1d"},
      {8 * 365 * 24h, "8y"},
  };
  for (const auto& [age, want] : cases) {
    INFO(age.count());
    CHECK(human_duration(age) == want);
  }
  CHECK(human_age(std::nullopt, kNow) == "<unknown>");
  CHECK(human_age(kNow - 90s, kNow) == "90s");
}

TEST_CASE("Pod rows: READY, STATUS and RESTARTS as kubectl shows them", "[table]") {
  struct Case {
    const char* name;
    std::string status;      // the pod's status object
    std::string spec_extra;  // members added to spec
    bool deleting;
    std::string ready, reason, restarts;
    std::string containers = R"([{"name":"c","image":"i"}])";
  };
  const std::string running = R"({"name":"c","ready":true,"restartCount":0,"state":{"running":{}}})";
  const std::vector<Case> cases = {
      {"a pending pod", R"({"phase":"Pending"})", "", false, "0/1", "Pending", "0"},
      {"a gated pod", R"({"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"SchedulingGated"}]})",
       "", false, "0/1", "SchedulingGated", "0"},
      {"a running, ready pod", R"({"phase":"Running","containerStatuses":[)" + running + "]}", "", false, "1/1",
       "Running", "0"},
      {"a waiting container's reason; restarts with the last one's age",
       R"({"phase":"Running","containerStatuses":[{"name":"c","ready":false,"restartCount":3,"state":{"waiting":{"reason":"CrashLoopBackOff"}},"lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-06-01T11:58:55Z"}}}]})",
       "", false, "0/1", "CrashLoopBackOff", "3 (65s ago)"},
      {"a completed pod", R"({"phase":"Succeeded","containerStatuses":[{"name":"c","ready":false,"restartCount":0,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]})",
       "", false, "0/1", "Completed", "0"},
      {"a terminated container without a reason: its exit code",
       R"({"phase":"Failed","containerStatuses":[{"name":"c","restartCount":0,"state":{"terminated":{"exitCode":2}}}]})",
       "", false, "0/1", "ExitCode:2", "0"},
      {"... or its signal", R"({"phase":"Failed","containerStatuses":[{"name":"c","restartCount":0,"state":{"terminated":{"exitCode":137,"signal":9}}}]})",
       "", false, "0/1", "Signal:9", "0"},
      {"an init container still running", R"({"phase":"Pending","initContainerStatuses":[{"name":"init","restartCount":0,"state":{"running":{}}}]})",
       R"("initContainers":[{"name":"init","image":"i"}])", false, "0/1", "Init:0/1", "0"},
      {"an init container that failed", R"({"phase":"Pending","initContainerStatuses":[{"name":"init","restartCount":1,"state":{"terminated":{"exitCode":1,"reason":"Error"}}}]})",
       R"("initContainers":[{"name":"init","image":"i"}])", false, "0/1", "Init:Error", "1"},
      {"an init container waiting", R"({"phase":"Pending","initContainerStatuses":[{"name":"init","restartCount":0,"state":{"waiting":{"reason":"ImagePullBackOff"}}}]})",
       R"("initContainers":[{"name":"init","image":"i"}])", false, "0/1", "Init:ImagePullBackOff", "0"},
      {"a started sidecar counts as a container",
       R"({"phase":"Running","conditions":[{"type":"Initialized","status":"True"}],"initContainerStatuses":[{"name":"side","ready":true,"started":true,"restartCount":0,"state":{"running":{}}}],"containerStatuses":[)" +
           running + "]}",
       R"("initContainers":[{"name":"side","image":"i","restartPolicy":"Always"}])", false, "2/2", "Running", "0"},
      {"an init container's retries leave the count once the pod is initialised",
       R"({"phase":"Running","conditions":[{"type":"Initialized","status":"True"}],"initContainerStatuses":[{"name":"init","restartCount":2,"state":{"terminated":{"exitCode":0,"reason":"Completed"}},"lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-06-01T11:59:00Z"}}}],"containerStatuses":[)" +
           running + "]}",
       R"("initContainers":[{"name":"init","image":"i"}])", false, "1/1", "Running", "0"},
      {"null states are absent ones", R"({"phase":"Running","containerStatuses":[{"name":"c","ready":true,"restartCount":0,"state":{"terminated":null,"waiting":null,"running":{}}}]})",
       "", false, "1/1", "Running", "0"},
      {"a pod being deleted is Terminating", R"({"phase":"Running","containerStatuses":[)" + running + "]}", "", true,
       "1/1", "Terminating", "0"},
      {"a deleted pod on a lost node is Unknown", R"({"phase":"Running","reason":"NodeLost"})", "", true, "0/1",
       "Unknown", "0"},
      {"the pod's own reason wins over its phase", R"({"phase":"Failed","reason":"Evicted"})", "", false, "0/1",
       "Evicted", "0"},
      {"Completed, but another container still runs: Running when Ready",
       R"({"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"containerStatuses":[{"name":"a","restartCount":0,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}},)" +
           running + "]}",
       "", false, "1/2", "Running", "0", R"([{"name":"a","image":"i"},{"name":"c","image":"i"}])"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    std::string spec = R"({"containers":)" + c.containers + "}";
    if (!c.spec_extra.empty()) spec = spec.substr(0, spec.size() - 1) + "," + c.spec_extra + "}";
    std::string meta = R"({"name":"p","creationTimestamp":"2026-06-01T11:59:00Z")";
    if (c.deleting) meta += R"(,"deletionTimestamp":"2026-06-01T11:59:30Z")";
    meta += "}";
    PrintedRow row = print("", "Pod", R"({"metadata":)" + meta + R"(,"spec":)" + spec + R"(,"status":)" + c.status + "}");
    CHECK(cell(row, 0) == "p");
    CHECK(cell(row, 1) == c.ready);
    CHECK(cell(row, 2) == c.reason);
    CHECK(cell(row, 3) == c.restarts);
    CHECK(cell(row, 4) == "60s");
  }
}

TEST_CASE("Pod rows: the wide columns and the Completed condition", "[table]") {
  PrintedRow bound = print("", "Pod", R"({"metadata":{"name":"p"},"spec":{"nodeName":"n1","containers":[],
      "readinessGates":[{"conditionType":"example.com/a"},{"conditionType":"example.com/b"}]},
      "status":{"phase":"Succeeded","podIPs":[{"ip":"10.0.0.9"}],"nominatedNodeName":"n2",
      "conditions":[{"type":"example.com/a","status":"True"}]}})");
  CHECK(cell(bound, 4) == "<unknown>");  // no creationTimestamp
  CHECK(cell(bound, 5) == "10.0.0.9");
  CHECK(cell(bound, 6) == "n1");
  CHECK(cell(bound, 7) == "n2");
  CHECK(cell(bound, 8) == "1/2");
  REQUIRE(bound.conditions.size() == 1);
  CHECK(bound.conditions[0].type == "Completed");
  CHECK(bound.conditions[0].reason == "Succeeded");

  PrintedRow only_pod_ip = print("", "Pod", R"({"metadata":{"name":"p"},"spec":{"containers":[]},"status":{"podIP":"10.0.0.5"}})");
  CHECK(cell(only_pod_ip, 5) == "10.0.0.5");

  PrintedRow pending = print("", "Pod", R"({"metadata":{"name":"p"},"spec":{"containers":[]},"status":{}})");
  CHECK(cell(pending, 5) == "<none>");
  CHECK(cell(pending, 6) == "<none>");
  CHECK(cell(pending, 7) == "<none>");
  CHECK(cell(pending, 8) == "<none>");
  CHECK(pending.conditions.empty());
}

TEST_CASE("Node rows: STATUS, ROLES and the node's system info", "[table]") {
  struct Case {
    const char* name;
    std::string node;
    std::string status, roles, version, internal_ip, os_image;
  };
  const std::vector<Case> cases = {
      {"ready, no roles", R"({"metadata":{"name":"n"},"status":{"conditions":[{"type":"Ready","status":"True"}]}})",
       "Ready", "<none>", "", "<none>", "<unknown>"},
      {"not ready, cordoned", R"({"metadata":{"name":"n"},"spec":{"unschedulable":true},"status":{"conditions":[{"type":"Ready","status":"False"}]}})",
       "NotReady,SchedulingDisabled", "<none>", "", "<none>", "<unknown>"},
      {"no Ready condition", R"({"metadata":{"name":"n"},"status":{}})", "Unknown", "<none>", "", "<none>", "<unknown>"},
      {"roles from both label forms, sorted",
       R"({"metadata":{"name":"n","labels":{"node-role.kubernetes.io/worker":"","node-role.kubernetes.io/gpu":"true","kubernetes.io/role":"infra","node-role.kubernetes.io/":"x"}},"status":{"conditions":[{"type":"Ready","status":"True"}],
           "addresses":[{"type":"Hostname","address":"n"},{"type":"InternalIP","address":"10.0.0.1"}],
           "nodeInfo":{"kubeletVersion":"v1.30.0","osImage":"Debian GNU/Linux 12"}}})",
       "Ready", "gpu,infra,worker", "v1.30.0", "10.0.0.1", "Debian GNU/Linux 12"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    PrintedRow row = print("", "Node", c.node);
    CHECK(cell(row, 1) == c.status);
    CHECK(cell(row, 2) == c.roles);
    CHECK(cell(row, 4) == c.version);
    CHECK(cell(row, 5) == c.internal_ip);
    CHECK(cell(row, 6) == "<none>");  // no ExternalIP in any case
    CHECK(cell(row, 7) == c.os_image);
  }
}

TEST_CASE("Event rows: last seen, object, source, count", "[table]") {
  struct Case {
    const char* name;
    std::string event;
    std::string last_seen, object, source, message, first_seen, count;
  };
  const std::vector<Case> cases = {
      {"a core event",
       R"({"metadata":{"name":"e"},"type":"Normal","reason":"Scheduled","message":" placed \n","count":3,
           "involvedObject":{"kind":"Pod","name":"web-0"},"source":{"component":"troupe-scheduler"},
           "firstTimestamp":"2026-06-01T11:00:00Z","lastTimestamp":"2026-06-01T11:59:00Z"})",
       "60s", "pod/web-0", "troupe-scheduler", "placed", "60m", "3"},
      {"an events.k8s.io event in the core API: eventTime, no count, reporting fields",
       R"({"metadata":{"name":"e"},"type":"Warning","reason":"FailedScheduling","message":"no",
           "involvedObject":{"kind":"Pod","name":"p"},"reportingComponent":"troupe-scheduler","reportingInstance":"troupe-0",
           "eventTime":"2026-06-01T11:58:00.000000Z"})",
       "2m", "pod/p", "troupe-scheduler, troupe-0", "no", "2m", "1"},
      {"a series: its last observation and count",
       R"({"metadata":{"name":"e"},"involvedObject":{"kind":"Node"},"eventTime":"2026-06-01T10:00:00.000000Z",
           "series":{"count":7,"lastObservedTime":"2026-06-01T11:59:50.000000Z"}})",
       "10s", "node", "", "", "120m", "7"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    PrintedRow row = print("", "Event", c.event);
    CHECK(cell(row, 0) == c.last_seen);
    CHECK(cell(row, 3) == c.object);
    CHECK(cell(row, 5) == c.source);
    CHECK(cell(row, 6) == c.message);
    CHECK(cell(row, 7) == c.first_seen);
    CHECK(cell(row, 8) == c.count);
    CHECK(cell(row, 9) == "e");
  }
}

TEST_CASE("events.k8s.io Events print like core ones, from their own field names", "[table]") {
  PrintedRow row = print("events.k8s.io", "Event",
                         R"({"metadata":{"name":"e"},"type":"Warning","reason":"FailedScheduling","note":"0/3 nodes",
                             "regarding":{"kind":"Pod","name":"web-0","fieldPath":"spec"},
                             "reportingController":"troupe-scheduler","reportingInstance":"troupe-0",
                             "eventTime":"2026-06-01T11:50:00.000000Z",
                             "series":{"count":4,"lastObservedTime":"2026-06-01T11:59:00.000000Z"}})");
  CHECK(std::vector<std::string>{cell(row, 0), cell(row, 1), cell(row, 2), cell(row, 3), cell(row, 4), cell(row, 5),
                                 cell(row, 6), cell(row, 7), cell(row, 8)} ==
        std::vector<std::string>{"60s", "Warning", "FailedScheduling", "pod/web-0", "spec",
                                 "troupe-scheduler, troupe-0", "0/3 nodes", "10m", "4"});
  PrintedRow deprecated = print("events.k8s.io", "Event",
                                R"({"metadata":{"name":"e"},"regarding":{"kind":"Node","name":"n1"},
                                    "deprecatedSource":{"component":"kubelet","host":"n1"},"deprecatedCount":2,
                                    "deprecatedFirstTimestamp":"2026-06-01T11:00:00Z",
                                    "deprecatedLastTimestamp":"2026-06-01T11:30:00Z"})");
  CHECK(cell(deprecated, 0) == "30m");
  CHECK(cell(deprecated, 5) == "kubelet, n1");
  CHECK(cell(deprecated, 7) == "60m");
  CHECK(cell(deprecated, 8) == "2");
}

TEST_CASE("Namespaces show their phase; other kinds their name and age", "[table]") {
  PrintedRow ns = print("", "Namespace",
                        R"({"metadata":{"name":"team","creationTimestamp":"2026-06-01T09:00:00Z"},"status":{"phase":"Terminating"}})");
  CHECK(cell(ns, 1) == "Terminating");
  CHECK(cell(ns, 2) == "3h");
  PrintedRow device = print("scheduling.koordinator.sh", "Device",
                            R"({"metadata":{"name":"node-1","creationTimestamp":"2026-05-30T12:00:00Z"}})");
  CHECK(cell(device, 0) == "node-1");
  CHECK(cell(device, 1) == "2d");
  CHECK(printer_for("apps", "Pod").columns.size() == 2);  // only the core group's Pod has the pod columns
}

TEST_CASE("Reservations and PodMigrationJobs print their CRDs' printer columns", "[table]") {
  const TablePrinter& reservations = printer_for("scheduling.koordinator.sh", "Reservation");
  std::vector<std::string> names;
  for (const auto& c : reservations.columns) names.emplace_back(c.name);
  CHECK(names == std::vector<std::string>{"Name", "Phase", "Age", "Node", "TTL", "Expires"});
  PrintedRow available = print("scheduling.koordinator.sh", "Reservation",
                               R"({"metadata":{"name":"r","creationTimestamp":"2026-06-01T11:00:00Z"},
                                   "spec":{"ttl":"1h"},"status":{"phase":"Available","nodeName":"n1"}})");
  CHECK(cell(available, 1) == "Available");
  CHECK(cell(available, 2) == "60m");
  CHECK(cell(available, 3) == "n1");
  CHECK(cell(available, 4) == "1h");
  CHECK(cell(available, 5) == "null");  // absent: an empty cell
  PrintedRow odd = print("scheduling.koordinator.sh", "Reservation",
                         R"({"metadata":{"name":"r","creationTimestamp":"yesterday"},"status":{"phase":7}})");
  CHECK(cell(odd, 1) == "7");
  CHECK(cell(odd, 2) == "<invalid>");
  CHECK(cell(odd, 3) == "null");

  PrintedRow job = print("scheduling.koordinator.sh", "PodMigrationJob",
                         R"({"metadata":{"name":"j","creationTimestamp":"2026-06-01T11:59:30Z"},
                             "spec":{"podRef":{"namespace":"default","name":"web-0"},
                                     "reservationOptions":{"reservationRef":{"name":"r-1"}}},
                             "status":{"phase":"Running","status":"Migrating","nodeName":"n2"}})");
  CHECK(std::vector<std::string>{cell(job, 1), cell(job, 2), cell(job, 3), cell(job, 4), cell(job, 5), cell(job, 6),
                                 cell(job, 7)} ==
        std::vector<std::string>{"Running", "Migrating", "n2", "r-1", "default", "web-0", "30s"});
}

TEST_CASE("ConfigMaps, Leases and PodDisruptionBudgets print upstream's columns", "[table]") {
  PrintedRow cm = print("", "ConfigMap", R"({"metadata":{"name":"c"},"data":{"a":"1","b":"2"},"binaryData":{"z":"AA=="}})");
  CHECK(cell(cm, 1) == "3");
  CHECK(cell(print("", "ConfigMap", R"({"metadata":{"name":"c"}})"), 1) == "0");

  PrintedRow lease = print("coordination.k8s.io", "Lease",
                           R"({"metadata":{"name":"troupe-scheduler"},"spec":{"holderIdentity":"troupe-0_ab12"}})");
  CHECK(cell(lease, 1) == "troupe-0_ab12");
  CHECK(cell(print("coordination.k8s.io", "Lease", R"({"metadata":{"name":"l"},"spec":{}})"), 1).empty());

  struct Case {
    const char* name;
    std::string pdb;
    std::string min_available, max_unavailable, allowed;
  };
  const std::vector<Case> cases = {
      {"minAvailable as a number", R"({"metadata":{"name":"p"},"spec":{"minAvailable":2},"status":{"disruptionsAllowed":1}})",
       "2", "N/A", "1"},
      {"maxUnavailable as a percentage", R"({"metadata":{"name":"p"},"spec":{"maxUnavailable":"25%"},"status":{}})",
       "N/A", "25%", "0"},
      {"neither", R"({"metadata":{"name":"p"},"spec":{}})", "N/A", "N/A", "0"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    PrintedRow row = print("policy", "PodDisruptionBudget", c.pdb);
    CHECK(cell(row, 1) == c.min_available);
    CHECK(cell(row, 2) == c.max_unavailable);
    CHECK(cell(row, 3) == c.allowed);
  }
}
