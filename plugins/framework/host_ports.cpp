#include "plugins/framework/host_ports.hpp"

#include <algorithm>

namespace troupe::plugins {

namespace {

void collect(const std::vector<Container>& containers, bool sidecars_only, std::vector<HostPort>& out) {
  for (const auto& container : containers) {
    if (sidecars_only && !container.is_restartable()) continue;
    for (const auto& p : container.ports) {
      if (p.host_port <= 0) continue;
      HostPort hp;
      hp.ip = p.host_ip.empty() ? kBindAllHostIp : p.host_ip;
      hp.protocol = p.protocol;
      hp.port = p.host_port;
      out.push_back(std::move(hp));
    }
  }
}

}  // namespace

std::vector<HostPort> pod_host_ports(const PodSpec& spec) {
  std::vector<HostPort> out;
  collect(spec.init_containers, true, out);
  collect(spec.containers, false, out);
  return out;
}

void HostPortUsage::add(const HostPort& port) {
  if (port.port <= 0) return;
  for (auto& e : entries_)
    if (e.port == port) {
      ++e.count;
      return;
    }
  entries_.push_back({port, 1});
}

void HostPortUsage::remove(const HostPort& port) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->port == port) {
      if (--it->count == 0) entries_.erase(it);
      return;
    }
}

bool HostPortUsage::conflicts(const HostPort& wanted) const {
  if (wanted.port <= 0) return false;
  const bool wanted_all = wanted.ip == kBindAllHostIp;
  for (const auto& e : entries_) {
    if (e.port.port != wanted.port || e.port.protocol != wanted.protocol) continue;
    if (wanted_all || e.port.ip == kBindAllHostIp || e.port.ip == wanted.ip) return true;
  }
  return false;
}

bool operator==(const HostPortUsage& a, const HostPortUsage& b) {
  if (a.entries_.size() != b.entries_.size()) return false;
  for (const auto& e : a.entries_) {
    auto it = std::find_if(b.entries_.begin(), b.entries_.end(),
                           [&](const HostPortUsage::Entry& o) { return o.port == e.port; });
    if (it == b.entries_.end() || it->count != e.count) return false;
  }
  return true;
}

}  // namespace troupe::plugins
