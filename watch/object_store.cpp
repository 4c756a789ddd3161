#include "watch/object_store.hpp"

#include <algorithm>

#include "watch/json_util.hpp"

namespace troupe::watch {

namespace {

std::string uid_of(const rapidjson::Value& object) { return string_at(object, {"metadata", "uid"}); }

}  // namespace

std::string ObjectStore::key_of(const rapidjson::Value& object) {
  const std::string name = string_at(object, {"metadata", "name"});
  if (name.empty()) return "";
  const std::string ns = string_at(object, {"metadata", "namespace"});
  return ns.empty() ? name : ns + "/" + name;
}

bool ObjectStore::apply(EventType type, const ObjectPtr& object) {
  const std::string key = key_of(*object);
  if (key.empty()) return false;
  if (type == EventType::deleted) {
    objects_.erase(key);
  } else {
    objects_[key] = object;
  }
  return true;
}

std::vector<Change> ObjectStore::replace(const std::vector<ObjectPtr>& items) {
  std::unordered_map<std::string, ObjectPtr> fresh;
  fresh.reserve(items.size());
  std::vector<std::string> order;
  order.reserve(items.size());
  for (const auto& item : items) {
    std::string key = key_of(*item);
    if (key.empty()) continue;
    if (fresh.emplace(key, item).second) order.push_back(std::move(key));
  }

  std::vector<Change> deletions;
  std::vector<Change> upserts;
  std::vector<std::string> deleted_keys;
  for (const auto& [key, old] : objects_) {
    const auto now = fresh.find(key);
    if (now == fresh.end() || uid_of(*now->second) != uid_of(*old)) deleted_keys.push_back(key);
  }
  std::sort(deleted_keys.begin(), deleted_keys.end());  // a stable order, whatever the hash map did
  for (const auto& key : deleted_keys) deletions.push_back({EventType::deleted, objects_.at(key), true});
  for (const auto& key : order) {
    const ObjectPtr& item = fresh.at(key);
    const auto old = objects_.find(key);
    if (old == objects_.end() || uid_of(*old->second) != uid_of(*item)) {
      upserts.push_back({EventType::added, item});
    } else if (resource_version_of(*old->second) != resource_version_of(*item)) {
      upserts.push_back({EventType::modified, item});
    }
  }
  objects_ = std::move(fresh);
  deletions.insert(deletions.end(), std::make_move_iterator(upserts.begin()), std::make_move_iterator(upserts.end()));
  return deletions;
}

ObjectPtr ObjectStore::get(const std::string& key) const {
  const auto it = objects_.find(key);
  return it == objects_.end() ? nullptr : it->second;
}

}  // namespace troupe::watch
