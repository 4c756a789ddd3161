#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include "sim/object_store.hpp"

using namespace troupe::sim;

namespace {

const ResourceInfo& pods() { return *ResourceRegistry::standard().find("", "v1", "pods"); }

rapidjson::Document pod(const std::string& ns, const std::string& name, const std::string& labels_json = "{}") {
  rapidjson::Document d;
  std::string text = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns +
                     R"(","labels":)" + labels_json + R"(},"spec":{"containers":[{"name":"c","image":"i"}]}})";
  d.Parse(text.c_str());
  REQUIRE(d.IsObject());
  return d;
}

ObjectPtr create(ObjectStore& store, const std::string& ns, const std::string& name, const std::string& labels = "{}") {
  auto d = pod(ns, name, labels);
  auto r = store.create(pods(), d);
  REQUIRE(r.ok());
  return r.value();
}

// Replaces the pod with a copy carrying one more annotation-free label change.
ApiResult<WriteResult> relabel(ObjectStore& store, const std::string& ns, const std::string& name,
                               const std::string& labels) {
  return store.modify(pods(), ns, name, [&](const ObjectPtr& current) -> ApiResult<Change> {
    if (!current) return not_found(pods(), name);
    Change c;
    c.action = Change::Action::replace;
    c.doc = pod(ns, name, labels);
    return c;
  });
}

ApiResult<WriteResult> remove(ObjectStore& store, const std::string& ns, const std::string& name) {
  return store.modify(pods(), ns, name, [&](const ObjectPtr& current) -> ApiResult<Change> {
    if (!current) return not_found(pods(), name);
    Change c;
    c.action = Change::Action::remove;
    c.doc.Parse(current->json.c_str());
    return c;
  });
}

std::vector<WatchItem> drain(Watcher& w, bool* finished = nullptr) {
  std::vector<WatchItem> items;
  bool done = w.take(items);
  if (finished) *finished = done;
  return items;
}

std::string rendered_type(const Watcher& w, const WatchItem& item) {
  rapidjson::Document d;
  auto line = w.render(item);
  REQUIRE(!line.empty());
  REQUIRE(line.back() == '\n');
  d.Parse(line.c_str());
  REQUIRE(d.IsObject());
  return d["type"].GetString();
}

uint64_t rendered_rv(const Watcher& w, const WatchItem& item) {
  rapidjson::Document d;
  d.Parse(w.render(item).c_str());
  return std::stoull(d["object"]["metadata"]["resourceVersion"].GetString());
}

}  // namespace

TEST_CASE("every write bumps the one global resourceVersion", "[store]") {
  ObjectStore store(ResourceRegistry::standard());
  uint64_t start = store.resource_version();
  auto a = create(store, "default", "a");
  auto b = create(store, "default", "b");
  CHECK(a->resource_version == start + 1);
  CHECK(b->resource_version == start + 2);
  CHECK(a->json.find(R"("resourceVersion":")" + std::to_string(start + 1) + "\"") != std::string::npos);
  auto updated = relabel(store, "default", "a", R"({"x":"y"})");
  REQUIRE(updated.ok());
  CHECK(updated.value().object->resource_version == start + 3);
  CHECK(updated.value().object->labels.at("x") == "y");
  CHECK(store.get(pods(), "default", "a")->resource_version == start + 3);
  auto removed = remove(store, "default", "b");
  REQUIRE(removed.ok());
  CHECK(removed.value().object->resource_version == start + 4);
  CHECK(store.get(pods(), "default", "b") == nullptr);
  CHECK(store.resource_version() == start + 4);
}

TEST_CASE("create refuses a taken name; modify reports missing objects", "[store]") {
  ObjectStore store(ResourceRegistry::standard());
  create(store, "default", "a");
  auto again = pod("default", "a");
  auto r = store.create(pods(), again);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == 409);
  CHECK(r.error().reason == "AlreadyExists");
  // Same name in another namespace is a different object.
  create(store, "other", "a");
  auto missing = relabel(store, "default", "nope", "{}");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == 404);
}

