#pragma once
// A request as the handlers see it and the answer they give, independent of
// the HTTP transport (so handlers can be tested without sockets).

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "sim/watch_hub.hpp"

namespace troupe::sim {

struct ApiRequest {
  std::string method; // "GET", "POST", ...
  std::string path;   // without the query string
  std::map<std::string, std::string> query;
  std::string content_type;
  std::string accept;  // the Accept header: a Table instead of objects (server_side_table.hpp)
  std::string body;
};

/// A watch to stream: events come from `watcher`; the stream ends after
/// `timeout`, preceded by a BOOKMARK when `bookmarks` was asked for.
struct WatchPlan {
  std::shared_ptr<Watcher> watcher;
  std::chrono::seconds timeout{0};
  bool bookmarks = false;
};

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  int retry_after_seconds = 0;      // > 0: a Retry-After header
  std::shared_ptr<WatchPlan> watch; // set: stream events instead of `body`
};

}  // namespace troupe::sim
