// The extender logic around the HTTP calls: which pods an extender is
// interested in, how a filter answer folds into the feasible nodes and their
// statuses, how priorities are weighted and scaled, how the configured TLS
// material is read, and the filter chain against
// extenders that cannot be reached (one of them ignorable). The HTTP side is
// tested in test/watch/extender_client_test.cpp and end to end in
// test/e2e/test_scheduler_extender.py.
#include <catch2/catch.hpp>

#include <fstream>

#include "actors/extenders.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

Pod pod_requesting(const std::string& resource, bool as_limit = false, bool init = false) {
  Pod pod;
  pod.meta.name = "p";
  pod.meta.namespace_name = "default";
  Container c;
  c.name = "c";
  if (!resource.empty()) {
    (as_limit ? c.resources.limits : c.resources.requests)[resource] = Quantity::from_value(1);
  }
  (init ? pod.spec.init_containers : pod.spec.containers).push_back(c);
  return pod;
}

config::Extender managing(std::vector<std::string> names) {
  config::Extender e;
  e.url_prefix = "http://127.0.0.1:1";
  for (auto& n : names) e.managed_resources.push_back({n, false});
  return e;
}

}  // namespace

TEST_CASE("an extender is interested in every pod, or in pods using a managed resource", "[extenders]") {
  struct Case {
    std::vector<std::string> managed;
    Pod pod;
    bool interested;
  };
  const std::vector<Case> cases = {
      {{}, pod_requesting(""), true},
      {{}, pod_requesting("cpu"), true},
      {{"example.com/gpu"}, pod_requesting("cpu"), false},
      {{"example.com/gpu"}, pod_requesting(""), false},
      {{"example.com/gpu"}, pod_requesting("example.com/gpu"), true},
      {{"example.com/gpu"}, pod_requesting("example.com/gpu", /*as_limit=*/true), true},
      {{"example.com/gpu"}, pod_requesting("example.com/gpu", false, /*init=*/true), true},
      {{"a", "example.com/gpu"}, pod_requesting("example.com/gpu"), true},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    CHECK(extender_interested(managing(cases[i].managed), cases[i].pod) == cases[i].interested);
  }
}

TEST_CASE("a filter answer narrows the feasible nodes; unresolvable wins over failed", "[extenders]") {
  ExtenderFilterOutcome outcome;
  outcome.feasible = {"n1", "n2", "n3", "n4"};
  watch::ExtenderFilterResult result;
  result.node_names = {"n1"};
  result.failed = {{"n2", "busy"}, {"n3", "also listed as unresolvable"}};
  result.failed_unresolvable = {{"n3", "no GPU"}};
  apply_extender_filter(outcome, result);
  CHECK(outcome.feasible == std::vector<std::string>{"n1"});
  REQUIRE(outcome.statuses.size() == 2);
  std::map<std::string, plugins::PluginStatus> by_node(outcome.statuses.begin(), outcome.statuses.end());
  CHECK(by_node.at("n2").code == plugins::Code::unschedulable);
  CHECK(by_node.at("n2").message() == "busy");
  CHECK(by_node.at("n3").code == plugins::Code::unschedulable_and_unresolvable);
  CHECK(by_node.at("n3").message() == "no GPU");
  CHECK_FALSE(outcome.error);
}

TEST_CASE("priorities are summed with weights, then scaled to MaxNodeScore", "[extenders]") {
  std::map<std::string, int64_t> combined;
  add_extender_priorities(combined, {{"n1", 10}, {"n2", 3}}, 2);
  add_extender_priorities(combined, {{"n2", 5}, {"n3", 0}}, 1);
  CHECK(combined == std::map<std::string, int64_t>{{"n1", 20}, {"n2", 11}, {"n3", 0}});
  CHECK(scale_extender_score(20) == 200);
  CHECK(scale_extender_score(11) == 110);
  CHECK(scale_extender_score(0) == 0);
}

