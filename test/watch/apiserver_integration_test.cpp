// watch/ against the real embedded API server (`troupe apiserver`), started as
// a process: kubeconfig loading, reflector, binding, status patch, events,
// leases, deletion — over plain HTTP and over TLS with a bearer token — and a
// re-list with diff forced by cutting the watch while the server's history
// moves past it.
#include <catch2/catch.hpp>

#include <map>
#include <mutex>

#include "child_process.hpp"
#include "tcp_proxy.hpp"
#include "test_data.hpp"
#include "watch/event_writer.hpp"
#include "watch/json_util.hpp"
#include "watch/kube_config.hpp"
#include "watch/lease_client.hpp"
#include "watch/object_writes.hpp"
#include "watch/pod_writes.hpp"
#include "watch/reflector.hpp"
#include "watch/server_url.hpp"

using namespace troupe::watch;
using troupe::test::ChildProcess;
using troupe::test::eventually;
using troupe::test::TempDir;
using namespace std::chrono_literals;

namespace {

// `troupe apiserver` on a free port, with its kubeconfig in a temp dir.
struct ApiServer {
  TempDir dir;
  std::string kubeconfig = dir.path() + "/kubeconfig";
  std::unique_ptr<ChildProcess> process;
  std::string url;

  explicit ApiServer(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {TROUPE_BINARY, "apiserver", "--listen", "127.0.0.1:0", "--write-kubeconfig",
                                     kubeconfig};
    argv.insert(argv.end(), extra.begin(), extra.end());
    process = std::make_unique<ChildProcess>(argv);
    const auto line = process->read_line(60s);
    REQUIRE(line);  // the server prints its URL once it is ready
    url = *line;
  }
};

// The consumer side of a reflector: the latest object per key, and a log.
class View {
 public:
  ReflectorCallbacks callbacks() {
    ReflectorCallbacks cb;
    cb.on_event = [this](const Change& change) {
      std::lock_guard<std::mutex> lock(mutex_);
      const std::string key = ObjectStore::key_of(*change.object);
      if (change.type == EventType::deleted) {
        objects_.erase(key);
      } else {
        objects_[key] = change.object;
      }
      log_.push_back(std::string(to_string(change.type)) + (change.final_state_unknown ? "? " : " ") + key);
    };
    cb.on_synced = [this] {
      std::lock_guard<std::mutex> lock(mutex_);
      ++synced_;
    };
    return cb;
  }
  ObjectPtr get(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = objects_.find(key);
    return it == objects_.end() ? nullptr : it->second;
  }
  std::vector<std::string> keys() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [key, _] : objects_) out.push_back(key);
    return out;
  }
  int synced() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return synced_;
  }
  bool logged(const std::string& line) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::find(log_.begin(), log_.end(), line) != log_.end();
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, ObjectPtr> objects_;
  std::vector<std::string> log_;
  int synced_ = 0;
};

std::string pod_json(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default","labels":{"app":"web"}},"spec":{"schedulerName":"troupe","containers":[{"name":"c","image":"busybox"}]}})";
}

std::string create_pod(ApiClient& api, const std::string& name) {
  const ApiResult created = create_object(api, "/api/v1/namespaces/default/pods", pod_json(name));
  INFO(describe(created, "POST", "pods " + name));
  REQUIRE(created.ok);
  return string_at(**parse_document(created.body), {"metadata", "uid"});
}

std::shared_ptr<ApiClient> client_from(const ClusterConfig& config) {
  auto http = HttpClient::create(config);
  INFO((http.ok() ? std::string() : http.message()));
  REQUIRE(http.ok());
  return std::make_shared<ApiClient>(*http, RateLimits{});
}

