#pragma once
// ContentKey: an unambiguous text form of the fields of an object that some
// derived value depends on, to key a SharedByKey (shared_by_key.hpp) with.
// Every field is length-prefixed, so no value can be mistaken for a separator
// and two different field sequences never give the same key.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace troupe::plugins {

class ContentKey {
 public:
  ContentKey& text(std::string_view s) {
    out_ += std::to_string(s.size());
    out_ += ':';
    out_ += s;
    return *this;
  }
  ContentKey& number(int64_t n) { return text(std::to_string(n)); }
  /// A map of strings (labels, annotations): its size, then each key and value.
  template <class Map>
  ContentKey& strings(const Map& map) {
    number(static_cast<int64_t>(map.size()));
    for (const auto& [k, v] : map) text(k).text(v);
    return *this;
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

}  // namespace troupe::plugins
