#include "test/plugins/descheduler/helpers.hpp"

#include <functional>

#include "plugins/descheduler/evictor_filter.hpp"
#include "plugins/descheduler/pod_classes.hpp"

namespace troupe::plugins::descheduler {
namespace {

using testing::TestPod;

TEST_CASE("evictor: each rule refuses with its reason", "[descheduler][evictor]") {
  struct Case {
    const char* name;
    std::function<void(TestPod&, EvictorArgs&)> setup;
    const char* refusal;  // "" = evictable
  };
  const std::vector<Case> cases = {
      {"plain ReplicaSet pod", [](TestPod&, EvictorArgs&) {}, ""},
      {"DaemonSet", [](TestPod& p, EvictorArgs&) { p.owner("DaemonSet", "ds"); }, "pod is a DaemonSet pod"},
      {"mirror", [](TestPod& p, EvictorArgs&) { p.annotate(kMirrorPodAnnotation, "x"); }, "pod is a mirror pod"},
      {"static", [](TestPod& p, EvictorArgs&) { p.annotate(kConfigSourceAnnotation, "file"); }, "pod is a static pod"},
      {"source api is not static", [](TestPod& p, EvictorArgs&) { p.annotate(kConfigSourceAnnotation, "api"); }, ""},
      {"terminating", [](TestPod& p, EvictorArgs&) { p.pod.meta.deletion_timestamp = testing::at(1); }, "terminating"},
      {"max eviction cost",
       [](TestPod& p, EvictorArgs&) { p.annotate(kEvictionCostAnnotation, "2147483647"); }, "maximum eviction cost"},
      {"high eviction cost is fine", [](TestPod& p, EvictorArgs&) { p.annotate(kEvictionCostAnnotation, "100"); }, ""},
      {"bare", [](TestPod& p, EvictorArgs&) { p.bare(); }, "pod does not have any ownerRefs"},
      {"bare with evictAllBarePods", [](TestPod& p, EvictorArgs& a) { p.bare(); a.evict_all_bare_pods = true; }, ""},
      {"bare failed with evictFailedBarePods",
       [](TestPod& p, EvictorArgs& a) { p.bare().phase("Failed"); a.evict_failed_bare_pods = true; }, ""},
      {"bare running with evictFailedBarePods",
       [](TestPod& p, EvictorArgs& a) { p.bare(); a.evict_failed_bare_pods = true; }, "not in failed phase"},
      {"bare with gate skipped", [](TestPod& p, EvictorArgs& a) { p.bare(); a.skipped_gates = {"BarePods"}; }, ""},
      {"system critical", [](TestPod& p, EvictorArgs&) { p.priority(kSystemCriticalPriority); }, "system critical"},
      {"system critical allowed",
       [](TestPod& p, EvictorArgs& a) { p.priority(kSystemCriticalPriority); a.evict_system_critical_pods = true; }, ""},
      {"below threshold value",
       [](TestPod& p, EvictorArgs& a) { p.priority(99); a.priority_threshold = PriorityThreshold{100, ""}; }, ""},
      {"at threshold value",
       [](TestPod& p, EvictorArgs& a) { p.priority(100); a.priority_threshold = PriorityThreshold{100, ""}; },
       "higher priority than specified"},
      {"threshold by name",
       [](TestPod& p, EvictorArgs& a) { p.priority(500); a.priority_threshold = PriorityThreshold{std::nullopt, "mid"}; },
       "higher priority than specified"},
      {"threshold by unknown name",
       [](TestPod& p, EvictorArgs& a) { a.priority_threshold = PriorityThreshold{std::nullopt, "nope"}; },
       "priority class \"nope\" of priorityThreshold not found"},
      {"threshold skipped by gate",
       [](TestPod& p, EvictorArgs& a) {
         p.priority(100);
         a.priority_threshold = PriorityThreshold{100, ""};
         a.skipped_gates = {"PriorityThreshold"};
       },
       ""},
      {"local storage", [](TestPod& p, EvictorArgs&) { p.pod.spec.has_local_storage = true; }, "local storage"},
      {"local storage allowed",
       [](TestPod& p, EvictorArgs& a) { p.pod.spec.has_local_storage = true; a.evict_local_storage_pods = true; }, ""},
      {"pvc evictable by default", [](TestPod& p, EvictorArgs&) { p.pod.spec.has_pvc = true; }, ""},
      {"pvc ignored", [](TestPod& p, EvictorArgs& a) { p.pod.spec.has_pvc = true; a.ignore_pvc_pods = true; }, "PVC"},
      {"label selector match",
       [](TestPod& p, EvictorArgs& a) {
         p.label("app", "web");
         a.label_selector = *parse_label_selector("app=web");
       },
       ""},
      {"label selector miss", [](TestPod& p, EvictorArgs& a) { a.label_selector = *parse_label_selector("app=web"); },
       "labelSelector"},
      {"namespace included", [](TestPod&, EvictorArgs& a) { a.namespaces = Namespaces{{"default"}, {}}; }, ""},
      {"namespace not included", [](TestPod&, EvictorArgs& a) { a.namespaces = Namespaces{{"prod"}, {}}; },
       "namespace default is not included"},
      {"namespace excluded", [](TestPod&, EvictorArgs& a) { a.namespaces = Namespaces{{}, {"default"}}; },
       "namespace default is excluded"},
      {"evict annotation beats everything",
       [](TestPod& p, EvictorArgs& a) {
         p.owner("DaemonSet", "ds").annotate(kEvictAnnotation, "");
         a.namespaces = Namespaces{{}, {"default"}};
       },
       ""},
  };
  const std::map<std::string, int32_t> classes = {{"mid", 500}};
  for (const Case& c : cases) {
    INFO(c.name);
    TestPod pod("p");
    EvictorArgs args;
    c.setup(pod, args);
    EvictorContext context;
    context.priority_classes = &classes;
    auto refusal = eviction_refusal(pod.pod, args, context);
    if (std::string(c.refusal).empty()) {
      CHECK_FALSE(refusal);
    } else {
      REQUIRE(refusal);
      CHECK_THAT(*refusal, Catch::Contains(c.refusal));
    }
  }
}

TEST_CASE("evictor: nodeFit needs another node that takes the pod", "[descheduler][evictor]") {
  auto home = testing::make_node("home", {{"cpu", "4"}});
  auto small = testing::make_node("small", {{"cpu", "1"}});
  auto big = testing::make_node("big", {{"cpu", "4"}}, {{"disk", "ssd"}});
  auto cordoned = std::make_shared<Node>(*testing::make_node("cordoned", {{"cpu", "8"}}));
  cordoned->spec.unschedulable = true;
  auto tainted = std::make_shared<Node>(*testing::make_node("tainted", {{"cpu", "8"}}));
  tainted->spec.taints.push_back(Taint{"gpu", "yes", TaintEffect::no_schedule, std::nullopt});
  EvictorArgs args;
  args.node_fit = true;
  struct Case {
    const char* name;
    std::vector<NodeRoom> nodes;
    std::map<std::string, std::string> node_selector;
    bool evictable;
  };
  const std::vector<Case> cases = {
      {"only its own node", {{home.get(), {}}}, {}, false},
      {"another node too small", {{home.get(), {}}, {small.get(), {}}}, {}, false},
      {"another node big enough", {{home.get(), {}}, {big.get(), {}}}, {}, true},
      {"big node already full", {{home.get(), {}}, {big.get(), testing::rl({{"cpu", "3"}})}}, {}, false},
      {"selector matches", {{big.get(), {}}}, {{"disk", "ssd"}}, true},
      {"selector misses", {{big.get(), {}}}, {{"disk", "hdd"}}, false},
      {"unschedulable node", {{cordoned.get(), {}}}, {}, false},
      {"untolerated taint", {{tainted.get(), {}}}, {}, false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    TestPod pod("p");
    pod.node("home").requests({{"cpu", "2"}});
    pod.pod.spec.node_selector = c.node_selector;
    EvictorContext context;
    context.nodes = &c.nodes;
    CHECK(eviction_refusal(pod.pod, args, context).has_value() == !c.evictable);
  }
  TestPod pod("p");
  CHECK(eviction_refusal(pod.pod, args, EvictorContext{}).has_value());  // no nodes known: nothing fits
}

TEST_CASE("pod classes: Koordinator priority class and QoS with defaults", "[descheduler][evictor]") {
  struct Case {
    std::optional<int32_t> priority;
    const char* class_label;
    const char* qos_label;
    KoordPriorityClass expected_class;
    KoordQos expected_qos;
  };
  const Case cases[] = {
      {9500, "", "", KoordPriorityClass::prod, KoordQos::be},
      {7000, "", "", KoordPriorityClass::mid, KoordQos::be},
      {5999, "", "", KoordPriorityClass::batch, KoordQos::be},
      {3000, "", "", KoordPriorityClass::free, KoordQos::be},
      {100, "", "", KoordPriorityClass::batch, KoordQos::be},  // BestEffort pod defaults to batch
      {100, "", "LS", KoordPriorityClass::prod, KoordQos::ls},
      {100, "", "LSE", KoordPriorityClass::prod, KoordQos::lse},
      {100, "", "SYSTEM", KoordPriorityClass::prod, KoordQos::system},
      {100, "", "weird", KoordPriorityClass::none, KoordQos::none},
      {9500, "koord-free", "", KoordPriorityClass::free, KoordQos::be},
      {std::nullopt, "koord-mid", "", KoordPriorityClass::mid, KoordQos::be},
  };
  for (const Case& c : cases) {
    TestPod pod("p");
    if (c.priority) pod.priority(*c.priority);
    if (*c.class_label) pod.label(kPriorityClassLabel, c.class_label);
    if (*c.qos_label) pod.label(kQosClassLabel, c.qos_label);
    INFO((c.priority ? *c.priority : -1) << " " << c.class_label << " " << c.qos_label);
    CHECK(koord_priority_class(pod.pod) == c.expected_class);
    CHECK(koord_qos(pod.pod) == c.expected_qos);
  }
  TestPod guaranteed("g");
  guaranteed.requests({{"cpu", "1"}, {"memory", "1Gi"}});
  guaranteed.pod.spec.containers[0].resources.limits = guaranteed.pod.spec.containers[0].resources.requests;
  CHECK(koord_qos(guaranteed.pod) == KoordQos::lsr);
  TestPod burstable("b");
  burstable.requests({{"cpu", "1"}});
  CHECK(koord_qos(burstable.pod) == KoordQos::ls);
  CHECK(eviction_cost(TestPod("x").annotate(kEvictionCostAnnotation, "12").pod) == 12);
  CHECK(eviction_cost(TestPod("x").annotate(kEvictionCostAnnotation, "12x").pod) == 0);
  CHECK(deletion_cost(TestPod("x").annotate(kDeletionCostAnnotation, "-5").pod) == -5);
}

}  // namespace
}  // namespace troupe::plugins::descheduler
