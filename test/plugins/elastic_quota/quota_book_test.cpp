#include <catch2/catch.hpp>

#include "plugins/elastic_quota/quota_book.hpp"

using namespace troupe::plugins::elastic_quota;

namespace {

QuotaSpec quota(const char* name, int64_t min_cpu, int64_t max_cpu, const char* parent = kRootQuotaName) {
  QuotaSpec spec;
  spec.name = name;
  spec.namespace_name = "quotas";
  spec.parent = parent;
  spec.min = {{"cpu", min_cpu}};
  spec.max = {{"cpu", max_cpu}};
  spec.shared_weight = spec.max;
  return spec;
}

QuotaPod pod(const char* quota_label, int64_t cpu, bool placed = false, const char* ns = "work") {
  QuotaPod p;
  p.namespace_name = ns;
  p.quota_label = quota_label;
  p.request = {{"cpu", cpu}};
  p.placed = placed;
  return p;
}

QuotaBook book_with_node(int64_t cpu) {
  QuotaBook book;
  book.set_builtin_max({{"cpu", 1'000'000'000}}, {{"cpu", 2'000'000'000}});
  book.upsert_node("n1", {{"cpu", cpu}, {"memory", 64}});
  return book;
}

ResourceAmounts runtime_of(QuotaBook& book, const std::string& name) {
  auto usage = book.usage(name);
  REQUIRE(usage);
  return usage->runtime;
}

}  // namespace

TEST_CASE("a pod is charged to the quota its label names, its namespace's, or the default", "[elastic_quota]") {
  QuotaBook book;
  auto team = quota("team-a", 0, 10);
  book.upsert_quota(team);
  auto by_namespace = quota("research", 0, 10);
  by_namespace.namespace_name = "research";
  book.upsert_quota(by_namespace);
  auto listing = quota("ml", 0, 10);
  listing.namespaces = {"training", "serving"};
  book.upsert_quota(listing);
  struct Case {
    const char* ns;
    const char* label;
    const char* quota;
  };
  const std::vector<Case> cases = {
      {"work", "team-a", "team-a"},
      {"research", "team-a", "team-a"},          // the label wins over the namespace
      {"work", "no-such-quota", kDefaultQuotaName},
      {"work", kRootQuotaName, kDefaultQuotaName},  // the root takes no pods
      {"work", kSystemQuotaName, kSystemQuotaName},
      {"research", "", "research"},
      {"serving", "", "ml"},
      {"work", "", kDefaultQuotaName},
  };
  for (const auto& c : cases) CHECK(book.quota_of(c.ns, c.label) == c.quota);

  // A quota named like a namespace but living elsewhere does not take its pods.
  auto elsewhere = quota("batch", 0, 10);
  elsewhere.namespace_name = "quotas";
  book.upsert_quota(elsewhere);
  CHECK(book.quota_of("batch", "") == kDefaultQuotaName);
}