TEST_CASE("extender endpoints: TLS material from data or files, errors name the field", "[extenders]") {
  config::Extender e;
  e.url_prefix = "https://extender:8443/scheduler";
  e.http_timeout = std::chrono::seconds(2);
  e.tls.ca_data = "LS0tLS1CRUdJTg==";  // "-----BEGIN"
  auto endpoint = extender_endpoint(e, 0);
  REQUIRE(endpoint.ok());
  CHECK(endpoint->ca_pem == "-----BEGIN");
  CHECK(endpoint->timeout == std::chrono::milliseconds(2000));

  struct Bad {
    std::function<void(config::Extender&)> change;
    const char* error;
  };
  const std::vector<Bad> bad = {
      {[](config::Extender& x) { x.tls.ca_data = "!!"; }, "extenders[3].tlsConfig.caData: "},
      {[](config::Extender& x) { x.tls.cert_file = "/nonexistent/cert.pem"; },
       "extenders[3].tlsConfig.certFile: cannot read \"/nonexistent/cert.pem\""},
      {[](config::Extender& x) { x.tls.cert_data = "YQ=="; },
       "extenders[3].tlsConfig: certData/certFile and keyData/keyFile must be given together"},
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    INFO("case " << i);
    config::Extender x;
    x.url_prefix = "https://extender";
    bad[i].change(x);
    auto r = extender_endpoint(x, 3);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.message(), Catch::StartsWith(bad[i].error));
  }
}

TEST_CASE("extender endpoints: enableHTTPS without a CA skips verification, as kube-scheduler", "[extenders]") {
  struct Case {
    bool enable_https;
    bool with_ca;
    bool tls_insecure;
    bool insecure;
  };
  const Case cases[] = {
      {false, false, false, false}, {true, false, false, true}, {true, true, false, false},
      {false, false, true, true},   {true, true, true, true},
  };
  for (const Case& c : cases) {
    INFO("enableHTTPS " << c.enable_https << ", CA " << c.with_ca << ", insecure " << c.tls_insecure);
    config::Extender e;
    e.url_prefix = "https://extender:8443/scheduler";
    e.enable_https = c.enable_https;
    e.tls.insecure = c.tls_insecure;
    if (c.with_ca) e.tls.ca_data = "LS0tLS1CRUdJTg==";
    auto endpoint = extender_endpoint(e, 0);
    REQUIRE(endpoint.ok());
    CHECK(endpoint->insecure == c.insecure);
  }
}

TEST_CASE("Extenders skip an ignorable extender that fails and fail the attempt on another", "[extenders]") {
  // Nothing listens on port 1: every call fails at once (connection refused).
  auto unreachable = [](bool ignorable) {
    config::Extender e;
    e.url_prefix = "http://127.0.0.1:1/x";
    e.filter_verb = "filter";
    e.prioritize_verb = "prioritize";
    e.weight = 1;
    e.http_timeout = std::chrono::seconds(2);
    e.ignorable = ignorable;
    return e;
  };
  Pod pod = pod_requesting("cpu");
  const std::map<std::string, std::string> nodes;

  auto lenient = Extenders::create({unreachable(true)});
  REQUIRE(lenient.ok());
  auto skipped = (*lenient)->filter(pod, {"n1", "n2"}, nodes);
  CHECK_FALSE(skipped.error);
  CHECK(skipped.feasible == std::vector<std::string>{"n1", "n2"});
  CHECK(skipped.statuses.empty());

  auto strict = Extenders::create({unreachable(true), unreachable(false)});
  REQUIRE(strict.ok());
  auto failed = (*strict)->filter(pod, {"n1", "n2"}, nodes);
  CHECK(failed.error);
  CHECK_THAT(failed.error_message, Catch::StartsWith("failed filter with extender at URL http://127.0.0.1:1/x/filter"));
  // Prioritize errors are ignored, whatever `ignorable` says.
  CHECK((*strict)->prioritize(pod, {"n1", "n2"}, nodes).empty());
  // No candidates left: no call at all.
  CHECK_FALSE((*strict)->filter(pod, {}, nodes).error);
}

TEST_CASE("Extenders: binder and interest follow managedResources", "[extenders]") {
  config::Extender gpu = managing({"example.com/gpu"});
  gpu.bind_verb = "bind";
  gpu.filter_verb = "filter";
  gpu.node_cache_capable = true;
  auto extenders = Extenders::create({gpu});
  REQUIRE(extenders.ok());
  CHECK((*extenders)->binder(pod_requesting("example.com/gpu")) != nullptr);
  CHECK((*extenders)->binder(pod_requesting("cpu")) == nullptr);
  CHECK_FALSE((*extenders)->filters(pod_requesting("cpu")));
  CHECK_FALSE((*extenders)->needs_node_objects(pod_requesting("example.com/gpu")));
  config::Extender broken;
  broken.url_prefix = "http://[::1";
  auto bad = Extenders::create({gpu, broken});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.message(), Catch::StartsWith("extenders[1].urlPrefix: "));
}
