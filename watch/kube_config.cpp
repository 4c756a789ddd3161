#include "watch/kube_config.hpp"

#include <cstdlib>
#include <map>
#include <sys/stat.h>

#include <yaml-cpp/yaml.h>

#include "watch/base64.hpp"
#include "watch/server_url.hpp"
#include "watch/token_source.hpp"

namespace troupe::watch {

namespace {

// One named cluster/user/context body and the file it came from (relative
// paths inside it resolve against that file's directory).
struct Entry {
  YAML::Node body;
  std::string file;
};

struct MergedConfig {
  std::string current_context;
  std::map<std::string, Entry> clusters;
  std::map<std::string, Entry> users;
  std::map<std::string, Entry> contexts;
};

bool file_exists(const std::string& path) {
  struct stat st {};
  return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string directory_of(const std::string& file) {
  const auto slash = file.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : file.substr(0, slash);
}

std::string resolve_relative(const std::string& path, const std::string& file) {
  if (path.empty() || path.front() == '/') return path;
  return directory_of(file) + "/" + path;
}

// Reads an optional string field; a non-scalar value is an error naming `where`.
Result<std::string> string_field(const YAML::Node& map, const char* key, const std::string& where) {
  const YAML::Node value = map[key];
  if (!value || value.IsNull()) return std::string{};
  if (!value.IsScalar()) return Error{where + ": " + key + ": must be a string"};
  return value.Scalar();
}

Result<bool> bool_field(const YAML::Node& map, const char* key, const std::string& where) {
  const YAML::Node value = map[key];
  if (!value || value.IsNull()) return false;
  bool out = false;
  if (!value.IsScalar() || !YAML::convert<bool>::decode(value, out))
    return Error{where + ": " + key + ": must be true or false"};
  return out;
}

// Adds the `section` list (clusters/users/contexts) of one file to `into`,
// keeping earlier definitions of the same name.
Status merge_section(const YAML::Node& root, const char* section, const char* body_key, const std::string& file,
                     std::map<std::string, Entry>& into) {
  const YAML::Node list = root[section];
  if (!list || list.IsNull()) return Status::success();
  if (!list.IsSequence()) return Error{"kubeconfig " + file + ": " + section + ": must be a list"};
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "kubeconfig " + file + ": " + section + "[" + std::to_string(i) + "]";
    const YAML::Node item = list[i];
    if (!item.IsMap()) return Error{where + ": must be a mapping with name and " + body_key};
    auto name = string_field(item, "name", where);
    if (!name) return name.error();
    if (name->empty()) return Error{where + ": name: must be set"};
    const YAML::Node body = item[body_key];
    if (body && !body.IsNull() && !body.IsMap()) return Error{where + ": " + body_key + ": must be a mapping"};
    into.emplace(*name, Entry{body && body.IsMap() ? body : YAML::Node(YAML::NodeType::Map), file});
  }
  return Status::success();
}

Status merge_file(const std::string& file, MergedConfig& merged) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::BadFile&) {
    return Error{"kubeconfig " + file + ": cannot open file"};
  } catch (const YAML::Exception& e) {
    return Error{"kubeconfig " + file + ": invalid YAML: " + e.what()};
  }
  if (root.IsNull()) return Status::success();  // an empty file contributes nothing, as in client-go
  if (!root.IsMap()) return Error{"kubeconfig " + file + ": top level must be a mapping"};
  if (merged.current_context.empty()) {
    auto current = string_field(root, "current-context", "kubeconfig " + file);
    if (!current) return current.error();
    merged.current_context = *current;
  }
  if (Status st = merge_section(root, "clusters", "cluster", file, merged.clusters); !st) return st;
  if (Status st = merge_section(root, "users", "user", file, merged.users); !st) return st;
  if (Status st = merge_section(root, "contexts", "context", file, merged.contexts); !st) return st;
  return Status::success();
}