TEST_CASE("modify recomputes when another write got in between", "[store]") {
  ObjectStore store(ResourceRegistry::standard());
  create(store, "default", "a");
  int calls = 0;
  auto r = store.modify(pods(), "default", "a", [&](const ObjectPtr& current) -> ApiResult<Change> {
    ++calls;
    if (calls == 1) {
      // Another writer commits while this change is being computed.
      auto inner = relabel(store, "default", "a", R"({"by":"other"})");
      REQUIRE(inner.ok());
    }
    Change c;
    c.action = Change::Action::replace;
    std::string by = current->labels.count("by") ? current->labels.at("by") : "none";
    c.doc = pod("default", "a", R"({"seen":")" + by + R"("})");
    return c;
  });
  REQUIRE(r.ok());
  CHECK(calls == 2);
  CHECK(r.value().object->labels.at("seen") == "other");
}

TEST_CASE("keep leaves the store untouched", "[store]") {
  ObjectStore store(ResourceRegistry::standard());
  auto a = create(store, "default", "a");
  uint64_t rv = store.resource_version();
  auto r = store.modify(pods(), "default", "a", [](const ObjectPtr&) -> ApiResult<Change> { return Change{}; });
  REQUIRE(r.ok());
  CHECK(r.value().object == a);
  CHECK(store.resource_version() == rv);
}

TEST_CASE("list filters by namespace and labels, pages with a resume key", "[store]") {
  ObjectStore store(ResourceRegistry::standard());
  for (int i = 0; i < 5; ++i) create(store, "a", "p" + std::to_string(i), R"({"app":"web"})");
  for (int i = 0; i < 3; ++i) create(store, "b", "p" + std::to_string(i), R"({"app":"db"})");
  create(store, "aa", "p0"); // a namespace whose name extends "a"
  ObjectFilter all;
  CHECK(store.list(pods(), all).items.size() == 9);
  ObjectFilter in_a;
  in_a.ns = "a";
  CHECK(store.list(pods(), in_a).items.size() == 5);
  ObjectFilter web;
  auto selector = troupe::parse_label_selector("app=web");
  REQUIRE(selector.ok());
  web.labels = selector.value();
  CHECK(store.list(pods(), web).items.size() == 5);

  // Pages of 2 over namespace "a": 2 + 2 + 1, each resuming after the last key.
  std::vector<std::string> names;
  std::string after;
  int pages = 0;
  do {
    auto page = store.list(pods(), in_a, 2, after);
    for (const auto& o : page.items) names.push_back(o->name);
    after = page.last_key;
    ++pages;
  } while (!after.empty() && pages < 10);
  CHECK(pages == 3);
  CHECK(names == std::vector<std::string>{"p0", "p1", "p2", "p3", "p4"});
  // A limit that exactly covers the rest leaves no resume key.
  CHECK(store.list(pods(), in_a, 5).last_key.empty());
}

TEST_CASE("a resume key from elsewhere never walks out of the namespace asked for", "[store]") {
  ObjectStore store(ResourceRegistry::standard());
  create(store, "a", "p0");
  create(store, "b", "p0");
  ObjectFilter in_a;
  in_a.ns = "a";
  struct Case {
    const char* after;
    std::vector<std::string> names;
  };
  const Case cases[] = {
      {"zzz", {}},            // past every key
      {"b/p0", {}},           // past the namespace, before the end
      {"a/", {"p0"}},         // before the namespace's first key
      {"", {"p0"}},           // no key: from the start
      {"0", {"p0"}},          // before every key
  };
  for (const Case& c : cases) {
    INFO(c.after);
    std::vector<std::string> names;
    for (const auto& o : store.list(pods(), in_a, 2, c.after).items) names.push_back(o->name);
    CHECK(names == c.names);
  }
}