TEST_CASE("pods move when the quota they name comes or goes", "[elastic_quota]") {
  QuotaBook book = book_with_node(10'000);
  book.upsert_pod("p1", pod("team-a", 1'000, true));
  CHECK(book.usage(kDefaultQuotaName)->used == ResourceAmounts{{"cpu", 1'000}});
  book.upsert_quota(quota("team-a", 0, 10'000));
  CHECK(book.usage("team-a")->used == ResourceAmounts{{"cpu", 1'000}});
  CHECK(book.usage(kDefaultQuotaName)->used.empty());
  book.remove_quota("team-a");
  CHECK(book.usage(kDefaultQuotaName)->used == ResourceAmounts{{"cpu", 1'000}});
  CHECK_FALSE(book.usage("team-a"));
}

TEST_CASE("request counts every pod, used the placed and reserved ones; both follow changes", "[elastic_quota]") {
  QuotaBook book = book_with_node(10'000);
  book.upsert_quota(quota("team-a", 0, 10'000));
  book.upsert_pod("p1", pod("team-a", 1'000));
  book.upsert_pod("p2", pod("team-a", 2'000, true));
  auto usage = book.usage("team-a");
  CHECK(usage->request == ResourceAmounts{{"cpu", 3'000}});
  CHECK(usage->used == ResourceAmounts{{"cpu", 2'000}});
  book.set_reserved("p1", true);
  CHECK(book.usage("team-a")->used == ResourceAmounts{{"cpu", 3'000}});
  book.set_reserved("p1", false);
  book.set_reserved("unknown", true);  // ignored
  CHECK(book.usage("team-a")->used == ResourceAmounts{{"cpu", 2'000}});
  book.upsert_pod("p2", pod("team-a", 500, true));  // a new copy replaces the old
  CHECK(book.usage("team-a")->used == ResourceAmounts{{"cpu", 500}});
  book.remove_pod("p2");
  book.remove_pod("p2");
  CHECK(book.usage("team-a")->used == ResourceAmounts{{"cpu", 0}});
  CHECK(book.usage("team-a")->request == ResourceAmounts{{"cpu", 1'000}});
}

TEST_CASE("a pod's use lasts from Reserve to its deletion, whatever order the news comes in", "[elastic_quota]") {
  struct Step {
    const char* what;
    int64_t used;  // team-a's cpu after it
  };
  // p: 1 core. Each case is a sequence of events; "pending", "bound" from the
  // informer, "reserve", "unreserve" from the cycle, "gone" its deletion.
  struct Case {
    const char* name;
    std::vector<Step> steps;
  };
  const std::vector<Case> cases = {
      {"bound after reserve", {{"pending", 0}, {"reserve", 1'000}, {"bound", 1'000}, {"gone", 0}}},
      {"unreserved before bound", {{"pending", 0}, {"reserve", 1'000}, {"unreserve", 0}, {"reserve", 1'000}}},
      {"a late unreserve after bound takes nothing back",
       {{"pending", 0}, {"reserve", 1'000}, {"bound", 1'000}, {"unreserve", 1'000}, {"gone", 0}}},
      {"a pending update while reserved keeps the use", {{"pending", 0}, {"reserve", 1'000}, {"pending", 1'000}}},
      {"deleted while reserved, then unreserved", {{"pending", 0}, {"reserve", 1'000}, {"gone", 0}, {"unreserve", 0}}},
      {"bound by someone else", {{"bound", 1'000}, {"bound", 1'000}, {"gone", 0}}},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      QuotaBook book = book_with_node(10'000);
      book.upsert_quota(quota("team-a", 0, 10'000));
      for (const auto& step : c.steps) {
        const std::string what = step.what;
        if (what == "pending") book.upsert_pod("p", pod("team-a", 1'000));
        if (what == "bound") book.upsert_pod("p", pod("team-a", 1'000, true));
        if (what == "reserve") book.set_reserved("p", true);
        if (what == "unreserve") book.set_reserved("p", false);
        if (what == "gone") book.remove_pod("p");
        INFO("after " << what);
        const ResourceAmounts used = book.usage("team-a")->used;
        CHECK((used.count("cpu") > 0 ? used.at("cpu") : 0) == step.used);
      }
    }
  }
}

TEST_CASE("siblings share the cluster by min, request and weight", "[elastic_quota]") {
  struct Case {
    const char* name;
    int64_t cluster_cpu;
    int64_t a_request, b_request;
    int64_t a_runtime, b_runtime;
  };
  // team-a and team-b: min 4 cpus, max 10 cpus each, equal weights.
  const std::vector<Case> cases = {
      {"both within min", 10'000, 2'000, 3'000, 2'000, 3'000},
      {"a borrows what b does not ask for", 10'000, 8'000, 2'000, 8'000, 2'000},
      {"both over min share the rest evenly", 10'000, 9'000, 9'000, 5'000, 5'000},
      {"max caps the request", 30'000, 50'000, 1'000, 10'000, 1'000},
      {"mins beyond the cluster are scaled down", 4'000, 9'000, 9'000, 2'000, 2'000},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      QuotaBook book = book_with_node(c.cluster_cpu);
      book.upsert_quota(quota("team-a", 4'000, 10'000));
      book.upsert_quota(quota("team-b", 4'000, 10'000));
      book.upsert_pod("a", pod("team-a", c.a_request));
      book.upsert_pod("b", pod("team-b", c.b_request));
      CHECK(runtime_of(book, "team-a") == ResourceAmounts{{"cpu", c.a_runtime}});
      CHECK(runtime_of(book, "team-b") == ResourceAmounts{{"cpu", c.b_runtime}});
    }
  }
}

TEST_CASE("without min scaling, mins beyond the cluster are kept", "[elastic_quota]") {
  QuotaBook book = book_with_node(4'000);
  book.set_min_quota_scale(false);
  book.upsert_quota(quota("team-a", 4'000, 10'000));
  book.upsert_quota(quota("team-b", 4'000, 10'000));
  book.upsert_pod("a", pod("team-a", 9'000));
  book.upsert_pod("b", pod("team-b", 9'000));
  CHECK(runtime_of(book, "team-a") == ResourceAmounts{{"cpu", 4'000}});
}

TEST_CASE("mins are scaled only in the resources the cluster has", "[elastic_quota]") {
  QuotaBook book = book_with_node(10'000);  // no GPUs
  auto gpu_team = [](const char* name) {
    auto spec = quota(name, 0, 10'000);
    spec.min["nvidia.com/gpu"] = 4;
    spec.max["nvidia.com/gpu"] = 8;
    spec.shared_weight = spec.max;
    return spec;
  };
  book.upsert_quota(gpu_team("a"));
  book.upsert_quota(gpu_team("b"));
  QuotaPod p = pod("a", 1'000);
  p.request["nvidia.com/gpu"] = 2;
  book.upsert_pod("p", p);
  // Koordinator keeps a's GPU min (4, of which it asks 2, lending the rest) rather than scaling it to nothing.
  CHECK(runtime_of(book, "a") == ResourceAmounts{{"cpu", 1'000}, {"nvidia.com/gpu", 2}});
}

TEST_CASE("the runtime names only the quota's max resources", "[elastic_quota]") {
  QuotaBook book = book_with_node(10'000);
  auto gpu = quota("gpu-team", 0, 10'000);
  gpu.max["nvidia.com/gpu"] = 8;
  gpu.shared_weight = gpu.max;
  book.upsert_quota(gpu);
  book.upsert_quota(quota("cpu-team", 0, 10'000));
  QuotaPod p = pod("cpu-team", 1'000);
  p.request["memory"] = 32;
  book.upsert_pod("p", p);
  CHECK(runtime_of(book, "cpu-team") == ResourceAmounts{{"cpu", 1'000}});
  // No node has GPUs: nothing to share.
  CHECK(runtime_of(book, "gpu-team") == ResourceAmounts{{"cpu", 0}, {"nvidia.com/gpu", 0}});
}

TEST_CASE("what the system and default quotas use is not shared; their runtime is their max", "[elastic_quota]") {
  QuotaBook book = book_with_node(10'000);
  book.upsert_quota(quota("team-a", 0, 10'000));
  book.upsert_pod("a", pod("team-a", 10'000));
  book.upsert_pod("d", pod("", 3'000, true));  // default quota
  book.upsert_pod("s", pod(kSystemQuotaName, 1'000, true));
  CHECK(runtime_of(book, "team-a") == ResourceAmounts{{"cpu", 6'000}});
  CHECK(runtime_of(book, kDefaultQuotaName) == ResourceAmounts{{"cpu", 2'000'000'000}});
  CHECK(runtime_of(book, kSystemQuotaName) == ResourceAmounts{{"cpu", 1'000'000'000}});
  // A default-quota pod placed later (bound, or reserved) takes from what the tree shares.
  book.upsert_pod("d2", pod("", 1'000));
  CHECK(runtime_of(book, "team-a") == ResourceAmounts{{"cpu", 6'000}});
  book.set_reserved("d2", true);
  CHECK(runtime_of(book, "team-a") == ResourceAmounts{{"cpu", 5'000}});
  book.set_reserved("d2", false);
  CHECK(runtime_of(book, "team-a") == ResourceAmounts{{"cpu", 6'000}});
  book.remove_node("n1");
  CHECK(runtime_of(book, "team-a") == ResourceAmounts{{"cpu", 0}});
  CHECK(book.quota_names() == std::vector<std::string>{kDefaultQuotaName, kSystemQuotaName, "team-a"});
}

TEST_CASE("a parent's runtime is shared by its children; a child sees its parents", "[elastic_quota]") {
  QuotaBook book = book_with_node(8'000);
  auto parent = quota("org", 0, 10'000);
  parent.is_parent = true;
  book.upsert_quota(parent);
  book.upsert_quota(quota("dev", 0, 10'000, "org"));
  book.upsert_quota(quota("ops", 0, 10'000, "org"));
  book.upsert_pod("d", pod("dev", 6'000, true));
  book.upsert_pod("o", pod("ops", 6'000));
  auto dev = book.usage("dev");
  REQUIRE(dev);
  CHECK(dev->runtime == ResourceAmounts{{"cpu", 4'000}});
  REQUIRE(dev->parents.size() == 1);
  CHECK(dev->parents[0].name == "org");
  CHECK(dev->parents[0].runtime == ResourceAmounts{{"cpu", 8'000}});
  CHECK(dev->parents[0].used == ResourceAmounts{{"cpu", 6'000}});
  // The parent's request is its children's, each capped at the child's max.
  CHECK(book.usage("org")->request == ResourceAmounts{{"cpu", 12'000}});
}

TEST_CASE("the root's own ElasticQuota object changes nothing and takes no pods", "[elastic_quota]") {
  QuotaBook book = book_with_node(10'000);
  book.upsert_quota(quota("team-a", 0, 10'000));
  book.upsert_pod("a", pod("team-a", 4'000, true));
  const ResourceAmounts before = runtime_of(book, "team-a");
  QuotaSpec root;  // as Koordinator creates it: is-parent, not lending, no max
  root.name = kRootQuotaName;
  root.parent = "";
  root.is_parent = true;
  root.allow_lent_resource = false;
  book.upsert_quota(root);
  CHECK(runtime_of(book, "team-a") == before);
  CHECK(book.quota_of("work", kRootQuotaName) == kDefaultQuotaName);
  auto usage = book.usage(kRootQuotaName);
  REQUIRE(usage);
  CHECK(usage->runtime == ResourceAmounts{{"cpu", 10'000}, {"memory", 64}});  // what the tree shares
  CHECK(usage->used == ResourceAmounts{{"cpu", 4'000}});
  CHECK(usage->request == ResourceAmounts{{"cpu", 4'000}});
}

TEST_CASE("a quota whose parent is missing or in a loop is outside the tree", "[elastic_quota]") {
  QuotaBook book = book_with_node(8'000);
  book.upsert_quota(quota("orphan", 0, 10'000, "ghost"));
  book.upsert_quota(quota("x", 0, 10'000, "y"));
  book.upsert_quota(quota("y", 0, 10'000, "x"));
  CHECK(book.usage("orphan")->unreachable_parent == "ghost");
  CHECK(book.usage("orphan")->runtime.empty());
  CHECK_FALSE(book.usage("x")->unreachable_parent.empty());
}