// Reads the "<key>-data" (base64) or "<key>" (file path) variant of a PEM field.
Result<std::string> pem_field(const Entry& entry, const std::string& key, const std::string& where) {
  auto data = string_field(entry.body, (key + "-data").c_str(), where);
  if (!data) return data.error();
  if (!data->empty()) {
    auto decoded = base64_decode(*data);
    if (!decoded) return Error{where + ": " + key + "-data: " + decoded.message()};
    return decoded;
  }
  auto path = string_field(entry.body, key.c_str(), where);
  if (!path) return path.error();
  if (path->empty()) return std::string{};
  auto text = read_trimmed_file(resolve_relative(*path, entry.file), where + ": " + key + ": file");
  if (!text) return text.error();
  if (text->empty()) return Error{where + ": " + key + ": file " + *path + " is empty"};
  return *text + "\n";
}

Status apply_cluster(const Entry& cluster, const std::string& where, ClusterConfig& out) {
  auto server = string_field(cluster.body, "server", where);
  if (!server) return server.error();
  if (server->empty()) return Error{where + ": server: must be set"};
  if (auto url = parse_server_url(*server); !url) return Error{where + ": server: " + url.message()};
  out.server = *server;

  auto insecure = bool_field(cluster.body, "insecure-skip-tls-verify", where);
  if (!insecure) return insecure.error();
  out.insecure_skip_tls_verify = *insecure;
  auto ca = pem_field(cluster, "certificate-authority", where);
  if (!ca) return ca.error();
  out.ca_pem = *ca;
  if (out.insecure_skip_tls_verify && !out.ca_pem.empty())
    return Error{where + ": insecure-skip-tls-verify cannot be combined with certificate-authority (as in kubectl)"};
  auto server_name = string_field(cluster.body, "tls-server-name", where);
  if (!server_name) return server_name.error();
  out.tls_server_name = *server_name;
  auto proxy = string_field(cluster.body, "proxy-url", where);
  if (!proxy) return proxy.error();
  if (!proxy->empty()) return Error{where + ": proxy-url: proxies are not supported"};
  return Status::success();
}

Status apply_user(const Entry& user, const std::string& where, ClusterConfig& out) {
  for (const char* unsupported : {"exec", "auth-provider", "username", "password"}) {
    if (user.body[unsupported])
      return Error{where + ": " + unsupported + ": not supported; use a token, tokenFile or client certificate"};
  }
  auto token = string_field(user.body, "token", where);
  if (!token) return token.error();
  out.token = *token;
  auto token_file = string_field(user.body, "tokenFile", where);
  if (!token_file) return token_file.error();
  if (out.token.empty() && !token_file->empty()) {
    out.token_file = resolve_relative(*token_file, user.file);
    auto check = read_trimmed_file(out.token_file, where + ": tokenFile: file");
    if (!check) return check.error();
  }
  auto cert = pem_field(user, "client-certificate", where);
  if (!cert) return cert.error();
  auto key = pem_field(user, "client-key", where);
  if (!key) return key.error();
  if (cert->empty() != key->empty())
    return Error{where + ": client-certificate and client-key must be given together"};
  out.client_cert_pem = *cert;
  out.client_key_pem = *key;
  return Status::success();
}

Result<ClusterConfig> build_config(const MergedConfig& merged, const std::string& context_override,
                                   const std::string& files) {
  const std::string context_name = context_override.empty() ? merged.current_context : context_override;
  if (context_name.empty()) return Error{"kubeconfig " + files + ": current-context is not set"};
  const auto context = merged.contexts.find(context_name);
  if (context == merged.contexts.end())
    return Error{"kubeconfig " + files + ": context \"" + context_name + "\" not found in contexts"};
  const std::string context_where = "kubeconfig " + context->second.file + ": context \"" + context_name + "\"";

  auto cluster_name = string_field(context->second.body, "cluster", context_where);
  if (!cluster_name) return cluster_name.error();
  if (cluster_name->empty()) return Error{context_where + ": cluster: must be set"};
  const auto cluster = merged.clusters.find(*cluster_name);
  if (cluster == merged.clusters.end())
    return Error{context_where + ": cluster: cluster \"" + *cluster_name + "\" not found in clusters"};

  ClusterConfig out;
  if (Status st = apply_cluster(cluster->second,
                                "kubeconfig " + cluster->second.file + ": cluster \"" + *cluster_name + "\"", out);
      !st)
    return Error{st.message()};

  auto user_name = string_field(context->second.body, "user", context_where);
  if (!user_name) return user_name.error();
  if (!user_name->empty()) {
    const auto user = merged.users.find(*user_name);
    if (user == merged.users.end())
      return Error{context_where + ": user: user \"" + *user_name + "\" not found in users"};
    if (Status st = apply_user(user->second, "kubeconfig " + user->second.file + ": user \"" + *user_name + "\"", out);
        !st)
      return Error{st.message()};
  }
  auto ns = string_field(context->second.body, "namespace", context_where);
  if (!ns) return ns.error();
  if (!ns->empty()) out.default_namespace = *ns;
  out.source = "kubeconfig " + files + " (context " + context_name + ")";
  return out;
}

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

}  // namespace

