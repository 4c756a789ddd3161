#include "sim/object_store.hpp"

#include <algorithm>
#include <map>

namespace troupe::sim {

namespace {

constexpr int kMaxWriteRetries = 1000;

std::shared_ptr<const std::string> bookmark_line(const ResourceInfo& resource, uint64_t rv, bool initial_end) {
  std::string object = R"({"kind":")" + resource.kind + R"(","apiVersion":")" + resource.api_version() +
                       R"(","metadata":{"resourceVersion":")" + std::to_string(rv) + "\"";
  if (initial_end) object += R"(,"annotations":{"k8s.io/initial-events-end":"true"})";
  object += "}}";
  return std::make_shared<const std::string>(watch_event_line(EventType::bookmark, object));
}

}  // namespace

void set_resource_version(rapidjson::Document& doc, uint64_t resource_version) {
  auto& alloc = doc.GetAllocator();
  if (!doc.IsObject()) doc.SetObject();
  auto meta = doc.FindMember("metadata");
  if (meta == doc.MemberEnd() || !meta->value.IsObject()) {
    if (meta != doc.MemberEnd()) doc.RemoveMember(meta);
    doc.AddMember("metadata", rapidjson::Value(rapidjson::kObjectType), alloc);
    meta = doc.FindMember("metadata");
  }
  std::string text = std::to_string(resource_version);
  rapidjson::Value value(text.c_str(), static_cast<rapidjson::SizeType>(text.size()), alloc);
  auto rv = meta->value.FindMember("resourceVersion");
  if (rv != meta->value.MemberEnd()) {
    rv->value = std::move(value);
  } else {
    meta->value.AddMember("resourceVersion", std::move(value), alloc);
  }
}

ObjectStore::ObjectStore(const ResourceRegistry& registry, StoreOptions options)
    : registry_(registry),
      options_(options),
      objects_(registry.storage_count()),
      trimmed_(registry.storage_count(), 0),
      hub_(registry.storage_count()) {}

uint64_t ObjectStore::resource_version() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return resource_version_;
}

ObjectPtr ObjectStore::find_locked(size_t storage, const std::string& key) const {
  const auto& map = objects_.at(storage);
  auto it = map.find(key);
  return it == map.end() ? nullptr : it->second;
}

ObjectPtr ObjectStore::get(const ResourceInfo& resource, const std::string& ns, const std::string& name) const {
  std::string key = ns + "/" + name;
  std::lock_guard<std::mutex> lock(mutex_);
  return find_locked(resource.storage, key);
}

namespace {

using ObjectMap = std::map<std::string, ObjectPtr>;

// Keys are "ns/name": one namespace is the contiguous range of keys with the prefix "ns/".
ObjectMap::const_iterator first_listed(const ObjectMap& map, const std::string& ns, const std::string& after_key) {
  auto it = ns.empty() ? map.begin() : map.lower_bound(ns + "/");
  if (!after_key.empty()) {
    // A token from another list (or made up) may point anywhere: never before the range's start.
    auto resume = map.upper_bound(after_key);
    if (it != map.end() && (resume == map.end() || resume->first > it->first)) it = resume;
  }
  return it;
}

}  // namespace

ObjectStore::Page ObjectStore::list(const ResourceInfo& resource, const ObjectFilter& filter, size_t limit,
                                    const std::string& after_key, std::optional<uint64_t> at) const {
  Page page;
  std::lock_guard<std::mutex> lock(mutex_);
  page.resource_version = at.value_or(resource_version_);
  const ObjectMap& map = objects_.at(resource.storage);
  // What the writes after `at` changed, as it was before them (null: it did not exist).
  ObjectMap undone;
  if (at && *at != resource_version_) {
    if (*at > resource_version_ || *at < oldest_resumable_locked(resource.storage)) {
      page.expired = true;
      return page;
    }
    for (auto e = history_.rbegin(); e != history_.rend() && (*e)->resource_version > *at; ++e)
      if ((*e)->storage == resource.storage) undone[(*e)->object->key()] = (*e)->previous;
  }
  const std::string prefix = filter.ns.empty() ? std::string() : filter.ns + "/";
  auto in_range = [&](const ObjectMap& m, ObjectMap::const_iterator i) {
    return i != m.end() && i->first.compare(0, prefix.size(), prefix) == 0;
  };
  auto now = first_listed(map, filter.ns, after_key);
  auto before = first_listed(undone, filter.ns, after_key);
  for (;;) {
    const bool has_now = in_range(map, now);
    const bool has_before = in_range(undone, before);
    if (!has_now && !has_before) break;
    ObjectPtr object;
    if (has_before && (!has_now || before->first <= now->first)) {
      if (has_now && now->first == before->first) ++now;  // changed since: its earlier state counts
      object = (before++)->second;
    } else {
      object = (now++)->second;
    }
    if (!object || !filter.matches(*object)) continue;
    if (limit > 0 && page.items.size() == limit) {
      page.last_key = page.items.back()->key();
      break;
    }
    page.items.push_back(std::move(object));
  }
  return page;
}