TEST_CASE("later pages are read as of the first page's resourceVersion", "[store]") {
  StoreOptions options;
  options.history_capacity = 4;
  ObjectStore store(ResourceRegistry::standard(), options);
  for (const char* name : {"p0", "p1", "p2", "p3"}) create(store, "a", name, R"({"v":"old"})");
  create(store, "b", "p0");
  ObjectFilter in_a;
  in_a.ns = "a";
  auto first = store.list(pods(), in_a, 2);
  REQUIRE(first.last_key == "a/p1");
  // Meanwhile: p2 deleted, p3 changed, p25 and p4 created, and b/p0 changed (another namespace).
  REQUIRE(remove(store, "a", "p2").ok());
  REQUIRE(relabel(store, "a", "p3", R"({"v":"new"})").ok());
  create(store, "a", "p25");
  REQUIRE(relabel(store, "b", "p0", R"({"v":"new"})").ok());
  auto rest = store.list(pods(), in_a, 0, first.last_key, first.resource_version);
  REQUIRE_FALSE(rest.expired);
  CHECK(rest.resource_version == first.resource_version);
  std::vector<std::string> names;
  for (const auto& o : rest.items) names.push_back(o->name + "=" + o->labels.at("v"));
  CHECK(names == std::vector<std::string>{"p2=old", "p3=old"});
  // Without a snapshot: the current state.
  names.clear();
  for (const auto& o : store.list(pods(), in_a, 0, first.last_key).items) names.push_back(o->name);
  CHECK(names == std::vector<std::string>{"p25", "p3"});
  // One more write and the history (4 events) no longer reaches back: 410, as etcd's compaction.
  create(store, "a", "p4");
  CHECK(store.list(pods(), in_a, 0, first.last_key, first.resource_version).expired);
  CHECK(store.list(pods(), in_a, 0, first.last_key, store.resource_version() + 1).expired);  // from the future
}

TEST_CASE("a watch without a resourceVersion gets the current state, then live events", "[store][watch]") {
  ObjectStore store(ResourceRegistry::standard());
  create(store, "default", "a");
  create(store, "default", "b");
  auto w = std::make_shared<Watcher>(pods(), ObjectFilter{}, 100);
  store.watch(w, std::nullopt);
  auto initial = drain(*w);
  REQUIRE(initial.size() == 2);
  CHECK(rendered_type(*w, initial[0]) == "ADDED");
  create(store, "default", "c");
  REQUIRE(relabel(store, "default", "a", R"({"k":"v"})").ok());
  REQUIRE(remove(store, "default", "b").ok());
  auto live = drain(*w);
  REQUIRE(live.size() == 3);
  CHECK(rendered_type(*w, live[0]) == "ADDED");
  CHECK(rendered_type(*w, live[1]) == "MODIFIED");
  CHECK(rendered_type(*w, live[2]) == "DELETED");
  CHECK(rendered_rv(*w, live[2]) == store.resource_version());
  // Events to the same watcher share one serialized line.
  auto w2 = std::make_shared<Watcher>(pods(), ObjectFilter{}, 100);
  store.watch(w2, store.resource_version());
  create(store, "default", "d");
  auto one = drain(*w);
  auto two = drain(*w2);
  REQUIRE(one.size() == 1);
  REQUIRE(two.size() == 1);
  CHECK(one[0].line.get() == two[0].line.get());
}

TEST_CASE("a watch resumes exactly after a resourceVersion and loses nothing", "[store][watch]") {
  ObjectStore store(ResourceRegistry::standard());
  std::vector<uint64_t> rvs;
  for (int i = 0; i < 20; ++i) rvs.push_back(create(store, "default", "p" + std::to_string(i))->resource_version);
  auto w = std::make_shared<Watcher>(pods(), ObjectFilter{}, 100);
  store.watch(w, rvs[9]);
  auto items = drain(*w);
  REQUIRE(items.size() == 10);
  for (size_t i = 0; i < items.size(); ++i) CHECK(rendered_rv(*w, items[i]) == rvs[10 + i]);
}