Result<ClusterConfig> load_kubeconfig(const std::string& path, const std::string& context) {
  if (!file_exists(path)) return Error{"kubeconfig " + path + ": file does not exist"};
  MergedConfig merged;
  if (Status st = merge_file(path, merged); !st) return Error{st.message()};
  return build_config(merged, context, path);
}

Result<ClusterConfig> load_kubeconfig_files(const std::vector<std::string>& paths, const std::string& context) {
  MergedConfig merged;
  std::string used;
  for (const auto& path : paths) {
    if (!file_exists(path)) continue;
    if (Status st = merge_file(path, merged); !st) return Error{st.message()};
    used += (used.empty() ? "" : ":") + path;
  }
  if (used.empty()) {
    std::string listed;
    for (const auto& path : paths) listed += (listed.empty() ? "" : ":") + path;
    return Error{"kubeconfig: none of the files exist: " + listed};
  }
  return build_config(merged, context, used);
}

Result<ClusterConfig> load_in_cluster_config(const InClusterPaths& paths) {
  const std::string host = env_or_empty("KUBERNETES_SERVICE_HOST");
  const std::string port = env_or_empty("KUBERNETES_SERVICE_PORT");
  if (host.empty() || port.empty())
    return Error{"in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must both be set"};
  ClusterConfig out;
  out.server = "https://" + join_host_port(host, port);
  if (auto url = parse_server_url(out.server); !url)
    return Error{"in-cluster config: KUBERNETES_SERVICE_HOST/PORT: " + url.message()};

  auto token = read_trimmed_file(paths.token_file, "in-cluster config: token file");
  if (!token) return token.error();
  if (token->empty()) return Error{"in-cluster config: token file " + paths.token_file + " is empty"};
  out.token_file = paths.token_file;

  auto ca = read_trimmed_file(paths.ca_file, "in-cluster config: CA file");
  if (!ca) return ca.error();
  if (ca->empty()) return Error{"in-cluster config: CA file " + paths.ca_file + " is empty"};
  out.ca_pem = *ca + "\n";

  // The namespace file is optional (client-go falls back to "default" too).
  if (auto ns = read_trimmed_file(paths.namespace_file, "namespace file"); ns && !ns->empty())
    out.default_namespace = *ns;
  out.source = "in-cluster service account (" + out.server + ")";
  return out;
}

Result<ClusterConfig> resolve_config(const std::string& kubeconfig_flag, const ResolveOptions& options) {
  if (!kubeconfig_flag.empty()) return load_kubeconfig(kubeconfig_flag);

  if (const std::string list = env_or_empty("KUBECONFIG"); !list.empty()) {
    std::vector<std::string> paths;
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t colon = std::min(list.find(':', start), list.size());
      if (colon > start) paths.push_back(list.substr(start, colon - start));
      start = colon + 1;
    }
    auto config = load_kubeconfig_files(paths);
    if (!config) return Error{"$KUBECONFIG: " + config.message()};
    return config;
  }

  if (!env_or_empty("KUBERNETES_SERVICE_HOST").empty() && !env_or_empty("KUBERNETES_SERVICE_PORT").empty())
    return load_in_cluster_config(options.in_cluster);

  const std::string home = options.home.empty() ? env_or_empty("HOME") : options.home;
  const std::string default_path = home + "/.kube/config";
  if (!home.empty() && file_exists(default_path)) return load_kubeconfig(default_path);
  return Error{"no cluster configuration: pass --kubeconfig, set $KUBECONFIG, run in a pod, or create " +
               default_path};
}

Result<std::shared_ptr<TokenSource>> make_token_source(const ClusterConfig& config) {
  if (!config.token.empty() || config.token_file.empty()) return TokenSource::fixed(config.token);
  return TokenSource::from_file(config.token_file);
}

}  // namespace troupe::watch
