#pragma once
// ObjectStore: what a reflector knows of its collection, keyed like
// client-go's MetaNamespaceKeyFunc ("namespace/name", or "name" for cluster
// objects). After a re-list it computes the changes that turn the old contents
// into the new, so a consumer that missed events (the watch expired) still sees
// every update and every deletion — the architecture's "never silently lose
// events" invariant.

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "watch/watch_event.hpp"

namespace troupe::watch {

struct Change {
  EventType type;
  ObjectPtr object;  // for deletions: the final state, or the last state this store saw
  /// A deletion a re-list found: `object` is the last state seen, which may be
  /// stale (client-go's DeletedFinalStateUnknown). A pod bound after that state
  /// still shows no node, so consumers must not trust its nodeName.
  bool final_state_unknown = false;
};

class ObjectStore {
 public:
  /// "ns/name" or "name"; "" when metadata.name is missing.
  static std::string key_of(const rapidjson::Value& object);

  /// Records a watch event. Returns false (and changes nothing) for an object
  /// without metadata.name.
  bool apply(EventType type, const ObjectPtr& object);

  /// Replaces the contents with a complete list and returns the changes, in
  /// this order: deletions (objects gone, or re-created under a new uid), then
  /// additions and modifications (resourceVersion differs) in list order.
  /// Items without a name are skipped.
  std::vector<Change> replace(const std::vector<ObjectPtr>& items);

  std::size_t size() const { return objects_.size(); }
  /// The stored object, or null.
  ObjectPtr get(const std::string& key) const;

 private:
  std::unordered_map<std::string, ObjectPtr> objects_;
};

}  // namespace troupe::watch
