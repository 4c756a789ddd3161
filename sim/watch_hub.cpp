#include "sim/watch_hub.hpp"

#include <algorithm>

#include "sim/status_errors.hpp"

namespace troupe::sim {

const std::shared_ptr<const std::string>& StoreEvent::wire_line() const {
  if (!line) line = std::make_shared<const std::string>(watch_event_line(type, object->json));
  return line;
}

const ObjectPtr& StoreEvent::previous_at_event(const ResourceInfo& resource) const {
  if (previous_now) return previous_now;
  rapidjson::Document doc;
  doc.Parse(previous->json.data(), previous->json.size());
  auto meta = doc.IsObject() ? doc.FindMember("metadata") : doc.MemberEnd();
  if (doc.IsObject() && meta != doc.MemberEnd() && meta->value.IsObject()) {
    const std::string rv = std::to_string(resource_version);
    meta->value.RemoveMember("resourceVersion");
    meta->value.AddMember("resourceVersion", rapidjson::Value(rv.c_str(), doc.GetAllocator()), doc.GetAllocator());
    auto object = make_stored_object(resource, doc);
    object->json = to_json(doc);
    object->resource_version = resource_version;
    previous_now = std::move(object);
  } else {
    previous_now = previous;
  }
  return previous_now;
}

std::shared_ptr<const std::string> error_event_line(const std::string& status_json) {
  return std::make_shared<const std::string>(watch_event_line(EventType::error, status_json));
}

Watcher::Watcher(const ResourceInfo& resource, ObjectFilter filter, size_t queue_limit,
                 std::optional<TableRequest> table)
    : resource_(resource),
      filter_(std::move(filter)),
      queue_limit_(std::max<size_t>(queue_limit, 1)),
      table_(std::move(table)) {}

void Watcher::set_wake(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(mutex_);
  wake_ = std::move(wake);
}

void Watcher::enqueue_locked(WatchItem item, bool counted, std::function<void()>& wake_out) {
  if (finished_) return;
  if (counted && counted_ >= queue_limit_) {
    // Cut off: the client must re-list, exactly as after a compaction.
    queue_.clear();
    counted_ = 0;
    ApiError e = expired("watch closed: the client fell more than " + std::to_string(queue_limit_) +
                         " events behind; re-list and watch again");
    queue_.push_back({error_event_line(e.to_json()), nullptr, EventType::error});
    finished_ = true;
    wake_out = wake_;
    return;
  }
  bool was_empty = queue_.empty();
  queue_.push_back(std::move(item));
  if (counted) ++counted_;
  if (was_empty) wake_out = wake_;
}

void Watcher::deliver(const EventPtr& event, bool counted) {
  bool now = filter_.matches(*event->object);
  bool before = event->type != EventType::added && event->previous && filter_.matches(*event->previous);
  EventType type = event->type;
  if (event->type == EventType::modified) {
    if (!now && !before) return;
    if (now && !before) type = EventType::added;
    if (!now && before) type = EventType::deleted;
  } else if (!now && !before) {
    // A deletion whose last write (the last finalizer's removal, say) also changed
    // the labels still reaches the watchers that saw the object before.
    return;
  }
  WatchItem item;
  // Leaving the selector: the state it was selected in, at this event's version.
  item.object = event->type == EventType::modified && type == EventType::deleted ? event->previous_at_event(resource_)
                                                                                  : event->object;
  item.type = type;
  if (type == event->type && resource_.storage_version && !table_) item.line = event->wire_line();
  std::function<void()> wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    enqueue_locked(std::move(item), counted, wake);
  }
  if (wake) wake();
}

void Watcher::push(WatchItem item) {
  std::function<void()> wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    enqueue_locked(std::move(item), false, wake);
  }
  if (wake) wake();
}

void Watcher::finish(std::shared_ptr<const std::string> last_line) {
  std::function<void()> wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) return;
    if (last_line) queue_.push_back({std::move(last_line), nullptr, EventType::error});
    finished_ = true;
    wake = wake_;
  }
  if (wake) wake();
}

bool Watcher::finished() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return finished_;
}

bool Watcher::take(std::vector<WatchItem>& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& item : queue_) out.push_back(std::move(item));
  queue_.clear();
  counted_ = 0;
  return finished_;
}

void Watcher::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.clear();
  counted_ = 0;
  finished_ = true;
  wake_ = nullptr;
}

std::string Watcher::render(const WatchItem& item) const {
  if (item.line) return *item.line;
  if (table_) {
    const TableListMeta meta{item.object->resource_version, ""};
    return watch_event_line(item.type, table_json(resource_, *table_, {item.object}, meta, timestamp_now()));
  }
  return watch_event_line(item.type, object_json_as(resource_, *item.object));
}

void WatchHub::add(std::shared_ptr<Watcher> watcher) {
  watchers_.at(watcher->resource().storage).push_back(std::move(watcher));
}

void WatchHub::remove(const Watcher* watcher) {
  auto& list = watchers_.at(watcher->resource().storage);
  list.erase(std::remove_if(list.begin(), list.end(), [&](const auto& w) { return w.get() == watcher; }), list.end());
}

void WatchHub::publish(const EventPtr& event) {
  auto& list = watchers_.at(event->storage);
  bool saw_finished = false;
  for (const auto& w : list) {
    if (w->finished()) {
      saw_finished = true;
      continue;
    }
    w->deliver(event);
  }
  if (saw_finished)
    list.erase(std::remove_if(list.begin(), list.end(), [](const auto& w) { return w->finished(); }), list.end());
}

size_t WatchHub::watcher_count() const {
  size_t n = 0;
  for (const auto& list : watchers_) n += list.size();
  return n;
}

void WatchHub::finish_all() {
  for (auto& list : watchers_) {
    for (auto& w : list) w->finish(nullptr);
    list.clear();
  }
}

}  // namespace troupe::sim