ReflectorOptions pods_options() {
  ReflectorOptions options;
  options.name = "pods";
  options.path = "/api/v1/pods";
  options.min_watch_timeout = 30s;
  options.backoff = {20ms, 200ms, 60'000ms, 2.0, 0.5};
  return options;
}

bool has_condition(const ObjectPtr& pod, const std::string& type, const std::string& status,
                   const std::string& reason) {
  const rapidjson::Value* conditions = find_path(*pod, {"status", "conditions"});
  if (conditions == nullptr || !conditions->IsArray()) return false;
  for (const auto& c : conditions->GetArray()) {
    if (string_at(c, {"type"}) == type && string_at(c, {"status"}) == status && string_at(c, {"reason"}) == reason)
      return true;
  }
  return false;
}

// The scheduler's round trip: watch pods, bind one, report another
// unschedulable, record events, hold a lease, delete.
void exercise(const std::shared_ptr<ApiClient>& api_ptr) {
  ApiClient& api = *api_ptr;
  REQUIRE(create_object(api, "/api/v1/nodes",
                        R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"node-1"},"status":{"allocatable":{"cpu":"4"}}})")
              .ok);
  View view;
  Reflector pods(api_ptr, pods_options(), view.callbacks());
  pods.start();
  REQUIRE(eventually([&] { return view.synced() == 1; }));

  const std::string uid1 = create_pod(api, "web-1");
  const std::string uid2 = create_pod(api, "web-2");
  REQUIRE(eventually([&] { return view.get("default/web-1") && view.get("default/web-2"); }));

  // Binding with allocation annotations riding on it.
  const ApiResult bound = bind_pod(api, {"default", "web-1", uid1, "node-1", {{"troupe.test/allocated", "gpu-0"}}});
  INFO(describe(bound, "POST", "binding"));
  CHECK(bound.ok);
  CHECK(bound.code == 201);
  REQUIRE(eventually([&] {
    auto pod = view.get("default/web-1");
    return pod && string_at(*pod, {"spec", "nodeName"}) == "node-1";
  }));
  CHECK(string_at(*view.get("default/web-1"), {"metadata", "annotations", "troupe.test/allocated"}) == "gpu-0");
  const ApiResult again = bind_pod(api, {"default", "web-1", uid1, "node-1", {}});
  CHECK(again.code == 409);
  CHECK_FALSE(again.ok);
  CHECK(again.attempts == 1);
  // A uid that is not the pod's is refused.
  CHECK_FALSE(bind_pod(api, {"default", "web-2", "not-the-uid", "node-1", {}}).ok);

  // Unschedulable report, merged by condition type.
  PodCondition condition;
  condition.message = "0/1 nodes are available: 1 Insufficient cpu.";
  const ApiResult patched = patch_pod_status(api, "default", "web-2", condition, std::string("node-1"));
  INFO(describe(patched, "PATCH", "status"));
  CHECK(patched.ok);
  REQUIRE(eventually([&] {
    auto pod = view.get("default/web-2");
    return pod && has_condition(pod, "PodScheduled", "False", "Unschedulable") &&
           string_at(*pod, {"status", "nominatedNodeName"}) == "node-1";
  }));

  // Events, through whichever API the server offers.
  EventWriter events(api_ptr, "troupe", "troupe-test");
  EventSpec spec;
  spec.regarding = {"Pod", "default", "web-2", uid2, "v1", ""};
  spec.type = "Warning";
  spec.reason = "FailedScheduling";
  spec.action = "Scheduling";
  spec.note = condition.message;
  const ApiResult recorded = events.create(spec);
  INFO(describe(recorded, "POST", "event"));
  CHECK(recorded.ok);
  CHECK(events.api() != EventWriter::Api::unknown);
  const ApiResult listed = get_object(api, EventWriter::collection_path(events.api(), "default"));
  CHECK(listed.ok);
  CHECK(listed.body.find("FailedScheduling") != std::string::npos);

  // Leader-election primitives.
  LeaseRecord lease;
  lease.ns = "kube-system";
  lease.name = "troupe-test";
  lease.holder_identity = "host-a_1";
  lease.acquire_time = lease.renew_time = "2026-11-21T23:00:00.000000Z";
  CHECK(get_lease(api, "kube-system", "troupe-test").api.code == 404);
  const LeaseResult created = create_lease(api, lease);
  INFO(describe(created.api, "POST", "lease"));
  REQUIRE(created.lease);
  LeaseRecord renewed = *created.lease;
  renewed.renew_time = "2026-11-21T23:00:02.000000Z";
  const LeaseResult updated = update_lease(api, renewed);
  REQUIRE(updated.lease);
  CHECK(updated.lease->renew_time == renewed.renew_time);
  CHECK(update_lease(api, renewed).api.code == 409);  // stale resourceVersion: someone else won
  CHECK(create_lease(api, lease).api.code == 409);    // AlreadyExists

  // Deletion with a wrong uid precondition fails; with the right one it goes through.
  CHECK(delete_pod(api, "default", "web-2", {"wrong-uid", ""}, 0).code == 409);
  CHECK(delete_pod(api, "default", "web-2", {uid2, ""}, 0).ok);
  REQUIRE(eventually([&] { return view.get("default/web-2") == nullptr; }));
  CHECK(view.logged("DELETED default/web-2"));
  pods.stop();
}

}  // namespace

TEST_CASE("integration: troupe apiserver over plain HTTP", "[integration]") {
  ApiServer server;
  auto config = load_kubeconfig(server.kubeconfig);
  REQUIRE(config.ok());
  CHECK(config->server == server.url);
  exercise(client_from(*config));
}

TEST_CASE("integration: troupe apiserver over TLS with a bearer token", "[integration]") {
  ApiServer server({"--tls", "--token", "s3cret-token"});
  REQUIRE(server.url.rfind("https://", 0) == 0);
  auto config = load_kubeconfig(server.kubeconfig);
  REQUIRE(config.ok());
  CHECK_FALSE(config->ca_pem.empty());
  CHECK(config->token == "s3cret-token");
  CHECK_FALSE(config->insecure_skip_tls_verify);

  ClusterConfig wrong_token = *config;
  wrong_token.token = "guess";
  const ApiResult refused = get_object(*client_from(wrong_token), "/api/v1/pods");
  CHECK(refused.code == 401);
  ClusterConfig untrusted = *config;
  untrusted.ca_pem.clear();  // system roots do not know the server's self-signed CA
  CHECK(get_object(*client_from(untrusted), "/api/v1/pods").code == 0);

  exercise(client_from(*config));
}