TEST_CASE("a quiet resource stays resumable while another fills the history", "[store][watch]") {
  StoreOptions options;
  options.history_capacity = 5;
  ObjectStore store(ResourceRegistry::standard(), options);
  const ResourceInfo& configmaps = *ResourceRegistry::standard().find("", "v1", "configmaps");
  rapidjson::Document cm;
  cm.Parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"quiet","namespace":"default"}})");
  REQUIRE(store.create(configmaps, cm).ok());
  const uint64_t after_configmap = store.resource_version();
  for (int i = 0; i < 20; ++i) create(store, "default", "p" + std::to_string(i));
  // The ConfigMap's own event left the history, none after it: it resumes from there.
  CHECK(store.oldest_resumable(configmaps) == after_configmap);
  auto quiet = std::make_shared<Watcher>(configmaps, ObjectFilter{}, 100);
  store.watch(quiet, after_configmap);
  bool finished = false;
  CHECK(drain(*quiet, &finished).empty());
  CHECK_FALSE(finished);
  rapidjson::Document later;
  later.Parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"later","namespace":"default"}})");
  REQUIRE(store.create(configmaps, later).ok());
  CHECK(drain(*quiet).size() == 1);
  // Pods lost events: a pod watch from there is 410.
  auto busy = std::make_shared<Watcher>(pods(), ObjectFilter{}, 100);
  store.watch(busy, after_configmap);
  auto items = drain(*busy, &finished);
  CHECK(finished);
  REQUIRE(items.size() == 1);
  CHECK(busy->render(items[0]).find(R"("code":410)") != std::string::npos);
}

TEST_CASE("a resourceVersion older than the history ends the watch with 410", "[store][watch]") {
  StoreOptions options;
  options.history_capacity = 5;
  ObjectStore store(ResourceRegistry::standard(), options);
  uint64_t start = store.resource_version();
  for (int i = 0; i < 20; ++i) create(store, "default", "p" + std::to_string(i));
  uint64_t oldest = store.oldest_resumable(pods());
  CHECK(oldest == store.resource_version() - 5);

  auto ok = std::make_shared<Watcher>(pods(), ObjectFilter{}, 100);
  store.watch(ok, oldest);
  CHECK(drain(*ok).size() == 5);

  auto old = std::make_shared<Watcher>(pods(), ObjectFilter{}, 100);
  store.watch(old, start);
  bool finished = false;
  auto items = drain(*old, &finished);
  CHECK(finished);
  REQUIRE(items.size() == 1);
  std::string line = old->render(items[0]);
  CHECK(line.find(R"("type":"ERROR")") != std::string::npos);
  CHECK(line.find(R"("code":410)") != std::string::npos);
  CHECK(line.find("too old resource version: " + std::to_string(start) + " (" + std::to_string(oldest) + ")") !=
        std::string::npos);

  auto future = std::make_shared<Watcher>(pods(), ObjectFilter{}, 100);
  store.watch(future, store.resource_version() + 100);
  items = drain(*future, &finished);
  CHECK(finished);
  REQUIRE(items.size() == 1);
  CHECK(future->render(items[0]).find(R"("code":504)") != std::string::npos);
}

namespace {

/// Pod default/a labelled app=web, and a watcher of app=web from now on.
std::shared_ptr<Watcher> watch_web_pod_a(ObjectStore& store) {
  create(store, "default", "a", R"({"app":"web"})");
  ObjectFilter web;
  web.labels = troupe::parse_label_selector("app=web").value();
  auto w = std::make_shared<Watcher>(pods(), web, 100);
  store.watch(w, store.resource_version());
  return w;
}

}  // namespace

TEST_CASE("objects entering or leaving a selector are ADDED or DELETED for that watcher", "[store][watch]") {
  ObjectStore store(ResourceRegistry::standard());
  auto w = watch_web_pod_a(store);
  REQUIRE(relabel(store, "default", "a", R"({"app":"db"})").ok());   // leaves
  const uint64_t left_at = store.resource_version();
  REQUIRE(relabel(store, "default", "a", R"({"app":"db","x":"1"})").ok()); // unseen
  REQUIRE(relabel(store, "default", "a", R"({"app":"web"})").ok());  // enters
  auto items = drain(*w);
  REQUIRE(items.size() == 2);
  CHECK(rendered_type(*w, items[0]) == "DELETED");
  // As kube-apiserver's cacher: the state the watcher selected, at the version it left.
  const std::string deleted = w->render(items[0]);
  CHECK(deleted.find(R"("app":"web")") != std::string::npos);
  CHECK(deleted.find(R"("resourceVersion":")" + std::to_string(left_at) + "\"") != std::string::npos);
  CHECK(rendered_rv(*w, items[0]) == left_at);
  CHECK(rendered_type(*w, items[1]) == "ADDED");
}

