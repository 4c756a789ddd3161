#include "plugins/deviceshare/go_json.hpp"

#include <cstdint>

namespace troupe::plugins::deviceshare {

namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_unicode_escape(std::string& out, uint32_t code) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 0xF];
}

// Length of a valid UTF-8 sequence at text[i], 0 when invalid (Go replaces
// each invalid byte with U+FFFD).
size_t utf8_sequence(std::string_view text, size_t i, uint32_t& code) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t b0 = byte(i);
  size_t len = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0;
  if (len == 0 || b0 >= 0xF8 || i + len > text.size()) return 0;
  code = b0 & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  const uint32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < min_for_len[len] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string go_json_string(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<uint8_t>(text[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '<':
        case '>':
        case '&': append_unicode_escape(out, c); break;
        default:
          if (c < 0x20) append_unicode_escape(out, c);
          else out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    uint32_t code = 0;
    const size_t len = utf8_sequence(text, i, code);
    if (len == 0) {
      out += "\\ufffd";
      ++i;
    } else if (code == 0x2028 || code == 0x2029) {
      append_unicode_escape(out, code);
      i += len;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  out += '"';
  return out;
}

std::string go_quote(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<uint8_t>(text[i]);
    if (c >= 0x80) {
      uint32_t code = 0;
      const size_t len = utf8_sequence(text, i, code);
      if (len == 0) {
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
        ++i;
      } else {
        out.append(text.substr(i, len));
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
  return out;
}

bool equals_fold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string describe_json(const JsonValue& v) {
  if (v.IsString()) return "string " + go_json_string(member_name(v));
  return json_type_name(v);
}

}  // namespace troupe::plugins::deviceshare
