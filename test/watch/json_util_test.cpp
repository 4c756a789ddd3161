// adopt_value: list items taken out of their page without a copy.
#include <catch2/catch.hpp>

#include <vector>

#include "watch/json_util.hpp"

using namespace troupe::watch;

TEST_CASE("adopt_value takes items out of a page without copying and keeps the page's pool alive", "[json_util]") {
  std::vector<std::shared_ptr<rapidjson::Document>> items;
  const char* first_name = nullptr;
  {
    auto page = parse_document(R"({"kind":"PodList","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]})");
    REQUIRE(page);
    auto& array = (**page)["items"];
    first_name = array[0]["metadata"]["name"].GetString();
    for (auto& item : array.GetArray()) items.push_back(adopt_value(*page, item));
    CHECK(array[0].IsNull());  // moved out, not copied
    CHECK(array[1].IsNull());
    CHECK(string_at(**page, {"kind"}) == "PodList");
    // A member added to an item comes from the page's pool too.
    auto& alloc = items[0]->GetAllocator();
    CHECK(&alloc == &(*page)->GetAllocator());
    items[0]->AddMember("kind", rapidjson::Value("Pod", alloc), alloc);
  }  // the page's own handle is gone; its pool lives on in the items
  REQUIRE(items.size() == 2);
  CHECK(string_at(*items[0], {"metadata", "name"}) == "a");
  CHECK(items[0]->operator[]("metadata")["name"].GetString() == first_name);  // the very same bytes
  CHECK(string_at(*items[0], {"kind"}) == "Pod");
  CHECK(string_at(*items[1], {"metadata", "name"}) == "b");
  CHECK(to_json(*items[1]) == R"({"metadata":{"name":"b"}})");
  items.clear();  // the last item frees the page
}
