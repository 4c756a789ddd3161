#pragma once
// Small ASCII text helpers shared by the decoders, the API server and the
// watch clients (Kubernetes names, media types and header values are ASCII).

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace troupe {

/// `text` without leading and trailing spaces, tabs, CRs and LFs (Go's strings.TrimSpace on ASCII).
inline std::string trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  const auto first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(kSpace) - first + 1));
}

/// `text` with A–Z lowered (media types, kinds in kubectl's OBJECT column).
inline std::string ascii_lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace troupe
