#pragma once
// ExtenderClient: kube-scheduler's HTTPExtender transport
// (pkg/scheduler/extender.go, k8s-protocol.md §10). POSTs JSON to
// `<urlPrefix>/<verb>`; the wire types (k8s.io/kube-scheduler/extender/v1)
// have no JSON tags, so their keys are the Go field names: ExtenderArgs
// {Pod, Nodes, NodeNames}, ExtenderFilterResult {Nodes, NodeNames,
// FailedNodes, FailedAndUnresolvableNodes, Error}, HostPriorityList
// [{Host, Score}], ExtenderBindingArgs {PodName, PodNamespace, PodUID, Node},
// ExtenderBindingResult {Error}, ExtenderPreemptionArgs {Pod,
// NodeNameToVictims, NodeNameToMetaVictims}, Victims {Pods,
// NumPDBViolations}, MetaVictims {Pods: [{UID}], NumPDBViolations},
// ExtenderPreemptionResult {NodeNameToMetaVictims}.
//
// Thread-safe and blocking, like HttpClient: call it from I/O threads.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"
#include "watch/cancel_token.hpp"
#include "watch/http_client.hpp"

namespace troupe::watch {

/// Where an extender is and how to reach it (the transport part of the
/// configuration's Extender; PEM material already decoded).
struct ExtenderEndpoint {
  std::string url_prefix;  // "http://127.0.0.1:8888/scheduler"
  bool insecure = false;   // tlsConfig.insecure: do not verify the server certificate
  std::string server_name;
  std::string ca_pem, cert_pem, key_pem;
  std::chrono::milliseconds timeout{5000};  // httpTimeout
};

struct ExtenderFilterResult {
  std::vector<std::string> node_names;  // the nodes that passed
  std::map<std::string, std::string> failed;               // node -> reason
  std::map<std::string, std::string> failed_unresolvable;  // node -> reason (preemption cannot help)
};

struct HostPriority {
  std::string host;
  int64_t score = 0;
};

/// One candidate node's victims as the scheduler sends them: the pods' uids
/// (MetaVictims, to a nodeCacheCapable extender) or their API JSON (Victims).
struct PreemptionVictims {
  std::vector<std::string> pod_uids;
  std::vector<std::string> pod_jsons;  // in pod_uids' order
  int64_t num_pdb_violations = 0;
};

/// One node's victims as an extender answers them (MetaVictims).
struct MetaVictims {
  std::vector<std::string> pod_uids;
  int64_t num_pdb_violations = 0;
};

struct ExtenderBindingArgs {
  std::string pod_name, pod_namespace, pod_uid, node;
};

/// The ExtenderArgs body: the pod (its API JSON) and either the candidate
/// nodes' API JSON (`Nodes`, a NodeList) or, for nodeCacheCapable extenders,
/// only their names (`NodeNames`).
std::string extender_args_json(std::string_view pod_json, const std::vector<std::string>& node_jsons,
                               const std::vector<std::string>& node_names, bool node_cache_capable);

/// Decodes an ExtenderFilterResult. A non-empty Error is an error. With
/// `node_cache_capable` the passing nodes are NodeNames, otherwise the names
/// of Nodes.items; every passing node must be one of `candidates`.
Result<ExtenderFilterResult> parse_extender_filter_result(std::string_view body, bool node_cache_capable,
                                                          const std::vector<std::string>& candidates);
Result<std::vector<HostPriority>> parse_host_priority_list(std::string_view body);
std::string extender_binding_args_json(const ExtenderBindingArgs& args);
/// The ExtenderPreemptionArgs body: NodeNameToMetaVictims for a
/// nodeCacheCapable extender, NodeNameToVictims (whole pods) otherwise.
std::string extender_preemption_args_json(std::string_view pod_json,
                                          const std::map<std::string, PreemptionVictims>& victims,
                                          bool node_cache_capable);
/// Decodes an ExtenderPreemptionResult: node -> the victims the extender
/// wants there. A null body, or a null or absent map, is an empty answer.
Result<std::map<std::string, MetaVictims>> parse_extender_preemption_result(std::string_view body);
/// ExtenderBindingResult: success, or its Error as the message.
Status parse_extender_binding_result(std::string_view body);

class ExtenderClient {
 public:
  /// Validates the URL and the TLS material; connects lazily.
  static Result<std::shared_ptr<ExtenderClient>> create(const ExtenderEndpoint& endpoint);

  /// POST `body` to `<urlPrefix>/<verb>`: the response body of a 200, else an
  /// error "failed <verb> with extender at URL <url>, code <n>" (or the
  /// transport error).
  Result<std::string> send(const std::string& verb, const std::string& body, const CancelToken* cancel = nullptr);

  Result<ExtenderFilterResult> filter(const std::string& verb, const std::string& args_json, bool node_cache_capable,
                                      const std::vector<std::string>& candidates,
                                      const CancelToken* cancel = nullptr);
  Result<std::vector<HostPriority>> prioritize(const std::string& verb, const std::string& args_json,
                                               const CancelToken* cancel = nullptr);
  Status bind(const std::string& verb, const ExtenderBindingArgs& args, const CancelToken* cancel = nullptr);
  Result<std::map<std::string, MetaVictims>> preempt(const std::string& verb, const std::string& args_json,
                                                     const CancelToken* cancel = nullptr);

  const std::string& url_prefix() const { return endpoint_.url_prefix; }

 private:
  ExtenderClient(ExtenderEndpoint endpoint, std::shared_ptr<HttpClient> http)
      : endpoint_(std::move(endpoint)), http_(std::move(http)) {}

  ExtenderEndpoint endpoint_;
  std::shared_ptr<HttpClient> http_;
};

}  // namespace troupe::watch
