#include "watch/reflector.hpp"

#include <spdlog/spdlog.h>

#include "watch/json_util.hpp"
#include "watch/line_framer.hpp"
#include "watch/query.hpp"

namespace troupe::watch {

using Clock = std::chrono::steady_clock;

struct Reflector::ListResult {
  bool ok = false;
  bool cancelled = false;
  std::string error;
  std::optional<int> retry_after_seconds;
  std::vector<ObjectPtr> items;
  std::string resource_version;
};

// client-go's isTooLargeResourceVersionError: the server is behind the
// resourceVersion we hold (e.g. it was restored from an older state). Watching
// again from the same version would fail forever; only a re-list recovers.
namespace {
bool is_too_large_resource_version(int code, const std::string& message) {
  return code == 504 && message.find("Too large resource version") != std::string::npos;
}
}  // namespace

enum class Reflector::WatchEnd {
  ended,           // timeout, EOF or a broken connection: resume from the last resourceVersion
  expired,         // 410: the resourceVersion is too old, re-list
  throttled,       // 429: wait, then watch again
  failed_rewatch,  // transient failure: back off, then watch again from the same resourceVersion
  failed_relist,   // anything else: back off, then re-list (client-go does the same)
  cancelled,
};

struct Reflector::WatchResult {
  WatchEnd end = WatchEnd::ended;
  std::string error;
  std::optional<int> retry_after_seconds;
  std::size_t events = 0;  // bookmarks included, ERROR not
};

namespace {

// List items usually lack kind/apiVersion (only the list carries them); watch
// objects have both. Filling them in gives consumers one shape. The item is
// taken out of the page without a copy (adopt_value): its memory stays in the
// page's pool, which lives as long as any of the page's items.
ObjectPtr make_item(const std::shared_ptr<rapidjson::Document>& page, rapidjson::Value& item, const std::string& kind,
                    const std::string& api_version) {
  auto doc = adopt_value(page, item);
  auto& alloc = doc->GetAllocator();
  if (!doc->HasMember("kind") && !kind.empty()) doc->AddMember("kind", rapidjson::Value(kind.c_str(), alloc), alloc);
  if (!doc->HasMember("apiVersion") && !api_version.empty())
    doc->AddMember("apiVersion", rapidjson::Value(api_version.c_str(), alloc), alloc);
  return doc;
}

std::string item_kind(const std::string& list_kind) {
  const std::string suffix = "List";
  if (list_kind.size() > suffix.size() && list_kind.compare(list_kind.size() - suffix.size(), suffix.size(), suffix) == 0)
    return list_kind.substr(0, list_kind.size() - suffix.size());
  return "";
}

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

}  // namespace

Reflector::Reflector(std::shared_ptr<ApiClient> api, ReflectorOptions options, ReflectorCallbacks callbacks)
    : api_(std::move(api)), options_(std::move(options)), callbacks_(std::move(callbacks)), backoff_(options_.backoff) {
  if (options_.name.empty()) options_.name = options_.path;
  if (options_.page_size < 1) options_.page_size = 500;
  if (options_.min_watch_timeout.count() < 1) options_.min_watch_timeout = std::chrono::seconds(1);
  touch();
}

Reflector::~Reflector() {
  stop();
  std::lock_guard<std::mutex> lock(mutex_);
  if (thread_.joinable()) thread_.detach();  // destroyed from its own callback: nothing else can join it
}

void Reflector::start() {
  std::lock_guard<std::mutex> serialized(lifecycle_mutex_);
  std::thread stopping;
  uint64_t stops_before = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (thread_.joinable()) {
      if (!cancel_->cancelled()) return;
      if (thread_.get_id() == std::this_thread::get_id()) return;  // restarting from inside a callback is not supported
      stopping = std::move(thread_);
    }
    stops_before = stops_;
  }
  // Joined without mutex_: a loop stopped from its callback still reads the
  // resource version on its way out.
  if (stopping.joinable()) stopping.join();
  std::lock_guard<std::mutex> lock(mutex_);
  // A stop() that came while the old loop was being joined found nothing to
  // stop; it must still win over this start().
  if (stops_ != stops_before) return;
  cancel_ = std::make_unique<CancelToken>();
  thread_ = std::thread([this, token = cancel_.get()] { run(token); });
}

