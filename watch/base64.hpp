#pragma once
// Base64 decoding for kubeconfig's *-data fields (base64 of PEM text).

#include <string>
#include <string_view>

#include "model/result.hpp"

namespace troupe::watch {

/// Decodes standard base64 (RFC 4648 §4, '=' padding optional). Whitespace and
/// line breaks are skipped, as `base64 -w76` output and YAML folding insert them.
Result<std::string> base64_decode(std::string_view text);

}  // namespace troupe::watch
