#include <catch2/catch.hpp>

#include <string>

#include "model/json_reader.hpp"
#include "model/json_writer.hpp"
#include "model/object_meta.hpp"

using namespace troupe;

namespace {

Result<ObjectMeta> decode_meta(const std::string& text) {
  auto doc = parse_json(text);
  REQUIRE(doc.ok());
  ObjectMeta meta;
  JsonReader reader(**doc);
  json_fields(reader, meta);
  if (!reader.ok()) return Error{reader.error()};
  return meta;
}

std::string encode_meta(const std::string& original, const ObjectMeta& meta) {
  auto doc = parse_json(original);
  REQUIRE(doc.ok());
  JsonWriter writer(**doc, (*doc)->GetAllocator());
  json_fields(writer, meta);
  return to_json(**doc);
}

const char* kMeta = R"({"name":"web-0","namespace":"shop","uid":"u-1","resourceVersion":"42","generation":3,)"
                    R"("creationTimestamp":"2026-03-01T10:00:00Z","deletionTimestamp":"2026-03-01T11:00:00Z",)"
                    R"("deletionGracePeriodSeconds":30,"labels":{"app":"web"},"annotations":{"a":"1"},)"
                    R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","uid":"u-0",)"
                    R"("controller":true}],"finalizers":["x/y"],"managedFields":[{"manager":"m"}]})";

}  // namespace

TEST_CASE("ObjectMeta decodes every field and its helpers answer", "[object_meta]") {
  auto meta = decode_meta(kMeta);
  REQUIRE(meta.ok());
  CHECK(meta->key() == "shop/web-0");
  CHECK(meta->generation == 3);
  CHECK(meta->deletion_grace_period_seconds == 30);
  CHECK(meta->is_terminating());
  REQUIRE(meta->controller_ref() != nullptr);
  CHECK(meta->controller_ref()->name == "web");
  REQUIRE(meta->label("app") != nullptr);
  CHECK(*meta->label("app") == "web");
  CHECK(meta->label("tier") == nullptr);
  REQUIRE(meta->annotation("a") != nullptr);
  CHECK(*meta->annotation("a") == "1");
  CHECK(meta->finalizers == std::vector<std::string>{"x/y"});

  auto cluster_scoped = decode_meta(R"({"name": "node-1"})");
  REQUIRE(cluster_scoped.ok());
  CHECK(cluster_scoped->key() == "node-1");
  CHECK_FALSE(cluster_scoped->is_terminating());
  CHECK(cluster_scoped->controller_ref() == nullptr);
}

TEST_CASE("ObjectMeta re-encodes unchanged and writes edits", "[object_meta]") {
  auto meta = decode_meta(kMeta);
  REQUIRE(meta.ok());
  CHECK(encode_meta(kMeta, *meta) == kMeta);

  meta->labels.erase("app");
  meta->annotations["b"] = "2";
  meta->deletion_timestamp.reset();
  meta->owner_references[0].controller = false;
  meta->generation = 0;
  CHECK(encode_meta(kMeta, *meta) ==
        R"({"name":"web-0","namespace":"shop","uid":"u-1","resourceVersion":"42",)"
        R"("creationTimestamp":"2026-03-01T10:00:00Z","deletionGracePeriodSeconds":30,"annotations":{"a":"1","b":"2"},)"
        R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","uid":"u-0",)"
        R"("controller":false}],"finalizers":["x/y"],"managedFields":[{"manager":"m"}]})");
}

TEST_CASE("a changed timestamp is written in metav1.Time form", "[object_meta]") {
  auto meta = decode_meta(R"({"name":"n","creationTimestamp":"2026-03-01T12:00:00+02:00"})");
  REQUIRE(meta.ok());
  // Same instant, different spelling: left alone.
  CHECK(encode_meta(R"({"name":"n","creationTimestamp":"2026-03-01T12:00:00+02:00"})", *meta) ==
        R"({"name":"n","creationTimestamp":"2026-03-01T12:00:00+02:00"})");
  *meta->creation_timestamp += std::chrono::seconds(1);
  CHECK(encode_meta(R"({"name":"n","creationTimestamp":"2026-03-01T12:00:00+02:00"})", *meta) ==
        R"({"name":"n","creationTimestamp":"2026-03-01T10:00:01Z"})");
}
