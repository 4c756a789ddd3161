#pragma once
// Builders for the descheduler tests: pods, nodes and NodeMetrics written
// the way a person reads them.

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/node.hpp"
#include "model/node_metric.hpp"
#include "model/pod.hpp"
#include "model/timestamp.hpp"

namespace troupe::plugins::descheduler::testing {

using Amounts = std::vector<std::pair<std::string, std::string>>;

inline ResourceList rl(const Amounts& amounts) {
  ResourceList list;
  for (const auto& [name, text] : amounts) {
    auto q = Quantity::parse(text);
    REQUIRE(q);
    list[name] = *q;
  }
  return list;
}

inline Timestamp at(int64_t seconds) { return Timestamp(std::chrono::seconds(seconds)); }

struct TestPod {
  Pod pod;
  explicit TestPod(std::string name, std::string ns = "default") {
    pod.meta.name = std::move(name);
    pod.meta.namespace_name = std::move(ns);
    pod.meta.uid = "uid-" + pod.meta.name;
    pod.spec.scheduler_name = "koord-scheduler";
    pod.status.phase = "Running";
    owner("ReplicaSet", "rs");
  }
  TestPod& owner(std::string kind, std::string name) {
    pod.meta.owner_references.clear();
    OwnerReference ref;
    ref.kind = std::move(kind);
    ref.name = std::move(name);
    ref.uid = "uid-" + ref.name;
    ref.controller = true;
    pod.meta.owner_references.push_back(ref);
    return *this;
  }
  TestPod& bare() { pod.meta.owner_references.clear(); return *this; }
  TestPod& node(std::string n) { pod.spec.node_name = std::move(n); return *this; }
  TestPod& priority(int32_t p) { pod.spec.priority = p; return *this; }
  TestPod& label(std::string k, std::string v) { pod.meta.labels[std::move(k)] = std::move(v); return *this; }
  TestPod& annotate(std::string k, std::string v) { pod.meta.annotations[std::move(k)] = std::move(v); return *this; }
  TestPod& requests(const Amounts& amounts) {
    Container c;
    c.name = "c" + std::to_string(pod.spec.containers.size());
    c.resources.requests = rl(amounts);
    pod.spec.containers.push_back(std::move(c));
    return *this;
  }
  TestPod& created(int64_t seconds) { pod.meta.creation_timestamp = at(seconds); return *this; }
  TestPod& phase(std::string p) { pod.status.phase = std::move(p); return *this; }
  std::shared_ptr<const Pod> ptr() const { return std::make_shared<const Pod>(pod); }
};

inline std::shared_ptr<const Node> make_node(const std::string& name, const Amounts& allocatable,
                                             std::map<std::string, std::string> labels = {}) {
  auto node = std::make_shared<Node>();
  node->meta.name = name;
  node->meta.labels = std::move(labels);
  node->status.allocatable = rl(allocatable);
  return node;
}

/// A metric updated at `updated` with these pods' usage (system usage 0).
inline std::shared_ptr<const NodeMetric> make_metric(const std::string& node, Timestamp updated,
                                                     const std::vector<std::pair<std::shared_ptr<const Pod>, Amounts>>& pods,
                                                     const Amounts& system = {}) {
  auto metric = std::make_shared<NodeMetric>();
  metric->meta.name = node;
  metric->update_time = updated;
  metric->node_metric = NodeMetricInfo{};
  metric->node_metric->system_usage.resources = rl(system);
  for (const auto& [pod, usage] : pods) {
    PodMetricInfo info;
    info.name = pod->meta.name;
    info.namespace_name = pod->meta.namespace_name;
    info.pod_usage.resources = rl(usage);
    metric->pods_metric.push_back(info);
  }
  return metric;
}

inline YAML::Node yaml(const std::string& text) { return YAML::Load(text); }

}  // namespace troupe::plugins::descheduler::testing
