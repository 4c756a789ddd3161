#pragma once
// ApiResult: what every write (and plain read) returns — never an exception.
// For non-2xx answers the API server's Status object (k8s-protocol.md §3.3) is
// decoded into reason/message; without a response, code is 0 and reason says
// why ("ConnectionError", "Cancelled").

#include <optional>
#include <string>

#include "watch/http_client.hpp"

namespace troupe::watch {

struct ApiResult {
  bool ok = false;      // 2xx
  int code = 0;         // HTTP status; 0 = no response
  std::string reason;   // Status.reason ("Conflict", "NotFound", "Expired", ...); "" on success
  std::string message;  // Status.message or the transport error
  std::string body;     // the response body: the object on success, the Status otherwise
  int attempts = 0;     // times the request went out, retries and resends included
  std::optional<int> retry_after_seconds;  // the last response's Retry-After header
};

/// Decodes an HTTP response. A non-Status error body (a proxy's HTML page)
/// gives the reason Kubernetes would have used for the code and the first
/// 512 bytes of the body as the message.
ApiResult to_api_result(const HttpResponse& response);
/// The same, taking the body over instead of copying it (a list page is megabytes).
ApiResult to_api_result(HttpResponse&& response);

/// Kubernetes' reason for a status code (api-conventions), "" if none.
const char* reason_for_code(int code);

/// "POST /api/v1/…: 409 Conflict: Operation cannot be fulfilled …", for logs.
std::string describe(const ApiResult& result, const std::string& method, const std::string& path);

}  // namespace troupe::watch