TEST_CASE("a deletion whose final state left the selector still reaches the watcher that saw the object",
          "[store][watch]") {
  ObjectStore store(ResourceRegistry::standard());
  auto w = watch_web_pod_a(store);
  // One write both relabels and deletes (as the removal of the last finalizer can).
  REQUIRE(store.modify(pods(), "default", "a", [&](const ObjectPtr&) -> ApiResult<Change> {
    Change c;
    c.action = Change::Action::remove;
    c.doc = pod("default", "a", R"({"app":"db"})");
    return c;
  }).ok());
  auto items = drain(*w);
  REQUIRE(items.size() == 1);
  CHECK(rendered_type(*w, items[0]) == "DELETED");
}

TEST_CASE("a watcher that falls too far behind is cut off with 410, others are not", "[store][watch]") {
  ObjectStore store(ResourceRegistry::standard());
  auto slow = std::make_shared<Watcher>(pods(), ObjectFilter{}, 3);
  auto fast = std::make_shared<Watcher>(pods(), ObjectFilter{}, 3);
  store.watch(slow, store.resource_version());
  store.watch(fast, store.resource_version());
  size_t fast_seen = 0;
  for (int i = 0; i < 10; ++i) {
    create(store, "default", "p" + std::to_string(i));
    fast_seen += drain(*fast).size();
  }
  CHECK(fast_seen == 10);
  bool finished = false;
  auto items = drain(*slow, &finished);
  CHECK(finished);
  REQUIRE(items.size() == 1);
  CHECK(slow->render(items[0]).find(R"("code":410)") != std::string::npos);
  CHECK(store.watcher_count() == 1); // the cut-off watcher was dropped at the next event
}

TEST_CASE("bookmarks carry the current resourceVersion", "[store][watch]") {
  ObjectStore store(ResourceRegistry::standard());
  auto w = std::make_shared<Watcher>(pods(), ObjectFilter{}, 100);
  store.watch(w, std::nullopt, true);
  auto items = drain(*w);
  REQUIRE(items.size() == 1);
  CHECK(w->render(items[0]).find("k8s.io/initial-events-end") != std::string::npos);
  create(store, "default", "a");
  drain(*w);
  store.bookmark(*w);
  items = drain(*w);
  REQUIRE(items.size() == 1);
  std::string line = w->render(items[0]);
  CHECK(line == R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":")" +
                    std::to_string(store.resource_version()) + "\"}}}\n");
}

TEST_CASE("a second version of the same objects sees them with its own apiVersion", "[store][watch]") {
  const auto& reg = ResourceRegistry::standard();
  const auto& v2 = *reg.find("topology.node.k8s.io", "v1alpha2", "noderesourcetopologies");
  const auto& v1 = *reg.find("topology.node.k8s.io", "v1alpha1", "noderesourcetopologies");
  ObjectStore store(reg);
  auto w = std::make_shared<Watcher>(v1, ObjectFilter{}, 100);
  store.watch(w, store.resource_version());
  rapidjson::Document d;
  d.Parse(R"({"apiVersion":"topology.node.k8s.io/v1alpha2","kind":"NodeResourceTopology","metadata":{"name":"n1"},"zones":[]})");
  REQUIRE(store.create(v2, d).ok());
  REQUIRE(store.get(v1, "", "n1") != nullptr);
  auto items = drain(*w);
  REQUIRE(items.size() == 1);
  CHECK(w->render(items[0]).find(R"("apiVersion":"topology.node.k8s.io/v1alpha1")") != std::string::npos);
}
