#include "actors/pod_routing.hpp"

namespace troupe::actors {

namespace {

std::string string_at(const JsonValue& object, const char* outer, const char* inner) {
  if (!object.IsObject()) return {};
  auto o = object.FindMember(outer);
  if (o == object.MemberEnd() || !o->value.IsObject()) return {};
  auto i = o->value.FindMember(inner);
  if (i == o->value.MemberEnd() || !i->value.IsString()) return {};
  return std::string(i->value.GetString(), i->value.GetStringLength());
}

bool has_member(const JsonValue& object, const char* outer, const char* inner) {
  if (!object.IsObject()) return false;
  auto o = object.FindMember(outer);
  if (o == object.MemberEnd() || !o->value.IsObject()) return false;
  auto i = o->value.FindMember(inner);
  return i != o->value.MemberEnd() && !i->value.IsNull();
}

}  // namespace

PodIdentity read_pod_identity(const JsonValue& pod) {
  PodIdentity id;
  id.namespace_name = string_at(pod, "metadata", "namespace");
  id.name = string_at(pod, "metadata", "name");
  id.uid = string_at(pod, "metadata", "uid");
  id.resource_version = string_at(pod, "metadata", "resourceVersion");
  id.scheduler_name = string_at(pod, "spec", "schedulerName");
  if (id.scheduler_name.empty()) id.scheduler_name = "default-scheduler";  // the API server's default
  id.node_name = string_at(pod, "spec", "nodeName");
  id.phase = string_at(pod, "status", "phase");
  id.terminating = has_member(pod, "metadata", "deletionTimestamp");
  return id;
}

PodRoute route_pod(const PodIdentity& pod, const std::set<std::string>& ours) {
  if (pod.phase == "Succeeded" || pod.phase == "Failed") return PodRoute::forget;
  if (!pod.node_name.empty()) return PodRoute::node;
  if (ours.count(pod.scheduler_name) == 0) return PodRoute::ignore;
  if (pod.terminating) return PodRoute::forget;
  return PodRoute::queue;
}

}  // namespace troupe::actors
