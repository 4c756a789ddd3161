// OwnSelectors: whether a placed pod may change what a pod's own affinity
// terms, spread constraints or default spreading count.

#include <catch2/catch.hpp>

#include "model/label_selector.hpp"
#include "plugins/framework/own_selectors.hpp"

using namespace troupe;
using namespace troupe::plugins;

namespace {

LabelSelector selector(const char* text) { return *parse_label_selector(text); }

PodAffinityTerm term(std::optional<LabelSelector> s) {
  PodAffinityTerm t;
  t.label_selector = std::move(s);
  t.topology_key = "kubernetes.io/hostname";
  return t;
}

Pod labelled(Labels labels) {
  Pod pod;
  pod.meta.name = "placed";
  pod.meta.namespace_name = "default";
  pod.meta.labels = std::move(labels);
  return pod;
}

}  // namespace

TEST_CASE("OwnSelectors: a placed pod counts through the pod's selectors or its own terms", "[plugins]") {
  Pod spread = labelled({});
  TopologySpreadConstraint c;
  c.topology_key = "zone";
  c.label_selector = selector("app=web");
  c.match_label_keys = {"version"};  // narrows what counts: taken as written, a superset
  spread.spec.topology_spread_constraints.push_back(c);

  Pod required_anti = labelled({});
  required_anti.spec.affinity.emplace().pod_anti_affinity.emplace().required.push_back(term(selector("app=db")));

  Pod preferred = labelled({});
  preferred.spec.affinity.emplace().pod_affinity.emplace().preferred.push_back({10, term(selector("tier=cache"))});

  Pod nil_term = labelled({});  // a nil selector selects no pod
  nil_term.spec.affinity.emplace().pod_affinity.emplace().required.push_back(term(std::nullopt));

  Pod everything = labelled({});  // an empty selector selects every pod
  everything.spec.affinity.emplace().pod_anti_affinity.emplace().required.push_back(term(LabelSelector{}));

  Pod with_terms = labelled({{"app", "other"}});
  with_terms.spec.affinity.emplace().pod_anti_affinity.emplace().required.push_back(term(selector("x=y")));

  struct Case {
    const char* what;
    const Pod* pod;
    std::optional<LabelSelector> by_default;
    Pod placed;
    bool counts;
  };
  const std::vector<Case> cases = {
      {"spread selector matches", &spread, std::nullopt, labelled({{"app", "web"}, {"version", "2"}}), true},
      {"spread selector misses", &spread, std::nullopt, labelled({{"app", "db"}}), false},
      {"required anti-affinity matches", &required_anti, std::nullopt, labelled({{"app", "db"}}), true},
      {"preferred affinity matches", &preferred, std::nullopt, labelled({{"tier", "cache"}}), true},
      {"preferred affinity misses", &preferred, std::nullopt, labelled({{"tier", "web"}}), false},
      {"nil term selector", &nil_term, std::nullopt, labelled({{"app", "web"}}), false},
      {"empty term selector, unlabelled pod", &everything, std::nullopt, labelled({}), true},
      {"default spreading matches", &preferred, selector("app=web"), labelled({{"app", "web"}}), true},
      {"default spreading misses", &preferred, selector("app=web"), labelled({{"app", "db"}}), false},
      {"placed pod with terms always", &preferred, std::nullopt, with_terms, true},
      {"no rules of its own, placed pod without terms", &nil_term, std::nullopt, labelled({}), false},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(OwnSelectors(*c.pod, c.by_default).may_count(c.placed) == c.counts);
  }
}