void Reflector::stop() {
  std::thread finished;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stops_;
    if (!thread_.joinable()) return;
    cancel_->cancel();
    if (thread_.get_id() == std::this_thread::get_id()) return;  // called from a callback: the loop exits after it
    finished = std::move(thread_);
  }
  finished.join();
}

bool Reflector::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return thread_.joinable() && !cancel_->cancelled();
}

std::string Reflector::resource_version() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return resource_version_;
}

void Reflector::set_resource_version(const std::string& rv) {
  if (rv.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  resource_version_ = rv;
}

Clock::time_point Reflector::last_activity() const { return Clock::time_point(Clock::duration(last_activity_.load())); }

void Reflector::touch() { last_activity_.store(Clock::now().time_since_epoch().count()); }

void Reflector::report(const std::string& message) {
  spdlog::warn("reflector {}: {}", options_.name, message);
  if (callbacks_.on_error) callbacks_.on_error(message);
}

void Reflector::deliver(const Change& change) {
  if (callbacks_.on_event) callbacks_.on_event(change);
}

std::string Reflector::list_target(const std::string& continue_token) const {
  return Query{}
      .add("labelSelector", options_.label_selector)
      .add("fieldSelector", options_.field_selector)
      .add("limit", std::to_string(options_.page_size))
      .add("continue", continue_token)
      .apply_to(options_.path);
}

std::string Reflector::watch_target(const std::string& rv, std::chrono::seconds timeout) const {
  return Query{}
      .add("labelSelector", options_.label_selector)
      .add("fieldSelector", options_.field_selector)
      .add("watch", "true")
      .add("allowWatchBookmarks", "true")
      .add("resourceVersion", rv)
      .add("timeoutSeconds", std::to_string(timeout.count()))
      .apply_to(options_.path);
}

// A consistent, paged snapshot: no resourceVersion means "most recent", which
// the server pages with continue tokens. (resourceVersion=0 would be served
// from the watch cache unpaged and possibly stale — after a 410 that could
// even move the consumer backwards.)
Reflector::ListResult Reflector::list_all(const CancelToken* cancel) {
  ListResult out;
  std::string continue_token;
  bool restarted = false;
  for (;;) {
    HttpRequest request;
    request.target = list_target(continue_token);
    request.timeout = options_.list_timeout;
    const ApiResult result = api_->call(request, RetryPolicy::once(), cancel);
    if (result.reason == "Cancelled") {
      out.cancelled = true;
      return out;
    }
    if (!result.ok) {
      if (result.code == 410 && !continue_token.empty() && !restarted) {
        // The continue token outlived the server's history (~5 min): start over once.
        spdlog::info("reflector {}: list continue token expired; listing again from the start", options_.name);
        restarted = true;
        continue_token.clear();
        out.items.clear();
        continue;
      }
      out.error = "list failed: " + describe(result, "GET", request.target);
      out.retry_after_seconds = result.retry_after_seconds;
      return out;
    }
    touch();
    auto parsed = parse_document(result.body);
    if (!parsed || !(*parsed)->IsObject()) {
      out.error = "list failed: GET " + request.target + ": " + (parsed ? "response is not a JSON object" : parsed.message());
      return out;
    }
    const std::shared_ptr<rapidjson::Document>& page = *parsed;
    rapidjson::Document& list = *page;
    const auto items_member = list.FindMember("items");
    rapidjson::Value* items = items_member == list.MemberEnd() ? nullptr : &items_member->value;
    if (items != nullptr && !items->IsNull() && !items->IsArray()) {
      out.error = "list failed: GET " + request.target + ": \"items\" is not an array";
      return out;
    }
    const std::string kind = item_kind(string_at(list, {"kind"}));
    const std::string api_version = string_at(list, {"apiVersion"});
    if (items != nullptr && items->IsArray()) {
      out.items.reserve(out.items.size() + items->Size());
      for (auto& item : items->GetArray()) {
        if (item.IsObject()) out.items.push_back(make_item(page, item, kind, api_version));
      }
    }
    continue_token = string_at(list, {"metadata", "continue"});
    if (continue_token.empty()) {
      out.resource_version = string_at(list, {"metadata", "resourceVersion"});
      out.ok = true;
      return out;
    }
  }
}

bool Reflector::handle_line(std::string_view line, WatchResult& result) {
  if (blank(line)) return true;
  auto event = parse_watch_event(line);
  if (!event) {
    result.end = WatchEnd::failed_rewatch;
    result.error = event.message();
    return false;
  }
  touch();
  const rapidjson::Document& object = *event->object;
  switch (event->kind) {
    case WatchEvent::Kind::bookmark:
      ++result.events;
      set_resource_version(resource_version_of(object));
      return true;
    case WatchEvent::Kind::error: {
      const StatusInfo status = status_info(object);
      result.error = "watch ERROR event: " + std::to_string(status.code) + " " + status.reason + ": " + status.message;
      if (is_expired(status)) {
        result.end = WatchEnd::expired;
      } else if (is_too_large_resource_version(status.code, status.message)) {
        result.end = WatchEnd::failed_relist;  // the server's history restarted below ours
      } else if (status.code == 429) {
        result.end = WatchEnd::throttled;
      } else if (status.code >= 500) {
        result.end = WatchEnd::failed_rewatch;
      } else {
        result.end = WatchEnd::failed_relist;
      }
      return false;
    }
    case WatchEvent::Kind::added:
    case WatchEvent::Kind::modified:
    case WatchEvent::Kind::deleted: {
      const EventType type = event->kind == WatchEvent::Kind::added      ? EventType::added
                             : event->kind == WatchEvent::Kind::modified ? EventType::modified
                                                                         : EventType::deleted;
      ++result.events;
      ObjectPtr shared = std::move(event->object);
      if (!store_.apply(type, shared)) {
        report(std::string("ignoring a ") + to_string(type) + " event for an object without metadata.name");
        return true;
      }
      set_resource_version(resource_version_of(*shared));
      deliver(Change{type, std::move(shared)});
      return true;
    }
  }
  return true;
}

Reflector::WatchResult Reflector::watch_once(const CancelToken* cancel) {
  const auto min = options_.min_watch_timeout;
  const auto timeout = min + std::chrono::seconds(static_cast<long>(uniform_random() * static_cast<double>(min.count())));
  HttpRequest request;
  request.target = watch_target(resource_version(), timeout);
  request.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(timeout + options_.watch_silence_grace);

  WatchResult result;
  LineFramer framer;
  const auto started = Clock::now();
  const StreamResult stream = api_->stream(
      request,
      [&](std::string_view bytes) {
        const auto fed = framer.feed(bytes, [&](std::string_view line) { return handle_line(line, result); });
        if (fed == LineFramer::FeedResult::overflow) {
          result.end = WatchEnd::failed_rewatch;
          result.error = "watch event longer than the line limit";
        }
        return fed == LineFramer::FeedResult::ok;
      },
      cancel);
  const auto lasted = Clock::now() - started;

  if (stream.cancelled || (cancel != nullptr && cancel->cancelled())) {
    result.end = WatchEnd::cancelled;
    return result;
  }
  if (stream.stopped_by_handler) return result;
  if (stream.status != 200 && stream.status != 0) {
    HttpResponse response;
    response.status = stream.status;
    response.body = stream.body;
    const ApiResult failed = to_api_result(response);
    result.error = "watch failed: " + describe(failed, "GET", request.target);
    result.retry_after_seconds = stream.retry_after_seconds;
    if (failed.code == 410 || failed.reason == "Expired" || failed.reason == "Gone") {
      result.end = WatchEnd::expired;
    } else if (is_too_large_resource_version(failed.code, failed.message)) {
      result.end = WatchEnd::failed_relist;
    } else if (failed.code == 429) {
      result.end = WatchEnd::throttled;
    } else if (failed.code >= 500) {
      result.end = WatchEnd::failed_rewatch;
    } else {
      result.end = WatchEnd::failed_relist;
    }
    return result;
  }
  if (stream.status == 0) {
    result.end = WatchEnd::failed_rewatch;
    result.error = "watch failed: " + stream.error;
    return result;
  }
  // 200: the stream ended (timeoutSeconds), or broke; either way resume.
  if (framer.pending_bytes() > 0)
    spdlog::info("reflector {}: watch stream ended inside an event ({} bytes dropped); resuming", options_.name,
                 framer.pending_bytes());
  if (!stream.error.empty()) spdlog::info("reflector {}: {}; resuming", options_.name, stream.error);
  if (result.events == 0 && lasted < options_.short_watch) {
    result.end = WatchEnd::failed_rewatch;
    result.error = "very short watch: " + request.target + " ended after " +
                   std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(lasted).count()) +
                   " ms with no events" + (stream.error.empty() ? "" : " (" + stream.error + ")");
  }
  return result;
}

