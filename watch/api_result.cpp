#include "watch/api_result.hpp"

#include "watch/json_util.hpp"

namespace troupe::watch {

const char* reason_for_code(int code) {
  switch (code) {
    case 400: return "BadRequest";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "NotFound";
    case 405: return "MethodNotAllowed";
    case 406: return "NotAcceptable";
    case 409: return "Conflict";
    case 410: return "Expired";
    case 413: return "RequestEntityTooLarge";
    case 415: return "UnsupportedMediaType";
    case 422: return "Invalid";
    case 429: return "TooManyRequests";
    case 500: return "InternalError";
    case 503: return "ServiceUnavailable";
    case 504: return "Timeout";
    default: return "";
  }
}

namespace {

// Everything but the body, which the caller has put into `out.body` already.
ApiResult finish_result(const HttpResponse& response, ApiResult out) {
  out.code = response.status;
  out.retry_after_seconds = response.retry_after_seconds;
  if (response.status == 0) {
    out.body.clear();
    out.reason = response.cancelled ? "Cancelled" : "ConnectionError";
    out.message = response.error;
    return out;
  }
  out.ok = response.status >= 200 && response.status < 300;
  if (out.ok) return out;
  const std::string& body = out.body;

  if (auto doc = parse_document(body); doc && (*doc)->IsObject() &&
                                                 string_at(**doc, {"kind"}) == "Status") {
    out.reason = string_at(**doc, {"reason"});
    out.message = string_at(**doc, {"message"});
  }
  if (out.reason.empty()) out.reason = reason_for_code(response.status);
  if (out.reason.empty()) out.reason = "HTTP" + std::to_string(response.status);
  if (out.message.empty()) out.message = body.substr(0, 512);
  return out;
}

}  // namespace

ApiResult to_api_result(const HttpResponse& response) {
  ApiResult out;
  if (response.status != 0) out.body = response.body;
  return finish_result(response, std::move(out));
}

ApiResult to_api_result(HttpResponse&& response) {
  ApiResult out;
  if (response.status != 0) out.body = std::move(response.body);
  return finish_result(response, std::move(out));
}

std::string describe(const ApiResult& result, const std::string& method, const std::string& path) {
  std::string text = method + " " + path + ": ";
  if (result.code == 0) return text + result.reason + ": " + result.message;
  text += std::to_string(result.code);
  if (!result.reason.empty()) text += " " + result.reason;
  if (!result.message.empty()) text += ": " + result.message;
  return text;
}

}  // namespace troupe::watch