TEST_CASE("integration: a watch resumed past the server's history re-lists and diffs", "[integration]") {
  ApiServer server({"--history", "5"});
  auto url = parse_server_url(server.url);
  REQUIRE(url.ok());
  troupe::test::TcpProxy proxy(url->host, std::stoi(url->port));
  ClusterConfig direct_config = *load_kubeconfig(server.kubeconfig);
  auto direct = client_from(direct_config);
  ClusterConfig proxied = direct_config;
  proxied.server = "http://127.0.0.1:" + std::to_string(proxy.port());
  auto through_proxy = client_from(proxied);

  create_pod(*direct, "old-1");
  create_pod(*direct, "old-2");
  View view;
  Reflector pods(through_proxy, pods_options(), view.callbacks());
  pods.start();
  REQUIRE(eventually([&] { return view.synced() == 1 && view.get("default/old-2"); }));

  // Cut the watch; while the reflector cannot reach the server, more than
  // five changes happen, so its resourceVersion falls out of the history.
  proxy.sever();
  REQUIRE(delete_pod(*direct, "default", "old-1").ok);
  for (int i = 0; i < 8; ++i) create_pod(*direct, "new-" + std::to_string(i));
  proxy.resume();

  REQUIRE(eventually([&] { return view.synced() >= 2 && view.get("default/new-7"); }, 30s));
  pods.stop();
  CHECK(view.get("default/old-1") == nullptr);  // a synthetic DELETED from the diff
  CHECK(view.logged("DELETED? default/old-1"));  // its final state unknown
  std::vector<std::string> expected = {"default/new-0", "default/new-1", "default/new-2", "default/new-3",
                                       "default/new-4", "default/new-5", "default/new-6", "default/new-7",
                                       "default/old-2"};
  CHECK(view.keys() == expected);
}

TEST_CASE("integration: an unschedulable report never lands on a pod bound since the attempt", "[integration]") {
  ApiServer server;
  auto api = client_from(*load_kubeconfig(server.kubeconfig));
  REQUIRE(create_object(*api, "/api/v1/nodes",
                        R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"node-1"},"status":{"allocatable":{"cpu":"4"}}})")
              .ok);
  auto read = [&](const std::string& name) { return *parse_document(get_object(*api, "/api/v1/namespaces/default/pods/" + name).body); };
  auto version_of = [&](const std::string& name) { return string_at(*read(name), {"metadata", "resourceVersion"}); };
  auto condition = [](const char* message) {
    PodCondition c;
    c.message = message;
    return c;
  };

  // First report at the version the attempt read: written.
  const std::string uid = create_pod(*api, "web-1");
  const UnschedulablePod attempt{"default", "web-1", uid, version_of("web-1")};
  auto first = report_unschedulable(*api, attempt, condition("0/1 nodes are available: 1 Insufficient cpu."));
  CHECK(first.result.ok);
  CHECK(first.written);
  // A later report at that stale version (the pod changed by the first one):
  // read again, still unbound, so written.
  auto second = report_unschedulable(*api, attempt, condition("0/1 nodes are available: 1 Too many pods."));
  CHECK(second.written);
  const auto written = read("web-1");  // kept: the conditions point into it
  const rapidjson::Value* conditions = find_path(*written, {"status", "conditions"});
  REQUIRE(conditions != nullptr);
  REQUIRE(conditions->IsArray());
  REQUIRE(conditions->Size() == 1);
  CHECK(string_at((*conditions)[0], {"message"}) == "0/1 nodes are available: 1 Too many pods.");
  // The same report again: the pod already carries it, nothing written.
  CHECK_FALSE(report_unschedulable(*api, attempt, condition("0/1 nodes are available: 1 Too many pods.")).written);

  // Bound since the attempt: the stale report is dropped, the pod stays as bound.
  REQUIRE(bind_pod(*api, {"default", "web-1", uid, "node-1", {}}).ok);
  auto late = report_unschedulable(*api, attempt, condition("0/1 nodes are available: 1 Insufficient cpu."));
  CHECK(late.result.ok);
  CHECK_FALSE(late.written);
  CHECK(string_at(*read("web-1"), {"spec", "nodeName"}) == "node-1");
  CHECK(has_condition(read("web-1"), "PodScheduled", "True", ""));  // as the Binding set it

  // Replaced under its name: the new pod is not the one the attempt read.
  REQUIRE(delete_pod(*api, "default", "web-1", {}, 0).ok);
  create_pod(*api, "web-1");
  CHECK_FALSE(report_unschedulable(*api, attempt, condition("x")).written);
  CHECK(find_path(*read("web-1"), {"status", "conditions"}) == nullptr);
  // Gone: nothing to report, and not an error.
  REQUIRE(delete_pod(*api, "default", "web-1", {}, 0).ok);
  auto gone = report_unschedulable(*api, attempt, condition("x"));
  CHECK_FALSE(gone.written);
}
