#include "sim/fake_koordlet.hpp"

#include <map>
#include <memory>
#include <vector>

#include <spdlog/spdlog.h>

#include "model/json.hpp"
#include "sim/simulated_usage.hpp"

namespace troupe::sim {

namespace {

constexpr const char* kMetricsPath = "/apis/slo.koordinator.sh/v1alpha1/nodemetrics/";

template <class T>
std::vector<T> decode_all(const ObjectStore& store, const char* plural, Result<T> (*decode)(JsonPtr)) {
  std::vector<T> out;
  for (const ObjectPtr& object : store.list(*store.registry().find("", "v1", plural), {}).items) {
    auto doc = parse_json(object->json);
    if (!doc) continue;
    auto decoded = decode(*doc);
    // The handlers validated what they stored; an object the model cannot
    // read is left out of this round rather than stopping it.
    if (decoded) out.push_back(std::move(*decoded));
  }
  return out;
}

ApiResponse call(ApiHandler& handler, const std::string& method, const std::string& path, std::string body = "") {
  ApiRequest request;
  request.method = method;
  request.path = path;
  request.content_type = "application/json";
  request.body = std::move(body);
  return handler.handle(request);
}

}  // namespace

FakeKoordlet::FakeKoordlet(ApiHandler& handler, FakeKoordletOptions options)
    : handler_(handler), options_(options) {}

FakeKoordlet::~FakeKoordlet() { stop(); }

void FakeKoordlet::start() {
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { loop(); });
}

void FakeKoordlet::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void FakeKoordlet::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    KoordletRound round = publish_once();
    for (const std::string& error : round.errors) spdlog::warn("fake koordlet: {}", error);
    lock.lock();
    wake_.wait_for(lock, options_.interval, [this] { return stopping_; });
  }
}

KoordletRound FakeKoordlet::publish_once() {
  ObjectStore& store = handler_.store();
  std::vector<Node> nodes = decode_all<Node>(store, "nodes", &decode_node);
  std::vector<Pod> pods = decode_all<Pod>(store, "pods", &decode_pod);
  std::map<std::string, std::vector<const Pod*>> by_node;
  for (const Pod& pod : pods)
    if (!pod.spec.node_name.empty()) by_node[pod.spec.node_name].push_back(&pod);

  KoordletRound round;
  std::set<std::string> warnings;
  std::set<std::string> live;
  const ResourceInfo& node_resource = *store.registry().find("", "v1", "nodes");
  const Timestamp now = timestamp_now();
  for (const Node& node : nodes) {
    const std::string& name = node.meta.name;
    // A node deleted since the list gets no metric (and loses its old one below).
    if (!store.get(node_resource, "", name)) continue;
    live.insert(name);
    SimulatedMetric simulated = simulate_node_metric(node, by_node[name], options_.default_usage_ratio, now);
    warnings.insert(simulated.warnings.begin(), simulated.warnings.end());
    std::string error;
    if (write_metric(name, encode(simulated.metric), error)) {
      published_.insert(name);
      ++round.published;
    } else {
      round.errors.push_back("NodeMetric " + name + ": " + error);
    }
  }
  for (auto it = published_.begin(); it != published_.end();) {
    if (live.count(*it)) {
      ++it;
      continue;
    }
    ApiResponse response = call(handler_, "DELETE", kMetricsPath + *it);
    if (response.status == 200) ++round.removed;
    it = published_.erase(it);
  }
  log_new_warnings(std::move(warnings));
  return round;
}

bool FakeKoordlet::write_metric(const std::string& node, const std::string& json, std::string& error) {
  // Replace the status of the metric (a user's or ours); create it when missing.
  ApiResponse updated = call(handler_, "PUT", kMetricsPath + node + "/status", json);
  if (updated.status == 200) return true;
  if (updated.status == 404) {
    rapidjson::Document doc;
    doc.Parse(json.data(), json.size());
    auto created = handler_.create_loaded_object(doc);
    if (created.ok()) return true;
    if (created.error().reason != "AlreadyExists") {
      error = created.error().message;
      return false;
    }
    // Created by someone else meanwhile: replace its status after all.
    updated = call(handler_, "PUT", kMetricsPath + node + "/status", json);
    if (updated.status == 200) return true;
  }
  error = "HTTP " + std::to_string(updated.status) + ": " + updated.body;
  return false;
}

void FakeKoordlet::log_new_warnings(std::set<std::string> warnings) {
  for (const std::string& warning : warnings)
    if (!last_warnings_.count(warning)) spdlog::warn("fake koordlet: {}", warning);
  last_warnings_ = std::move(warnings);
}

}  // namespace troupe::sim
