#include "watch/base64.hpp"

#include <array>
#include <cstdint>

namespace troupe::watch {

namespace {

constexpr std::int8_t kInvalid = -1;

constexpr std::array<std::int8_t, 256> make_table() {
  std::array<std::int8_t, 256> table{};
  for (auto& entry : table) entry = kInvalid;
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
  return table;
}

constexpr std::array<std::int8_t, 256> kTable = make_table();

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

Result<std::string> base64_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  std::uint32_t bits = 0;
  int bit_count = 0;
  std::size_t symbols = 0;
  std::size_t padding = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (is_space(c)) continue;
    if (c == '=') {
      ++padding;
      continue;
    }
    if (padding > 0) return Error{"base64: data continues after '=' padding at offset " + std::to_string(i)};
    const std::int8_t value = kTable[static_cast<unsigned char>(c)];
    if (value == kInvalid)
      return Error{"base64: invalid character '" + std::string(1, c) + "' at offset " + std::to_string(i)};
    ++symbols;
    bits = (bits << 6) | static_cast<std::uint32_t>(value);
    bit_count += 6;
    if (bit_count >= 8) {
      bit_count -= 8;
      out.push_back(static_cast<char>((bits >> bit_count) & 0xFF));
    }
  }
  if (symbols % 4 == 1) return Error{"base64: truncated input (" + std::to_string(symbols) + " symbols)"};
  if (padding > 2 || (padding > 0 && (symbols + padding) % 4 != 0))
    return Error{"base64: wrong amount of '=' padding"};
  return out;
}

}  // namespace troupe::watch
