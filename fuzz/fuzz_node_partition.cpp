// Fuzz target: what the API server sends, fed to one node partition with
// every plugin of the default profile. The input is a list of JSON objects,
// one per line, each decoded by its "kind" as the informers decode them:
// Nodes, Devices, NodeResourceTopologies, Reservations and NodeMetrics are
// applied to the partition; a Pod with spec.nodeName is accounted there, and
// one without is scheduled (PreEnqueue, PreFilter, a scored round, Reserve
// on the best node, Unreserve, Reserve again). Malformed objects must be
// refused with a message (a pod's unreadable annotation: by PreFilter);
// whatever gets past must be handled without a crash, a sanitizer report or
// an internal plugin error, and Unreserve must undo Reserve.
//
//   fuzz/fuzz_node_partition -dict=../main/fuzz/koordinator.dict corpus ../main/fuzz/corpus/node_partition

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "actors/node_partition.hpp"
#include "model/json.hpp"
#include "plugins/registry.hpp"

using namespace troupe;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_node_partition: %s: %s\n", what, detail.c_str());
  std::abort();
}

const plugins::Framework& default_framework() {
  static const plugins::Framework framework = [] {
    auto config = plugins::parse_scheduler_configuration(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
    if (!config.ok()) fail("default configuration", config.error().message);
    auto frameworks = plugins::make_frameworks(*config);
    if (!frameworks.ok()) fail("default frameworks", frameworks.error().message);
    return std::move(frameworks->front());
  }();
  return framework;
}

/// A decoder's refusal must say why.
template <class T>
bool decoded(const Result<T>& result) {
  if (!result.ok() && result.error().message.empty()) fail("decode", "an error without a message");
  return result.ok();
}

std::string kind_of(const rapidjson::Document& doc) {
  if (!doc.IsObject()) return {};
  auto it = doc.FindMember("kind");
  return it != doc.MemberEnd() && it->value.IsString() ? it->value.GetString() : std::string();
}

void check_status(const plugins::PluginStatus& status, const char* stage) {
  if (status.code == plugins::Code::error) fail(stage, status.message());
}

/// The partition and the pods it accounts (a pod the cycle has placed or seen
/// bound is not scheduled again: the queue no longer holds it).
struct Cluster {
  actors::NodePartition partition;
  std::set<std::string, std::less<>> pods;
};

/// Schedules a pending pod as the cycle does, minus the actors.
void schedule(actors::NodePartition& partition, const std::shared_ptr<const plugins::PodInfo>& pod) {
  const plugins::Framework& framework = default_framework();
  if (!framework.run_pre_enqueue(*pod).ok()) return;
  auto state = framework.new_cycle_state();
  // A pod annotation troupe cannot read fails PreFilter with an error that
  // names it (the attempt fails, as in Koordinator); after PreFilter, an
  // error is a bug.
  auto pre_filter = framework.run_pre_filter(*state, *pod);
  if (pre_filter.code == plugins::Code::error && pre_filter.message().empty())
    fail("PreFilter", "an error without a message");
  if (!pre_filter.ok()) return;
  check_status(framework.run_pre_score(*state, *pod), "PreScore");
  actors::FilterOutcome round = partition.run_round(framework, *state, *pod, actors::RoundOptions{});
  if (round.error) fail("round", round.error_message);
  if (round.feasible.empty()) return;
  if (round.feasible.size() > 1) check_status(framework.finalize_scores(*state, *pod, round.feasible), "Score");
  const plugins::NodeScore* best = &round.feasible.front();
  for (const auto& score : round.feasible)
    if (score.total > best->total) best = &score;
  const size_t pods_before = partition.pod_count();
  auto reserved = partition.reserve(framework, *state, pod, best->node_name);
  check_status(reserved, "Reserve");
  if (!reserved.ok()) return;
  partition.unreserve(framework, *state, *pod, best->node_name);
  if (partition.pod_count() != pods_before) fail("Unreserve", "the pod is still accounted");
  check_status(partition.reserve(framework, *state, pod, best->node_name), "Reserve after Unreserve");
}

// Hands one decoded watched object to the partition; an undecodable one is dropped, as the informers drop it.
template <class Object, class Decoder>
void apply_decoded(actors::NodePartition& partition, Decoder decode, const JsonPtr& doc) {
  auto object = decode(doc);
  if (decoded(object)) partition.apply_object(std::make_shared<const Object>(std::move(*object)));
}

void apply(Cluster& cluster, std::string_view line) {
  actors::NodePartition& partition = cluster.partition;
  auto parsed = parse_json(line);
  if (!decoded(parsed)) return;
  const std::string kind = kind_of(**parsed);
  const JsonPtr doc = std::move(*parsed);
  if (kind == "Node") {
    auto node = decode_node(doc);
    if (decoded(node)) partition.upsert_node(std::make_shared<const Node>(std::move(*node)));
  } else if (kind == "Device") {
    apply_decoded<Device>(partition, decode_device, doc);
  } else if (kind == "NodeResourceTopology") {
    apply_decoded<NodeResourceTopology>(partition, decode_node_resource_topology, doc);
  } else if (kind == "Reservation") {
    apply_decoded<Reservation>(partition, decode_reservation, doc);
  } else if (kind == "NodeMetric") {
    apply_decoded<NodeMetric>(partition, decode_node_metric, doc);
  } else if (kind == "Pod") {
    auto pod = decode_pod(doc);
    if (!decoded(pod)) return;
    auto info = plugins::PodInfo::make(std::move(*pod));
    if (!cluster.pods.emplace(plugins::pod_identity(*info)).second) return;
    if (info->spec().node_name.empty())
      schedule(partition, info);
    else
      partition.account_pod(info);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Cluster cluster;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  while (!input.empty()) {
    const size_t end = input.find('\n');
    apply(cluster, input.substr(0, end));
    if (end == std::string_view::npos) break;
    input.remove_prefix(end + 1);
  }
  // The debug views walk every node's state.
  (void)cluster.partition.device_summaries("");
  (void)cluster.partition.gpushare_inspection("");
  return 0;
}