void Reflector::run(const CancelToken* cancel) {
  spdlog::info("reflector {}: starting list/watch of {}", options_.name, options_.path);
  bool need_list = true;
  bool watch_follows_list = false;
  auto wait = [&](std::optional<int> retry_after_seconds) {
    std::chrono::milliseconds delay = backoff_.next();
    // The server's Retry-After lengthens the wait up to the backoff's ceiling, no further: an
    // informer asleep for an hour on a proxy's say-so would schedule from a stale cache.
    if (retry_after_seconds)
      delay = std::max(delay, std::min<std::chrono::milliseconds>(std::chrono::seconds(*retry_after_seconds),
                                                                  options_.backoff.max));
    return cancel->sleep_for(delay);
  };

  while (!cancel->cancelled()) {
    if (need_list) {
      ListResult list = list_all(cancel);
      if (list.cancelled) break;
      if (!list.ok) {
        report(list.error);
        if (!wait(list.retry_after_seconds)) break;
        continue;
      }
      const std::vector<Change> changes = store_.replace(list.items);
      for (const Change& change : changes) deliver(change);
      set_resource_version(list.resource_version);
      spdlog::info("reflector {}: listed {} objects at resourceVersion {} ({} changes delivered)", options_.name,
                   list.items.size(), list.resource_version, changes.size());
      synced_ = true;
      if (callbacks_.on_synced) callbacks_.on_synced();
      need_list = false;
      watch_follows_list = true;
    }

    const WatchResult watch = watch_once(cancel);
    const bool straight_after_list = watch_follows_list;
    watch_follows_list = false;
    switch (watch.end) {
      case WatchEnd::cancelled:
        break;
      case WatchEnd::ended:
        continue;
      case WatchEnd::expired:
        spdlog::info("reflector {}: {}; re-listing", options_.name, watch.error);
        need_list = true;
        // Expired right after a fresh list means something is badly off; do not spin.
        if (straight_after_list && watch.events == 0 && !wait(std::nullopt)) break;
        continue;
      case WatchEnd::throttled:
      case WatchEnd::failed_rewatch:
        report(watch.error);
        if (!wait(watch.retry_after_seconds)) break;
        continue;
      case WatchEnd::failed_relist:
        report(watch.error + "; re-listing");
        need_list = true;
        if (!wait(watch.retry_after_seconds)) break;
        continue;
    }
    break;
  }
  spdlog::info("reflector {}: stopped", options_.name);
}

}  // namespace troupe::watch
