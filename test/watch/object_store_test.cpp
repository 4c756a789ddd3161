// Watch event decoding and the re-list diff.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "watch/json_util.hpp"
#include "watch/object_store.hpp"
#include "watch/watch_event.hpp"

using namespace troupe::watch;

namespace {

ObjectPtr obj(const std::string& ns, const std::string& name, const std::string& rv, const std::string& uid = "") {
  std::string json = R"({"kind":"Pod","metadata":{"name":")" + name + R"(","resourceVersion":")" + rv + "\"";
  if (!ns.empty()) json += R"(,"namespace":")" + ns + "\"";
  json += R"(,"uid":")" + (uid.empty() ? "uid-" + name : uid) + "\"}}";
  return *parse_document(json);
}

std::string summary(const std::vector<Change>& changes) {
  std::string out;
  for (const auto& c : changes) {
    if (!out.empty()) out += " ";
    out += std::string(to_string(c.type)) + (c.final_state_unknown ? "?" : "") + ":" + ObjectStore::key_of(*c.object) + "@" +
           resource_version_of(*c.object);
  }
  return out;
}

}  // namespace

TEST_CASE("watch event parsing", "[watch_event]") {
  auto added = parse_watch_event(R"({"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a","resourceVersion":"5"}}})");
  REQUIRE(added.ok());
  CHECK(added->kind == WatchEvent::Kind::added);
  CHECK(string_at(*added->object, {"kind"}) == "Pod");  // the object is the root now
  CHECK(resource_version_of(*added->object) == "5");
  CHECK_FALSE(added->object->HasMember("type"));

  auto bookmark = parse_watch_event(R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"99"}}})");
  REQUIRE(bookmark.ok());
  CHECK(bookmark->kind == WatchEvent::Kind::bookmark);

  auto error = parse_watch_event(
      R"json({"type":"ERROR","object":{"kind":"Status","status":"Failure","message":"too old resource version: 1 (5)","reason":"Expired","code":410}})json");
  REQUIRE(error.ok());
  const StatusInfo status = status_info(*error->object);
  CHECK(status.code == 410);
  CHECK(is_expired(status));
  CHECK(is_expired(StatusInfo{0, "Gone", ""}));
  CHECK_FALSE(is_expired(StatusInfo{500, "InternalError", ""}));

  struct Bad {
    const char* line;
    const char* message_part;
  };
  const std::vector<Bad> bad = {
      {"not json", "invalid JSON"},
      {"[1,2]", "not a JSON object"},
      {R"({"object":{}})", "type"},
      {R"({"type":7,"object":{}})", "type"},
      {R"({"type":"SOMETHING","object":{}})", "unknown type \"SOMETHING\""},
      {R"({"type":"ADDED"})", "without an \"object\""},
      {R"({"type":"ADDED","object":"x"})", "without an \"object\""},
      {R"({"type":"ADDED","object":{}} trailing)", "invalid JSON"},
  };
  for (const auto& b : bad) {
    INFO(b.line);
    auto parsed = parse_watch_event(b.line);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.message().find(b.message_part) != std::string::npos);
  }
}

TEST_CASE("object store keys", "[object_store]") {
  CHECK(ObjectStore::key_of(*obj("default", "web", "1")) == "default/web");
  CHECK(ObjectStore::key_of(*obj("", "node-1", "1")) == "node-1");
  CHECK(ObjectStore::key_of(**parse_document(R"({"metadata":{}})")) == "");
}

TEST_CASE("object store: re-list diff", "[object_store]") {
  struct Case {
    const char* name;
    std::vector<ObjectPtr> before;
    std::vector<ObjectPtr> after;
    const char* changes;
  };
  const std::vector<Case> cases = {
      {"first list adds everything in list order", {}, {obj("ns", "b", "1"), obj("ns", "a", "2")},
       "ADDED:ns/b@1 ADDED:ns/a@2"},
      {"nothing changed", {obj("ns", "a", "1")}, {obj("ns", "a", "1")}, ""},
      {"changed resourceVersion", {obj("ns", "a", "1")}, {obj("ns", "a", "7")}, "MODIFIED:ns/a@7"},
      {"vanished objects are deleted with their last state (maybe stale: DELETED?), sorted by key",
       {obj("ns", "z", "3"), obj("ns", "a", "1"), obj("", "n", "2")},
       {},
       "DELETED?:n@2 DELETED?:ns/a@1 DELETED?:ns/z@3"},
      {"re-created under a new uid: delete then add",
       {obj("ns", "a", "1", "old")},
       {obj("ns", "a", "9", "new")},
       "DELETED?:ns/a@1 ADDED:ns/a@9"},
      {"mixed: deletions first",
       {obj("ns", "keep", "1"), obj("ns", "gone", "2"), obj("ns", "change", "3")},
       {obj("ns", "new", "10"), obj("ns", "change", "11"), obj("ns", "keep", "1")},
       "DELETED?:ns/gone@2 ADDED:ns/new@10 MODIFIED:ns/change@11"},
      {"same name in two namespaces are distinct", {obj("a", "x", "1")}, {obj("a", "x", "1"), obj("b", "x", "1")},
       "ADDED:b/x@1"},
      {"items without a name are skipped", {}, {*parse_document(R"({"metadata":{"resourceVersion":"1"}})")}, ""},
      {"duplicate keys in a list: the first wins", {}, {obj("ns", "a", "1"), obj("ns", "a", "2")}, "ADDED:ns/a@1"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    ObjectStore store;
    store.replace(c.before);
    CHECK(summary(store.replace(c.after)) == c.changes);
  }
}

TEST_CASE("object store: watch events keep it current for the next diff", "[object_store]") {
  ObjectStore store;
  store.replace({obj("ns", "a", "1")});
  CHECK(store.apply(EventType::modified, obj("ns", "a", "2")));
  CHECK(store.apply(EventType::added, obj("ns", "b", "3")));
  CHECK(store.apply(EventType::deleted, obj("ns", "a", "4")));
  CHECK_FALSE(store.apply(EventType::added, *parse_document(R"({"metadata":{}})")));
  CHECK(store.size() == 1);
  CHECK(summary(store.replace({obj("ns", "b", "3"), obj("ns", "c", "5")})) == "ADDED:ns/c@5");
}
