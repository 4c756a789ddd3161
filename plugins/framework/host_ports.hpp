#pragma once
// Host ports in use on a node (kube-scheduler's HostPortInfo), with counts so
// that removing a pod is the exact inverse of adding it even when two pods
// claim the same port (possible when pods are bound by someone else).

#include <cstdint>
#include <string>
#include <vector>

#include "model/pod.hpp"

namespace troupe::plugins {

inline constexpr const char* kBindAllHostIp = "0.0.0.0";

struct HostPort {
  std::string ip = kBindAllHostIp;  // "" in the spec means 0.0.0.0
  Protocol protocol = Protocol::tcp;
  int32_t port = 0;

  friend bool operator==(const HostPort& a, const HostPort& b) {
    return a.port == b.port && a.protocol == b.protocol && a.ip == b.ip;
  }
};

/// The host ports a pod asks for: every container port with hostPort > 0, in
/// app containers and restartable init containers (sidecars), sanitized.
std::vector<HostPort> pod_host_ports(const PodSpec& spec);

class HostPortUsage {
 public:
  void add(const HostPort& port);
  void remove(const HostPort& port);
  /// HostPortInfo.CheckConflict: 0.0.0.0 conflicts with any IP on the same
  /// protocol and port; a specific IP conflicts with itself and 0.0.0.0.
  bool conflicts(const HostPort& wanted) const;
  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }

  friend bool operator==(const HostPortUsage& a, const HostPortUsage& b);

 private:
  struct Entry {
    HostPort port;
    int count = 0;
  };
  std::vector<Entry> entries_;
};

}  // namespace troupe::plugins
