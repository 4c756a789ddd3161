#pragma once
// Small builders for the plugin tests: pods and nodes written the way a
// person reads them ({{"cpu", "500m"}}), without JSON.

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/node.hpp"
#include "model/pod.hpp"
#include "plugins/framework/node_info.hpp"
#include "plugins/framework/pod_info.hpp"

namespace troupe::plugins::testing {

using Amounts = std::vector<std::pair<std::string, std::string>>;

inline ResourceList resources(const Amounts& amounts) {
  ResourceList list;
  for (const auto& [name, text] : amounts) {
    auto q = Quantity::parse(text);
    REQUIRE(q);
    list[name] = *q;
  }
  return list;
}

class PodBuilder {
 public:
  explicit PodBuilder(std::string name = "p", std::string ns = "default") {
    pod_.meta.name = std::move(name);
    pod_.meta.namespace_name = std::move(ns);
    pod_.meta.uid = "uid-" + pod_.meta.namespace_name + "-" + pod_.meta.name;
  }
  PodBuilder& uid(std::string u) { pod_.meta.uid = std::move(u); return *this; }
  /// Adds an app container with these requests.
  PodBuilder& container(const Amounts& requests) {
    Container c;
    c.name = "c" + std::to_string(pod_.spec.containers.size());
    c.resources.requests = resources(requests);
    pod_.spec.containers.push_back(std::move(c));
    return *this;
  }
  PodBuilder& init_container(const Amounts& requests, bool sidecar = false) {
    Container c;
    c.name = "i" + std::to_string(pod_.spec.init_containers.size());
    c.resources.requests = resources(requests);
    if (sidecar) c.restart_policy = "Always";
    pod_.spec.init_containers.push_back(std::move(c));
    return *this;
  }
  PodBuilder& host_port(int32_t port, std::string ip = "", Protocol protocol = Protocol::tcp) {
    if (pod_.spec.containers.empty()) container({});
    ContainerPort p;
    p.container_port = port;
    p.host_port = port;
    p.host_ip = std::move(ip);
    p.protocol = protocol;
    pod_.spec.containers.back().ports.push_back(std::move(p));
    return *this;
  }
  PodBuilder& priority(int32_t p) { pod_.spec.priority = p; return *this; }
  PodBuilder& node_name(std::string n) { pod_.spec.node_name = std::move(n); return *this; }
  PodBuilder& node_selector(std::map<std::string, std::string> s) { pod_.spec.node_selector = std::move(s); return *this; }
  PodBuilder& toleration(Toleration t) { pod_.spec.tolerations.push_back(std::move(t)); return *this; }
  PodBuilder& scheduling_gate(std::string name) {
    pod_.spec.scheduling_gates.push_back({std::move(name)});
    return *this;
  }
  PodBuilder& required_terms(std::vector<NodeSelectorTerm> terms) {
    node_affinity().required = NodeSelector{std::move(terms)};
    return *this;
  }
  PodBuilder& preferred(int32_t weight, NodeSelectorTerm term) {
    node_affinity().preferred.push_back({weight, std::move(term)});
    return *this;
  }

  Pod pod() const { return pod_; }
  std::shared_ptr<const PodInfo> info() const { return PodInfo::make(pod_); }

 private:
  ::troupe::NodeAffinity& node_affinity() {
    if (!pod_.spec.affinity) pod_.spec.affinity = Affinity{};
    if (!pod_.spec.affinity->node_affinity) pod_.spec.affinity->node_affinity = ::troupe::NodeAffinity{};
    return *pod_.spec.affinity->node_affinity;
  }
  Pod pod_;
};

class NodeBuilder {
 public:
  explicit NodeBuilder(std::string name = "n") { node_.meta.name = std::move(name); }
  NodeBuilder& allocatable(const Amounts& amounts) { node_.status.allocatable = resources(amounts); return *this; }
  NodeBuilder& label(std::string k, std::string v) { node_.meta.labels[std::move(k)] = std::move(v); return *this; }
  NodeBuilder& taint(std::string key, std::string value, TaintEffect effect) {
    node_.spec.taints.push_back(Taint{std::move(key), std::move(value), effect, std::nullopt});
    return *this;
  }
  NodeBuilder& unschedulable() { node_.spec.unschedulable = true; return *this; }

  Node node() const { return node_; }
  /// A NodeInfo with these pods already accounted.
  NodeInfo info(const std::vector<std::shared_ptr<const PodInfo>>& pods = {}) const {
    NodeInfo info(std::make_shared<const Node>(node_));
    for (const auto& p : pods) REQUIRE(info.add_pod(p));
    return info;
  }

 private:
  Node node_;
};

inline LabelRequirement requirement(std::string key, LabelRequirement::Op op, std::vector<std::string> values = {}) {
  LabelRequirement r;
  r.key = std::move(key);
  r.op = op;
  r.values = std::move(values);
  return r;
}

inline Toleration toleration(std::string key, TolerationOperator op, std::string value, TaintEffect effect) {
  Toleration t;
  t.key = std::move(key);
  t.op = op;
  t.value = std::move(value);
  t.effect = effect;
  return t;
}

/// `items` but those at `indexes` (what stays when a dry run removes them).
template <class T>
std::vector<T> without_indexes(const std::vector<T>& items, const std::vector<size_t>& indexes) {
  std::vector<T> out;
  for (size_t i = 0; i < items.size(); ++i)
    if (std::find(indexes.begin(), indexes.end(), i) == indexes.end()) out.push_back(items[i]);
  return out;
}

}  // namespace troupe::plugins::testing
