#include <catch2/catch.hpp>

#include <algorithm>

#include "model/json.hpp"
#include "plugins/coscheduling/gang_summary.hpp"

using namespace troupe;
using namespace troupe::plugins::coscheduling;

namespace {

GangSpec annotated(const std::string& id, int min, GangMode mode, std::chrono::milliseconds wait) {
  GangSpec spec;
  spec.id = id;
  spec.min_member = min;
  spec.total_number = min + 1;
  spec.mode = mode;
  spec.wait_time = wait;
  spec.match_policy = MatchPolicy::waiting_and_running;
  spec.group = {id};
  spec.group_id = id;
  return spec;
}

GangSpec named_by_pod_group(const std::string& id) {
  GangSpec spec = annotated(id, 0, GangMode::strict, std::chrono::milliseconds(0));
  spec.from_pod_group = true;
  return spec;
}

std::shared_ptr<rapidjson::Document> parsed(const std::optional<std::string>& text) {
  REQUIRE(text);
  auto doc = parse_json(*text);
  REQUIRE(doc);
  return *doc;
}

std::vector<std::string> strings(const rapidjson::Value& array) {
  std::vector<std::string> out;
  for (const auto& v : array.GetArray()) out.emplace_back(v.GetString());
  return out;
}

/// A Go set as encoding/json writes it: {"a":{},"b":{}} → {"a","b"}.
std::vector<std::string> set_keys(const rapidjson::Value& set) {
  std::vector<std::string> out;
  for (const auto& m : set.GetObject()) {
    CHECK(m.value.IsObject());
    CHECK(m.value.ObjectEmpty());
    out.emplace_back(m.name.GetString());
  }
  return out;
}

}  // namespace

TEST_CASE("gang summary: Koordinator's GangSummary fields, members by state", "[coscheduling]") {
  GangBook book;
  const GangSpec spec = annotated("team/g", 3, GangMode::non_strict, std::chrono::seconds(30));
  book.add_member("u-bound", spec, true, "team/g-0");
  book.add_member("u-wait", spec, false, "team/g-2");
  book.add_member("u-pending", spec, false, "team/g-1");
  // One bound, so waiting-and-running counts 1 + 1 waiting < 3: it waits.
  REQUIRE_FALSE(book.permit(spec, "u-wait").allowed);

  auto doc = parsed(gang_summary_json(book, "team/g"));
  const auto& s = *doc;
  CHECK(std::string(s["name"].GetString()) == "team/g");
  CHECK(s["waitTime"].GetInt64() == 30'000'000'000);
  CHECK(std::string(s["mode"].GetString()) == "NonStrict");
  CHECK(std::string(s["gangMatchPolicy"].GetString()) == "waiting-and-running");
  CHECK(s["minRequiredNumber"].GetInt() == 3);
  CHECK(s["totalChildrenNum"].GetInt() == 4);
  CHECK(strings(s["gangGroup"]) == std::vector<std::string>{"team/g"});
  CHECK(set_keys(s["children"]) == std::vector<std::string>{"team/g-0", "team/g-1", "team/g-2"});
  CHECK(set_keys(s["pendingChildren"]) == std::vector<std::string>{"team/g-1"});
  CHECK(set_keys(s["waitingForBindChildren"]) == std::vector<std::string>{"team/g-2"});
  CHECK(set_keys(s["boundChildren"]) == std::vector<std::string>{"team/g-0"});
  CHECK(s["onceResourceSatisfied"].GetBool());  // a member is bound
  CHECK(std::string(s["gangFrom"].GetString()) == "GangFromPodAnnotation");
  CHECK(s["hasGangInit"].GetBool());

  CHECK_FALSE(gang_summary_json(book, "team/unknown"));
  book.remove_member("u-pending");
  CHECK(set_keys((*parsed(gang_summary_json(book, "team/g")))["children"]) ==
        std::vector<std::string>{"team/g-0", "team/g-2"});
}

TEST_CASE("gang summary: a PodGroup's gang is initialised once its PodGroup is read", "[coscheduling]") {
  GangBook book;
  book.add_member("u-1", named_by_pod_group("team/pg"), false, "team/pg-0");
  book.add_member("u-2", annotated("team/other", 1, GangMode::strict, std::chrono::seconds(1)), false);

  auto before = parsed(gang_summary_json(book, "team/pg"));
  CHECK(std::string((*before)["gangFrom"].GetString()) == "GangFromPodGroupCrd");
  CHECK_FALSE((*before)["hasGangInit"].GetBool());
  CHECK((*before)["minRequiredNumber"].GetInt() == 0);

  GangSpec rules = annotated("team/pg", 2, GangMode::strict, std::chrono::seconds(60));
  book.set_pod_group("team/pg", rules);
  auto after = parsed(gang_summary_json(book, "team/pg"));
  CHECK((*after)["hasGangInit"].GetBool());
  CHECK((*after)["minRequiredNumber"].GetInt() == 2);
  CHECK(std::string((*after)["mode"].GetString()) == "Strict");

  book.set_pod_group("team/pg", Result<GangSpec>(Error{"PodGroup team/pg: spec.minMember: Invalid value: must be greater than or equal to 0"}));
  CHECK_FALSE((*parsed(gang_summary_json(book, "team/pg")))["hasGangInit"].GetBool());

  // Every gang, keyed by id; a member known by uid alone is shown by uid.
  auto all = parsed(gang_summaries_json(book));
  REQUIRE(all->IsObject());
  CHECK(all->MemberCount() == 2);
  CHECK(set_keys((*all)["team/other"]["children"]) == std::vector<std::string>{"u-2"});
  CHECK(std::string((*all)["team/pg"]["name"].GetString()) == "team/pg");
  CHECK(gang_summaries_json(GangBook()) == "{}");
}
