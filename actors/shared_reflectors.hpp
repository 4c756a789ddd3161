#pragma once
// SharedReflectors: one list and one watch per collection for the whole
// scheduler. The INFORMER, the MIGRATION actor and the RESERVATION actor all
// follow pods and nodes (and some of them reservations and devices); with a
// reflector each, every pod was listed three times at start, streamed three
// times by the API server, parsed three times and decoded up to three times.
// Here each collection has one reflector, and each of its events goes to
// every subscriber as the same ObjectEventPtr, whose Pod is decoded once by
// the first actor that asks (ObjectEvent::pod()).
//
// Subscribers get (atom::watch_event, ObjectEventPtr) for every change and
// (atom::synced, resource) after every complete list — or once, for an
// `optional` collection whose list answers 404 (a CRD not installed) or 403
// (RBAC that does not grant it), so that a cluster without it still becomes
// ready (the reflector keeps retrying and delivers the objects once the CRD
// appears or the permission is granted). A sink (a plain function,
// for a mutex-guarded store such as preemption's PdbStore) gets every change
// on the reflector's thread, before the actors do.
//
// Threading: subscribe() before start(); start() and stop() from one thread.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <caf/all.hpp>

#include "model/result.hpp"
#include "watch/api_client.hpp"
#include "watch/reflector.hpp"

namespace troupe::actors {

/// A collection to follow. Subscriptions to one resource must agree on the rest.
struct CollectionSpec {
  CollectionSpec() = default;
  CollectionSpec(std::string resource_name, std::string collection_path, std::string fields, bool may_be_absent = false,
                 std::string labels = "")
      : resource(std::move(resource_name)),
        path(std::move(collection_path)),
        field_selector(std::move(fields)),
        optional(may_be_absent),
        label_selector(std::move(labels)) {}

  std::string resource;        // the name subscribers see in ObjectEvent::resource, e.g. "pods"
  std::string path;            // e.g. "/api/v1/pods"
  std::string field_selector;  // e.g. "status.phase!=Succeeded,status.phase!=Failed"
  bool optional = false;       // a CRD that may not be installed, or a collection we may not be allowed to list
  std::string label_selector;  // e.g. "pod-group.scheduling.sigs.k8s.io" (the label exists)
};

class SharedReflectors {
 public:
  explicit SharedReflectors(std::shared_ptr<watch::ApiClient> api);
  ~SharedReflectors();  // stop()
  SharedReflectors(const SharedReflectors&) = delete;
  SharedReflectors& operator=(const SharedReflectors&) = delete;

  /// Adds `subscriber` to the collection's reflector (made on first use).
  /// Errors: after start(), or a spec that disagrees with an earlier
  /// subscription to the same resource (path, selector or optional).
  Status subscribe(const CollectionSpec& spec, caf::actor subscriber);
  /// A function that gets every change of the collection, called on the
  /// reflector's thread: thread-safe and quick. Errors as subscribe().
  using Sink = std::function<void(const watch::Change& change)>;
  Status subscribe(const CollectionSpec& spec, Sink sink);

  /// Starts every reflector (once).
  void start();
  /// Stops every reflector (joins their threads). Idempotent.
  void stop();

  /// Reflectors (one per collection subscribed to).
  std::size_t size() const { return collections_.size(); }
  /// Subscribers of one resource (0 when nobody follows it).
  std::size_t subscribers(const std::string& resource) const;

 private:
  struct Collection {
    CollectionSpec spec;
    std::shared_ptr<std::vector<caf::actor>> subscribers;
    std::shared_ptr<std::vector<Sink>> sinks;
    std::unique_ptr<watch::Reflector> reflector;
  };

  /// The collection of `spec.resource`, made on first use; an error after
  /// start() or when `spec` disagrees with an earlier subscription.
  Result<Collection*> collection(const CollectionSpec& spec);

  std::shared_ptr<watch::ApiClient> api_;
  std::map<std::string, Collection> collections_;
  bool started_ = false;
};

}  // namespace troupe::actors
