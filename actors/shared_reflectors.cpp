#include "actors/shared_reflectors.hpp"

#include <atomic>

#include <spdlog/spdlog.h>

#include "actors/atoms.hpp"
#include "actors/messages.hpp"

namespace troupe::actors {

SharedReflectors::SharedReflectors(std::shared_ptr<watch::ApiClient> api) : api_(std::move(api)) {}

SharedReflectors::~SharedReflectors() { stop(); }

Result<SharedReflectors::Collection*> SharedReflectors::collection(const CollectionSpec& spec) {
  if (started_) return Error{"shared reflectors: subscribing to " + spec.resource + " after start"};
  auto [it, added] = collections_.try_emplace(spec.resource);
  Collection& c = it->second;
  if (added) {
    c.spec = spec;
    c.subscribers = std::make_shared<std::vector<caf::actor>>();
    c.sinks = std::make_shared<std::vector<Sink>>();
  } else if (c.spec.path != spec.path || c.spec.field_selector != spec.field_selector ||
             c.spec.label_selector != spec.label_selector || c.spec.optional != spec.optional) {
    return Error{"shared reflectors: two subscriptions to " + spec.resource + " disagree (" + c.spec.path + "?" +
                 c.spec.field_selector + "&" + c.spec.label_selector + " against " + spec.path + "?" +
                 spec.field_selector + "&" + spec.label_selector + ")"};
  }
  return &c;
}

Status SharedReflectors::subscribe(const CollectionSpec& spec, caf::actor subscriber) {
  auto c = collection(spec);
  if (!c) return Error{c.message()};
  (*c)->subscribers->push_back(std::move(subscriber));
  return {};
}

Status SharedReflectors::subscribe(const CollectionSpec& spec, Sink sink) {
  auto c = collection(spec);
  if (!c) return Error{c.message()};
  (*c)->sinks->push_back(std::move(sink));
  return {};
}

std::size_t SharedReflectors::subscribers(const std::string& resource) const {
  auto it = collections_.find(resource);
  return it == collections_.end() ? 0 : it->second.subscribers->size() + it->second.sinks->size();
}

void SharedReflectors::start() {
  if (started_) return;
  started_ = true;
  for (auto& [resource, c] : collections_) {
    watch::ReflectorOptions options;
    options.name = resource;
    options.path = c.spec.path;
    options.field_selector = c.spec.field_selector;
    options.label_selector = c.spec.label_selector;
    // The list is fixed from here on: the callbacks share it without a lock.
    std::shared_ptr<const std::vector<caf::actor>> targets = c.subscribers;
    std::shared_ptr<const std::vector<Sink>> sinks = c.sinks;
    watch::ReflectorCallbacks callbacks;
    callbacks.on_event = [targets, sinks, name = resource](const watch::Change& change) {
      for (const Sink& sink : *sinks) sink(change);
      if (targets->empty()) return;
      auto event = std::make_shared<const ObjectEvent>(name, change);
      for (const caf::actor& target : *targets) caf::anon_send(target, atom::watch_event_v, event);
    };
    callbacks.on_synced = [targets, name = resource] {
      for (const caf::actor& target : *targets) caf::anon_send(target, atom::synced_v, name);
    };
    if (c.spec.optional) {
      auto told = std::make_shared<std::atomic<bool>>(false);
      callbacks.on_error = [targets, name = resource, path = c.spec.path, told](const std::string& message) {
        if (message.find("list failed") == std::string::npos) return;
        const bool absent = message.find(": 404") != std::string::npos;
        const bool forbidden = message.find(": 403") != std::string::npos;
        if (!absent && !forbidden) return;
        if (told->exchange(true)) return;
        if (absent)
          spdlog::warn("{} is not served by the API server (CRD not installed?): treating it as empty", path);
        else
          spdlog::warn("{} may not be listed by this scheduler (RBAC?): treating it as empty until it may", path);
        for (const caf::actor& target : *targets) caf::anon_send(target, atom::synced_v, name);
      };
    } else {
      callbacks.on_error = [](const std::string&) {};  // the reflector logs its own problems
    }
    c.reflector = std::make_unique<watch::Reflector>(api_, options, callbacks);
    c.reflector->start();
  }
}

void SharedReflectors::stop() {
  for (auto& [resource, c] : collections_)
    if (c.reflector) c.reflector->stop();
}

}  // namespace troupe::actors
