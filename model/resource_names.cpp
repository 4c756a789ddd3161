#include "model/resource_names.hpp"

#include <string>

namespace troupe::resource_names {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool is_alnum(char c) { return is_lower_alnum(c) || (c >= 'A' && c <= 'Z'); }

// One DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool is_dns_label(std::string_view label) {
  if (label.empty() || !is_lower_alnum(label.front()) || !is_lower_alnum(label.back())) return false;
  for (char c : label)
    if (!is_lower_alnum(c) && c != '-') return false;
  return true;
}

// IsDNS1123Subdomain: at most 253 characters of dot-separated labels.
bool is_dns_subdomain(std::string_view text) {
  if (text.empty() || text.size() > 253) return false;
  size_t start = 0;
  while (true) {
    size_t dot = text.find('.', start);
    if (!is_dns_label(text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start)))
      return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// The name part of a qualified name: ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63.
bool is_qualified_name_part(std::string_view name) {
  if (name.empty() || name.size() > 63 || !is_alnum(name.front()) || !is_alnum(name.back())) return false;
  for (char c : name)
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

}  // namespace

bool is_qualified_name(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos) return is_qualified_name_part(text);
  std::string_view prefix = text.substr(0, slash);
  std::string_view name = text.substr(slash + 1);
  if (name.find('/') != std::string_view::npos) return false;
  return is_dns_subdomain(prefix) && is_qualified_name_part(name);
}

bool is_prefixed_native_resource(std::string_view name) {
  return name.find(kDefaultNamespacePrefix) != std::string_view::npos;
}

bool is_native_resource(std::string_view name) {
  return name.find('/') == std::string_view::npos || is_prefixed_native_resource(name);
}

bool is_extended_resource_name(std::string_view name) {
  if (is_native_resource(name) || starts_with(name, kRequestsPrefix)) return false;
  // Extended resources must also be usable in a quota as "requests.<name>".
  std::string for_quota(kRequestsPrefix);
  for_quota.append(name);
  return is_qualified_name(for_quota);
}

bool is_hugepages_resource_name(std::string_view name) { return starts_with(name, kHugePagesPrefix); }

bool is_attachable_volume_resource_name(std::string_view name) { return starts_with(name, kAttachableVolumesPrefix); }

bool is_scalar_resource_name(std::string_view name) {
  return is_extended_resource_name(name) || is_hugepages_resource_name(name) || is_prefixed_native_resource(name) ||
         is_attachable_volume_resource_name(name);
}

}  // namespace troupe::resource_names
