#include "actors/extenders.hpp"

#include <fstream>
#include <sstream>

#include <spdlog/spdlog.h>

#include "plugins/framework/plugin.hpp"
#include "watch/base64.hpp"
#include "watch/json_util.hpp"

namespace troupe::actors {

namespace {

bool names_managed(const config::Extender& extender, const ResourceList& resources) {
  for (const auto& [name, quantity] : resources)
    for (const auto& managed : extender.managed_resources)
      if (managed.name == name) return true;
  return false;
}

bool containers_managed(const config::Extender& extender, const std::vector<Container>& containers) {
  for (const auto& c : containers)
    if (names_managed(extender, c.resources.requests) || names_managed(extender, c.resources.limits)) return true;
  return false;
}

/// PEM material from `<x>Data` (base64) or else `<x>File`.
Result<std::string> pem(const std::string& data, const std::string& file, const std::string& path,
                        const char* data_field, const char* file_field) {
  if (!data.empty()) {
    auto decoded = watch::base64_decode(data);
    if (!decoded) return Error{path + "." + data_field + ": " + decoded.message()};
    return std::move(decoded).value();
  }
  if (file.empty()) return std::string();
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error{path + "." + file_field + ": cannot read \"" + file + "\""};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string pod_json(const Pod& pod) { return encode(pod); }

/// The ExtenderArgs for one extender: names for a nodeCacheCapable one, whole nodes otherwise.
std::string args_for(const config::Extender& extender, const std::string& pod, const std::vector<std::string>& nodes,
                     const std::map<std::string, std::string>& node_json) {
  std::vector<std::string> objects;
  if (!extender.node_cache_capable) {
    objects.reserve(nodes.size());
    for (const auto& name : nodes) {
      auto it = node_json.find(name);
      // A node deleted since Filter: send a stub so the extender still sees its name.
      objects.push_back(it != node_json.end() ? it->second
                                              : "{\"metadata\":{\"name\":" + watch::json_quote(name) + "}}");
    }
  }
  return watch::extender_args_json(pod, objects, nodes, extender.node_cache_capable);
}

}  // namespace

bool extender_interested(const config::Extender& extender, const Pod& pod) {
  if (extender.managed_resources.empty()) return true;
  return containers_managed(extender, pod.spec.containers) || containers_managed(extender, pod.spec.init_containers);
}

void apply_extender_filter(ExtenderFilterOutcome& outcome, const watch::ExtenderFilterResult& result) {
  for (const auto& [node, reason] : result.failed_unresolvable)
    outcome.statuses.emplace_back(node, plugins::PluginStatus::unresolvable(reason));
  for (const auto& [node, reason] : result.failed) {
    if (result.failed_unresolvable.count(node) > 0) continue;
    outcome.statuses.emplace_back(node, plugins::PluginStatus::unschedulable(reason));
  }
  outcome.feasible = result.node_names;
}

void add_extender_priorities(std::map<std::string, int64_t>& combined, const std::vector<watch::HostPriority>& list,
                             int64_t weight) {
  for (const auto& p : list) combined[p.host] += p.score * weight;
}

int64_t scale_extender_score(int64_t combined) {
  return combined * (plugins::kMaxNodeScore / kMaxExtenderScore);
}

Result<watch::ExtenderEndpoint> extender_endpoint(const config::Extender& extender, size_t index) {
  const std::string path = "extenders[" + std::to_string(index) + "].tlsConfig";
  watch::ExtenderEndpoint endpoint;
  endpoint.url_prefix = extender.url_prefix;
  endpoint.insecure = extender.tls.insecure;
  endpoint.server_name = extender.tls.server_name;
  auto ca = pem(extender.tls.ca_data, extender.tls.ca_file, path, "caData", "caFile");
  if (!ca) return Error{ca.message()};
  auto cert = pem(extender.tls.cert_data, extender.tls.cert_file, path, "certData", "certFile");
  if (!cert) return Error{cert.message()};
  auto key = pem(extender.tls.key_data, extender.tls.key_file, path, "keyData", "keyFile");
  if (!key) return Error{key.message()};
  endpoint.ca_pem = std::move(ca).value();
  // As kube-scheduler's makeTransport: enableHTTPS without a CA trusts whatever the extender presents.
  if (extender.enable_https && endpoint.ca_pem.empty()) endpoint.insecure = true;
  endpoint.cert_pem = std::move(cert).value();
  endpoint.key_pem = std::move(key).value();
  if (endpoint.cert_pem.empty() != endpoint.key_pem.empty())
    return Error{path + ": certData/certFile and keyData/keyFile must be given together"};
  endpoint.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(extender.http_timeout);
  return endpoint;
}

Result<std::shared_ptr<const Extenders>> Extenders::create(const std::vector<config::Extender>& configs) {
  auto extenders = std::make_shared<Extenders>();
  for (size_t i = 0; i < configs.size(); ++i) {
    auto endpoint = extender_endpoint(configs[i], i);
    if (!endpoint) return Error{endpoint.message()};
    auto client = watch::ExtenderClient::create(*endpoint);
    if (!client) return Error{"extenders[" + std::to_string(i) + "].urlPrefix: " + client.message()};
    extenders->entries_.push_back({configs[i], std::move(client).value()});
  }
  return std::shared_ptr<const Extenders>(std::move(extenders));
}

bool Extenders::filters(const Pod& pod) const {
  for (const auto& e : entries_)
    if (!e.config.filter_verb.empty() && extender_interested(e.config, pod)) return true;
  return false;
}

bool Extenders::prioritizes(const Pod& pod) const {
  for (const auto& e : entries_)
    if (!e.config.prioritize_verb.empty() && extender_interested(e.config, pod)) return true;
  return false;
}

bool Extenders::preempts(const Pod& pod) const {
  for (const auto& e : entries_)
    if (!e.config.preempt_verb.empty() && extender_interested(e.config, pod)) return true;
  return false;
}

bool Extenders::needs_node_objects(const Pod& pod) const {
  for (const auto& e : entries_) {
    bool calls = !e.config.filter_verb.empty() || !e.config.prioritize_verb.empty();
    if (calls && !e.config.node_cache_capable && extender_interested(e.config, pod)) return true;
  }
  return false;
}

const Extenders::Entry* Extenders::binder(const Pod& pod) const {
  for (const auto& e : entries_)
    if (!e.config.bind_verb.empty() && extender_interested(e.config, pod)) return &e;
  return nullptr;
}

ExtenderFilterOutcome Extenders::filter(const Pod& pod, std::vector<std::string> feasible,
                                        const std::map<std::string, std::string>& node_json) const {
  ExtenderFilterOutcome outcome;
  outcome.feasible = std::move(feasible);
  const std::string pod_text = pod_json(pod);
  for (const auto& e : entries_) {
    if (outcome.feasible.empty()) break;
    if (e.config.filter_verb.empty() || !extender_interested(e.config, pod)) continue;
    auto result = e.client->filter(e.config.filter_verb, args_for(e.config, pod_text, outcome.feasible, node_json),
                                   e.config.node_cache_capable, outcome.feasible);
    if (!result) {
      if (e.config.ignorable) {
        spdlog::info("skipping extender {} as it returned an error and is ignorable: {}", e.config.url_prefix,
                     result.message());
        continue;
      }
      outcome.error = true;
      outcome.error_message = result.message();
      return outcome;
    }
    apply_extender_filter(outcome, *result);
  }
  return outcome;
}

std::map<std::string, int64_t> Extenders::prioritize(const Pod& pod, const std::vector<std::string>& feasible,
                                                     const std::map<std::string, std::string>& node_json) const {
  std::map<std::string, int64_t> combined;
  const std::string pod_text = pod_json(pod);
  for (const auto& e : entries_) {
    if (e.config.prioritize_verb.empty() || !extender_interested(e.config, pod)) continue;
    auto list = e.client->prioritize(e.config.prioritize_verb, args_for(e.config, pod_text, feasible, node_json));
    if (!list) {
      spdlog::debug("extender {} prioritize failed, its scores are ignored: {}", e.config.url_prefix, list.message());
      continue;
    }
    add_extender_priorities(combined, *list, e.config.weight);
  }
  for (auto& [host, score] : combined) score = scale_extender_score(score);
  return combined;
}

}  // namespace troupe::actors
