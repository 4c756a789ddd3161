#include "sim/table_printers.hpp"

#include <optional>
#include <set>

#include "model/json.hpp"
#include "model/text.hpp"
#include "sim/human_duration.hpp"

namespace troupe::sim {

namespace {

using rapidjson::Value;

constexpr const char* kNameDescription =
    "Name must be unique within a namespace. Is required when creating resources, although some resources may "
    "allow a client to request the generation of an appropriate name automatically. Name is primarily intended "
    "for creation idempotence and configuration definition. Cannot be updated. More info: "
    "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
constexpr const char* kAgeDescription =
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not "
    "guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It "
    "is represented in RFC3339 form and is in UTC.";

const TableColumn kNameColumn{"Name", "string", "name", kNameDescription, 0};
const TableColumn kAgeColumn{"Age", "string", "", kAgeDescription, 0};

template <class... Keys>
std::optional<Timestamp> time_at(const Value& root, const Keys&... keys) {
  const std::string text = get_string(root, keys...);
  if (text.empty()) return std::nullopt;
  auto parsed = parse_timestamp(text);
  if (!parsed) return std::nullopt;
  return *parsed;
}

std::string or_none(std::string text, const char* none = "<none>") { return text.empty() ? none : text; }

std::string age_of(const Value& object, Timestamp now) {
  return human_age(time_at(object, "metadata", "creationTimestamp"), now);
}

const Value& array_at(const Value& root, const char* a, const char* b) {
  static const Value kEmpty(rapidjson::kArrayType);
  const Value* v = find_path(root, a, b);
  return v != nullptr && v->IsArray() ? *v : kEmpty;
}

// ---- Pod (printPod) ----

/// A terminated container's reason, or its signal or exit code when it gave none.
std::string terminated_reason(const Value& terminated) {
  std::string reason = get_string(terminated, "reason");
  if (!reason.empty()) return reason;
  if (auto signal = get_int(terminated, "signal"); signal && *signal != 0) return "Signal:" + std::to_string(*signal);
  return "ExitCode:" + std::to_string(get_int(terminated, "exitCode").value_or(0));
}

/// Whether the pod's init container `name` is a sidecar (restartPolicy: Always).
bool is_restartable_init(const Value& pod, const std::string& name) {
  for (const auto& c : array_at(pod, "spec", "initContainers").GetArray())
    if (get_string(c, "name") == name) return get_string(c, "restartPolicy") == "Always";
  return false;
}

bool has_condition(const Value& pod, const char* type, const char* status) {
  for (const auto& c : array_at(pod, "status", "conditions").GetArray())
    if (get_string(c, "type") == type && get_string(c, "status") == status) return true;
  return false;
}

/// A container status's state member (`running`, `waiting`, `terminated`), when it is an object.
const Value* state_of(const Value& status, const char* state) {
  const Value* v = find_path(status, "state", state);
  return v != nullptr && v->IsObject() ? v : nullptr;
}

/// Restarts and when the latest one ended.
struct Restarts {
  int64_t count = 0;
  std::optional<Timestamp> last;

