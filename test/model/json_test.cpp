#include <catch2/catch.hpp>

#include <string>

#include "model/json.hpp"

using namespace troupe;

TEST_CASE("parse_json accepts any JSON value with surrounding whitespace", "[json]") {
  const char* good[] = {"{}", " [1, 2] ", "\"text\"", "42", "-1.5e3", "true", "null",
                        "{\"a\": {\"b\": [null, \"\\u00e9\"]}}\n"};
  for (const char* text : good) {
    INFO(text);
    CHECK(parse_json(text).ok());
  }
}

TEST_CASE("parse_json errors give the offset and RapidJSON's reason", "[json]") {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"", "invalid JSON at offset 0: The document is empty."},
      {"{\"a\" 1}", "invalid JSON at offset 5: Missing a colon after a name of object member."},
      {"{\"a\": 1,}", "invalid JSON at offset 8: Missing a name for object member."},
      {"[1, 2", "invalid JSON at offset 5: Missing a comma or ']' after an array element."},
      {"{} {}", "invalid JSON at offset 3: The document root must not be followed by other values."},
      {"\"\xff\"", "invalid JSON at offset 1: Invalid encoding in string."},
      {"nul", "invalid JSON at offset 3: Invalid value."},
      {"{\"a\": NaN}", "invalid JSON at offset 6: Invalid value."},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto parsed = parse_json(c.text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.message() == c.message);
  }
}

TEST_CASE("parse_json refuses nesting deeper than kMaxJsonDepth without recursing", "[json]") {
  std::string ok_text(kMaxJsonDepth, '[');
  ok_text += std::string(kMaxJsonDepth, ']');
  CHECK(parse_json(ok_text).ok());

  std::string deep(100000, '[');
  auto parsed = parse_json(deep);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.message() == "invalid JSON at offset " + std::to_string(kMaxJsonDepth) + ": nesting deeper than " +
                                std::to_string(kMaxJsonDepth) + " levels");

  // Brackets inside strings (escaped quotes included) do not count.
  std::string in_string = "[\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"]";
  CHECK(parse_json(in_string).ok());
}

TEST_CASE("to_json writes compact JSON and keeps member order", "[json]") {
  auto doc = parse_json("{ \"b\" : 1 , \"a\" : [ true , null , \"x\" ] , \"c\" : 0.5 }");
  REQUIRE(doc);
  CHECK(to_json(**doc) == R"({"b":1,"a":[true,null,"x"],"c":0.5})");
}

TEST_CASE("getters follow paths and never fail on wrong types", "[json]") {
  auto doc = parse_json(R"({"metadata": {"name": "web", "generation": 3, "labels": "oops"},
                            "spec": {"unschedulable": true, "list": [1]}})");
  REQUIRE(doc);
  const auto& v = **doc;
  CHECK(get_string(v, "metadata", "name") == "web");
  CHECK(get_string(v, "metadata", "generation") == "");       // a number, not a string
  CHECK(get_string(v, "metadata", "labels", "app") == "");    // a string on the way
  CHECK(get_string(v, "spec", "list", "0") == "");            // arrays are not indexed by key
  CHECK(get_string(v, "missing", "deeper", "still") == "");
  CHECK(get_int(v, "metadata", "generation") == 3);
  CHECK_FALSE(get_int(v, "metadata", "name").has_value());
  CHECK(get_bool(v, "spec", "unschedulable") == true);
  CHECK_FALSE(get_bool(v, "spec", "list").has_value());
  CHECK(find_path(v, "spec", "list") != nullptr);
  CHECK(find_path(v, "spec", "nothing") == nullptr);
  auto scalar = parse_json("7");
  REQUIRE(scalar);
  CHECK(get_string(**scalar, "anything") == "");
}

TEST_CASE("json_equal ignores member order and number spelling", "[json]") {
  struct Case {
    const char* a;
    const char* b;
    bool equal;
  };
  const Case cases[] = {
      {R"({"a":1,"b":[1,2]})", R"({"b":[1,2],"a":1})", true},
      {R"({"a":1})", R"({"a":1.0})", true},
      {R"({"a":[1,2]})", R"({"a":[2,1]})", false},
      {R"({"a":1})", R"({"a":1,"b":null})", false},
      {R"({"a":"1"})", R"({"a":1})", false},
  };
  for (const auto& c : cases) {
    INFO(c.a << " vs " << c.b);
    auto a = parse_json(c.a);
    auto b = parse_json(c.b);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(json_equal(**a, **b) == c.equal);
  }
}

TEST_CASE("copy_document makes an independent document", "[json]") {
  auto list = parse_json(R"({"items": [{"metadata": {"name": "a"}}, {"metadata": {"name": "b"}}]})");
  REQUIRE(list);
  auto item = copy_document((**list)["items"][1]);
  list->reset();
  CHECK(get_string(*item, "metadata", "name") == "b");
}

TEST_CASE("documents reserve memory in proportion to their content", "[json]") {
  // RapidJSON's default pool chunk is 64 KiB per document; cached objects
  // must not pay that (150k pods would hold 9.6 GB).
  std::string pod = R"({"metadata":{"name":"p","labels":{"app":"web"}},"spec":{"containers":[)";
  for (int i = 0; i < 10; ++i) pod += std::string(i ? "," : "") + R"({"name":"c)" + std::to_string(i) + R"(","image":"x"})";
  pod += "]}}";
  auto parsed = parse_json(pod);
  REQUIRE(parsed.ok());
  CHECK((*parsed)->GetAllocator().Capacity() <= 2 * pod.size() + 512);
  CHECK((*parsed)->GetAllocator().Size() > 0);
  auto copy = copy_document(**parsed);
  CHECK(copy->GetAllocator().Capacity() <= 8192);
  CHECK(json_equal(*copy, **parsed));
  auto empty = make_document(256);
  CHECK(empty->IsNull());
  empty->SetObject();
  empty->AddMember("k", "v", empty->GetAllocator());
  CHECK(to_json(*empty) == R"({"k":"v"})");
}
