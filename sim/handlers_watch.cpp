// WATCH: parses the watch parameters (resourceVersion, timeoutSeconds,
// allowWatchBookmarks, sendInitialEvents, selectors) and registers a Watcher
// with the store; the HTTP layer streams it.
#include <random>

#include "sim/api_handler.hpp"

namespace troupe::sim {

namespace {

// kube-apiserver's default when timeoutSeconds is absent: a random duration
// in [minRequestTimeout, 2*minRequestTimeout) with minRequestTimeout = 1800s,
// so that watches do not all end at once.
std::chrono::seconds default_watch_timeout() {
  thread_local std::mt19937 rng{std::random_device{}()};
  return std::chrono::seconds(1800 + rng() % 1800);
}

std::optional<ApiError> bool_param(const ApiRequest& request, const char* name, bool& out) {
  auto it = request.query.find(name);
  if (it == request.query.end()) return std::nullopt;
  auto value = parse_go_bool(it->second);
  if (!value) return bad_request(std::string("invalid value for ") + name + ": \"" + it->second + "\"");
  out = *value;
  return std::nullopt;
}

}  // namespace

ApiResponse ApiHandler::watch(const ResourceInfo& r, const ParsedPath& path, const ApiRequest& request) {
  ApiRequest selecting = request;
  if (!path.name.empty()) {
    // Watching one object is watching the collection for its name.
    std::string& fields = selecting.query["fieldSelector"];
    fields = "metadata.name=" + path.name + (fields.empty() ? "" : "," + fields);
  }
  auto filter = request_filter(r, path.ns, selecting);
  if (!filter.ok()) return error_response(filter.error());

  auto table = table_request(request.accept, request.query);
  if (!table.ok()) return error_response(table.error());

  auto plan = std::make_shared<WatchPlan>();
  if (auto e = bool_param(request, "allowWatchBookmarks", plan->bookmarks)) return error_response(*e);
  bool send_initial = false;
  bool send_initial_given = request.query.count("sendInitialEvents") > 0;
  if (auto e = bool_param(request, "sendInitialEvents", send_initial)) return error_response(*e);

  std::optional<uint64_t> from;
  auto rv = request.query.find("resourceVersion");
  if (rv != request.query.end() && !rv->second.empty() && rv->second != "0") {
    auto value = parse_non_negative_int(rv->second);
    if (!value) return error_response(bad_request("invalid resource version: \"" + rv->second + "\""));
    from = static_cast<uint64_t>(*value);
  }
  if (send_initial_given) {
    // WatchList semantics: true means "current state first", false "from now".
    if (send_initial) {
      from.reset();
    } else if (!from) {
      from = store_.resource_version();
    }
  }

  plan->timeout = default_watch_timeout();
  if (auto t = request.query.find("timeoutSeconds"); t != request.query.end() && !t->second.empty()) {
    auto value = parse_non_negative_int(t->second);
    if (!value) return error_response(bad_request("invalid value for timeoutSeconds: \"" + t->second + "\""));
    if (*value > 0) plan->timeout = std::chrono::seconds(*value);
  }

  plan->watcher =
      std::make_shared<Watcher>(r, std::move(filter.value()), store_.options().watch_queue_limit, table.value());
  store_.watch(plan->watcher, from, send_initial && plan->bookmarks);
  ApiResponse response;
  response.watch = std::move(plan);
  return response;
}

}  // namespace troupe::sim
