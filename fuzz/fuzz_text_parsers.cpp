// Fuzz target: the text syntaxes troupe parses from objects and URLs. The
// first byte picks the parser, the rest is its input. Every refusal must
// carry a message, and what parses must print back to text that parses to
// the same value:
//   quantities ("1.5Gi"), cpusets ("0-3,8"), label selectors ("a in (x),!b"),
//   field selectors ("spec.nodeName=n1", for pods), Go durations ("1h2m").
//
//   fuzz/fuzz_text_parsers -dict=../main/fuzz/koordinator.dict corpus ../main/fuzz/corpus/text_parsers

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model/cpuset.hpp"
#include "model/field_selector.hpp"
#include "model/go_duration.hpp"
#include "model/label_selector.hpp"
#include "model/quantity.hpp"

using namespace troupe;

namespace {

[[noreturn]] void fail(const char* parser, std::string_view input, const std::string& detail) {
  std::fprintf(stderr, "fuzz_text_parsers: %s(\"%.*s\"): %s\n", parser, static_cast<int>(input.size()), input.data(),
               detail.c_str());
  std::abort();
}

/// Parses `input`; on success, parses the printed value back and compares.
template <class Parse, class Print, class Same>
void round_trip(const char* parser, std::string_view input, Parse parse, Print print, Same same) {
  auto first = parse(input);
  if (!first.ok()) {
    if (first.error().message.empty()) fail(parser, input, "an error without a message");
    return;
  }
  const std::string printed = print(*first);
  auto second = parse(printed);
  if (!second.ok()) fail(parser, input, "printed as \"" + printed + "\", which does not parse: " + second.error().message);
  if (!same(*first, *second)) fail(parser, input, "printed as \"" + printed + "\", which parses to another value");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
    case 0:
      round_trip("Quantity::parse", input, Quantity::parse, [](const Quantity& q) { return q.to_string(); },
                 [](const Quantity& a, const Quantity& b) { return a == b; });
      break;
    case 1:
      round_trip("CpuSet::parse", input, CpuSet::parse, [](const CpuSet& s) { return s.to_string(); },
                 [](const CpuSet& a, const CpuSet& b) { return a == b; });
      break;
    case 2:
      round_trip("parse_label_selector", input, parse_label_selector,
                 [](const LabelSelector& s) { return s.to_string(); },
                 [](const LabelSelector& a, const LabelSelector& b) { return a.to_string() == b.to_string(); });
      break;
    case 3: {
      auto selector = parse_field_selector(input, "Pod");
      if (!selector.ok() && selector.error().message.empty()) fail("parse_field_selector", input, "no message");
      break;
    }
    case 4: {
      auto duration = parse_go_duration(input);
      if (!duration.ok() && duration.error().message.empty()) fail("parse_go_duration", input, "no message");
      break;
    }
  }
  return 0;
}
