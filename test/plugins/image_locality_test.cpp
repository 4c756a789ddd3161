#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/node.hpp"
#include "model/pod.hpp"
#include "plugins/image_locality/image_locality.hpp"
#include "plugins/image_locality/image_score.hpp"
#include "plugins/image_locality/image_spread.hpp"

using namespace troupe;
using namespace troupe::plugins;
using namespace troupe::plugins::image_locality;

namespace {

constexpr int64_t kMB = 1024 * 1024;

std::shared_ptr<const Node> image_node(const std::string& name, const std::string& images) {
  const std::string json = R"({"metadata": {"name": ")" + name + R"("}, "status": {"images": )" + images + "}}";
  auto node = decode_node_json(json);
  if (!node) FAIL(node.message());
  return std::make_shared<const Node>(std::move(node).value());
}

std::shared_ptr<const PodInfo> image_pod(const std::vector<std::string>& images,
                                         const std::vector<std::string>& init_images = {}) {
  Pod pod;
  pod.meta.name = "p";
  pod.meta.namespace_name = "default";
  for (size_t i = 0; i < init_images.size(); ++i)
    pod.spec.init_containers.push_back(Container{"init-" + std::to_string(i), init_images[i], {}, {}, {}});
  for (size_t i = 0; i < images.size(); ++i)
    pod.spec.containers.push_back(Container{"c-" + std::to_string(i), images[i], {}, {}, {}});
  return PodInfo::make(std::move(pod));
}

std::string mb_image(const std::string& names, int64_t mb) {
  return R"({"names": [)" + names + R"(], "sizeBytes": )" + std::to_string(mb * kMB) + "}";
}

// kube-scheduler's image_locality_test nodes.
const std::string kNode403002000 = "[" + mb_image(R"("gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1")", 40) + ", " +
                                   mb_image(R"("gcr.io/300:latest", "gcr.io/300:v1")", 300) + ", " +
                                   mb_image(R"("gcr.io/2000:latest")", 2000) + "]";
const std::string kNode25010 =
    "[" + mb_image(R"("gcr.io/250:latest")", 250) + ", " + mb_image(R"("gcr.io/10:latest", "gcr.io/10:v1")", 10) + "]";

/// Scores of `pod` on `nodes` through PreScore and Score, as the cycle and
/// the partitions run them; -1 for every node when PreScore skips.
std::vector<int64_t> scores(const std::vector<std::shared_ptr<const Node>>& nodes, const PodInfo& pod) {
  auto spread = std::make_shared<ImageSpread>();
  for (const auto& node : nodes) spread->upsert_node(node);
  ImageLocality plugin;
  plugin.set_state_slot(0);
  CycleState state;
  state.share_input(std::shared_ptr<const ImageSpread>(spread), spread->generation() + 1, false);
  std::vector<int64_t> out;
  if (plugin.pre_score(state, pod).is_skip()) return std::vector<int64_t>(nodes.size(), -1);
  for (const auto& node : nodes) {
    auto result = plugin.score(state, pod, NodeInfo(node));
    REQUIRE(result.status.ok());
    out.push_back(result.score);
  }
  return out;
}

}  // namespace

TEST_CASE("normalized_image_name adds the default tag where the name has none", "[image_locality]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"nginx", "nginx:latest"},
      {"nginx:1.25", "nginx:1.25"},
      {"docker.io/library/nginx", "docker.io/library/nginx:latest"},
      {"registry:5000/team/app", "registry:5000/team/app:latest"},  // a port is not a tag
      {"registry:5000/team/app:v2", "registry:5000/team/app:v2"},
      {"app@sha256:0a1b", "app@sha256:0a1b"},  // a digest's colon follows the last slash
      {"gcr.io/40", "gcr.io/40:latest"},
      {"", ":latest"},
  };
  for (const auto& [image, expected] : cases) {
    INFO(image);
    CHECK(normalized_image_name(image) == expected);
  }
}

TEST_CASE("image_priority scales the sum between 23 MB and 1000 MB per container", "[image_locality]") {
  struct Case {
    int64_t sum;
    int64_t containers;
    int64_t expected;
  };
  const std::vector<Case> cases = {
      {0, 1, 0},
      {23 * kMB, 1, 0},
      {1000 * kMB, 1, 100},
      {5000 * kMB, 1, 100},                        // clamped
      {(23 + 977 / 2) * kMB, 1, 49},               // 488 of 977 MB
      {1000 * kMB, 2, 49},                         // the ceiling doubles with two containers
      {170 * kMB, 2, 7},                           // (170 - 23) / (2000 - 23)
      {2023 * kMB, 0, 100},                        // no containers counts as one (no division by zero)
      {-5, 1, 0},
  };
  for (const auto& c : cases) {
    INFO(c.sum << " bytes, " << c.containers << " containers");
    CHECK(image_priority(c.sum, c.containers) == c.expected);
  }
}

