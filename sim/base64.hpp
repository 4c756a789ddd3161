#pragma once
// Standard (RFC 4648 §4) base64, for kubeconfig *-data fields and continue tokens.

#include <optional>
#include <string>
#include <string_view>

namespace troupe::sim {

std::string base64_encode(std::string_view data);
/// nullopt for characters outside the alphabet or a bad length.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace troupe::sim