  void note(const Value& status) {
    count += get_int(status, "restartCount").value_or(0);
    if (auto finished = time_at(status, "lastState", "terminated", "finishedAt"))
      if (!last || *finished > *last) last = finished;
  }
};

struct PodCounts {
  std::string reason;
  int64_t ready = 0;
  int64_t total = 0;
  Restarts restarts;          // every container's
  Restarts sidecar_restarts;  // the restartable init containers' only
};

/// The init containers' part: false while one is still initialising the pod (its reason is the pod's).
bool initialised(const Value& pod, PodCounts& counts) {
  const auto& statuses = array_at(pod, "status", "initContainerStatuses");
  const size_t declared = array_at(pod, "spec", "initContainers").Size();
  for (rapidjson::SizeType i = 0; i < statuses.Size(); ++i) {
    const Value& c = statuses[i];
    const bool restartable = is_restartable_init(pod, get_string(c, "name"));
    counts.restarts.note(c);
    if (restartable) counts.sidecar_restarts.note(c);
    const Value* terminated = state_of(c, "terminated");
    const std::string waiting = get_string(c, "state", "waiting", "reason");
    if (terminated != nullptr && get_int(*terminated, "exitCode").value_or(0) == 0) continue;
    if (restartable && get_bool(c, "started").value_or(false)) {
      if (get_bool(c, "ready").value_or(false)) ++counts.ready;
      continue;
    }
    if (terminated != nullptr) {
      counts.reason = "Init:" + terminated_reason(*terminated);
    } else if (!waiting.empty() && waiting != "PodInitializing") {
      counts.reason = "Init:" + waiting;
    } else {
      counts.reason = "Init:" + std::to_string(i) + "/" + std::to_string(declared);
    }
    return false;
  }
  return true;
}

/// Once initialised: the app containers' reasons and readiness; restarts
/// are the sidecars' and the app containers' (upstream drops the finished
/// init containers' retries from the count here).
void count_containers(const Value& pod, PodCounts& counts) {
  counts.restarts = counts.sidecar_restarts;
  const auto& statuses = array_at(pod, "status", "containerStatuses");
  bool running = false;
  for (rapidjson::SizeType i = statuses.Size(); i-- > 0;) {
    const Value& c = statuses[i];
    counts.restarts.note(c);
    const std::string waiting = get_string(c, "state", "waiting", "reason");
    const Value* terminated = state_of(c, "terminated");
    if (!waiting.empty()) {
      counts.reason = waiting;
    } else if (terminated != nullptr) {
      counts.reason = terminated_reason(*terminated);
    } else if (get_bool(c, "ready").value_or(false) && state_of(c, "running") != nullptr) {
      running = true;
      ++counts.ready;
    }
  }
  if (counts.reason == "Completed" && running)
    counts.reason = has_condition(pod, "Ready", "True") ? "Running" : "NotReady";
}

/// status.podIP, else the first of status.podIPs (upstream's conversion fills one from the other).
std::string pod_ip(const Value& pod) {
  std::string ip = get_string(pod, "status", "podIP");
  const auto& ips = array_at(pod, "status", "podIPs");
  if (ip.empty() && ips.Size() > 0) ip = get_string(ips[0], "ip");
  return or_none(ip);
}

PrintedRow print_pod(const Value& pod, Timestamp now) {
  PodCounts counts;
  const std::string phase = get_string(pod, "status", "phase");
  counts.reason = get_string(pod, "status", "reason");
  if (counts.reason.empty()) counts.reason = phase;
  for (const auto& c : array_at(pod, "status", "conditions").GetArray())
    if (get_string(c, "type") == "PodScheduled" && get_string(c, "reason") == "SchedulingGated")
      counts.reason = "SchedulingGated";
  counts.total = array_at(pod, "spec", "containers").Size();
  for (const auto& c : array_at(pod, "spec", "initContainers").GetArray())
    if (get_string(c, "restartPolicy") == "Always") ++counts.total;
  if (initialised(pod, counts) || has_condition(pod, "Initialized", "True")) count_containers(pod, counts);
  const bool terminal = phase == "Succeeded" || phase == "Failed";
  if (!get_string(pod, "metadata", "deletionTimestamp").empty()) {
    if (get_string(pod, "status", "reason") == "NodeLost") {
      counts.reason = "Unknown";
    } else if (!terminal) {
      counts.reason = "Terminating";
    }
  }
  std::string restarts = std::to_string(counts.restarts.count);
  if (counts.restarts.count != 0 && counts.restarts.last)
    restarts += " (" + human_age(counts.restarts.last, now) + " ago)";
  std::string gates = "<none>";
  const auto& readiness = array_at(pod, "spec", "readinessGates");
  if (readiness.Size() > 0) {
    int64_t met = 0;
    for (const auto& gate : readiness.GetArray())
      if (has_condition(pod, get_string(gate, "conditionType").c_str(), "True")) ++met;
    gates = std::to_string(met) + "/" + std::to_string(readiness.Size());
  }
  PrintedRow row;
  row.cells = {get_string(pod, "metadata", "name"),
               std::to_string(counts.ready) + "/" + std::to_string(counts.total),
               counts.reason,
               restarts,
               age_of(pod, now),
               pod_ip(pod),
               or_none(get_string(pod, "spec", "nodeName")),
               or_none(get_string(pod, "status", "nominatedNodeName")),
               gates};
  if (phase == "Succeeded")
    row.conditions.push_back({"Completed", "True", "Succeeded", "The pod has completed successfully."});
  if (phase == "Failed") row.conditions.push_back({"Completed", "True", "Failed", "The pod failed."});
  return row;
}

// ---- Node (printNode) ----

std::string node_status(const Value& node) {
  std::string status = "Unknown";
  for (const auto& c : array_at(node, "status", "conditions").GetArray())
    if (get_string(c, "type") == "Ready") status = get_string(c, "status") == "True" ? "Ready" : "NotReady";
  if (get_bool(node, "spec", "unschedulable").value_or(false)) status += ",SchedulingDisabled";
  return status;
}

/// node-role.kubernetes.io/<role> labels and kubernetes.io/role, sorted, comma-joined.
std::string node_roles(const Value& node) {
  static const std::string kRolePrefix = "node-role.kubernetes.io/";
  std::set<std::string> roles;
  const Value* labels = find_path(node, "metadata", "labels");
  if (labels != nullptr && labels->IsObject())
    for (const auto& m : labels->GetObject()) {
      const std::string key = m.name.GetString();
      const std::string value = m.value.IsString() ? m.value.GetString() : "";
      if (key.rfind(kRolePrefix, 0) == 0 && key.size() > kRolePrefix.size()) roles.insert(key.substr(kRolePrefix.size()));
      if (key == "kubernetes.io/role" && !value.empty()) roles.insert(value);
    }
  std::string out;
  for (const auto& r : roles) out += (out.empty() ? "" : ",") + r;
  return or_none(out);
}

std::string node_address(const Value& node, const char* type) {
  for (const auto& a : array_at(node, "status", "addresses").GetArray())
    if (get_string(a, "type") == type) return get_string(a, "address");
  return "<none>";
}

PrintedRow print_node(const Value& node, Timestamp now) {
  PrintedRow row;
  row.cells = {get_string(node, "metadata", "name"),
               node_status(node),
               node_roles(node),
               age_of(node, now),
               get_string(node, "status", "nodeInfo", "kubeletVersion"),
               node_address(node, "InternalIP"),
               node_address(node, "ExternalIP"),
               or_none(get_string(node, "status", "nodeInfo", "osImage"), "<unknown>"),
               or_none(get_string(node, "status", "nodeInfo", "kernelVersion"), "<unknown>"),
               or_none(get_string(node, "status", "nodeInfo", "containerRuntimeVersion"), "<unknown>")};
  return row;
}

// ---- Event (printEvent), core/v1 and events.k8s.io/v1 ----

/// Where an Event keeps what printEvent reads: core/v1 and events.k8s.io/v1
/// name the same fields differently (upstream converts one into the other).
struct EventFields {
  const char* regarding;
  const char* message;
  const char* first_seen;
  const char* last_seen;
  const char* count;
  const char* source;
  const char* controller;
};
constexpr EventFields kCoreEventFields{"involvedObject", "message",         "firstTimestamp",   "lastTimestamp",
                                       "count",          "source",          "reportingComponent"};
constexpr EventFields kEventsV1Fields{"regarding",       "note",             "deprecatedFirstTimestamp",
                                      "deprecatedLastTimestamp", "deprecatedCount", "deprecatedSource",
                                      "reportingController"};

PrintedRow print_event_fields(const Value& event, Timestamp now, const EventFields& f) {
  auto first_seen = time_at(event, f.first_seen);
  if (!first_seen) first_seen = time_at(event, "eventTime");
  auto last_seen = time_at(event, f.last_seen);
  if (!last_seen) last_seen = first_seen;
  int64_t count = get_int(event, f.count).value_or(0);
  if (const Value* series = find_path(event, "series"); series != nullptr && series->IsObject()) {
    last_seen = time_at(*series, "lastObservedTime");
    count = get_int(*series, "count").value_or(0);
  } else if (count == 0) {
    count = 1;  // singleton events of the events.k8s.io API have no count
  }
  const std::string kind = ascii_lower(get_string(event, f.regarding, "kind"));
  const std::string name = get_string(event, f.regarding, "name");
  std::string component = get_string(event, f.source, "component");
  if (component.empty()) component = get_string(event, f.controller);
  std::string instance = get_string(event, f.source, "host");
  if (instance.empty()) instance = get_string(event, "reportingInstance");
  PrintedRow row;
  row.cells = {human_age(last_seen, now),
               get_string(event, "type"),
               get_string(event, "reason"),
               name.empty() ? kind : kind + "/" + name,
               get_string(event, f.regarding, "fieldPath"),
               instance.empty() ? component : component + ", " + instance,
               trim(get_string(event, f.message)),
               human_age(first_seen, now),
               count,
               get_string(event, "metadata", "name")};
  return row;
}

PrintedRow print_event(const Value& event, Timestamp now) { return print_event_fields(event, now, kCoreEventFields); }
PrintedRow print_events_v1_event(const Value& event, Timestamp now) {
  return print_event_fields(event, now, kEventsV1Fields);
}

// ---- Namespace (printNamespace) and the rest ----

PrintedRow print_namespace(const Value& ns, Timestamp now) {
  PrintedRow row;
  row.cells = {get_string(ns, "metadata", "name"), get_string(ns, "status", "phase"), age_of(ns, now)};
  return row;
}

// ---- ConfigMap, Lease, PodDisruptionBudget ----

/// The number of members of an object-valued field (0 when absent).
int64_t member_count(const Value& object, const char* key) {
  const Value* v = find_path(object, key);
  return v != nullptr && v->IsObject() ? static_cast<int64_t>(v->MemberCount()) : 0;
}

PrintedRow print_config_map(const Value& cm, Timestamp now) {
  PrintedRow row;
  row.cells = {get_string(cm, "metadata", "name"), member_count(cm, "data") + member_count(cm, "binaryData"),
               age_of(cm, now)};
  return row;
}

PrintedRow print_lease(const Value& lease, Timestamp now) {
  PrintedRow row;
  row.cells = {get_string(lease, "metadata", "name"), get_string(lease, "spec", "holderIdentity"), age_of(lease, now)};
  return row;
}

/// An IntOrString as IntOrString.String() prints it; "N/A" when unset.
std::string int_or_string_text(const Value& object, const char* a, const char* b) {
  const Value* v = find_path(object, a, b);
  if (v == nullptr || v->IsNull()) return "N/A";
  if (v->IsInt64()) return std::to_string(v->GetInt64());
  if (v->IsString()) return std::string(v->GetString(), v->GetStringLength());
  return "N/A";
}

PrintedRow print_pod_disruption_budget(const Value& pdb, Timestamp now) {
  PrintedRow row;
  row.cells = {get_string(pdb, "metadata", "name"), int_or_string_text(pdb, "spec", "minAvailable"),
               int_or_string_text(pdb, "spec", "maxUnavailable"),
               get_int(pdb, "status", "disruptionsAllowed").value_or(0), age_of(pdb, now)};
  return row;
}

PrintedRow print_name_and_age(const Value& object, Timestamp now) {
  PrintedRow row;
  row.cells = {get_string(object, "metadata", "name"), age_of(object, now)};
  return row;
}

// ---- custom resources: their CRD's additionalPrinterColumns ----

/// One additionalPrinterColumn: a simple JSONPath (".status.phase") and its type.
struct PathColumn {
  TableColumn column;
  std::vector<std::string> path;
};

/// A cell per column, as apiextensions-apiserver's table convertor makes
/// it: "date" values as ages, strings as they are, numbers as numbers,
/// anything absent (or of another shape) null.
TableCell path_cell(const Value& object, const PathColumn& c, Timestamp now) {
  const Value* at = &object;
  for (const auto& key : c.path) at = at == nullptr ? nullptr : find_path(*at, key);
  if (at == nullptr || at->IsNull()) return std::monostate{};
  if (std::string(c.column.type) == "date") {
    if (!at->IsString()) return std::monostate{};
    auto t = parse_timestamp(at->GetString());
    return t ? human_age(*t, now) : std::string("<invalid>");
  }
  if (at->IsString()) return std::string(at->GetString(), at->GetStringLength());
  if (at->IsInt64()) return at->GetInt64();
  if (at->IsBool()) return std::string(at->GetBool() ? "true" : "false");
  return std::monostate{};
}

TablePrinter custom_resource_printer(std::vector<PathColumn> columns) {
  TablePrinter printer;
  printer.columns.push_back(kNameColumn);
  for (const auto& c : columns) printer.columns.push_back(c.column);
  printer.print = [columns](const Value& object, Timestamp now) {
    PrintedRow row;
    row.cells.push_back(get_string(object, "metadata", "name"));
    for (const auto& c : columns) row.cells.push_back(path_cell(object, c, now));
    return row;
  };
  return printer;
}

PathColumn string_column(const char* name, std::vector<std::string> path) {
  return {{name, "string", "", "", 0}, std::move(path)};
}
PathColumn age_column() { return {{"Age", "date", "", kAgeDescription, 0}, {"metadata", "creationTimestamp"}}; }

}  // namespace

const TablePrinter& printer_for(const std::string& group, const std::string& kind) {
  static const TablePrinter kPod{
      {kNameColumn,
       {"Ready", "string", "", "The aggregate readiness state of this pod for accepting traffic.", 0},
       {"Status", "string", "", "The aggregate status of the containers in this pod.", 0},
       {"Restarts", "string", "",
        "The number of times the containers in this pod have been restarted and when the last container in this "
        "pod has restarted.",
        0},
       kAgeColumn,
       {"IP", "string", "", "podIP address allocated to the pod. Routable at least within the cluster.", 1},
       {"Node", "string", "", "NodeName indicates in which node this pod is scheduled.", 1},
       {"Nominated Node", "string", "",
        "nominatedNodeName is set when this pod preempts other pods on the node, but it cannot be scheduled right "
        "away as preemption victims receive their graceful termination periods.",
        1},
       {"Readiness Gates", "string", "", "If specified, all readiness gates will be evaluated for pod readiness.", 1}},
      print_pod};
  static const TablePrinter kNode{
      {kNameColumn,
       {"Status", "string", "", "The status of the node", 0},
       {"Roles", "string", "", "The roles of the node", 0},
       kAgeColumn,
       {"Version", "string", "", "Kubelet Version reported by the node.", 0},
       {"Internal-IP", "string", "", "List of addresses reachable to the node. Queried from cloud provider, if available.", 1},
       {"External-IP", "string", "", "List of addresses reachable to the node. Queried from cloud provider, if available.", 1},
       {"OS-Image", "string", "", "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", 1},
       {"Kernel-Version", "string", "", "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1},
       {"Container-Runtime", "string", "", "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).", 1}},
      print_node};
  static const TablePrinter kEvent{
      {{"Last Seen", "string", "", "The time at which the most recent occurrence of this event was recorded.", 0},
       {"Type", "string", "", "Type of this event (Normal, Warning), new types could be added in the future", 0},
       {"Reason", "string", "", "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", 0},
       {"Object", "string", "", "The object that this event is about.", 0},
       {"Subobject", "string", "", "The field of the object this event is about (its fieldPath).", 1},
       {"Source", "string", "", "The component reporting this event. Should be a short machine understandable string.", 1},
       {"Message", "string", "", "A human-readable description of the status of this operation.", 0},
       {"First Seen", "string", "", "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)", 1},
       {"Count", "string", "", "The number of times this event has occurred.", 1},
       {"Name", "string", "name", kNameDescription, 1}},
      print_event};
  static const TablePrinter kEventsV1Event{kEvent.columns, print_events_v1_event};
  static const TablePrinter kNamespace{
      {kNameColumn, {"Status", "string", "", "The status of the namespace", 0}, kAgeColumn}, print_namespace};
  static const TablePrinter kDefault{{kNameColumn, kAgeColumn}, print_name_and_age};
  static const TablePrinter kConfigMap{
      {kNameColumn, {"Data", "string", "", "Data contains the configuration data.", 0}, kAgeColumn},
      print_config_map};
  static const TablePrinter kLease{
      {kNameColumn, {"Holder", "string", "", "holderIdentity contains the identity of the holder of a current lease.", 0},
       kAgeColumn},
      print_lease};
  static const TablePrinter kPodDisruptionBudget{
      {kNameColumn,
       {"Min Available", "string", "", "The minimum number of pods that must be available simultaneously.", 0},
       {"Max Unavailable", "string", "", "The maximum number of pods that may be unavailable simultaneously.", 0},
       {"Allowed Disruptions", "integer", "", "Calculated number of pods that may be disrupted at this time.", 0},
       kAgeColumn},
      print_pod_disruption_budget};
  if (group.empty() && kind == "ConfigMap") return kConfigMap;
  if (group == "coordination.k8s.io" && kind == "Lease") return kLease;
  if (group == "policy" && kind == "PodDisruptionBudget") return kPodDisruptionBudget;
  static const TablePrinter kReservation = custom_resource_printer(
      {string_column("Phase", {"status", "phase"}), age_column(), string_column("Node", {"status", "nodeName"}),
       string_column("TTL", {"spec", "ttl"}), string_column("Expires", {"spec", "expires"})});
  static const TablePrinter kPodMigrationJob = custom_resource_printer(
      {string_column("Phase", {"status", "phase"}), string_column("Status", {"status", "status"}),
       string_column("Node", {"status", "nodeName"}),
       string_column("Reservation", {"spec", "reservationOptions", "reservationRef", "name"}),
       string_column("PodNamespace", {"spec", "podRef", "namespace"}), string_column("Pod", {"spec", "podRef", "name"}),
       age_column()});
  if (group == "scheduling.koordinator.sh" && kind == "Reservation") return kReservation;
  if (group == "scheduling.koordinator.sh" && kind == "PodMigrationJob") return kPodMigrationJob;
  if (group.empty() && kind == "Pod") return kPod;
  if (group.empty() && kind == "Node") return kNode;
  if (group.empty() && kind == "Event") return kEvent;
  if (group == "events.k8s.io" && kind == "Event") return kEventsV1Event;
  if (group.empty() && kind == "Namespace") return kNamespace;
  return kDefault;
}

}  // namespace troupe::sim
