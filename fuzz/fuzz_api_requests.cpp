// Fuzz target: requests to the embedded API server (troupe apiserver), past
// the HTTP layer. The input is one request per line:
//   METHOD TARGET ACCEPT CONTENT-TYPE BODY
// (ACCEPT and CONTENT-TYPE are "-" when absent; the body is the rest of the
// line), handled in order by one ApiHandler over one store, as kubectl and
// the scheduler's requests are. Whatever a request holds, the answer must be
// an HTTP status, and a JSON answer must be JSON: an object or list on
// success, a Status with a message on failure.
//
//   fuzz/fuzz_api_requests -dict=../main/fuzz/koordinator.dict corpus ../main/fuzz/corpus/api_requests

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "sim/api_handler.hpp"
#include "sim/resource_registry.hpp"

using namespace troupe::sim;

namespace {

[[noreturn]] void fail(const ApiRequest& request, const ApiResponse& response, const char* what) {
  std::fprintf(stderr, "fuzz_api_requests: %s %s: %s (status %d): %.300s\n", request.method.c_str(),
               request.path.c_str(), what, response.status, response.body.c_str());
  std::abort();
}

/// The next space-separated word of `line`, removed from it.
std::string take_word(std::string_view& line) {
  const size_t end = line.find(' ');
  std::string word(line.substr(0, end));
  line.remove_prefix(end == std::string_view::npos ? line.size() : end + 1);
  return word == "-" ? std::string() : word;
}

ApiRequest parse_request(std::string_view line) {
  ApiRequest request;
  request.method = take_word(line);
  const std::string target = take_word(line);
  request.accept = take_word(line);
  request.content_type = take_word(line);
  request.body = std::string(line);
  const size_t question = target.find('?');
  request.path = target.substr(0, question);
  if (question == std::string::npos) return request;
  std::string_view query = std::string_view(target).substr(question + 1);
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const size_t eq = pair.find('=');
    request.query[std::string(pair.substr(0, eq))] = eq == std::string_view::npos ? "" : std::string(pair.substr(eq + 1));
    query.remove_prefix(amp == std::string_view::npos ? query.size() : amp + 1);
  }
  return request;
}

void check(const ApiRequest& request, const ApiResponse& response) {
  if (response.status < 200 || response.status > 599) fail(request, response, "not an HTTP status");
  if (response.watch || response.content_type.rfind("application/json", 0) != 0) return;
  rapidjson::Document doc;
  doc.Parse(response.body.c_str(), response.body.size());
  if (doc.HasParseError() || !doc.IsObject()) fail(request, response, "the answer is not a JSON object");
  if (response.status < 400) return;
  auto kind = doc.FindMember("kind");
  auto message = doc.FindMember("message");
  if (kind == doc.MemberEnd() || !kind->value.IsString() || std::string_view(kind->value.GetString()) != "Status")
    fail(request, response, "a failure that is not a Status");
  if (message == doc.MemberEnd() || !message->value.IsString() || message->value.GetStringLength() == 0)
    fail(request, response, "a Status without a message");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ObjectStore store(ResourceRegistry::standard());
  ApiHandler handler(store);
  handler.create_system_namespaces();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  while (!input.empty()) {
    const size_t end = input.find('\n');
    const ApiRequest request = parse_request(input.substr(0, end));
    check(request, handler.handle(request));
    if (end == std::string_view::npos) break;
    input.remove_prefix(end + 1);
  }
  return 0;
}