TEST_CASE("scaled_image_score weighs the size by the share of nodes holding the image", "[image_locality]") {
  CHECK(scaled_image_score(300 * kMB, 1, 2) == 150 * kMB);
  CHECK(scaled_image_score(2000 * kMB, 1, 3) == 699050666);  // truncated, as upstream's int64(float64)
  CHECK(scaled_image_score(40 * kMB, 4, 4) == 40 * kMB);
  CHECK(scaled_image_score(40 * kMB, 0, 4) == 0);
  CHECK(scaled_image_score(40 * kMB, 1, 0) == 0);
}

TEST_CASE("ImageLocality scores as kube-scheduler's table", "[image_locality]") {
  auto machine1 = image_node("machine1", kNode403002000);
  auto machine2 = image_node("machine2", kNode25010);
  auto machine3 = image_node("machine3", "[]");
  struct Case {
    const char* name;
    std::vector<std::string> images;
    std::vector<std::shared_ptr<const Node>> nodes;
    std::vector<int64_t> expected;
  };
  const std::vector<Case> cases = {
      // 40 MB/2 stays under 23 MB; 250 MB/2 = 125 MB of 2 × 1000 MB.
      {"two images spread on two nodes, prefer the larger image one", {"gcr.io/40", "gcr.io/250"},
       {machine1, machine2}, {0, 5}},
      // (40 + 300) MB / 2 = 170 MB.
      {"two images on one node, prefer this node", {"gcr.io/40", "gcr.io/300"}, {machine1, machine2}, {7, 0}},
      // 2000 MB / 2 = 1000 MB; 10 MB / 2 stays under 23 MB.
      {"a large image on half the nodes", {"gcr.io/10", "gcr.io/2000"}, {machine1, machine2}, {49, 0}},
      // 2000 MB / 3: a node without images lowers every share.
      {"a node without images counts in the spread", {"gcr.io/10", "gcr.io/2000"},
       {machine1, machine2, machine3}, {32, 0, 0}},
      // Tagged names match exactly: v1 is on machine1 only (300 MB / 2 of 1000 MB).
      {"a tagged image", {"gcr.io/300:v1"}, {machine1, machine2}, {12, 0}},
      {"an image no node holds: PreScore skips", {"gcr.io/9999"}, {machine1, machine2}, {-1, -1}},
      // 2 × 1000 MB of a 2 × 1000 MB ceiling.
      {"a repeated image counts per container", {"gcr.io/2000", "gcr.io/2000"}, {machine1, machine2}, {100, 0}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(scores(c.nodes, *image_pod(c.images)) == c.expected);
  }
}

TEST_CASE("ImageLocality counts init containers' images and containers", "[image_locality]") {
  auto machine1 = image_node("machine1", kNode403002000);
  auto machine2 = image_node("machine2", kNode25010);
  // (300 / 2) MB from the init container; the ceiling is 2 × 1000 MB: (150 - 23) / 1977.
  CHECK(scores({machine1, machine2}, *image_pod({"busybox"}, {"gcr.io/300"})) == std::vector<int64_t>{6, 0});
}

TEST_CASE("ImageLocality skips when no input is shared or no node lists images", "[image_locality]") {
  ImageLocality plugin;
  CycleState state;
  CHECK(plugin.pre_score(state, *image_pod({"gcr.io/40"})).is_skip());
  CHECK(scores({image_node("a", "[]"), image_node("b", "[]")}, *image_pod({"gcr.io/40"})) ==
        std::vector<int64_t>{-1, -1});
}

TEST_CASE("ImageSpread follows nodes' images as they come, change and go", "[image_locality]") {
  ImageSpread spread;
  CHECK_FALSE(spread.any_images());
  spread.upsert_node(image_node("a", "[" + mb_image(R"("x:1", "x:latest")", 1) + "]"));
  spread.upsert_node(image_node("b", "[" + mb_image(R"("x:1")", 1) + "]"));
  spread.upsert_node(image_node("c", "[]"));
  CHECK(spread.total_nodes() == 3);
  CHECK(spread.nodes_with("x:1") == 2);
  CHECK(spread.nodes_with("x:latest") == 1);
  CHECK(spread.nodes_with("y:1") == 0);
  const uint64_t before = spread.generation();
  spread.upsert_node(image_node("b", "[" + mb_image(R"("x:1")", 7) + "]"));  // a size, not a name, changed
  CHECK(spread.generation() == before);
  spread.upsert_node(image_node("b", "[" + mb_image(R"("y:1")", 1) + "]"));
  CHECK(spread.generation() > before);
  CHECK(spread.nodes_with("x:1") == 1);
  CHECK(spread.nodes_with("y:1") == 1);
  spread.remove_node("a");
  spread.remove_node("a");  // twice: nothing more
  CHECK(spread.total_nodes() == 2);
  CHECK(spread.nodes_with("x:1") == 0);
  CHECK(spread.nodes_with("x:latest") == 0);
  spread.remove_node("b");
  CHECK_FALSE(spread.any_images());
}
