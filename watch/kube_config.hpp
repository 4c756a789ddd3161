#pragma once
// Where the API server is and how to authenticate to it: a kubeconfig file
// (clusters/users/contexts, k8s-protocol.md §4.2), or the pod's service account
// (§4.1). Everything is resolved at load time into one ClusterConfig — file
// references are read, base64 is decoded — except the token file, which is
// kept as a path because service-account tokens rotate.

#include <memory>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace troupe::watch {

class TokenSource;

struct ClusterConfig {
  std::string server;                     // e.g. "https://10.0.0.1:6443"
  std::string ca_pem;                     // trusted CA bundle (PEM); "" = system roots
  std::string client_cert_pem;            // client certificate chain (PEM), with client_key_pem
  std::string client_key_pem;
  bool insecure_skip_tls_verify = false;  // do not verify the server certificate
  std::string tls_server_name;            // SNI and verification name instead of the URL host
  std::string token;                      // static bearer token
  std::string token_file;                 // bearer token re-read from this file (rotation)
  std::string default_namespace = "default";
  std::string source;                     // where this came from, for log lines
};

/// Loads one kubeconfig. `context` overrides current-context when non-empty.
/// Relative file references are relative to the kubeconfig's directory.
Result<ClusterConfig> load_kubeconfig(const std::string& path, const std::string& context = "");

/// Loads several kubeconfigs merged the way $KUBECONFIG is: for each named
/// cluster/user/context and for current-context, the first file that sets it
/// wins. Files that do not exist are skipped; if none exists that is an error.
Result<ClusterConfig> load_kubeconfig_files(const std::vector<std::string>& paths, const std::string& context = "");

/// The files a pod's service account is mounted as; overridable for tests.
struct InClusterPaths {
  std::string token_file = "/var/run/secrets/kubernetes.io/serviceaccount/token";
  std::string ca_file = "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt";
  std::string namespace_file = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";
};

/// https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT with the service
/// account's token file, CA and namespace (namespace file optional).
Result<ClusterConfig> load_in_cluster_config(const InClusterPaths& paths = {});

struct ResolveOptions {
  InClusterPaths in_cluster;
  std::string home;  // "" = $HOME
};

/// kube-scheduler's order: the --kubeconfig flag, then $KUBECONFIG
/// (colon-separated, merged), then in-cluster (when KUBERNETES_SERVICE_HOST and
/// _PORT are set), then ~/.kube/config.
Result<ClusterConfig> resolve_config(const std::string& kubeconfig_flag, const ResolveOptions& options = {});

/// The token source a config implies: the token file (re-read), else the fixed token.
Result<std::shared_ptr<TokenSource>> make_token_source(const ClusterConfig& config);

}  // namespace troupe::watch