ObjectPtr ObjectStore::commit_locked(const ResourceInfo& resource, EventType type, rapidjson::Document& doc,
                                     std::shared_ptr<StoredObject> object, const ObjectPtr& previous) {
  uint64_t rv = ++resource_version_;
  set_resource_version(doc, rv);
  object->resource_version = rv;
  object->json = to_json(doc);
  ObjectPtr committed = std::move(object);
  auto& map = objects_.at(resource.storage);
  if (type == EventType::deleted) {
    map.erase(committed->key());
  } else {
    map[committed->key()] = committed;
  }
  auto event = std::make_shared<StoreEvent>();
  event->type = type;
  event->resource_version = rv;
  event->storage = resource.storage;
  event->object = committed;
  event->previous = previous;
  record_locked(std::move(event));
  return committed;
}

void ObjectStore::record_locked(EventPtr event) {
  history_.push_back(event);
  while (history_.size() > std::max<size_t>(options_.history_capacity, 1)) {
    trimmed_.at(history_.front()->storage) = history_.front()->resource_version;
    history_.pop_front();
  }
  hub_.publish(event);
}

ApiResult<ObjectPtr> ObjectStore::create(const ResourceInfo& resource, rapidjson::Document& doc) {
  auto object = make_stored_object(resource, doc);
  std::lock_guard<std::mutex> lock(mutex_);
  if (find_locked(resource.storage, object->key())) return already_exists(resource, object->name);
  return commit_locked(resource, EventType::added, doc, std::move(object), nullptr);
}

ApiResult<WriteResult> ObjectStore::modify(const ResourceInfo& resource, const std::string& ns,
                                           const std::string& name, const ChangeFn& change) {
  std::string key = ns + "/" + name;
  for (int attempt = 0; attempt < kMaxWriteRetries; ++attempt) {
    ObjectPtr current = get(resource, ns, name);
    auto decided = change(current);
    if (!decided.ok()) return decided.error();
    Change& c = decided.value();
    if (c.action == Change::Action::keep) return WriteResult{current, c.action};
    auto object = make_stored_object(resource, c.doc);
    std::lock_guard<std::mutex> lock(mutex_);
    if (find_locked(resource.storage, key) != current) continue; // raced with another write: recompute
    switch (c.action) {
      case Change::Action::create:
        if (current) return already_exists(resource, name);
        return WriteResult{commit_locked(resource, EventType::added, c.doc, std::move(object), nullptr), c.action};
      case Change::Action::replace:
        if (!current) return not_found(resource, name);
        return WriteResult{commit_locked(resource, EventType::modified, c.doc, std::move(object), current), c.action};
      case Change::Action::remove:
        if (!current) return not_found(resource, name);
        return WriteResult{commit_locked(resource, EventType::deleted, c.doc, std::move(object), current), c.action};
      case Change::Action::keep: break;
    }
  }
  return internal_error("too many concurrent writes to " + resource.qualified_plural() + " \"" + name + "\"");
}

void ObjectStore::watch(const std::shared_ptr<Watcher>& watcher, std::optional<uint64_t> from,
                        bool initial_end_bookmark) {
  const ResourceInfo& resource = watcher->resource();
  std::lock_guard<std::mutex> lock(mutex_);
  if (from) {
    if (*from > resource_version_) {
      ApiError e = too_large_resource_version(*from, resource_version_);
      watcher->finish(error_event_line(e.to_json()));
      return;
    }
    const uint64_t oldest = oldest_resumable_locked(resource.storage);
    if (*from < oldest) {
      ApiError e = expired("too old resource version: " + std::to_string(*from) + " (" + std::to_string(oldest) + ")");
      watcher->finish(error_event_line(e.to_json()));
      return;
    }
    // History resourceVersions are contiguous: every write records one event.
    const uint64_t first = history_.empty() ? resource_version_ + 1 : history_.front()->resource_version;
    for (size_t i = *from + 1 > first ? static_cast<size_t>(*from + 1 - first) : 0; i < history_.size(); ++i) {
      const auto& event = history_[i];
      if (event->storage == resource.storage) watcher->deliver(event, false);
    }
  } else {
    const auto& map = objects_.at(resource.storage);
    for (const auto& [key, object] : map)
      if (watcher->filter().matches(*object)) watcher->push({nullptr, object, EventType::added});
    if (initial_end_bookmark) watcher->push({bookmark_line(resource, resource_version_, true), nullptr, EventType::bookmark});
  }
  hub_.add(watcher);
}

void ObjectStore::unwatch(const Watcher* watcher) {
  std::lock_guard<std::mutex> lock(mutex_);
  hub_.remove(watcher);
}

void ObjectStore::bookmark(Watcher& watcher) {
  std::lock_guard<std::mutex> lock(mutex_);
  watcher.push({bookmark_line(watcher.resource(), resource_version_, false), nullptr, EventType::bookmark});
}

size_t ObjectStore::watcher_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hub_.watcher_count();
}

void ObjectStore::finish_watches() {
  std::lock_guard<std::mutex> lock(mutex_);
  hub_.finish_all();
}

uint64_t ObjectStore::oldest_resumable(const ResourceInfo& resource) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return oldest_resumable_locked(resource.storage);
}

uint64_t ObjectStore::oldest_resumable_locked(size_t storage) const { return trimmed_.at(storage); }

size_t ObjectStore::object_count(const ResourceInfo& resource) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return objects_.at(resource.storage).size();
}

}  // namespace troupe::sim
