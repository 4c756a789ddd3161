#pragma once
// The in-memory object store behind the embedded API server: objects keyed by
// storage + namespace + name, one global integer resourceVersion bumped by
// every write, a bounded ring of past events for watch resume, and the watch
// hub the events are published to.
//
// One mutex guards everything; what happens under it is kept small: the
// caller parses, patches, validates and extracts labels outside, and the
// critical section only checks the precondition, stamps the resourceVersion,
// serializes the object once and queues the event.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "sim/object_filter.hpp"
#include "sim/resource_registry.hpp"
#include "sim/status_errors.hpp"
#include "sim/stored_object.hpp"
#include "sim/watch_hub.hpp"

namespace troupe::sim {

struct StoreOptions {
  // Each retained event pins one version of an object (~1-4 KiB for a pod),
  // so the history is bounded by count; 50,000 is minutes of a busy cluster.
  size_t history_capacity = 50000;   // events kept for watch resume
  size_t watch_queue_limit = 50000;  // live events a watcher may fall behind before it is cut off
};

/// What a read-modify-write decided to do with the current object.
struct Change {
  enum class Action { keep, create, replace, remove };
  Action action = Action::keep;
  rapidjson::Document doc; // create/replace: the new object; remove: the final state
};

struct WriteResult {
  ObjectPtr object;     // the new (or, for remove, final) state; for keep the current one
  Change::Action action = Change::Action::keep;
};

class ObjectStore {
 public:
  explicit ObjectStore(const ResourceRegistry& registry, StoreOptions options = {});

  const ResourceRegistry& registry() const { return registry_; }
  const StoreOptions& options() const { return options_; }
  uint64_t resource_version() const;

  ObjectPtr get(const ResourceInfo& resource, const std::string& ns, const std::string& name) const;

  struct Page {
    std::vector<ObjectPtr> items;
    uint64_t resource_version = 0;
    std::string last_key; // non-empty when more items remain after this page
    bool expired = false; // `at` is older than the history reaches: no page
  };
  /// Objects matching `filter` in key order, at most `limit` (0: all), starting
  /// after the key `after_key` (a continue token's position). With `at`, as
  /// they were at that resourceVersion (the writes since undone, as etcd serves
  /// a continued list from the first page's revision): one consistent snapshot.
  Page list(const ResourceInfo& resource, const ObjectFilter& filter, size_t limit = 0,
            const std::string& after_key = "", std::optional<uint64_t> at = std::nullopt) const;

  /// Commits a new object (409 AlreadyExists if taken). `doc` gets its
  /// metadata.resourceVersion stamped.
  ApiResult<ObjectPtr> create(const ResourceInfo& resource, rapidjson::Document& doc);

  /// The read-modify-write loop: `change` sees the current object (null when
  /// missing) and decides, outside the lock; if another write got in between,
  /// it is called again with the newer object.
  using ChangeFn = std::function<ApiResult<Change>(const ObjectPtr& current)>;
  ApiResult<WriteResult> modify(const ResourceInfo& resource, const std::string& ns, const std::string& name,
                                const ChangeFn& change);

  /// Starts `watcher`: with `from` unset it first gets the current state as
  /// ADDED events (and, with `initial_end_bookmark`, a BOOKMARK marking its
  /// end); with `from` set, every retained event after it. Then live events.
  /// A `from` older than the retained history ends the watch with an ERROR 410
  /// event; a `from` in the future with an ERROR 504.
  void watch(const std::shared_ptr<Watcher>& watcher, std::optional<uint64_t> from, bool initial_end_bookmark = false);
  void unwatch(const Watcher* watcher);
  /// Queues a BOOKMARK at the current resourceVersion: under the lock, so it
  /// follows every event it vouches for.
  void bookmark(Watcher& watcher);
  size_t watcher_count() const;
  /// Ends every watch stream (shutdown).
  void finish_watches();

  /// Oldest resourceVersion a watch of `resource` can still resume from: the
  /// history is one bounded window over every resource, but a resource
  /// resumes as long as none of its own events has left it (kube-apiserver's
  /// watch cache keeps a window per resource).
  uint64_t oldest_resumable(const ResourceInfo& resource) const;
  size_t object_count(const ResourceInfo& resource) const;

 private:
  ObjectPtr commit_locked(const ResourceInfo& resource, EventType type, rapidjson::Document& doc,
                          std::shared_ptr<StoredObject> object, const ObjectPtr& previous);
  void record_locked(EventPtr event);
  uint64_t oldest_resumable_locked(size_t storage) const;
  ObjectPtr find_locked(size_t storage, const std::string& key) const;

  const ResourceRegistry& registry_;
  const StoreOptions options_;
  mutable std::mutex mutex_;
  uint64_t resource_version_ = 1;
  std::vector<std::map<std::string, ObjectPtr>> objects_; // by storage, keyed "ns/name"
  std::deque<EventPtr> history_;
  /// By storage: the resourceVersion of its newest event that left the history (0: none yet).
  std::vector<uint64_t> trimmed_;
  WatchHub hub_;
};

/// Sets metadata.resourceVersion (creating metadata if needed).
void set_resource_version(rapidjson::Document& doc, uint64_t resource_version);

}  // namespace troupe::sim
