// Pod subresources: binding (pods/{name}/binding and the legacy bindings
// collection) and eviction (pods/{name}/eviction with PodDisruptionBudgets),
// following pkg/registry/core/pod/storage/storage.go and eviction.go.
#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "model/label_selector.hpp"
#include "sim/api_handler.hpp"
#include "sim/object_rules.hpp"
#include "sim/pod_scheduling_gates.hpp"

namespace troupe::sim {

namespace {

using Alloc = rapidjson::Document::AllocatorType;

// Sets the PodScheduled condition to True, replacing any earlier one.
void set_pod_scheduled(rapidjson::Document& pod) {
  auto& alloc = pod.GetAllocator();
  rapidjson::Value& conditions = conditions_of(pod);
  for (auto it = conditions.Begin(); it != conditions.End();) {
    if (it->IsObject() && string_at(*it, "type") == "PodScheduled") {
      it = conditions.Erase(it);
    } else {
      ++it;
    }
  }
  rapidjson::Value condition(rapidjson::kObjectType);
  condition.AddMember("type", "PodScheduled", alloc);
  condition.AddMember("status", "True", alloc);
  condition.AddMember("lastProbeTime", rapidjson::Value(rapidjson::kNullType), alloc);
  std::string now = now_rfc3339();
  condition.AddMember("lastTransitionTime", rapidjson::Value(now.c_str(), alloc), alloc);
  conditions.PushBack(std::move(condition), alloc);
}

// Copies the Binding's annotations onto the pod (the scheduler's allocation
// annotations ride on the Binding).
void copy_annotations(const rapidjson::Value& binding, rapidjson::Document& pod) {
  auto meta = binding.FindMember("metadata");
  if (meta == binding.MemberEnd() || !meta->value.IsObject()) return;
  auto annotations = meta->value.FindMember("annotations");
  if (annotations == meta->value.MemberEnd() || !annotations->value.IsObject()) return;
  auto& alloc = pod.GetAllocator();
  rapidjson::Value& pod_meta = metadata_of(pod);
  auto target = pod_meta.FindMember("annotations");
  if (target == pod_meta.MemberEnd() || !target->value.IsObject()) {
    if (target != pod_meta.MemberEnd()) pod_meta.RemoveMember(target);
    pod_meta.AddMember("annotations", rapidjson::Value(rapidjson::kObjectType), alloc);
    target = pod_meta.FindMember("annotations");
  }
  for (const auto& a : annotations->value.GetObject()) {
    if (!a.value.IsString()) continue;
    auto existing = target->value.FindMember(a.name);
    if (existing != target->value.MemberEnd()) {
      existing->value.CopyFrom(a.value, alloc);
    } else {
      target->value.AddMember(rapidjson::Value(a.name, alloc), rapidjson::Value(a.value, alloc), alloc);
    }
  }
}

// An int-or-percent ("50%") scaled against `total`, rounded up as the
// disruption controller does.
std::optional<int64_t> scaled(const rapidjson::Value& value, int64_t total) {
  if (value.IsInt64()) return value.GetInt64();
  if (!value.IsString()) return std::nullopt;
  std::string s = value.GetString();
  if (s.empty() || s.back() != '%') return std::nullopt;
  try {
    double percent = std::stod(s.substr(0, s.size() - 1));
    return static_cast<int64_t>(std::ceil(percent * static_cast<double>(total) / 100.0));
  } catch (...) {
    return std::nullopt;
  }
}

bool pod_is_terminal(const std::string& phase) { return phase == "Succeeded" || phase == "Failed"; }

// Healthy for a disruption budget: Running, and not reported unready.
bool pod_is_healthy(const rapidjson::Value& pod) {
  if (string_at(pod, "status", "phase") != "Running") return false;
  auto status = pod.FindMember("status");
  auto conditions = status->value.FindMember("conditions");
  if (conditions == status->value.MemberEnd() || !conditions->value.IsArray()) return true;
  for (const auto& c : conditions->value.GetArray())
    if (c.IsObject() && string_at(c, "type") == "Ready") return string_at(c, "status") != "False";
  return true;
}

/// The pod's controller owner reference (controller: true), if any.
const rapidjson::Value* controller_of(const rapidjson::Value& pod) {
  auto meta = pod.FindMember("metadata");
  if (meta == pod.MemberEnd() || !meta->value.IsObject()) return nullptr;
  auto owners = meta->value.FindMember("ownerReferences");
  if (owners == meta->value.MemberEnd() || !owners->value.IsArray()) return nullptr;
  for (const auto& o : owners->value.GetArray()) {
    auto controller = o.IsObject() ? o.FindMember("controller") : o.MemberEnd();
    if (o.IsObject() && controller != o.MemberEnd() && controller->value.IsTrue()) return &o;
  }
  return nullptr;
}

/// The disruption controller's getExpectedScale: the replicas the pods'
/// controllers want, each controller once (by uid); pods without a
/// controller are left out (upstream's unmanaged pods). nullopt when a
/// controller is not one whose scale is known here (a ReplicaSet a Deployment
/// owns, a Job, a custom resource) or is gone: the controller then allows no
/// disruption. Served: ReplicaSet, StatefulSet, ReplicationController.
std::optional<int64_t> expected_scale(const ObjectStore& store, const ResourceRegistry& registry, const std::string& ns,
                                      const std::vector<rapidjson::Document>& pods) {
  struct Kind {
    const char* kind;
    const char* group;
    const char* plural;
  };
  static constexpr Kind kControllers[] = {{"ReplicaSet", "apps", "replicasets"},
                                          {"StatefulSet", "apps", "statefulsets"},
                                          {"ReplicationController", "", "replicationcontrollers"}};
  std::map<std::string, int64_t> replicas_by_uid;
  for (const auto& pod : pods) {
    const rapidjson::Value* owner = controller_of(pod);
    if (owner == nullptr) continue;  // unmanaged: not counted
    const std::string uid = string_at(*owner, "uid");
    if (replicas_by_uid.count(uid) > 0) continue;
    const std::string kind = string_at(*owner, "kind");
    const Kind* known = nullptr;
    for (const Kind& k : kControllers)
      if (kind == k.kind) known = &k;
    const ResourceInfo* resource = known ? registry.find(known->group, "v1", known->plural) : nullptr;
    ObjectPtr controller = resource ? store.get(*resource, ns, string_at(*owner, "name")) : nullptr;
    if (!controller || controller->uid != uid) return std::nullopt;
    rapidjson::Document doc;
    doc.Parse(controller->json.data(), controller->json.size());
    if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
    if (kind == "ReplicaSet") {
      const rapidjson::Value* rs_owner = controller_of(doc);
      if (rs_owner != nullptr && string_at(*rs_owner, "kind") == "Deployment") return std::nullopt;
    }
    const rapidjson::Value* spec = doc.HasMember("spec") && doc["spec"].IsObject() ? &doc["spec"] : nullptr;
    const bool given = spec != nullptr && spec->HasMember("replicas") && (*spec)["replicas"].IsInt64();
    replicas_by_uid[uid] = given ? (*spec)["replicas"].GetInt64() : 1;  // replicas defaults to 1
  }
  int64_t total = 0;
  for (const auto& [uid, replicas] : replicas_by_uid) total += replicas;
  return total;
}

}  // namespace

ApiResponse ApiHandler::bind(const ParsedPath& path, const ApiRequest& request, bool legacy) {
  const ResourceInfo& pods = *registry_.find("", "v1", "pods");
  const ResourceInfo& bindings = *registry_.find("", "v1", "bindings");
  auto parsed = parse_body_object(request.body, request.content_type);
  if (!parsed.ok()) return error_response(parsed.error());
  const rapidjson::Document& binding = parsed.value();
  std::string body_name = string_at(binding, "metadata", "name");
  std::string name = legacy ? body_name : path.name;
  if (name.empty())
    return error_response(invalid(bindings, "", {required_field("metadata.name", "name or generateName is required")}));
  if (!legacy && !body_name.empty() && body_name != path.name)
    return error_response(bad_request("the name of the object does not match the name on the URL"));
  std::string body_ns = string_at(binding, "metadata", "namespace");
  if (!body_ns.empty() && body_ns != path.ns)
    return error_response(bad_request("the namespace of the provided object does not match the namespace sent on the request"));
  std::string target_kind = string_at(binding, "target", "kind");
  std::string node = string_at(binding, "target", "name");
  std::vector<StatusCause> causes;
  if (!target_kind.empty() && target_kind != "Node")
    causes.push_back({"FieldValueNotSupported", "Unsupported value: \"" + target_kind + "\": supported values: \"Node\"",
                      "target.kind"});
  if (node.empty()) causes.push_back(required_field("target.name"));
  if (!causes.empty()) return error_response(invalid(bindings, name, std::move(causes)));
  std::string want_uid = string_at(binding, "metadata", "uid");
  std::string want_rv = string_at(binding, "metadata", "resourceVersion");

  auto result = store_.modify(pods, path.ns, name, [&](const ObjectPtr& current) -> ApiResult<Change> {
    if (!current) return not_found(pods, name);
    // A failed precondition is the pod update's error (InterpretUpdateError on "pods").
    if (!want_uid.empty() && want_uid != current->uid)
      return conflict("pods", "", name,
                      "Precondition failed: UID in precondition: " + want_uid + ", UID in object meta: " + current->uid);
    std::string rv = std::to_string(current->resource_version);
    if (!want_rv.empty() && want_rv != rv)
      return conflict("pods", "", name,
                      "Precondition failed: ResourceVersion in precondition: " + want_rv +
                          ", ResourceVersion in object meta: " + rv);
    if (current->being_deleted)
      return conflict("pods/binding", "", name, "pod " + name + " is being deleted, cannot be assigned to a host");
    Change change;
    change.doc.Parse(current->json.data(), current->json.size());
    if (change.doc.HasParseError() || !change.doc.IsObject()) return internal_error("stored pod is not valid JSON");
    auto spec = change.doc.FindMember("spec");
    if (spec == change.doc.MemberEnd() || !spec->value.IsObject()) return internal_error("stored pod has no spec");
    std::string bound_to = string_at(spec->value, "nodeName");
    if (!bound_to.empty())
      return conflict("pods/binding", "", name, "pod " + name + " is already assigned to node \"" + bound_to + "\"");
    if (has_scheduling_gates(change.doc))
      return conflict("pods/binding", "", name, "pod " + name + " has non-empty .spec.schedulingGates");
    set_string(spec->value, "nodeName", node, change.doc.GetAllocator());
    copy_annotations(binding, change.doc);
    set_pod_scheduled(change.doc);
    change.action = Change::Action::replace;
    return change;
  });
  if (!result.ok()) return error_response(result.error());
  ApiResponse response;
  response.status = 201;
  response.body = success_status(201);
  return response;
}

ApiResponse ApiHandler::evict(const ParsedPath& path, const ApiRequest& request) {
  const ResourceInfo& pods = *registry_.find("", "v1", "pods");
  const ResourceInfo& pdbs = *registry_.find("policy", "v1", "poddisruptionbudgets");
  auto parsed = parse_body_object(request.body, request.content_type);
  if (!parsed.ok()) return error_response(parsed.error());
  const rapidjson::Document& eviction = parsed.value();
  std::string body_name = string_at(eviction, "metadata", "name");
  if (!body_name.empty() && body_name != path.name)
    return error_response(bad_request("name in URL does not match name in Eviction object"));
  const rapidjson::Value* options = nullptr;
  if (auto it = eviction.FindMember("deleteOptions"); it != eviction.MemberEnd() && it->value.IsObject())
    options = &it->value;
  if (auto refused = refuse_dry_run(request.query, options)) return error_response(*refused);

  // One eviction at a time decides against the budgets, so two concurrent
  // evictions cannot both spend the last allowed disruption.
  std::lock_guard<std::mutex> lock(eviction_mutex_);
  ObjectPtr pod = store_.get(pods, path.ns, path.name);
  if (!pod) return error_response(not_found(pods, path.name));
  rapidjson::Document pod_doc;
  pod_doc.Parse(pod->json.data(), pod->json.size());
  std::string phase = string_at(pod_doc, "status", "phase");

  // Pending and terminal pods never count against a budget.
  if (phase != "Pending" && !pod_is_terminal(phase) && !pod->being_deleted) {
    ObjectFilter in_ns;
    in_ns.ns = path.ns;
    std::vector<std::pair<ObjectPtr, LabelSelector>> matching;
    for (const auto& pdb : store_.list(pdbs, in_ns).items) {
      rapidjson::Document d;
      d.Parse(pdb->json.data(), pdb->json.size());
      auto spec = d.FindMember("spec");
      if (spec == d.MemberEnd() || !spec->value.IsObject()) continue;
      auto sel = spec->value.FindMember("selector");
      if (sel == spec->value.MemberEnd() || sel->value.IsNull()) continue; // a null selector selects nothing
      auto selector = decode_label_selector(sel->value, "spec.selector");
      if (!selector.ok() || !selector->matches(pod->labels)) continue;
      matching.emplace_back(pdb, selector.value());
    }
    if (matching.size() > 1)
      return error_response(internal_error(
          "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."));
    if (matching.size() == 1) {
      const auto& [pdb, selector] = matching[0];
      rapidjson::Document d;
      d.Parse(pdb->json.data(), pdb->json.size());
      const rapidjson::Value& spec = d["spec"];
      ObjectFilter selected;
      selected.ns = path.ns;
      selected.labels = selector;
      int64_t healthy = 0;
      std::vector<rapidjson::Document> alive;
      for (const auto& p : store_.list(pods, selected).items) {
        rapidjson::Document pd;
        pd.Parse(p->json.data(), p->json.size());
        if (pod_is_terminal(string_at(pd, "status", "phase")) || p->being_deleted) continue;
        if (pod_is_healthy(pd)) ++healthy;
        alive.push_back(std::move(pd));
      }
      // As the disruption controller's getExpectedPodCount: maxUnavailable
      // and a percentage minAvailable count the replicas the pods'
      // controllers want (pods already evicted still count until they are
      // replaced); an integer minAvailable the pods there are; neither, none.
      auto max_unavailable = spec.FindMember("maxUnavailable");
      auto min_available = spec.FindMember("minAvailable");
      const bool by_scale = max_unavailable != spec.MemberEnd() ||
                            (min_available != spec.MemberEnd() && min_available->value.IsString());
      std::optional<int64_t> expected = by_scale ? expected_scale(store_, registry_, path.ns, alive)
                                                 : std::optional<int64_t>(static_cast<int64_t>(alive.size()));
      int64_t desired = 0;
      if (!expected) {
        desired = healthy + 1;  // no controller to count by: no disruption allowed
      } else if (max_unavailable != spec.MemberEnd()) {
        desired = std::max<int64_t>(0, *expected - scaled(max_unavailable->value, *expected).value_or(0));
      } else if (min_available != spec.MemberEnd()) {
        desired = scaled(min_available->value, *expected).value_or(0);
      }
      // An unhealthy pod may go while the budget is met (IfHealthyBudget);
      // a healthy one only if one more disruption is allowed.
      bool allowed = pod_is_healthy(pod_doc) ? healthy - desired >= 1 : healthy >= desired;
      if (!allowed) {
        std::string why = !expected ? "The disruption budget " + pdb->name +
                                          " cannot count its expected pods: a pod's controller has no scale known here"
                                    : "The disruption budget " + pdb->name + " needs " + std::to_string(desired) +
                                          " healthy pods and has " + std::to_string(healthy) + " currently";
        return error_response(too_many_requests("Cannot evict pod as it would violate the pod's disruption budget.",
                                                {{"DisruptionBudget", why, ""}}, 0));
      }
    }
  }
  auto deleted = delete_object(pods, path.ns, path.name, options);
  if (!deleted.ok()) return error_response(deleted.error());
  ApiResponse response;
  response.status = 201;
  response.body = success_status(201);
  return response;
}

}  // namespace troupe::sim
