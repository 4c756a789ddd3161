#include "sim/kubeconfig_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <unistd.h>

#include "sim/base64.hpp"

namespace troupe::sim {

namespace {

// A YAML double-quoted scalar.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string kubeconfig_yaml(const KubeconfigSpec& spec) {
  std::string out;
  out += "apiVersion: v1\nkind: Config\n";
  out += "current-context: " + quoted(spec.name) + "\n";
  out += "clusters:\n- name: " + quoted(spec.name) + "\n  cluster:\n    server: " + quoted(spec.server) + "\n";
  if (!spec.ca_pem.empty()) out += "    certificate-authority-data: " + base64_encode(spec.ca_pem) + "\n";
  out += "users:\n- name: " + quoted(spec.name + "-user") + "\n  user:";
  if (spec.token.empty()) {
    out += " {}\n";
  } else {
    out += "\n    token: " + quoted(spec.token) + "\n";
  }
  out += "contexts:\n- name: " + quoted(spec.name) + "\n  context:\n    cluster: " + quoted(spec.name) +
         "\n    user: " + quoted(spec.name + "-user") + "\n    namespace: default\n";
  out += "preferences: {}\n";
  return out;
}

Status write_kubeconfig(const std::string& path, const KubeconfigSpec& spec) {
  std::string temporary = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) return Error{"cannot write the kubeconfig " + temporary + ": " + std::strerror(errno)};
    file << kubeconfig_yaml(spec);
    if (!file.flush()) return Error{"cannot write the kubeconfig " + temporary + ": " + std::strerror(errno)};
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    return Error{"cannot write the kubeconfig " + path + ": " + why};
  }
  return Status::success();
}

}  // namespace troupe::sim
