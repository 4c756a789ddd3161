#include "plugins/framework/keys_read_by_name.hpp"

namespace troupe::plugins {

namespace {

/// Whether `domain` is `parent` or one of its subdomains.
bool in_domain(std::string_view domain, std::string_view parent) {
  if (domain.size() < parent.size() || domain.substr(domain.size() - parent.size()) != parent) return false;
  return domain.size() == parent.size() || domain[domain.size() - parent.size() - 1] == '.';
}

}  // namespace

bool key_read_by_name(std::string_view key) {
  const size_t slash = key.find('/');
  const std::string_view domain = slash == std::string_view::npos ? key : key.substr(0, slash);
  if (in_domain(domain, "quota.scheduling.koordinator.sh")) return false;  // read at PreFilter only
  return in_domain(domain, "koordinator.sh") || in_domain(domain, "scheduling.sigs.k8s.io");
}

}  // namespace troupe::plugins
